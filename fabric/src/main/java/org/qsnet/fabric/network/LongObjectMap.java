package org.qsnet.fabric.network;

import java.util.Arrays;

import org.qsnet.fabric.QsnetException;

/**
 * A map from {@code long} keys to non-null values with open addressing (linear probing, deletion
 * by shifting the following entries back): no boxing and no node per entry. A partition looks up
 * and removes a packet by its key on every remote event and every acknowledgement; in a
 * {@code HashMap<Long, Packet>} those keys ({@code node << 40 | sequence}) collided enough to
 * turn bins into trees, and the boxing and the tree walk took about a fifth of a partition's
 * time in a 1024-node run. Nothing iterates it, so its order cannot leak into a result.
 *
 * @param <V> the values.
 */
final class LongObjectMap<V>
{
    private long[] keys;
    private Object[] values;
    private int size;

    LongObjectMap()
    {
        this(16);
    }

    /**
     * @param capacity initial slots, a power of two of at least 2.
     */
    LongObjectMap(final int capacity)
    {
        QsnetException.require(capacity >= 2 && Integer.bitCount(capacity) == 1, "capacity", capacity,
            "must be a power of two of at least 2");
        keys = new long[capacity];
        values = new Object[capacity];
    }

    private static int hash(final long key, final int mask)
    {
        // Fibonacci hashing: the key's high bits after the multiply mix every bit of it
        return (int)((key * 0x9E3779B97F4A7C15L) >>> 32) & mask;
    }

    private int slot(final long key)
    {
        final int mask = keys.length - 1;
        int i = hash(key, mask);
        while (values[i] != null && keys[i] != key)
        {
            i = (i + 1) & mask;
        }
        return i;
    }

    /**
     * @param key the key.
     * @return its value, null if it has none.
     */
    @SuppressWarnings("unchecked")
    V get(final long key)
    {
        return (V)values[slot(key)];
    }

    /**
     * @param key   the key.
     * @param value its value, not null.
     * @return the value it replaced, null if none.
     */
    @SuppressWarnings("unchecked")
    V put(final long key, final V value)
    {
        if (value == null)
        {
            throw new QsnetException("value of key " + key + " is null; this map holds non-null values only");
        }
        int i = slot(key);
        final Object old = values[i];
        if (old == null)
        {
            if (2 * (size + 1) > keys.length)
            {
                grow();
                i = slot(key);
            }
            keys[i] = key;
            size++;
        }
        values[i] = value;
        return (V)old;
    }

    /**
     * @param key the key.
     * @return the value it had, null if none.
     */
    @SuppressWarnings("unchecked")
    V remove(final long key)
    {
        final int mask = keys.length - 1;
        int i = slot(key);
        final Object old = values[i];
        if (old == null)
        {
            return null;
        }
        size--;
        // shift back every following entry of the run that would no longer be found past the hole
        int hole = i;
        i = (i + 1) & mask;
        while (values[i] != null)
        {
            final int home = hash(keys[i], mask);
            // the entry at i may fill the hole if its home is not cyclically within (hole, i]
            if (((i - home) & mask) >= ((i - hole) & mask))
            {
                keys[hole] = keys[i];
                values[hole] = values[i];
                hole = i;
            }
            i = (i + 1) & mask;
        }
        values[hole] = null;
        return (V)old;
    }

    /**
     * @return the number of keys with a value.
     */
    int size()
    {
        return size;
    }

    /** Removes every entry (keeps the capacity). */
    void clear()
    {
        if (size > 0)
        {
            Arrays.fill(values, null);
            size = 0;
        }
    }

    private void grow()
    {
        final long[] k = keys;
        final Object[] v = values;
        keys = new long[k.length * 2];
        values = new Object[k.length * 2];
        final int mask = keys.length - 1;
        for (int j = 0; j < k.length; j++)
        {
            if (v[j] != null)
            {
                int i = hash(k[j], mask);
                while (values[i] != null)
                {
                    i = (i + 1) & mask;
                }
                keys[i] = k[j];
                values[i] = v[j];
            }
        }
    }
}
