package org.qsnet.fabric.nic;

import org.qsnet.fabric.QsnetException;
import org.qsnet.fabric.engine.Kernel;
import org.qsnet.fabric.engine.Origin;
import org.qsnet.fabric.memory.Mmu;

/**
 * The Elan3's event processing, in microcode: a set decrements an event's count in SDRAM; at zero
 * the event fires its action (a block copy or a word copy into memory, or a chained DMA handed to
 * the command processor) and wakes whoever waits on it; a host's wait re-arms it.
 */
final class EventProcessor
{
    private final Elan3Nic nic;
    private final Elan3Timing profile;
    private final Kernel kernel;
    private final Origin origin;
    private final Resource microcode;
    private final Resource sdramBus;
    private final Resource.Pci pci;

    EventProcessor(final Elan3Nic nic, final Elan3Timing profile, final Kernel kernel, final Origin origin,
        final NicResources shared)
    {
        this.nic = nic;
        this.profile = profile;
        this.kernel = kernel;
        this.origin = origin;
        this.microcode = shared.microcode;
        this.sdramBus = shared.sdramBus;
        this.pci = shared.pci;
    }

    /**
     * One set of an event at {@code timeNs}: the microcode decrements its count in SDRAM; when it
     * reaches zero the event fires its action (block copy into host memory, word copy, chained
     * DMA) and wakes whoever waits on it.
     */
    void setEvent(final NicContext ctx, final long evVa, final long timeNs)
    {
        final long t = microcode.use(timeNs, profile.eventNs());
        final long done = sdramBus.use(t, profile.sdramNs(E3.EVENT_SIZE));
        origin.schedule(done, x -> decrement(ctx, evVa, x));
    }

    /**
     * Re-arms an event for one more set ({@code elan3_waitevent}): one is added to its count, in
     * the order of the sets the NIC applies. Sets that arrived while the consumer was between two
     * waits have already taken the count to zero or below; the event then fires at once, once for
     * each of them as the consumer re-arms, so no arrival is lost.
     *
     * @param ctx  the context.
     * @param evVa the event's Elan address.
     */
    void rearmEvent(final NicContext ctx, final long evVa)
    {
        ctx.check(evVa, E3.EVENT_SIZE, Mmu.READ | Mmu.WRITE, "event");
        final int count = ctx.getInt(evVa + E3.EV_COUNT, Mmu.READ) + 1;
        ctx.putInt(evVa + E3.EV_COUNT, count, Mmu.WRITE);
        ctx.notifyWrite(evVa);
        if (count <= 0)
        {
            final long t = microcode.use(kernel.nowNs(), profile.eventNs());
            origin.schedule(t, x -> fire(ctx, evVa, x));
        }
    }

    private void decrement(final NicContext ctx, final long evVa, final long now)
    {
        try
        {
            final int count = ctx.getInt(evVa + E3.EV_COUNT, Mmu.READ) - 1;
            ctx.putInt(evVa + E3.EV_COUNT, count, Mmu.WRITE);
            ctx.notifyWrite(evVa);
            if (count == 0)
            {
                fire(ctx, evVa, now);
            }
        }
        catch (final QsnetException e)
        {
            ctx.fault("event at 0x" + Long.toHexString(evVa) + " fired and failed: " + e.getMessage());
        }
    }

    /** The event's action: a block or word copy into memory, or a chained DMA. */
    private void fire(final NicContext ctx, final long evVa, final long now)
    {
        try
        {
            final int type = ctx.getInt(evVa + E3.EV_TYPE, Mmu.READ);
            switch (type & 7)
            {
                case E3.EV_TYPE_BCOPY:
                {
                    final long src = ctx.getInt(evVa + E3.EV_SOURCE, Mmu.READ) & 0xffffffffL;
                    final long dst = ctx.getInt(evVa + E3.EV_DEST, Mmu.READ) & 0xffffffffL;
                    final byte[] blk = new byte[E3.BLK_SIZE];
                    ctx.read(src, blk, 0, blk.length, Mmu.READ, "block-copy event source");
                    final long t = copyNs(ctx, dst, E3.BLK_SIZE, now);
                    origin.schedule(t, x -> landBlock(ctx, dst, blk));
                    break;
                }
                case E3.EV_TYPE_BCOPY_WORD:
                {
                    final int value = ctx.getInt(evVa + E3.EV_SOURCE, Mmu.READ);
                    final long dst = ctx.getInt(evVa + E3.EV_DEST, Mmu.READ) & 0xffffffffL;
                    final long t = copyNs(ctx, dst, 4, now);
                    origin.schedule(t, x ->
                    {
                        ctx.putInt(dst, value, Mmu.WRITE);
                        ctx.notifyWrite(dst);
                    });
                    break;
                }
                case E3.EV_TYPE_DMA:
                {
                    final long desc = type & ~31L & 0xffffffffL;
                    nic.commands.start(nic.commands.decode(ctx, desc), now);
                    break;
                }
                default:
                    break;
            }
        }
        catch (final QsnetException e)
        {
            ctx.fault("event at 0x" + Long.toHexString(evVa) + " fired and failed: " + e.getMessage());
        }
    }

    private long copyNs(final NicContext ctx, final long dst, final int bytes, final long now)
    {
        final long t = sdramBus.use(now, profile.sdramNs(bytes));
        return ctx.mmu.kindOf(dst) == Mmu.Kind.SDRAM ? sdramBus.use(t, profile.sdramNs(bytes)) : pci.burst(t, true, bytes);
    }

    private void landBlock(final NicContext ctx, final long dst, final byte[] blk)
    {
        ctx.write(dst, blk, 0, blk.length, Mmu.WRITE, "block-copy event destination");
        ctx.notifyWrite(dst);
    }

}
