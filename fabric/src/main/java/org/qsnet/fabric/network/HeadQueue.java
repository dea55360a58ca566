package org.qsnet.fabric.network;

import java.util.Arrays;

/**
 * Headers waiting for an output, in the order the Elite's arbiter grants it: within each of the
 * two priority levels the <em>oldest</em> header first, its age being the time since it entered
 * the network (the Elite's aging mechanism, "to ensure a fair delivery of packets in the same
 * priority level"); equal ages go round-robin over the switch inputs, starting after the input
 * granted last. With {@code agingNs > 0}, a normal-priority header that has waited that long at
 * this output is served before younger high-priority ones.
 *
 * <p>Why age and not arrival order: a header from a distant node has already waited at every
 * switch on its way, so serving the output by arrival at this switch lets the inputs nearest to
 * it win again and again (a 64-node hot spot starved remote senders for milliseconds while the
 * three nodes on the hot node's leaf got 48 MB/s each). Serving by age is global oldest-first,
 * which gives every sender of a level the same share.
 */
final class HeadQueue
{
    /** Round-robin distances are taken modulo this (more than any fabric's link count). */
    private static final int INPUTS = 1 << 24;

    // the two priority levels, each in arrival order, in arrays of their own (allocated on the
    // first wait): an output's empty queue is checked without touching any other object. Each
    // header's age sits beside it in a primitive array, so the arbiter's scan for the oldest reads
    // one array instead of one header object per waiting header; the headers are read on a tie.
    private Head[] high;
    private long[] highAges;
    private int highCount;
    private Head[] normal;
    private long[] normalAges;
    private int normalCount;
    /** What the last {@link #peek} returned (null: nothing since), and where it was. */
    private Head peeked;
    private boolean peekedHigh;
    private int peekedIndex;

    boolean isEmpty()
    {
        return highCount == 0 && normalCount == 0;
    }

    int size()
    {
        return highCount + normalCount;
    }

    void add(final Head h)
    {
        peeked = null;
        if (h.packet.priority() == 1)
        {
            if (high == null || highCount == high.length)
            {
                high = grown(high, highCount);
                highAges = grown(highAges, highCount);
            }
            high[highCount] = h;
            highAges[highCount++] = h.ageSinceNs;
        }
        else
        {
            if (normal == null || normalCount == normal.length)
            {
                normal = grown(normal, normalCount);
                normalAges = grown(normalAges, normalCount);
            }
            normal[normalCount] = h;
            normalAges[normalCount++] = h.ageSinceNs;
        }
    }

    /** A level's headers in an array of twice their count (2 for the first wait). */
    private static Head[] grown(final Head[] a, final int count)
    {
        return a == null ? new Head[2] : Arrays.copyOf(a, 2 * count);
    }

    private static long[] grown(final long[] a, final int count)
    {
        return a == null ? new long[2] : Arrays.copyOf(a, 2 * count);
    }

    /**
     * @param nowNs     the time of the grant.
     * @param agingNs   promotion of normal priority after this wait (0: none).
     * @param lastInput id of the input granted last by this output (round-robin among equal ages).
     * @return the header the arbiter grants next, or null when none waits.
     */
    Head peek(final long nowNs, final long agingNs, final int lastInput)
    {
        final int hi = highCount == 0 ? -1 : oldest(high, highAges, highCount, lastInput);
        final int lo = normalCount == 0 ? -1 : oldest(normal, normalAges, normalCount, lastInput);
        final boolean takeHigh;
        if (hi < 0)
        {
            if (lo < 0)
            {
                peeked = null;
                return null;
            }
            takeHigh = false;
        }
        else if (lo < 0)
        {
            takeHigh = true;
        }
        else
        {
            final Head l = normal[lo];
            takeHigh = !(agingNs > 0 && nowNs - l.waitSinceNs >= agingNs && l.waitSinceNs < high[hi].waitSinceNs);
        }
        peekedHigh = takeHigh;
        peekedIndex = takeHigh ? hi : lo;
        peeked = takeHigh ? high[hi] : normal[lo];
        return peeked;
    }

    void remove(final Head h)
    {
        if (h == peeked)
        {
            // the arbiter removes what it just peeked: no search
            if (peekedHigh)
            {
                highCount = removeAt(high, highAges, highCount, peekedIndex);
            }
            else
            {
                normalCount = removeAt(normal, normalAges, normalCount, peekedIndex);
            }
            peeked = null;
            return;
        }
        peeked = null;
        final int i = indexOf(high, highCount, h);
        if (i >= 0)
        {
            highCount = removeAt(high, highAges, highCount, i);
        }
        else
        {
            final int j = indexOf(normal, normalCount, h);
            if (j >= 0)
            {
                normalCount = removeAt(normal, normalAges, normalCount, j);
            }
        }
    }

    private static int indexOf(final Head[] heads, final int count, final Head h)
    {
        for (int i = 0; i < count; i++)
        {
            if (heads[i] == h)
            {
                return i;
            }
        }
        return -1;
    }

    /** Removes entry {@code i}, keeping the others in arrival order. @return the new count. */
    private static int removeAt(final Head[] heads, final long[] ages, final int count, final int i)
    {
        final int n = count - 1;
        System.arraycopy(heads, i + 1, heads, i, n - i);
        System.arraycopy(ages, i + 1, ages, i, n - i);
        heads[n] = null;
        return n;
    }

    /** The index of the header granted first among {@code count} (at least one), as {@link #older}. */
    private static int oldest(final Head[] heads, final long[] ages, final int count, final int lastInput)
    {
        int best = 0;
        long bestAge = ages[0];
        for (int i = 1; i < count; i++)
        {
            final long a = ages[i];
            if (a < bestAge || (a == bestAge && older(heads[i], heads[best], lastInput)))
            {
                best = i;
                bestAge = a;
            }
        }
        return best;
    }

    /**
     * Whether {@code a} is granted before {@code b} within one priority level: the older, then the
     * input nearer after {@code lastInput} in round-robin order, then the smaller packet key (a total
     * order independent of partitioning).
     */
    static boolean older(final Head a, final Head b, final int lastInput)
    {
        if (a.ageSinceNs != b.ageSinceNs)
        {
            return a.ageSinceNs < b.ageSinceNs;
        }
        final int ra = Math.floorMod(a.input() - lastInput - 1, INPUTS);
        final int rb = Math.floorMod(b.input() - lastInput - 1, INPUTS);
        if (ra != rb)
        {
            return ra < rb;
        }
        return a.packet.key() < b.packet.key();
    }

    /**
     * Which of two waiting headers an output serves first: higher effective priority, then as
     * {@link #older}.
     */
    static Head better(final Head a, final Head b, final long nowNs, final long agingNs, final int lastInput)
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
        return older(b, a, lastInput) ? b : a;
    }

    private static int effectivePriority(final Head h, final long nowNs, final long agingNs)
    {
        return h.packet.priority() == 1 || (agingNs > 0 && nowNs - h.waitSinceNs >= agingNs) ? 1 : 0;
    }
}
