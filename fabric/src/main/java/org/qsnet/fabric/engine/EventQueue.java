package org.qsnet.fabric.engine;

import java.util.Arrays;

/**
 * Binary min-heap of events ordered by {@code (time, origin, originSeq)}. The keys live in
 * parallel primitive arrays so that sifting compares without touching the event objects.
 */
final class EventQueue
{
    private long[] times = new long[1024];
    private int[] origins = new int[1024];
    private long[] seqs = new long[1024];
    private Event[] events = new Event[1024];
    private int size;

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
        return size == 0 ? Long.MAX_VALUE : times[0];
    }

    private static boolean before(final long t1, final int o1, final long s1, final long t2, final int o2, final long s2)
    {
        if (t1 != t2)
        {
            return t1 < t2;
        }
        if (o1 != o2)
        {
            return o1 < o2;
        }
        return s1 < s2;
    }

    void add(final Event e)
    {
        if (size == events.length)
        {
            final int n = size * 2;
            times = Arrays.copyOf(times, n);
            origins = Arrays.copyOf(origins, n);
            seqs = Arrays.copyOf(seqs, n);
            events = Arrays.copyOf(events, n);
        }
        final long[] ts = times;
        final int[] os = origins;
        final long[] ss = seqs;
        final Event[] es = events;
        final long t = e.timeNs;
        final int o = e.origin;
        final long s = e.originSeq;
        int i = size++;
        while (i > 0)
        {
            final int parent = (i - 1) >>> 1;
            if (!before(t, o, s, ts[parent], os[parent], ss[parent]))
            {
                break;
            }
            ts[i] = ts[parent];
            os[i] = os[parent];
            ss[i] = ss[parent];
            es[i] = es[parent];
            i = parent;
        }
        ts[i] = t;
        os[i] = o;
        ss[i] = s;
        es[i] = e;
    }

    Event poll()
    {
        final long[] ts = times;
        final int[] os = origins;
        final long[] ss = seqs;
        final Event[] es = events;
        final Event top = es[0];
        final int n = --size;
        final long t = ts[n];
        final int o = os[n];
        final long s = ss[n];
        final Event last = es[n];
        es[n] = null;
        if (n > 0)
        {
            int i = 0;
            while (true)
            {
                int child = (i << 1) + 1;
                if (child >= n)
                {
                    break;
                }
                final int right = child + 1;
                if (right < n && before(ts[right], os[right], ss[right], ts[child], os[child], ss[child]))
                {
                    child = right;
                }
                if (!before(ts[child], os[child], ss[child], t, o, s))
                {
                    break;
                }
                ts[i] = ts[child];
                os[i] = os[child];
                ss[i] = ss[child];
                es[i] = es[child];
                i = child;
            }
            ts[i] = t;
            os[i] = o;
            ss[i] = s;
            es[i] = last;
        }
        return top;
    }
}
