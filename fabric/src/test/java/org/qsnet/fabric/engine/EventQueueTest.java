package org.qsnet.fabric.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Comparator;
import java.util.TreeSet;
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
        checkAgainstReference(firstRank, 4, 20_000, 3);
    }

    /**
     * Adds (with times {@code now + [0, spread)}, one in 50 far in the future) and polls: in
     * the first half of the steps one in {@code pollOneIn} is a poll (the queue grows), in the
     * second half one in {@code pollOneIn} is an add (it drains). Peeks before each add as the
     * kernel's fast path does, and checks every poll against a sorted reference.
     */
    private static void checkAgainstReference(final long firstRank, final int spread, final int steps, final int pollOneIn)
    {
        final EventQueue q = new EventQueue();
        q.setNextRankForTest(firstRank);
        final SplittableRandom rnd = new SplittableRandom(42);
        final long[] originSeq = new long[8];
        final TreeSet<Key> pending = new TreeSet<>(ORDER);
        long now = 0;
        for (int step = 0; step < steps; step++)
        {
            final boolean draining = step >= steps / 2;
            if (pending.isEmpty() || (rnd.nextInt(pollOneIn) == 0) == draining)
            {
                final int origin = rnd.nextInt(8) * 1000;
                final long at = now + (rnd.nextInt(50) == 0 ? 1_000_000_000L + rnd.nextInt(spread) : rnd.nextInt(spread));
                final Key k = new Key(at, origin, originSeq[origin / 1000]++);
                if (!pending.isEmpty())
                {
                    assertEquals(pending.first().timeNs(), q.peekTimeNs());
                }
                pending.add(k);
                q.add(k.timeNs(), k.origin(), k.seq(), t -> { });
            }
            else
            {
                final Key expected = pending.pollFirst();
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
    void shouldPollInOrderWhenTimesSpreadWideOrCoincideAndTheQueueGrowsAndDrains()
    {
        // grows to thousands of events, then drains, with times spread over microseconds and a
        // few far in the future; and every event at one time (order by origin, then sequence)
        checkAgainstReference(0, 5_000, 30_000, 4);
        checkAgainstReference(0, 100_000, 30_000, 3);
        checkAgainstReference(0, 1, 10_000, 3);
    }

    @Test
    void shouldReportEmptyQueueTimeAsUnbounded()
    {
        final EventQueue q = new EventQueue();
        assertTrue(q.isEmpty());
        assertEquals(Long.MAX_VALUE, q.peekTimeNs());
    }
}
