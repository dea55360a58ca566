package org.qsnet.bench.traffic;

import java.util.Arrays;

/**
 * A traffic source's messages that wait for their first packet to be injected, first in first
 * out, as primitives: two {@code long}s per message in one growing ring, no object per message.
 *
 * <p>Why not a queue of objects: at offered loads beyond saturation the source queues grow for
 * the whole run (a 1024-node run at offered load 1.0 holds hundreds of thousands of waiting
 * messages). As objects they all survive young collections and are copied by each of them,
 * which cost about a tenth of the host time of such a run; as primitives in one array the
 * collector never looks inside. A message becomes an object only when its first packet goes.
 *
 * <p>Why two longs and not one per field: every add writes the ring's tail, which at these sizes
 * is memory the cache no longer holds, so the bytes per message are the misses per message. What
 * need not be stored is not: a source numbers its messages one after the other, so a waiting
 * message's id is the first one's plus its place; its source is the owner, or, for the answer to
 * a read, the node it goes back to, its destination.
 *
 * <p>Entry {@code i}: {@code generatedNs}, then {@code answer << 63 | destination << 32 |
 * bytes << 1 | readRequest}.
 */
final class PendingMessages
{
    private static final int FIELDS = 2;
    private static final long ANSWER = Long.MIN_VALUE;

    private final int owner;
    private long[] ring = new long[FIELDS * 16];
    /** Index (in entries) of the first message. */
    private int head;
    private int count;
    /** Id of the first message. */
    private long firstId;

    /**
     * @param owner the node whose source this is: the upper half of every message id, and the
     *              source of every message but a read's answer.
     */
    PendingMessages(final int owner)
    {
        this.owner = owner;
    }

    boolean isEmpty()
    {
        return count == 0;
    }

    int size()
    {
        return count;
    }

    /**
     * Queues a message. Its id must be {@code owner << 32 | n}, {@code n} one more than the last
     * queued message's while any waits; its source the owner, or its destination for the answer
     * to a read (which goes back to the node that asked).
     */
    void add(final long id, final long generatedNs, final int source, final int destination, final int bytes,
        final boolean readRequest)
    {
        if (count == 0)
        {
            if (id >>> 32 != owner)
            {
                throw new IllegalArgumentException("message id " + Long.toHexString(id) + " of source " + owner
                    + ": the upper half must be the source's node " + owner);
            }
            firstId = id;
        }
        else if (id != firstId + count)
        {
            throw new IllegalArgumentException("message id " + Long.toHexString(id) + " of source " + owner
                + ": must follow the last queued one, " + Long.toHexString(firstId + count - 1));
        }
        final boolean answer = source != owner;
        if (answer && source != destination || destination < 0 || bytes < 0)
        {
            throw new IllegalArgumentException("message from " + source + " to " + destination + " of " + bytes
                + " bytes queued at source " + owner + ": the source must be " + owner + " or, for a read's answer,"
                + " the destination; nodes and sizes must not be negative");
        }
        final int capacity = ring.length / FIELDS;
        if (count == capacity)
        {
            grow(capacity);
        }
        final int x = FIELDS * ((head + count) & (ring.length / FIELDS - 1));
        final long[] r = ring;
        r[x] = generatedNs;
        r[x + 1] = (answer ? ANSWER : 0) | ((long)destination << 32) | ((long)bytes << 1) | (readRequest ? 1 : 0);
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
        return firstId;
    }

    long firstGeneratedNs()
    {
        return ring[FIELDS * head];
    }

    int firstSource()
    {
        final long w = ring[FIELDS * head + 1];
        return w < 0 ? (int)((w >>> 32) & 0x7FFF_FFFF) : owner;
    }

    int firstDestination()
    {
        return (int)((ring[FIELDS * head + 1] >>> 32) & 0x7FFF_FFFF);
    }

    int firstBytes()
    {
        return (int)(ring[FIELDS * head + 1] >>> 1) & 0x7FFF_FFFF;
    }

    boolean firstReadRequest()
    {
        return (ring[FIELDS * head + 1] & 1) != 0;
    }

    void removeFirst()
    {
        if (count == 0)
        {
            throw new IllegalStateException("no message pending");
        }
        head = (head + 1) & (ring.length / FIELDS - 1);
        count--;
        firstId++;
    }

    @Override
    public String toString()
    {
        return "PendingMessages[" + owner + ": " + count + " of " + ring.length / FIELDS + ", first at " + head + "]"
            + (count == 0 ? "" : " " + Arrays.toString(Arrays.copyOfRange(ring, FIELDS * head, FIELDS * head + FIELDS)));
    }
}
