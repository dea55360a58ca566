package org.qsnet.bench.traffic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayDeque;

import org.junit.jupiter.api.Test;

/**
 * The primitive source queue gives back every field of every message, first in first out,
 * through wrap-around and growth, against a queue of objects.
 */
class PendingMessagesTest
{
    private record M(long id, long generatedNs, int source, int destination, int bytes, boolean read)
    {
    }

    @Test
    void shouldReturnMessagesInOrderWithEveryFieldThroughWrapAroundAndGrowth()
    {
        final PendingMessages q = new PendingMessages();
        final ArrayDeque<M> reference = new ArrayDeque<>();
        final java.util.SplittableRandom random = new java.util.SplittableRandom(7);
        long id = (4095L << 32);
        for (int step = 0; step < 200_000; step++)
        {
            // phases of growth and of draining, so the ring wraps at many sizes
            final boolean add = reference.isEmpty() || random.nextInt(100) < ((step / 5000) % 2 == 0 ? 70 : 30);
            if (add)
            {
                final M m = new M(id++, random.nextLong(Long.MAX_VALUE), random.nextInt(4096), random.nextInt(4096),
                    random.nextInt(Integer.MAX_VALUE / 2), random.nextBoolean());
                q.add(m.id(), m.generatedNs(), m.source(), m.destination(), m.bytes(), m.read());
                reference.addLast(m);
            }
            else
            {
                final M m = reference.pollFirst();
                assertEquals(m, new M(q.firstId(), q.firstGeneratedNs(), q.firstSource(), q.firstDestination(),
                    q.firstBytes(), q.firstReadRequest()), "message at step " + step);
                q.removeFirst();
            }
            assertEquals(reference.size(), q.size());
        }
        while (!reference.isEmpty())
        {
            assertEquals(reference.pollFirst().id(), q.firstId());
            q.removeFirst();
        }
        assertTrue(q.isEmpty());
        assertThrows(IllegalStateException.class, q::removeFirst);
    }
}
