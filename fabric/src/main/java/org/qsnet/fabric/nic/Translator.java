package org.qsnet.fabric.nic;

import org.qsnet.fabric.memory.SparseMemory;

/**
 * The Elan3 MMU's translation of the NIC's own accesses: the TLB, the table-walk state machine
 * that reads the three levels of the page table from SDRAM on a miss, and the host driver that
 * loads a main-memory page's entry on the NIC's first touch of it. The mappings themselves are a
 * context's {@link org.qsnet.fabric.memory.Mmu}; this unit charges the time of looking them up.
 */
final class Translator
{
    /**
     * Levels of the Elan3 MMU's page table (level 1, 2 and 3 tables in SDRAM); a walk reads one
     * entry from each, each read depending on the one before.
     */
    static final int PAGE_TABLE_LEVELS = 3;
    /** A fault's PIO writes across PCI: the two 32-bit halves of the entry, then the restart. */
    static final int PTE_LOAD_PIO_WRITES = 3;

    private final Elan3Timing profile;
    private final Resource sdramBus;
    final Tlb tlb;
    /** The MMU's table-walk state machine: one walk at a time, the waiting thread stalls. */
    private final Resource tableWalker = new Resource("table walker");
    /** The host's Elan driver resolving the NIC's translation faults, one at a time. */
    private final Resource faultHandler = new Resource("driver fault handler");
    long pteLoads;

    Translator(final Elan3Timing profile, final Resource sdramBus)
    {
        this.profile = profile;
        this.sdramBus = sdramBus;
        this.tlb = new Tlb(profile.tlbEntries());
    }

    /**
     * Translates the pages of an access: a TLB hit costs nothing more; a miss starts the
     * table-walk state machine, which reads one entry per level from SDRAM (sharing the SDRAM with
     * the data). A page of main memory the NIC has not touched since it was mapped has no entry yet:
     * the walk traps, the host's driver takes the interrupt, looks the page up and writes its entry
     * into the NIC's table with PIO writes across PCI, then restarts the access, which walks again.
     */
    long translate(final NicContext ctx, final long va, final int length, final long readyNs)
    {
        long t = readyNs;
        final long first = va >>> SparseMemory.PAGE_SHIFT;
        final long last = (va + Math.max(1, length) - 1) >>> SparseMemory.PAGE_SHIFT;
        for (long page = first; page <= last; page++)
        {
            if (!tlb.access(ctx.number, page))
            {
                t = walk(t);
                if (ctx.mmu.loadForNic(page << SparseMemory.PAGE_SHIFT))
                {
                    pteLoads++;
                    t = faultHandler.use(t, profile.interruptNs() + profile.driverNs()
                        + PTE_LOAD_PIO_WRITES * profile.pioWriteNs());
                    t = walk(t);
                }
            }
        }
        return t;
    }

    private long walk(final long readyNs)
    {
        long t = tableWalker.use(readyNs, profile.tableWalkNs());
        for (int level = 0; level < PAGE_TABLE_LEVELS; level++)
        {
            t = sdramBus.use(t, profile.sdramNs(8));
        }
        return t;
    }
}
