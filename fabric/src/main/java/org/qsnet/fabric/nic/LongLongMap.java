package org.qsnet.fabric.nic;

/**
 * A map from {@code long} keys to {@code long} values with open addressing: no boxing and no
 * allocation per lookup, for state the NIC consults on every packet of a stream (a queue's
 * reserved slot pointer, the queued-DMA sequence numbers). Absent keys read as the given default.
 */
final class LongLongMap
{
    private long[] keys = new long[16];
    private long[] values = new long[16];
    private boolean[] used = new boolean[16];
    private int size;

    private int slot(final long key)
    {
        final int mask = keys.length - 1;
        int i = (int)((key * 0x9E3779B97F4A7C15L) >>> 40) & mask;
        while (used[i] && keys[i] != key)
        {
            i = (i + 1) & mask;
        }
        return i;
    }

    /**
     * @param key    the key.
     * @param absent what to return when the key has no value.
     * @return its value, {@code absent} if it has none.
     */
    long get(final long key, final long absent)
    {
        final int i = slot(key);
        return used[i] ? values[i] : absent;
    }

    /**
     * @param key   the key.
     * @param value its new value.
     */
    void put(final long key, final long value)
    {
        int i = slot(key);
        if (!used[i])
        {
            if (2 * (size + 1) > keys.length)
            {
                grow();
                i = slot(key);
            }
            used[i] = true;
            keys[i] = key;
            size++;
        }
        values[i] = value;
    }

    private void grow()
    {
        final long[] k = keys;
        final long[] v = values;
        final boolean[] u = used;
        keys = new long[k.length * 2];
        values = new long[k.length * 2];
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
}
