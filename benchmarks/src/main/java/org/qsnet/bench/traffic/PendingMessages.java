package org.qsnet.bench.traffic;

import java.util.Arrays;

/**
 * A traffic source's messages that wait for their first packet to be injected, first in first
 * out, as primitives: four {@code long}s per message in one growing ring, no object per message.
 *
 * <p>Why not a queue of objects: at offered loads beyond saturation the source queues grow for
 * the whole run (a 1024-node run at offered load 1.0 holds hundreds of thousands of waiting
 * messages). As objects they all survive young collections and are copied by each of them,
 * which cost about a tenth of the host time of such a run; as primitives in one array the
 * collector never looks inside. A message becomes an object only when its first packet goes.
 *
 * <p>Entry {@code i}: {@code id}, {@code generatedNs}, {@code source << 32 | destination},
 * {@code bytes << 1 | readRequest}.
 */
final class PendingMessages
{
    private static final int FIELDS = 4;

    private long[] ring = new long[FIELDS * 16];
    /** Index (in entries) of the first message. */
    private int head;
    private int count;

    boolean isEmpty()
    {
        return count == 0;
    }

    int size()
    {
        return count;
    }

    void add(final long id, final long generatedNs, final int source, final int destination, final int bytes,
        final boolean readRequest)
    {
        final int capacity = ring.length / FIELDS;
        if (count == capacity)
        {
            grow(capacity);
        }
        final int x = FIELDS * ((head + count) & (ring.length / FIELDS - 1));
        final long[] r = ring;
        r[x] = id;
        r[x + 1] = generatedNs;
        r[x + 2] = ((long)source << 32) | (destination & 0xFFFF_FFFFL);
        r[x + 3] = ((long)bytes << 1) | (readRequest ? 1 : 0);
        count++;
    }

    private void grow(final int capacity)
    {
        // unroll the ring so that the first message is at entry 0, then double it
        final long[] bigger = new long[2 * ring.length];
        final int first = FIELDS * head;
        final int tail = ring.length - first;
        System.arraycopy(ring, first, bigger, 0, tail);
        System.arraycopy(ring, 0, bigger, tail, first);
        ring = bigger;
        head = 0;
        assert count == capacity;
    }

    long firstId()
    {
        return ring[FIELDS * head];
    }

    long firstGeneratedNs()
    {
        return ring[FIELDS * head + 1];
    }

    int firstSource()
    {
        return (int)(ring[FIELDS * head + 2] >>> 32);
    }

    int firstDestination()
    {
        return (int)ring[FIELDS * head + 2];
    }

    int firstBytes()
    {
        return (int)(ring[FIELDS * head + 3] >>> 1);
    }

    boolean firstReadRequest()
    {
        return (ring[FIELDS * head + 3] & 1) != 0;
    }

    void removeFirst()
    {
        if (count == 0)
        {
            throw new IllegalStateException("no message pending");
        }
        head = (head + 1) & (ring.length / FIELDS - 1);
        count--;
    }

    @Override
    public String toString()
    {
        return "PendingMessages[" + count + " of " + ring.length / FIELDS + ", first at " + head + "]"
            + (count == 0 ? "" : " " + Arrays.toString(Arrays.copyOfRange(ring, FIELDS * head, FIELDS * head + FIELDS)));
    }
}
