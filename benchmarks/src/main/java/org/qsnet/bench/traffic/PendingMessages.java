package org.qsnet.bench.traffic;

import java.util.Arrays;

/**
 * A traffic source's messages that wait for their first packet to be injected, first in first
 * out, as primitives: two {@code long}s per message in chunks of arrays, no object per message.
 *
 * <p>Why not a queue of objects: at offered loads beyond saturation the source queues grow for
 * the whole run (a 1024-node run at offered load 1.0 holds hundreds of thousands of waiting
 * messages). As objects they all survive young collections and are copied by each of them,
 * which cost about a tenth of the host time of such a run; as primitives in one array the
 * collector never looks inside. A message becomes an object only when its first packet goes.
 *
 * <p>Why two longs and not one per field: every add writes the queue's tail, which at these sizes
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
    /**
     * The messages, in chunks that are never copied: a ring of chunk references from the head's
     * chunk to the tail's. Chunks double from 16 messages up to {@link #MAX_CHUNK}; a drained one is
     * kept for the next that the tail needs.
     */
    private long[][] chunks = new long[8][];
    private int headChunk;
    private int tailChunk;
    /**
     * The head's and the tail's chunks themselves, their lengths, and where in them the first
     * message and the next add are (in {@code long}s): an add or a read of the first message
     * reads this object and the one line of its chunk, not the ring and a chunk's header too.
     */
    private long[] head;
    private long[] tail;
    private int headEnd;
    private int tailEnd;
    private int headAt;
    private int tailAt;
    private int count;
    private long[] spare;
    /** Id of the first message. */
    private long firstId;

    private static final int MAX_CHUNK = 512;

    /**
     * @param owner the node whose source this is: the upper half of every message id, and the
     *              source of every message but a read's answer.
     */
    PendingMessages(final int owner)
    {
        this.owner = owner;
        chunks[0] = head = tail = new long[FIELDS * 16];
        headEnd = tailEnd = head.length;
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
        if (tailAt == tailEnd)
        {
            nextChunk();
        }
        final long[] c = tail;
        final int x = tailAt;
        tailAt = x + FIELDS;
        c[x] = generatedNs;
        c[x + 1] = (answer ? ANSWER : 0) | ((long)destination << 32) | ((long)bytes << 1) | (readRequest ? 1 : 0);
        count++;
    }

    /** The tail's chunk is full: the next one (the spare, or a new one twice the size, up to the largest). */
    private void nextChunk()
    {
        int next = (tailChunk + 1) & (chunks.length - 1);
        if (next == headChunk)
        {
            // the ring of references is full: unroll it from the head's chunk, doubled
            final int n = chunks.length;
            final long[][] bigger = new long[2 * n][];
            for (int i = 0; i < n; i++)
            {
                bigger[i] = chunks[(headChunk + i) & (n - 1)];
            }
            chunks = bigger;
            headChunk = 0;
            next = n;
        }
        long[] c = spare;
        spare = null;
        if (c == null)
        {
            c = new long[Math.min(FIELDS * MAX_CHUNK, 2 * tailEnd)];
        }
        chunks[next] = c;
        tailChunk = next;
        tail = c;
        tailEnd = c.length;
        tailAt = 0;
    }

    long firstId()
    {
        return firstId;
    }

    long firstGeneratedNs()
    {
        return head[headAt];
    }

    int firstSource()
    {
        final long w = head[headAt + 1];
        return w < 0 ? (int)((w >>> 32) & 0x7FFF_FFFF) : owner;
    }

    int firstDestination()
    {
        return (int)((head[headAt + 1] >>> 32) & 0x7FFF_FFFF);
    }

    int firstBytes()
    {
        return (int)(head[headAt + 1] >>> 1) & 0x7FFF_FFFF;
    }

    boolean firstReadRequest()
    {
        return (head[headAt + 1] & 1) != 0;
    }

    void removeFirst()
    {
        if (count == 0)
        {
            throw new IllegalStateException("no message pending");
        }
        headAt += FIELDS;
        count--;
        firstId++;
        if (count == 0)
        {
            // head and tail in one chunk: start it again
            headAt = 0;
            tailAt = 0;
        }
        else if (headAt == headEnd)
        {
            spare = head;
            chunks[headChunk] = null;
            headChunk = (headChunk + 1) & (chunks.length - 1);
            head = chunks[headChunk];
            headEnd = head.length;
            headAt = 0;
        }
    }

    @Override
    public String toString()
    {
        return "PendingMessages[" + owner + ": " + count + " waiting, first " + Long.toHexString(firstId) + "]"
            + (count == 0 ? "" : " " + Arrays.toString(Arrays.copyOfRange(head, headAt, headAt + FIELDS)));
    }
}
