package org.qsnet.elan3;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.qsnet.fabric.QsnetException;
import org.qsnet.fabric.memory.MemoryFault;
import org.qsnet.fabric.memory.Mmu;
import org.qsnet.fabric.memory.SparseMemory;
import org.qsnet.fabric.nic.Elan3Nic;
import org.qsnet.fabric.nic.NicContext;

/**
 * A context's Elan address space: its main heap, its Elan (SDRAM) heap, the {@code allocVaddr}
 * ranges, the process's own allocator ({@code malloc}), and the mappings of host ranges into the
 * Elan ({@code setperm}, the standard mappings) with the translations between host, SDRAM and
 * Elan addresses. {@link Elan3Context} charges the calls; this class charges nothing.
 */
final class AddressSpace
{
    static final long VADDR_BASE = 0x10000000L;
    private static final long VADDR_SIZE = 0x30000000L;
    private static final long MALLOC_BASE = 0x80000000L;

    private final NicContext hw;
    private final Elan3Nic nic;
    private final RangeAllocator mainHeap;
    private final RangeAllocator elanHeap;
    private final RangeAllocator vaddrs = new RangeAllocator("allocVaddr", VADDR_BASE, VADDR_SIZE);
    private final RangeAllocator malloc = new RangeAllocator("host malloc", MALLOC_BASE, 1L << 30);
    private final long elanSdramBase;
    /** Main offset -> {Elan address, length} of every main range mapped into the Elan. */
    private final TreeMap<Long, long[]> mainMappings = new TreeMap<>();
    /**
     * The mapping {@link #main2elan} found last (host offset, length, Elan address), or a length of
     * 0: a program that waits on one event word again and again translates it without a tree look-up
     * (and without boxing the key). Cleared whenever {@link #mainMappings} changes.
     */
    private long lastMainOff;
    private long lastMainLen;
    private long lastMainElan;
    private boolean standardMappings;
    private final List<long[]> mallocRanges = new ArrayList<>();

    /** Reserves the Elan heap in the node's SDRAM and maps both heaps into the context's MMU. */
    AddressSpace(final NicContext hw, final Elan3Nic nic, final long mainBase, final long mainSize, final long elanBase,
        final long elanSize)
    {
        this.hw = hw;
        this.nic = nic;
        this.mainHeap = new RangeAllocator("allocMain", mainBase, mainSize);
        this.elanHeap = new RangeAllocator("allocElan", elanBase, elanSize);
        this.elanSdramBase = nic.reserveSdram(elanSize);
        hw.mmu().map(elanBase, Mmu.Kind.SDRAM, elanSdramBase, elanSize, Mmu.ALL);
        hw.mmu().map(mainBase, Mmu.Kind.MAIN, mainBase, mainSize, Mmu.ALL);
        mainMappings.put(mainBase, new long[] {mainBase, mainSize});
        hw.allocations(this::allocationEnd);
    }

    /**
     * The end of the allocation (from {@code allocMain}, {@code allocElan} or the host allocator)
     * that holds an Elan address of this context, for the DMA bounds check; -1 for none.
     */
    private long allocationEnd(final long va)
    {
        final Mmu.Kind kind = hw.mmu().kindOf(va);
        if (kind == Mmu.Kind.SDRAM)
        {
            return elanHeap.contains(va) ? elanHeap.endOf(va) : -1;
        }
        if (kind == null)
        {
            return -1;
        }
        // main memory: the allocators hand out host offsets; the Elan address may be another
        // (a setperm mapping), so measure the allocation's end from the offset
        final long off = Mmu.offset(hw.mmu().translate(va, 0, "DMA"));
        final long end = mainHeap.contains(off) ? mainHeap.endOf(off) : malloc.contains(off) ? malloc.endOf(off) : -1;
        return end < 0 ? -1 : va + (end - off);
    }

    /** Maps the host allocator's memory, now and from now on ({@code elan3_set_standard_mappings}). */
    void setStandardMappings()
    {
        if (!standardMappings)
        {
            standardMappings = true;
            for (final long[] r : mallocRanges)
            {
                mapMalloc(r[0], r[1]);
            }
        }
    }

