package org.qsnet.elan3;

import java.util.Map;
import java.util.TreeMap;

import org.qsnet.fabric.QsnetException;

/**
 * First-fit allocator of an address range, with alignment: the heaps of {@code allocMain},
 * {@code allocElan} and {@code allocVaddr}. Deterministic: the same calls give the same
 * addresses in every process, which is what libelan's symmetric addressing relies on.
 */
public final class RangeAllocator
{
    private final String name;
    private final long base;
    private final long size;
    private final TreeMap<Long, Long> free = new TreeMap<>();
    private final TreeMap<Long, Long> used = new TreeMap<>();

    /**
     * @param name for messages.
     * @param base first address.
     * @param size bytes.
     */
    public RangeAllocator(final String name, final long base, final long size)
    {
        this.name = name;
        this.base = base;
        this.size = size;
        free.put(base, size);
    }

    /**
     * @return the first address.
     */
    public long base()
    {
        return base;
    }

    /**
     * @return the size.
     */
    public long size()
    {
        return size;
    }

    /**
     * @param alignArg alignment (0 for 8).
     * @param length   bytes.
     * @return the address, or -1 when no free range fits.
     */
    public long alloc(final long alignArg, final long length)
    {
        QsnetException.require(length > 0, "size", length, "must be positive");
        // checked before the floor of 8: an alignment of 3 is refused, not served as 8
        QsnetException.require(alignArg == 0 || alignArg > 0 && Long.bitCount(alignArg) == 1, "align", alignArg,
            "must be 0 or a power of two");
        final long align = Math.max(8, alignArg);
        for (final Map.Entry<Long, Long> e : free.entrySet())
        {
            final long start = (e.getKey() + align - 1) & -align;
            final long end = e.getKey() + e.getValue();
            if (start + length <= end)
            {
                free.remove(e.getKey());
                if (start > e.getKey())
                {
                    free.put(e.getKey(), start - e.getKey());
                }
                if (start + length < end)
                {
                    free.put(start + length, end - start - length);
                }
                used.put(start, length);
                return start;
            }
        }
        return -1;
    }

    /**
     * @param address an address in the range.
     * @return whether an allocation starts there (and is not freed).
     */
    public boolean allocated(final long address)
    {
        return used.containsKey(address);
    }

    /**
     * Frees an allocation.
     *
     * @param address its start, as {@link #alloc} returned it.
     */
    public void free(final long address)
    {
        final Long length = used.remove(address);
        if (length == null)
        {
            throw new QsnetException("address 0x" + Long.toHexString(address) + " was not allocated from " + name);
        }
        long start = address;
        long len = length;
        final Map.Entry<Long, Long> before = free.floorEntry(start);
        if (before != null && before.getKey() + before.getValue() == start)
        {
            start = before.getKey();
            len += before.getValue();
            free.remove(before.getKey());
        }
        final Long after = free.get(address + length);
        if (after != null)
        {
            len += after;
            free.remove(address + length);
        }
        free.put(start, len);
    }

    /**
     * @param address an address.
     * @return the address just past the end of the allocation holding {@code address}, or -1 when
     *         it lies in no allocation.
     */
    public long endOf(final long address)
    {
        final Map.Entry<Long, Long> e = used.floorEntry(address);
        return e != null && address < e.getKey() + e.getValue() ? e.getKey() + e.getValue() : -1;
    }

    /**
     * @param address an address.
     * @return whether it lies in the range.
     */
    public boolean contains(final long address)
    {
        return address >= base && address < base + size;
    }
}
