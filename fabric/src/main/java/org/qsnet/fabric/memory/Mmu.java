package org.qsnet.fabric.memory;

/**
 * The Elan MMU of one context: a page table from 32-bit Elan virtual pages to pages of main
 * memory or of the node's Elan SDRAM, each with access rights. Every access the NIC makes on
 * behalf of the context is checked here first.
 */
public final class Mmu
{
    /** Right: the local process and its NIC may read. */
    public static final int READ = 1;
    /** Right: the local process and its NIC may write. */
    public static final int WRITE = 2;
    /** Right: a remote process of the same capability may read (get). */
    public static final int REMOTE_READ = 4;
    /** Right: a remote process of the same capability may write (put). */
    public static final int REMOTE_WRITE = 8;
    /** Every right: {@code ELAN_PERM_REMOTEALL}. */
    public static final int ALL = READ | WRITE | REMOTE_READ | REMOTE_WRITE;

    /** Where a page lives. */
    public enum Kind
    {
        /** Host memory: NIC accesses cross the PCI bus. */
        MAIN,
        /** The node's Elan SDRAM. */
        SDRAM
    }

    private static final long SDRAM_BIT = 1L << 62;
    /** The NIC's own page table holds this page's entry: set at mapping for SDRAM, on the first NIC
     * access (a translation fault the driver resolves) for main memory. */
    private static final long LOADED_BIT = 1L << 61;
    private static final int PERM_SHIFT = 48;

    private final String owner;
    /**
     * The page table as regions: runs of pages mapped by one call, sorted by first page and
     * disjoint, so that a context mapping its whole heap costs one entry, not one per page.
     */
    private Region[] regions = new Region[8];
    private int count;
    /** The region of the last lookup: most accesses hit the region of the one before. */
    private Region last;

    /** Pages {@code [start, end)} mapped onto backing pages from {@code physFirst}. */
    private static final class Region
    {
        final int start;
        final int end;
        /** {@link #SDRAM_BIT} and the rights at {@link #PERM_SHIFT}. */
        final long flags;
        final long physFirst;
        /** Pages of main memory whose entry the NIC's table holds, one bit per page; null for SDRAM. */
        final long[] loaded;

        Region(final int start, final int end, final long flags, final long physFirst, final long[] loaded)
        {
            this.start = start;
            this.end = end;
            this.flags = flags;
            this.physFirst = physFirst;
            this.loaded = loaded;
        }

        boolean isLoaded(final int page)
        {
            if (loaded == null)
            {
                return true;
            }
            final int i = page - start;
            return (loaded[i >>> 6] & (1L << i)) != 0;
        }

        /** The pages {@code [from, to)} of this region as a region of their own, loaded bits kept. */
        Region slice(final int from, final int to)
        {
            long[] bits = null;
            if (loaded != null)
            {
                bits = new long[(to - from + 63) >>> 6];
                for (int page = from; page < to; page++)
                {
                    if (isLoaded(page))
                    {
                        final int j = page - from;
                        bits[j >>> 6] |= 1L << j;
                    }
                }
            }
            return new Region(from, to, flags, physFirst + (from - start), bits);
        }
    }

    /**
     * @param owner the context, for fault messages (e.g. {@code "context 0x401 on node 3"}).
     */
    public Mmu(final String owner)
    {
        this.owner = owner;
    }

    /** @return the region holding {@code page}, or null. */
    private Region find(final int page)
    {
        final Region r = last;
        if (r != null && page >= r.start && page < r.end)
        {
            return r;
        }
        int lo = 0;
        int hi = count - 1;
        while (lo <= hi)
        {
            final int mid = (lo + hi) >>> 1;
            final Region m = regions[mid];
            if (page < m.start)
            {
                hi = mid - 1;
            }
            else if (page >= m.end)
            {
                lo = mid + 1;
            }
            else
            {
                last = m;
                return m;
            }
        }
        return null;
    }