    /** Maps host-allocator memory at the Elan address equal to its offset (as the main heap is). */
    private void mapMalloc(final long off, final long size)
    {
        final long first = off & -SparseMemory.PAGE_SIZE;
        final long end = (off + size + SparseMemory.PAGE_SIZE - 1) & -SparseMemory.PAGE_SIZE;
        hw.mmu().map(first, Mmu.Kind.MAIN, first, end - first, Mmu.ALL);
        mainMappings.put(off, new long[] {off, size});
        lastMainLen = 0;
    }

    /** {@code elan3_allocMain}: the host address, or 0. */
    long allocMain(final int align, final long size)
    {
        final long off = mainHeap.alloc(align, size);
        return off < 0 ? 0 : Elan3.HOST_MAIN_BASE + off;
    }

    /** {@code elan3_allocElan}: the SDRAM handle, or 0. */
    long allocElan(final int align, final long size)
    {
        final long va = elanHeap.alloc(align, size);
        return va < 0 ? 0 : elanSdramBase + (va - elanHeap.base());
    }

    /** {@code elan3_free}. */
    void free(final long hostAddr)
    {
        // named as the program passed it: the heap knows only its offset
        QsnetException.require(mainHeap.allocated(hostAddr - Elan3.HOST_MAIN_BASE), "ptr", "0x" + Long.toHexString(hostAddr),
            "was not returned by elan3_allocMain, or was freed already");
        mainHeap.free(hostAddr - Elan3.HOST_MAIN_BASE);
    }

    /** {@code elan3_freeElan}. */
    void freeElan(final long sdram)
    {
        QsnetException.require(elanHeap.allocated(sdram - elanSdramBase + elanHeap.base()), "SDRAM handle",
            "0x" + Long.toHexString(sdram), "was not returned by elan3_allocElan, or was freed already");
        elanHeap.free(sdram - elanSdramBase + elanHeap.base());
    }

    long elanHeapSize()
    {
        return elanHeap.size();
    }

    /** The process's {@code malloc}: the host address (mapped if the standard mappings are set). */
    long hostMalloc(final long size)
    {
        final long off = malloc.alloc(8, size);
        if (off < 0)
        {
            throw new QsnetException("host malloc of " + size + " bytes failed: 1 GB heap exhausted");
        }
        mallocRanges.add(new long[] {off, size});
        if (standardMappings)
        {
            mapMalloc(off, size);
        }
        return Elan3.HOST_MAIN_BASE + off;
    }

    /** {@code elan3_allocVaddr}: the Elan address, or {@link Elan3#ELAN_ADDR_NULL}. */
    long allocVaddr(final int align, final long size)
    {
        // checked before the floor of a page: an alignment of 3000 is refused, not served as 8 KB
        QsnetException.require(align == 0 || align > 0 && Integer.bitCount(align) == 1, "align", align,
            "must be 0 or a power of two");
        final long va = vaddrs.alloc(Math.max(align, SparseMemory.PAGE_SIZE), size);
        return va < 0 ? Elan3.ELAN_ADDR_NULL : va;
    }

    /** {@code elan3_main2elan}: the Elan address, or {@link Elan3#ELAN_BAD_ADDR}. */
    long main2elan(final long hostAddr)
    {
        final long off = hostAddr - Elan3.HOST_MAIN_BASE;
        if (off - lastMainOff >= 0 && off - lastMainOff < lastMainLen)
        {
            return lastMainElan + (off - lastMainOff);
        }
        final Map.Entry<Long, long[]> e = mainMappings.floorEntry(off);
        if (e == null || off >= e.getKey() + e.getValue()[1])
        {
            return Elan3.ELAN_BAD_ADDR;
        }
        lastMainOff = e.getKey();
        lastMainLen = e.getValue()[1];
        lastMainElan = e.getValue()[0];
        return e.getValue()[0] + (off - e.getKey());
    }

    /** {@code elan3_elan2main}: the host address, or 0. */
    long elan2main(final long elanAddr)
    {
        final Mmu.Kind kind = hw.mmu().kindOf(elanAddr);
        if (kind == null)
        {
            return 0;
        }
        final long t = hw.mmu().translate(elanAddr, 0, "elan2main");
        return (kind == Mmu.Kind.SDRAM ? Elan3.HOST_SDRAM_BASE : Elan3.HOST_MAIN_BASE) + Mmu.offset(t);
    }

