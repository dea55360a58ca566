package org.qsnet.fabric.model;

import java.util.ArrayDeque;

/**
 * Headers waiting for an output, FIFO within each of the two priority levels. With aging, a
 * normal-priority header that has waited long enough is served before younger high-priority
 * ones.
 */
final class HeadQueue
{
    private final ArrayDeque<Head> high = new ArrayDeque<>(2);
    private final ArrayDeque<Head> normal = new ArrayDeque<>(2);

    boolean isEmpty()
    {
        return high.isEmpty() && normal.isEmpty();
    }

    int size()
    {
        return high.size() + normal.size();
    }

    void add(final Head h)
    {
        (h.packet.priority() == 1 ? high : normal).addLast(h);
    }

    Head peek(final long nowNs, final long agingNs)
    {
        final Head hi = high.peekFirst();
        final Head lo = normal.peekFirst();
        if (hi == null)
        {
            return lo;
        }
        if (lo == null)
        {
            return hi;
        }
        return agingNs > 0 && nowNs - lo.waitSinceNs >= agingNs && lo.waitSinceNs < hi.waitSinceNs ? lo : hi;
    }

    void remove(final Head h)
    {
        if (high.peekFirst() == h)
        {
            high.pollFirst();
        }
        else
        {
            normal.pollFirst();
        }
    }

    /**
     * Which of two waiting headers an output serves first: higher effective priority, then the
     * older, then the smaller packet key (a total order independent of partitioning).
     */
    static Head better(final Head a, final Head b, final long nowNs, final long agingNs)
    {
        if (a == null)
        {
            return b;
        }
        if (b == null)
        {
            return a;
        }
        final int pa = effectivePriority(a, nowNs, agingNs);
        final int pb = effectivePriority(b, nowNs, agingNs);
        if (pa != pb)
        {
            return pa > pb ? a : b;
        }
        if (a.waitSinceNs != b.waitSinceNs)
        {
            return a.waitSinceNs < b.waitSinceNs ? a : b;
        }
        return a.packet.key() <= b.packet.key() ? a : b;
    }

    private static int effectivePriority(final Head h, final long nowNs, final long agingNs)
    {
        return h.packet.priority() == 1 || (agingNs > 0 && nowNs - h.waitSinceNs >= agingNs) ? 1 : 0;
    }
}
