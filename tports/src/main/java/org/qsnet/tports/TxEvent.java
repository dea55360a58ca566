package org.qsnet.tports;

import org.qsnet.elan.ElanEvent;
import org.qsnet.elan3.Elan3;
import org.qsnet.elan3.Elan3Context;
import org.qsnet.fabric.model.PlatformProfile;

/**
 * The event of a Tports send: a word event in host memory the NIC writes when the send is
 * complete (inline: envelope delivered; TX_SYNC or big: matched / pulled by the receiver).
 */
public final class TxEvent extends ElanEvent
{
    private final Tport port;
    private final Elan3Context ctx;
    private final PlatformProfile profile;
    private final long event;
    private final long word;
    private final long descriptor;
    private final long staging;
    private final long eventVa;
    private final long wordVa;

    TxEvent(final Tport port, final Elan3Context ctx, final PlatformProfile profile)
    {
        this.port = port;
        this.ctx = ctx;
        this.profile = profile;
        this.event = ctx.allocElan(Elan3.E3_EVENT_ALIGN, Elan3.E3_BLOCK_COPY_EVENT_SIZE);
        this.word = ctx.allocMain(8, 8);
        this.descriptor = ctx.allocElan(Elan3.E3_DMA_ALIGN, Elan3.E3_DMA_SIZE);
        this.staging = ctx.allocMain(64, 320);
        ctx.initeventWord(event, word);
        this.eventVa = ctx.sdram2elan(event);
        this.wordVa = ctx.main2elan(word);
    }

    void arm()
    {
        reuse();
        ctx.putInt(word, 0);
        ctx.primeevent(event, 1);
    }

    long eventVa()
    {
        return eventVa;
    }

    long wordVa()
    {
        return wordVa;
    }

    long descriptor()
    {
        return descriptor;
    }

    long staging(final int length)
    {
        return staging;
    }

    @Override
    protected boolean complete()
    {
        return ctx.getInt(word) != 0;
    }

    @Override
    protected void block(final long how)
    {
        ctx.waitFor(this::complete, wordVa, how);
    }

    @Override
    protected void chargePoll()
    {
        ctx.owner().sim().poll(profile.hostPollNs());
    }

    @Override
    protected void release()
    {
        port.recycle(this);
    }

    /**
     * {@code elan_tportTxDone}.
     *
     * @return whether the send has completed.
     */
    public boolean txDone()
    {
        return done();
    }

    /**
     * {@code elan_tportTxWait}: waits for the send to complete (the buffer may then be reused);
     * consumes the event.
     */
    public void txWait()
    {
        waitEvent(Elan3.ELAN_POLL_EVENT);
    }
}
