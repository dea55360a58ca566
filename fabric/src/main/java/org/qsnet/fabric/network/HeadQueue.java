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
    // first wait): an output's empty queue is checked without touching any other object
    private Head[] high;
    private int highCount;
    private Head[] normal;
    private int normalCount;

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
        if (h.packet.priority() == 1)
        {
            high = append(high, highCount++, h);
        }
        else
        {
            normal = append(normal, normalCount++, h);
        }
    }

    private static Head[] append(final Head[] heads, final int count, final Head h)
    {
        Head[] a = heads;
        if (a == null)
        {
            a = new Head[2];
        }
        else if (count == a.length)
        {
            a = Arrays.copyOf(a, count * 2);
        }
        a[count] = h;
        return a;
    }

    /**
     * @param nowNs     the time of the grant.
     * @param agingNs   promotion of normal priority after this wait (0: none).
     * @param lastInput id of the input granted last by this output (round-robin among equal ages).
     * @return the header the arbiter grants next, or null when none waits.
     */
    Head peek(final long nowNs, final long agingNs, final int lastInput)
    {
        final Head hi = highCount == 0 ? null : oldest(high, highCount, lastInput);
        final Head lo = normalCount == 0 ? null : oldest(normal, normalCount, lastInput);
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
        final int i = indexOf(high, highCount, h);
        if (i >= 0)
        {
            highCount = removeAt(high, highCount, i);
        }
        else
        {
            final int j = indexOf(normal, normalCount, h);
            if (j >= 0)
            {
                normalCount = removeAt(normal, normalCount, j);
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
    private static int removeAt(final Head[] heads, final int count, final int i)
    {
        final int n = count - 1;
        System.arraycopy(heads, i + 1, heads, i, n - i);
        heads[n] = null;
        return n;
    }

    private static Head oldest(final Head[] heads, final int count, final int lastInput)
    {
        Head best = heads[0];
        for (int i = 1; i < count; i++)
        {
            final Head h = heads[i];
            if (older(h, best, lastInput))
            {
                best = h;
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