    /** The entry of a page as {@code flags | LOADED_BIT? | physical page}, or -1 when unmapped. */
    private long get(final int page)
    {
        final Region r = find(page);
        if (r == null)
        {
            return -1;
        }
        return r.flags | (r.isLoaded(page) ? LOADED_BIT : 0) | (r.physFirst + (page - r.start));
    }

    /** Removes the pages {@code [from, to)} from every region, keeping the rest of each. */
    private void cut(final int from, final int to)
    {
        last = null;
        int w = 0;
        final Region[] kept = new Region[count + 2];
        for (int i = 0; i < count; i++)
        {
            final Region r = regions[i];
            if (r.end <= from || r.start >= to)
            {
                kept[w++] = r;
                continue;
            }
            if (r.start < from)
            {
                kept[w++] = r.slice(r.start, from);
            }
            if (r.end > to)
            {
                kept[w++] = r.slice(to, r.end);
            }
        }
        regions = kept.length >= 8 ? kept : java.util.Arrays.copyOf(kept, 8);
        count = w;
    }

    private void insert(final Region r)
    {
        int i = count;
        while (i > 0 && regions[i - 1].start > r.start)
        {
            i--;
        }
        if (count == regions.length)
        {
            regions = java.util.Arrays.copyOf(regions, count * 2);
        }
        System.arraycopy(regions, i, regions, i + 1, count - i);
        regions[i] = r;
        count++;
        last = null;
    }

    /**
     * Maps {@code length} bytes at Elan address {@code va} onto backing memory starting at
     * {@code physical}; both must have the same offset within a page.
     *
     * @param va       Elan virtual address, 0..2^32-1.
     * @param kind     main memory or SDRAM.
     * @param physical offset in the backing memory.
     * @param length   bytes.
     * @param rights   {@link #READ} | {@link #WRITE} | ...
     */
    public void map(final long va, final Kind kind, final long physical, final long length, final int rights)
    {
        if ((va & (SparseMemory.PAGE_SIZE - 1)) != (physical & (SparseMemory.PAGE_SIZE - 1)))
        {
            throw new MemoryFault("cannot map Elan address 0x" + Long.toHexString(va) + " onto offset 0x"
                + Long.toHexString(physical) + ": their offsets within an 8 KB page differ");
        }
        checkVa(va, length);
        final long first = va >>> SparseMemory.PAGE_SHIFT;
        final long last = (va + Math.max(1, length) - 1) >>> SparseMemory.PAGE_SHIFT;
        final long physFirst = physical >>> SparseMemory.PAGE_SHIFT;
        cut((int)first, (int)(last + 1));
        final int pages = (int)(last + 1 - first);
        insert(new Region((int)first, (int)(last + 1), (kind == Kind.SDRAM ? SDRAM_BIT : 0) | ((long)rights << PERM_SHIFT),
            physFirst, kind == Kind.SDRAM ? null : new long[(pages + 63) >>> 6]));
    }

    /**
     * Removes the mappings of the pages covering a range.
     *
     * @param va     first address.
     * @param length bytes.
     */
    public void unmap(final long va, final long length)
    {
        checkVa(va, length);
        final long first = va >>> SparseMemory.PAGE_SHIFT;
        final long last = (va + Math.max(1, length) - 1) >>> SparseMemory.PAGE_SHIFT;
        cut((int)first, (int)(last + 1));
    }

    private static void checkVa(final long va, final long length)
    {
        if (va < 0 || length < 0 || va + length > (1L << 32))
        {
            throw new MemoryFault("Elan address range 0x" + Long.toHexString(va) + "+" + length
                + " is outside the 32-bit Elan address space");
        }
    }

