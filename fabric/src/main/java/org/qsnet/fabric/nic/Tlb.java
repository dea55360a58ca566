package org.qsnet.fabric.nic;

/**
 * The NIC's translation look-aside buffer: fully associative, least recently used. A miss
 * costs a page-table walk, so the order in which buffers are reused changes performance.
 */
final class Tlb
{
    private final long[] keys;
    private final long[] lastUse;
    private long clock;
    private long hits;
    private long misses;

    /**
     * @param entries 16 on the Elan3.
     */
    public Tlb(final int entries)
    {
        keys = new long[entries];
        lastUse = new long[entries];
        java.util.Arrays.fill(keys, -1);
    }

    /**
     * Looks up a page, filling an entry on a miss.
     *
     * @param context hardware context number.
     * @param page    Elan virtual page number.
     * @return whether it hit.
     */
    public boolean access(final int context, final long page)
    {
        final long key = ((long)context << 32) | page;
        int victim = 0;
        clock++;
        for (int i = 0; i < keys.length; i++)
        {
            if (keys[i] == key)
            {
                lastUse[i] = clock;
                hits++;
                return true;
            }
            if (lastUse[i] < lastUse[victim])
            {
                victim = i;
            }
        }
        keys[victim] = key;
        lastUse[victim] = clock;
        misses++;
        return false;
    }

    /**
     * Drops every entry of a context (its mappings changed).
     *
     * @param context hardware context number.
     */
    public void flush(final int context)
    {
        for (int i = 0; i < keys.length; i++)
        {
            if (keys[i] >>> 32 == context)
            {
                keys[i] = -1;
                lastUse[i] = 0;
            }
        }
    }

    /**
     * @return hits so far.
     */
    public long hits()
    {
        return hits;
    }

    /**
     * @return misses so far.
     */
    public long misses()
    {
        return misses;
    }
}
