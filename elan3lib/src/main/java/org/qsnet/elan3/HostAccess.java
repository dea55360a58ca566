package org.qsnet.elan3;

import org.qsnet.fabric.engine.SimProcess;
import org.qsnet.fabric.memory.MemoryFault;
import org.qsnet.fabric.memory.SparseMemory;
import org.qsnet.fabric.nic.Elan3Nic;
import org.qsnet.fabric.nic.NicContext;

/**
 * A program's loads and stores of host memory: which memory a host address reaches (the
 * process's main memory, or the NIC's SDRAM through its PCI window), and the charge of an access
 * through the host's cache, modelled to one line. {@link Elan3Context}'s accessors charge it;
 * its {@link Elan3Context.Raw} view does not.
 */
final class HostAccess
{
    private final ElanProcess process;
    private final Elan3Nic nic;
    private final NicContext hw;
    private final SimProcess sim;
    private final long hostAccessNs;
    private final long hostHitNs;
    /** The line of the program's last access and the NIC's write count then: a one-line cache. */
    private long cachedLine = -1;
    private long cachedNicWrites;

    HostAccess(final ElanProcess process, final Elan3Nic nic, final NicContext hw, final SimProcess sim,
        final long hostAccessNs, final long hostHitNs)
    {
        this.process = process;
        this.nic = nic;
        this.hw = hw;
        this.sim = sim;
        this.hostAccessNs = hostAccessNs;
        this.hostHitNs = hostHitNs;
    }

    SparseMemory hostMemory(final long hostAddr)
    {
        if (hostAddr >= Elan3.HOST_MAIN_BASE && hostAddr < Elan3.HOST_MAIN_BASE + (1L << 32))
        {
            return process.mainMemory();
        }
        if (hostAddr >= Elan3.HOST_SDRAM_BASE && hostAddr < Elan3.HOST_SDRAM_BASE + Elan3Nic.SDRAM_BYTES)
        {
            return nic.sdram();
        }
        throw new MemoryFault("host address 0x" + Long.toHexString(hostAddr) + " is not in this process's memory");
    }

    static long hostOffset(final long hostAddr)
    {
        return hostAddr >= Elan3.HOST_MAIN_BASE ? hostAddr - Elan3.HOST_MAIN_BASE : hostAddr - Elan3.HOST_SDRAM_BASE;
    }

    /**
     * Charges a ported program's own access to host memory, made at the current clock, and lets
     * every event due before the new clock run before the program goes on, so that a C spin loop ported line for line
     * ({@code while (ctx.getInt(flag) != 1) ;}) sees the DMA land, as on the real machine.
     *
     * <p>The host's cache, to one line: an access to the 64-byte line the program touched last
     * costs {@code hostHitNs} if the NIC has written nothing through this context since;
     * otherwise (another line, or a line the NIC may have invalidated) every line touched costs
     * {@code hostPollNs}. A spin on a flag thus costs an L1 hit per turn until the DMA lands, and
     * a load that misses when it does. With nothing due, the charge is the kernel's fast path.
     */
    void chargeAccess(final long hostAddr, final long bytes)
    {
        final long line = hostAddr >>> 6;
        final long nicWrites = hw.writeCount();
        final long lastLine = (hostAddr + Math.max(1, bytes) - 1) >>> 6;
        if (line == cachedLine && lastLine == line && nicWrites == cachedNicWrites)
        {
            sim.advance(hostHitNs);
            return;
        }
        cachedLine = lastLine;
        cachedNicWrites = nicWrites;
        sim.advance((lastLine - line + 1) * hostAccessNs);
    }
}
