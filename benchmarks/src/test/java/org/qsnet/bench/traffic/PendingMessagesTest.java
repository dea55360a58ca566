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
        final PendingMessages q = new PendingMessages(4095);
        final ArrayDeque<M> reference = new ArrayDeque<>();
        final java.util.SplittableRandom random = new java.util.SplittableRandom(7);
        long id = (4095L << 32);
        for (int step = 0; step < 200_000; step++)
        {
            // phases of growth and of draining, so the ring wraps at many sizes
            final boolean add = reference.isEmpty() || random.nextInt(100) < ((step / 5000) % 2 == 0 ? 70 : 30);
            if (add)
            {
                // the source's own messages, and answers to reads (source = destination, the asker)
                final int destination = random.nextInt(1 << 20);
                final boolean answer = random.nextInt(4) == 0;
                final M m = new M(id++, random.nextLong(Long.MAX_VALUE), answer ? destination : 4095, destination,
                    random.nextInt(Integer.MAX_VALUE), !answer && random.nextBoolean());
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
        // an empty queue takes the next id as its new first; one that waits, only the following id
        q.add(id + 5, 1, 4095, 3, 320, false);
        assertEquals(id + 5, q.firstId());
        q.add(id + 6, 2, 4095, 4, 320, false);
        q.removeFirst();
        assertEquals(id + 6, q.firstId());
        assertEquals(4, q.firstDestination());
        assertEquals(2, q.firstGeneratedNs());
    }

    @Test
    void shouldHoldAQueueOfOneRunWithoutCopyingAndDrainItInOrder()
    {
        // a saturated source's whole run: hundreds of chunks, the ring of their references grown
        // several times while the head drains behind the tail
        final PendingMessages q = new PendingMessages(3);
        long next = 3L << 32;
        long first = next;
        for (int round = 0; round < 3; round++)
        {
            for (int i = 0; i < 100_000; i++)
            {
                q.add(next, next * 7, 3, (int)(next % 4096), (int)(next % 5000), (next & 1) == 0);
                next++;
                if (i % 3 == 0)
                {
                    assertEquals(first, q.firstId());
                    assertEquals(first * 7, q.firstGeneratedNs());
                    assertEquals((int)(first % 5000), q.firstBytes());
                    q.removeFirst();
                    first++;
                }
            }
        }
        while (!q.isEmpty())
        {
            assertEquals(first, q.firstId());
            assertEquals((int)(first % 4096), q.firstDestination());
            assertEquals((first & 1) == 0, q.firstReadRequest());
            q.removeFirst();
            first++;
        }
        assertEquals(next, first);
    }

    @Test
    void shouldRefuseWhatItCannotGiveBackByName()
    {
        final PendingMessages q = new PendingMessages(7);
        final IllegalArgumentException owner = assertThrows(IllegalArgumentException.class,
            () -> q.add(8L << 32, 0, 7, 1, 320, false));
        assertTrue(owner.getMessage().contains("upper half must be the source's node 7"), owner.getMessage());
        q.add(7L << 32 | 3, 0, 7, 1, 320, false);
        final IllegalArgumentException gap = assertThrows(IllegalArgumentException.class,
            () -> q.add(7L << 32 | 5, 0, 7, 1, 320, false));
        assertTrue(gap.getMessage().contains("must follow the last queued one, 700000003"), gap.getMessage());
        final IllegalArgumentException stranger = assertThrows(IllegalArgumentException.class,
            () -> q.add(7L << 32 | 4, 0, 2, 1, 320, false));
        assertTrue(stranger.getMessage().contains("from 2 to 1"), stranger.getMessage());
        assertEquals(1, q.size());
    }
}
