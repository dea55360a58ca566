package org.qsnet.fabric.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;

class EventQueueTest
{
    private record Key(long timeNs, int origin, long seq)
    {
    }

    private static final Comparator<Key> ORDER = Comparator.comparingLong(Key::timeNs).thenComparingInt(Key::origin)
        .thenComparingLong(Key::seq);

    /** Interleaves adds and polls with many ties and checks every poll against a sorted reference. */
    private static void checkAgainstReference(final long firstRank)
    {
        final EventQueue q = new EventQueue();
        q.setNextRankForTest(firstRank);
        final SplittableRandom rnd = new SplittableRandom(42);
        final long[] originSeq = new long[8];
        final List<Key> pending = new ArrayList<>();
        long now = 0;
        for (int step = 0; step < 20_000; step++)
        {
            if (pending.isEmpty() || rnd.nextInt(3) != 0)
            {
                final int origin = rnd.nextInt(8) * 1000;
                final Key k = new Key(now + rnd.nextInt(4), origin, originSeq[origin / 1000]++);
                pending.add(k);
                q.add(k.timeNs(), k.origin(), k.seq(), t -> { });
            }
            else
            {
                pending.sort(ORDER);
                final Key expected = pending.remove(0);
                q.poll();
                assertEquals(expected, new Key(q.polledTimeNs, q.polledOrigin, q.polledSeq));
                now = expected.timeNs();
            }
            assertEquals(pending.size(), q.size());
        }
    }

    @Test
    void shouldPollInTimeOriginSequenceOrder()
    {
        checkAgainstReference(0);
    }

    @Test
    void shouldKeepTheOrderWhenTheRankWrapsAndPendingEventsAreRenumbered()
    {
        // the rank passes 2^32 a few steps in, with events of every origin pending
        checkAgainstReference((1L << 32) - 50);
    }

    @Test
    void shouldReportEmptyQueueTimeAsUnbounded()
    {
        final EventQueue q = new EventQueue();
        assertTrue(q.isEmpty());
        assertEquals(Long.MAX_VALUE, q.peekTimeNs());
    }
}
