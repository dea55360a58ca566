package org.qsnet.tports;

import org.qsnet.elan.ElanEvent;
import org.qsnet.elan3.Elan3;
import org.qsnet.elan3.Elan3Context;
import org.qsnet.fabric.machine.PlatformProfile;

/**
 * An event completed by the NIC writing a word in host memory (directly, or by a word-copy
 * event in SDRAM): what Tports send and receive events are made of. Kept on a free list by its
 * port and re-armed for every use.
 */
abstract class WordEvent extends ElanEvent
{
    final Tport port;
    final Elan3Context ctx;
    final PlatformProfile profile;
    private final long event;
    private final long word;
    private final long eventVa;
    private final long wordVa;

    WordEvent(final Tport port, final Elan3Context ctx, final PlatformProfile profile)
    {
        this.port = port;
        this.ctx = ctx;
        this.profile = profile;
        this.event = ctx.allocElan(Elan3.E3_EVENT_ALIGN, Elan3.E3_BLOCK_COPY_EVENT_SIZE);
        this.word = ctx.allocMain(8, 8);
        ctx.initeventWord(event, word);
        this.eventVa = ctx.sdram2elan(event);
        this.wordVa = ctx.main2elan(word);
    }

    /** Clears the word and primes the event for one more use. */
    final void rearm()
    {
        reuse();
        ctx.raw().putInt(word, 0);
        ctx.primeevent(event, 1);
    }

    /**
     * Sets the event's count from the NIC side (a message in {@code count} fragments completes it
     * only when every fragment is in).
     */
    final void recount(final int count)
    {
        ctx.hardware().putInt(eventVa + org.qsnet.fabric.nic.E3.EV_COUNT, count, org.qsnet.fabric.memory.Mmu.WRITE);
    }

    final long eventHandle()
    {
        return event;
    }

    final long eventVa()
    {
        return eventVa;
    }

    final long wordVa()
    {
        return wordVa;
    }

    @Override
    protected final boolean complete()
    {
        return ctx.raw().getInt(word) != 0;
    }

    @Override
    protected final void block(final long how)
    {
        ctx.waitFor(this::complete, wordVa, how, this);
    }

    @Override
    protected final void chargePoll()
    {
        ctx.owner().sim().poll(profile.hostPollNs());
    }
}