    /**
     * Checks that {@code [sdram, sdram + size)} lies in this context's SDRAM (its Elan heap): the
     * host's programmed I/O reaches only the SDRAM mapped for its context, never another
     * process's events, descriptors or queues on the node.
     */
    void checkSdram(final String what, final long sdram, final long size)
    {
        if (sdram < elanSdramBase || size < 0 || sdram + size > elanSdramBase + elanHeap.size())
        {
            throw new QsnetException(what + ": SDRAM handle 0x" + Long.toHexString(sdram) + " (" + size
                + " bytes) is outside this context's SDRAM 0x" + Long.toHexString(elanSdramBase) + "..0x"
                + Long.toHexString(elanSdramBase + elanHeap.size()) + " (from elan3_allocElan)");
        }
    }

    /** {@code elan3_sdram2elan}. */
    long sdram2elan(final long sdram)
    {
        final long va = elanHeap.base() + (sdram - elanSdramBase);
        if (sdram < elanSdramBase || va >= elanHeap.base() + elanHeap.size())
        {
            throw new QsnetException("SDRAM handle 0x" + Long.toHexString(sdram) + " is outside this context's Elan heap");
        }
        return va;
    }

    /** {@code elan_elan2sdram}: the SDRAM handle, or 0. */
    long elan2sdram(final long elanAddr)
    {
        if (hw.mmu().kindOf(elanAddr) != Mmu.Kind.SDRAM)
        {
            return 0;
        }
        return Mmu.offset(hw.mmu().translate(elanAddr, 0, "elan2sdram"));
    }

    /** {@code elan3_addressable}. */
    boolean addressable(final long hostAddr, final long size)
    {
        final long va = main2elan(hostAddr);
        if (va == Elan3.ELAN_BAD_ADDR || size <= 1)
        {
            return va != Elan3.ELAN_BAD_ADDR;
        }
        // every byte, through the mappings that cover the range one after another: a page unmapped in
        // the middle (elan3_clearperm_main of part of a mapping) makes the range unaddressable even
        // though both ends still translate as one run (GASNet's conduit finds such holes this way)
        long off = hostAddr - Elan3.HOST_MAIN_BASE;
        final long end = off + size;
        long expected = va;
        while (off < end)
        {
            final Map.Entry<Long, long[]> e = mainMappings.floorEntry(off);
            if (e == null || off >= e.getKey() + e.getValue()[1] || e.getValue()[0] + (off - e.getKey()) != expected)
            {
                return false;
            }
            final long step = Math.min(end, e.getKey() + e.getValue()[1]) - off;
            off += step;
            expected += step;
        }
        return true;
    }

    /** {@code elan3_setperm}: 0, or -1 when the MMU refuses the mapping. */
    int setperm(final long hostAddr, final long elanAddr, final long size, final int perm)
    {
        try
        {
            hw.mmu().map(elanAddr, Mmu.Kind.MAIN, hostAddr - Elan3.HOST_MAIN_BASE, size, perm);
        }
        catch (final MemoryFault e)
        {
            return -1;
        }
        mainMappings.put(hostAddr - Elan3.HOST_MAIN_BASE, new long[] {elanAddr, size});
        lastMainLen = 0;
        nic.flushTlb(hw);
        return 0;
    }

    /** {@code elan3_clearperm_elan}. */
    void clearpermElan(final long elanAddr, final long size)
    {
        hw.mmu().unmap(elanAddr, size);
        // a mapping partly inside the range keeps its parts outside it, and only those: main2elan
        // must not translate a host address whose page the MMU no longer maps. The MMU unmaps whole
        // Elan pages, so the cut is rounded out to them (a 4 KB host page cleared inside an 8 KB Elan
        // page takes the whole Elan page: elan3_addressable then agrees with what a DMA can reach)
        final long page = SparseMemory.PAGE_SIZE;
        final long from = elanAddr & -page;
        final long to = (elanAddr + Math.max(1, size) + page - 1) & -page;
        final List<long[]> kept = new ArrayList<>();
        mainMappings.entrySet().removeIf(e ->
        {
            final long es = e.getValue()[0];
            final long ee = es + e.getValue()[1];
            if (ee <= from || es >= to)
            {
                return false;
            }
            if (es < from)
            {
                kept.add(new long[] {e.getKey(), es, from - es});
            }
            if (ee > to)
            {
                kept.add(new long[] {e.getKey() + (to - es), to, ee - to});
            }
            return true;
        });
        for (final long[] k : kept)
        {
            mainMappings.put(k[0], new long[] {k[1], k[2]});
        }
        lastMainLen = 0;
        nic.flushTlb(hw);
    }
}
