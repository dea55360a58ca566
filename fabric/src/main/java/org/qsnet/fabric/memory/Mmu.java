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
    /** Page table: open addressing, virtual page -> PTE, no boxing on the packet path. */
    private int[] keys = new int[64];
    private long[] ptes = new long[64];
    private boolean[] used = new boolean[64];
    private int size;

    /**
     * @param owner the context, for fault messages (e.g. {@code "context 0x401 on node 3"}).
     */
    public Mmu(final String owner)
    {
        this.owner = owner;
    }

    private int slot(final int page)
    {
        int i = (page * 0x9E3779B9) >>> 1;
        final int mask = keys.length - 1;
        i &= mask;
        while (used[i] && keys[i] != page)
        {
            i = (i + 1) & mask;
        }
        return i;
    }

    /** The last page looked up and its entry (or -1): most accesses hit the page of the one before. */
    private int lastPage = -1;
    private long lastPte = -1;

    private long get(final int page)
    {
        if (page == lastPage)
        {
            return lastPte;
        }
        final int i = slot(page);
        final long pte = used[i] ? ptes[i] : -1;
        lastPage = page;
        lastPte = pte;
        return pte;
    }

    private void put(final int page, final long pte)
    {
        lastPage = -1;
        if (2 * (size + 1) > keys.length)
        {
            final int[] k = keys;
            final long[] v = ptes;
            final boolean[] u = used;
            keys = new int[k.length * 2];
            ptes = new long[k.length * 2];
            used = new boolean[k.length * 2];
            size = 0;
            for (int j = 0; j < k.length; j++)
            {
                if (u[j])
                {
                    put(k[j], v[j]);
                }
            }
        }
        final int i = slot(page);
        if (!used[i])
        {
            used[i] = true;
            keys[i] = page;
            size++;
        }
        ptes[i] = pte;
    }

    private void remove(final int page)
    {
        lastPage = -1;
        final int i = slot(page);
        if (!used[i])
        {
            return;
        }
        // rebuild the cluster after the removed entry (linear probing)
        used[i] = false;
        size--;
        final int mask = keys.length - 1;
        for (int j = (i + 1) & mask; used[j]; j = (j + 1) & mask)
        {
            used[j] = false;
            size--;
            put(keys[j], ptes[j]);
        }
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
        for (long p = first; p <= last; p++)
        {
            put((int)p, (kind == Kind.SDRAM ? SDRAM_BIT | LOADED_BIT : 0) | ((long)rights << PERM_SHIFT)
                | (physFirst + p - first));
        }
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
        for (long p = first; p <= last; p++)
        {
            remove((int)p);
        }
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
        final long pte = get(page);
        if (pte < 0 || (pte & LOADED_BIT) != 0)
        {
            return false;
        }
        put(page, pte | LOADED_BIT);
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
        return "MMU of " + owner + " (" + size + " pages mapped)";
    }
}
