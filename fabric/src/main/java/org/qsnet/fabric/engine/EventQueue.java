package org.qsnet.fabric.engine;

import java.util.Arrays;

/**
 * Binary min-heap of events ordered by {@code (time, origin, originSeq)}.
 */
final class EventQueue
{
    private Event[] heap = new Event[1024];
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
        return size == 0 ? Long.MAX_VALUE : heap[0].timeNs;
    }

    void add(final Event e)
    {
        if (size == heap.length)
        {
            heap = Arrays.copyOf(heap, size * 2);
        }
        int i = size++;
        final Event[] h = heap;
        while (i > 0)
        {
            final int parent = (i - 1) >>> 1;
            final Event p = h[parent];
            if (!e.before(p))
            {
                break;
            }
            h[i] = p;
            i = parent;
        }
        h[i] = e;
    }

    Event poll()
    {
        final Event[] h = heap;
        final Event top = h[0];
        final int n = --size;
        final Event last = h[n];
        h[n] = null;
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
                Event c = h[child];
                final int right = child + 1;
                if (right < n && h[right].before(c))
                {
                    child = right;
                    c = h[right];
                }
                if (!c.before(last))
                {
                    break;
                }
                h[i] = c;
                i = child;
            }
            h[i] = last;
        }
        return top;
    }
}
