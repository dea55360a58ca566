package org.qsnet.elan3;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.TreeMap;

import org.qsnet.fabric.QsnetException;

/**
 * What the ranks of one job measured, for the experiment that launched it: each rank records
 * named figures (simulated times, counts, bytes) under its own index, and the experiment reads
 * them after the run. A rank records only what it saw itself; a figure that needs two ranks'
 * times (a one-way latency: posted by one, seen by the other) is computed after the run from both
 * records, never by one rank reading another's objects during it.
 *
 * <p>That is what lets a job run in several JVMs ({@code qsnet <experiment> --jvms N}): each
 * partition's ranks fill the partition's own {@code RankResults}, {@link Prun#runJob} ships them
 * to partition 0 and back ({@link #encode}, {@link #merge}), and every JVM reads the same figures
 * as one JVM would. In one JVM, and in partitions that are threads of one JVM, the ranks share the
 * one object.
 *
 * <pre>
 *   encoding: int count, then count records sorted by (name, index):
 *     UTF name | int index | long value       (a double is stored as its raw bits)
 * </pre>
 */
public final class RankResults
{
    /** A record's key: the figure's name and the rank (or other index) it belongs to. */
    private record Key(String name, int index) implements Comparable<Key>
    {
        @Override
        public int compareTo(final Key o)
        {
            final int c = name.compareTo(o.name);
            return c != 0 ? c : Integer.compare(index, o.index);
        }
    }

    private final TreeMap<Key, Long> values = new TreeMap<>();

    /**
     * Records a figure (again: the last one counts, as a variable a loop assigns).
     *
     * @param name  the figure.
     * @param index the rank that measured it, or another index of the figure.
     * @param value the value.
     */
    public synchronized void put(final String name, final int index, final long value)
    {
        values.put(new Key(name, index), value);
    }

    /**
     * Records a figure that is a {@code double} (kept bit for bit).
     *
     * @param name  the figure.
     * @param index the rank that measured it, or another index of the figure.
     * @param value the value.
     */
    public void putDouble(final String name, final int index, final double value)
    {
        put(name, index, Double.doubleToRawLongBits(value));
    }

    /**
     * @param name  the figure.
     * @param index its index.
     * @return whether a rank recorded it.
     */
    public synchronized boolean has(final String name, final int index)
    {
        return values.containsKey(new Key(name, index));
    }

    /**
     * @param name  the figure.
     * @param index its index.
     * @return its value.
     * @throws QsnetException if no rank recorded it (the job did not run as the experiment expects).
     */
    public synchronized long get(final String name, final int index)
    {
        final Long v = values.get(new Key(name, index));
        if (v == null)
        {
            throw new QsnetException("rank result " + name + "[" + index + "] was not recorded by any rank");
        }
        return v;
    }

    /**
     * @param name  the figure.
     * @param index its index.
     * @return its value, recorded with {@link #putDouble}.
     * @throws QsnetException if no rank recorded it.
     */
    public double getDouble(final String name, final int index)
    {
        return Double.longBitsToDouble(get(name, index));
    }

    /**
     * @param name the figure.
     * @return the largest value recorded under {@code name}, over every index.
     * @throws QsnetException if no rank recorded it.
     */
    public synchronized long max(final String name)
    {
        long m = Long.MIN_VALUE;
        boolean any = false;
        for (final Map.Entry<Key, Long> e : values.subMap(new Key(name, Integer.MIN_VALUE), true, new Key(name,
            Integer.MAX_VALUE), true).entrySet())
        {
            m = Math.max(m, e.getValue());
            any = true;
        }
        if (!any)
        {
            throw new QsnetException("rank result " + name + " was not recorded by any rank");
        }
        return m;
    }

    /**
     * @return every record, in the encoding above.
     */
    public synchronized byte[] encode()
    {
        int bytes = 4;
        for (final Key k : values.keySet())
        {
            bytes += 2 + k.name.getBytes(StandardCharsets.UTF_8).length + 4 + 8;
        }
        final ByteBuffer b = ByteBuffer.allocate(bytes);
        b.putInt(values.size());
        for (final Map.Entry<Key, Long> e : values.entrySet())
        {
            final byte[] name = e.getKey().name.getBytes(StandardCharsets.UTF_8);
            QsnetException.require(name.length <= 0xffff, "rank result name", e.getKey().name, "must be at most 65535 bytes");
            b.putShort((short)name.length).put(name).putInt(e.getKey().index).putLong(e.getValue());
        }
        return b.array();
    }

    /**
     * Adds the records of another partition's ranks ({@link #encode}).
     *
     * @param encoded their records.
     * @throws QsnetException if a record is here already with another value (two ranks in two
     * partitions recorded the same figure).
     */
    public synchronized void merge(final byte[] encoded)
    {
        final ByteBuffer b = ByteBuffer.wrap(encoded);
        final int n = b.getInt();
        for (int i = 0; i < n; i++)
        {
            final byte[] name = new byte[b.getShort() & 0xffff];
            b.get(name);
            final Key k = new Key(new String(name, StandardCharsets.UTF_8), b.getInt());
            final long v = b.getLong();
            final Long old = values.putIfAbsent(k, v);
            if (old != null && old != v)
            {
                throw new QsnetException("rank result " + k.name + "[" + k.index + "] was recorded as " + old + " and as "
                    + v + " by ranks of two partitions");
            }
        }
        QsnetException.require(!b.hasRemaining(), "rank results", encoded.length + " bytes", "must hold exactly "
            + n + " records");
    }

    @Override
    public synchronized String toString()
    {
        return values.toString();
    }
}