    /**
     * Loads a page's entry into the NIC's page table if it is not there yet. Pages of Elan SDRAM
     * are loaded when mapped; pages of main memory are loaded by the driver on the NIC's first
     * access (no registration: the system keeps the MMU tables in step), so the first access to
     * each page after it was mapped pays a translation fault.
     *
     * @param va an address in the page.
     * @return whether the entry was missing (the access faulted and the driver loaded it now);
     * false also for an unmapped page, whose access {@link #translate} refuses.
     */
    public boolean loadForNic(final long va)
    {
        if (va < 0 || va >= (1L << 32))
        {
            return false;
        }
        final int page = (int)(va >>> SparseMemory.PAGE_SHIFT);
        final Region r = find(page);
        if (r == null || r.isLoaded(page))
        {
            return false;
        }
        final int i = page - r.start;
        r.loaded[i >>> 6] |= 1L << i;
        return true;
    }

    /**
     * @param va an Elan address.
     * @return whether it is mapped.
     */
    public boolean isMapped(final long va)
    {
        return va >= 0 && va < (1L << 32) && get((int)(va >>> SparseMemory.PAGE_SHIFT)) >= 0;
    }

    /**
     * @param va an Elan address.
     * @return where its page lives, or null if unmapped.
     */
    public Kind kindOf(final long va)
    {
        final long pte = va >= 0 && va < (1L << 32) ? get((int)(va >>> SparseMemory.PAGE_SHIFT)) : -1;
        return pte < 0 ? null : (pte & SDRAM_BIT) != 0 ? Kind.SDRAM : Kind.MAIN;
    }

    /**
     * Translates one address for an access.
     *
     * @param va     the Elan address.
     * @param rights the rights the access needs.
     * @param what   the access, for the fault message (e.g. {@code "DMA source"}).
     * @return the backing offset, with bit 62 set for SDRAM ({@link #isSdram(long)}).
     */
    public long translate(final long va, final int rights, final String what)
    {
        final long pte = va >= 0 && va < (1L << 32) ? get((int)(va >>> SparseMemory.PAGE_SHIFT)) : -1;
        if (pte < 0)
        {
            throw new MemoryFault(what + " at Elan address 0x" + Long.toHexString(va) + " is not mapped in " + owner);
        }
        final int have = (int)(pte >>> PERM_SHIFT) & 0xF;
        if ((have & rights) != rights)
        {
            throw new MemoryFault(what + " at Elan address 0x" + Long.toHexString(va) + " needs rights " + rightsText(rights)
                + " but " + owner + " grants " + rightsText(have));
        }
        return (pte & SDRAM_BIT) | (((pte & 0xFFFFFFFFFFL)) << SparseMemory.PAGE_SHIFT)
            | (va & (SparseMemory.PAGE_SIZE - 1));
    }

    /**
     * @param translated a result of {@link #translate}.
     * @return whether it is an SDRAM offset.
     */
    public static boolean isSdram(final long translated)
    {
        return (translated & SDRAM_BIT) != 0;
    }

    /**
     * @param translated a result of {@link #translate}.
     * @return the backing offset.
     */
    public static long offset(final long translated)
    {
        return translated & ~SDRAM_BIT;
    }

    /**
     * @param rights a rights mask.
     * @return e.g. {@code "read,write"}.
     */
    public static String rightsText(final int rights)
    {
        final StringBuilder sb = new StringBuilder();
        if ((rights & READ) != 0)
        {
            sb.append("read");
        }
        if ((rights & WRITE) != 0)
        {
            sb.append(sb.length() > 0 ? "," : "").append("write");
        }
        if ((rights & REMOTE_READ) != 0)
        {
            sb.append(sb.length() > 0 ? "," : "").append("remote-read");
        }
        if ((rights & REMOTE_WRITE) != 0)
        {
            sb.append(sb.length() > 0 ? "," : "").append("remote-write");
        }
        return sb.length() == 0 ? "none" : sb.toString();
    }

    @Override
    public String toString()
    {
        long pages = 0;
        for (int i = 0; i < count; i++)
        {
            pages += regions[i].end - regions[i].start;
        }
        return "MMU of " + owner + " (" + pages + " pages mapped)";
    }
}
