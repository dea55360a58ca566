package org.qsnet.fabric.nic;

import org.qsnet.fabric.engine.Origin;
import org.qsnet.fabric.memory.Mmu;

/**
 * The Elan3's thread processor (the SPARC-based engine on which Tports and MPI match tags without
 * the host): a resource with a cost per operation, and the copies the code running on it makes
 * into a context's memory. Its writes go through the same write path as the inputter's (internal
 * bus, then SDRAM or PCI), so they share its one packet of input buffering.
 */
final class ThreadProcessor
{
    private final Resource processor = new Resource("thread processor");
    private final Elan3Timing profile;
    private final Origin origin;
    private final Inputter inputter;

    ThreadProcessor(final Elan3Timing profile, final Origin origin, final Inputter inputter)
    {
        this.profile = profile;
        this.origin = origin;
        this.inputter = inputter;
    }

    Resource resource()
    {
        return processor;
    }

    /** {@code operations} operations of the profile's {@code threadOpNs} each, first come first served. */
    long work(final long readyNs, final int operations)
    {
        return processor.use(readyNs, operations * profile.threadOpNs());
    }

    /** See {@link Elan3Nic#threadCopy}. */
    long copy(final NicContext c, final long va, final byte[] data, final long doneVa, final int doneValue,
        final long readyNs)
    {
        if (data.length > 0)
        {
            c.check(va, data.length, Mmu.WRITE, "thread copy destination");
        }
        long t = data.length > 0 ? inputter.write(c, va, NicPacket.blocks(data.length), readyNs) : readyNs;
        if (doneVa != 0)
        {
            c.check(doneVa, 4, Mmu.WRITE, "completion word");
            t = inputter.write(c, doneVa, 4, t);
        }
        origin.schedule(t, x ->
        {
            if (data.length > 0)
            {
                c.write(va, data, 0, data.length, Mmu.WRITE, "thread copy destination");
                c.notifyWrite(va, data.length);
            }
            if (doneVa != 0)
            {
                c.putInt(doneVa, doneValue, Mmu.WRITE);
                c.notifyWrite(doneVa);
            }
        });
        return t;
    }
}
