package org.qsnet.fabric.engine;

import java.util.Arrays;

/**
 * Four-ary min-heap of events ordered by {@code (time, origin, originSeq)}, held in flat
 * primitive arrays: no object per event, and a comparison touches one array only.
 *
 * <p>Layout of heap slot {@code i}:
 * <pre>
 *   keys[3i]     time, ns
 *   keys[3i + 1] tie = origin &lt;&lt; 32 | rank     (origin &gt;= 0, rank unsigned 32 bits)
 *   keys[3i + 2] originSeq (for the trace hash only; moves with the key, in the same cache lines)
 *   handlers[i]  what to run
 * </pre>
 *
 * <p>Why {@code rank} may stand in for {@code originSeq}: an origin's sequence numbers are
 * handed out as its events are scheduled, so among the events of one origin, schedule order
 * (the queue's global rank, which only grows) is sequence order; events of different origins
 * are ordered by origin before the rank is looked at. Comparing {@code (time, tie)} is
 * therefore exactly the {@code (time, origin, originSeq)} order. When the rank would pass 32
 * bits, the pending events are renumbered {@code 0..size-1} in tie order, which leaves every
 * pairwise order (and so the heap) unchanged.
 *
 * <p>A four-ary heap halves the depth of a binary one, and the four children of a slot sit
 * side by side in {@code keys} (96 bytes), so a level of sift-down costs about two cache lines.
 */
final class EventQueue
{
    private static final long RANK_LIMIT = 1L << 32;

    private long[] keys = new long[3 * 1024];
    private EventHandler[] handlers = new EventHandler[1024];
    private int size;
    private long nextRank;

    /** Key of the event returned by the last {@link #poll()}. */
    long polledTimeNs;
    int polledOrigin;
    long polledSeq;

    int size()
    {
        return size;
    }

    boolean isEmpty()
    {
        return size == 0;
    }

    long peekTimeNs()
    {
        return size == 0 ? Long.MAX_VALUE : keys[0];
    }

    void add(final long timeNs, final int origin, final long originSeq, final EventHandler handler)
    {
        if (size == handlers.length)
        {
            grow();
        }
        if (nextRank == RANK_LIMIT)
        {
            renumber();
        }
        final long tie = ((long)origin << 32) | nextRank++;
        final long[] ks = keys;
        final EventHandler[] hs = handlers;
        int i = size++;
        while (i > 0)
        {
            final int parent = (i - 1) >>> 2;
            final int p = parent * 3;
            final long pt = ks[p];
            if (timeNs > pt || (timeNs == pt && tie > ks[p + 1]))
            {
                break;
            }
            final int x = i * 3;
            ks[x] = pt;
            ks[x + 1] = ks[p + 1];
            ks[x + 2] = ks[p + 2];
            hs[i] = hs[parent];
            i = parent;
        }
        final int x = i * 3;
        ks[x] = timeNs;
        ks[x + 1] = tie;
        ks[x + 2] = originSeq;
        hs[i] = handler;
    }

    /**
     * Removes the first event; its key is left in {@link #polledTimeNs}, {@link #polledOrigin}
     * and {@link #polledSeq}.
     *
     * @return its handler.
     */
    EventHandler poll()
    {
        final long[] ks = keys;
        final EventHandler[] hs = handlers;
        final EventHandler top = hs[0];
        polledTimeNs = ks[0];
        polledOrigin = (int)(ks[1] >>> 32);
        polledSeq = ks[2];
        final int n = --size;
        final int lx = n * 3;
        final long t = ks[lx];
        final long k = ks[lx + 1];
        final long s = ks[lx + 2];
        final EventHandler last = hs[n];
        hs[n] = null;
        if (n > 0)
        {
            int i = 0;
            while (true)
            {
                final int first = (i << 2) + 1;
                if (first >= n)
                {
                    break;
                }
                // the least of up to four children
                int c = first;
                long ct = ks[first * 3];
                long ck = ks[first * 3 + 1];
                final int end = Math.min(first + 4, n);
                for (int j = first + 1; j < end; j++)
                {
                    final long jt = ks[j * 3];
                    final long jk = ks[j * 3 + 1];
                    if (jt < ct || (jt == ct && jk < ck))
                    {
                        c = j;
                        ct = jt;
                        ck = jk;
                    }
                }
                if (ct > t || (ct == t && ck > k))
                {
                    break;
                }
                final int x = i * 3;
                final int cx = c * 3;
                ks[x] = ct;
                ks[x + 1] = ck;
                ks[x + 2] = ks[cx + 2];
                hs[i] = hs[c];
                i = c;
            }
            final int x = i * 3;
            ks[x] = t;
            ks[x + 1] = k;
            ks[x + 2] = s;
            hs[i] = last;
        }
        return top;
    }

    private void grow()
    {
        final int n = handlers.length * 2;
        keys = Arrays.copyOf(keys, 3 * n);
        handlers = Arrays.copyOf(handlers, n);
    }

    /** Gives the pending events the ranks {@code 0..size-1} in tie order (see the class comment). */
    private void renumber()
    {
        final long[] ties = new long[size];
        for (int i = 0; i < size; i++)
        {
            ties[i] = keys[i * 3 + 1];
        }
        final long[] sorted = ties.clone();
        Arrays.sort(sorted);
        for (int i = 0; i < size; i++)
        {
            final long tie = ties[i];
            final long rank = Arrays.binarySearch(sorted, tie);
            keys[i * 3 + 1] = (tie & ~(RANK_LIMIT - 1)) | rank;
        }
        nextRank = size;
    }

    /** For tests: makes the next rank {@code rank}, to exercise {@link #renumber()}. */
    void setNextRankForTest(final long rank)
    {
        nextRank = rank;
    }
}
