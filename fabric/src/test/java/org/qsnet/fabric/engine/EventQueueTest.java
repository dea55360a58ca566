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
        checkAgainstReference(new EventQueue(), firstRank, spread, steps, pollOneIn, 50, 1_000_000_000L);
    }

    /**
     * As above, on {@code q}, with one add in {@code farOneIn} at {@code farNs} plus the spread
     * (beyond the ring's reach: the overflow).
     */
    private static void checkAgainstReference(final EventQueue q, final long firstRank, final int spread, final int steps,
        final int pollOneIn, final int farOneIn, final long farNs)
    {
        q.setNextRankForTest(firstRank);
        final SplittableRandom rnd = new SplittableRandom(42 + spread);
        final long[] originSeq = new long[8];
        final TreeSet<Key> pending = new TreeSet<>(ORDER);
        long now = 0;
        while (!q.isEmpty())
        {
            q.poll();
            now = q.polledTimeNs;
        }
        for (int step = 0; step < steps; step++)
        {
            final boolean draining = step >= steps / 2;
            if (pending.isEmpty() || (rnd.nextInt(pollOneIn) == 0) == draining)
            {
                final int origin = rnd.nextInt(8) * 1000;
                final long at = now + (rnd.nextInt(farOneIn) == 0 ? farNs + rnd.nextInt(spread) : rnd.nextInt(spread));
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
    void shouldMergeTheSortedBucketWithEventsAddedToItWhileItIsPolled()
    {
        // thousands pending over 3 ns: each bucket that becomes current holds hundreds of events
        // (sorted at once), and adds at the current time keep arriving while it is polled (they
        // go to the heap, and every poll takes the earlier of the two)
        checkAgainstReference(0, 3, 60_000, 5);
        checkAgainstReference((1L << 32) - 20_000, 2, 60_000, 5);
    }

    @Test
    void shouldPollInOrderWhenThePaceOfTimeChangesAndManyEventsGoFarAhead()
    {
        // one queue through phases whose events are ns apart, then us, then all at one time, then
        // ns again: its buckets narrow and widen (re-filing what is pending), and with one add in
        // four far ahead its ring doubles
        final EventQueue q = new EventQueue();
        checkAgainstReference(q, 0, 1000, 100_000, 3, 4, 20_000);
        assertTrue(q.ringBuckets() > 1024, "ring doubled: " + q.ringBuckets());
        final long narrow = q.bucketWidthNs();
        checkAgainstReference(q, 0, 50_000, 60_000, 3, 4, 5_000_000);
        assertTrue(q.bucketWidthNs() > narrow, "buckets widened: " + narrow + " -> " + q.bucketWidthNs());
        final int refiles = q.refiles;
        checkAgainstReference(q, 0, 1, 40_000, 3, 1000, 100);
        checkAgainstReference(q, 0, 8, 60_000, 3, 8, 100_000);
        assertTrue(q.refiles > refiles, "re-filed after the pace changed");
    }

    @Test
    void shouldPollABurstOfEventsAtOneTimeFromOriginsInRandomOrder()
    {
        // a 4096-process collective: every process schedules at one time, in an order unrelated to
        // its origin id; the queue must hand them out by origin
        final EventQueue q = new EventQueue();
        final SplittableRandom rnd = new SplittableRandom(7);
        final int n = 4096;
        final int[] order = new int[n];
        for (int i = 0; i < n; i++)
        {
            order[i] = i;
        }
        for (int i = n - 1; i > 0; i--)
        {
            final int j = rnd.nextInt(i + 1);
            final int t = order[i];
            order[i] = order[j];
            order[j] = t;
        }
        for (int round = 0; round < 3; round++)
        {
            final long at = 1_000 + round * 10_000L;
            for (final int origin : order)
            {
                q.add(at, origin, round, t -> { });
            }
            for (int origin = 0; origin < n; origin++)
            {
                q.poll();
                assertEquals(new Key(at, origin, round), new Key(q.polledTimeNs, q.polledOrigin, q.polledSeq));
            }
        }
        assertTrue(q.isEmpty());
    }

    @Test
    void shouldSortOneNanosecondBucketsByOriginThenSequenceWithReservedEventsAndLargeOrigins()
    {
        // hundreds of events per ns (the buckets narrow to 1 ns and are sorted by origin in two
        // byte-wide passes), several from one origin at one time; reserved events whose ties were
        // taken long before (a bucket's list is then not rank by rank: the comparison sort takes
        // it); and, in the second queue, origins at and above 2^16 (the comparison sort again)
        for (final int origins : new int[] {200, 3000, 70_000})
        {
            final EventQueue q = new EventQueue();
            final SplittableRandom rnd = new SplittableRandom(origins);
            final java.util.HashMap<Integer, Long> originSeq = new java.util.HashMap<>();
            final TreeSet<Key> pending = new TreeSet<>(ORDER);
            final java.util.ArrayDeque<long[]> held = new java.util.ArrayDeque<>();
            long now = 0;
            for (int step = 0; step < 200_000; step++)
            {
                final int r = rnd.nextInt(100);
                if (r < 52 || pending.isEmpty())
                {
                    final int origin = rnd.nextInt(100) < 30 ? rnd.nextInt(8) : rnd.nextInt(origins);
                    final long seq = originSeq.merge(origin, 1L, Long::sum) - 1;
                    final long at = now + 1 + rnd.nextInt(3);
                    if (rnd.nextInt(1500) == 0)
                    {
                        // taken now, scheduled a few steps later (as Reservation does)
                        held.addLast(new long[] {q.reserveTie(origin), origin, seq, at});
                    }
                    else
                    {
                        pending.add(new Key(at, origin, seq));
                        q.add(at, origin, seq, t -> { });
                    }
                }
                else if (r < 53 && !held.isEmpty())
                {
                    final long[] h = held.pollFirst();
                    final long at = Math.max(h[3], now);
                    pending.add(new Key(at, (int)h[1], h[2]));
                    q.addReserved(at, h[0], h[2], t -> { });
                }
                else
                {
                    final Key expected = pending.pollFirst();
                    q.poll();
                    assertEquals(expected, new Key(q.polledTimeNs, q.polledOrigin, q.polledSeq), "poll at step " + step);
                    now = expected.timeNs();
                }
                assertEquals(pending.size(), q.size());
            }
            assertEquals(1, q.bucketWidthNs());
            if (origins < 1 << 16)
            {
                assertTrue(q.radixRuns >= 10, "buckets sorted by origin: " + q.radixRuns);
            }
        }
    }

    /** A handler that counts its touches. */
    private static EventHandler touchCounting(final int[] touches)
    {
        return new EventHandler()
        {
            @Override
            public void onEvent(final long timeNs)
            {
            }

            @Override
            public int touch()
            {
                return ++touches[0];
            }
        };
    }

    /** 40 events at 100..139 ns first: past the small-queue mode (a plain heap), polled untouched. */
    private static void fill(final EventQueue q, final long far)
    {
        final EventHandler plain = t -> { };
        for (int i = 0; i < 40; i++)
        {
            q.add(100 + i, 9, i, plain);
        }
        for (int i = 0; i < far; i++)
        {
            q.add(1_000_000 + i, 9, 100 + i, plain);
        }
    }

    @Test
    void shouldTouchEveryEventOfALargeBucketBeforeTheFirstRunsAndNoneOfASmallOne()
    {
        final EventQueue q = new EventQueue();
        final int[] touches = new int[1];
        final EventHandler h = touchCounting(touches);
        // many events pending far ahead: the buckets at 500 and 700 ns are among many
        fill(q, EventQueue.TOUCH_PENDING);
        for (int i = 0; i < EventQueue.TOUCH_MIN; i++)
        {
            q.add(500, i, 0, h);
        }
        for (int i = 0; i < EventQueue.TOUCH_MIN - 1; i++)
        {
            q.add(700, i, 1, h);
        }
        for (int i = 0; i < 40; i++)
        {
            q.poll();
            assertEquals(100 + i, q.polledTimeNs);
        }
        assertEquals(0, touches[0]);
        q.poll();
        assertEquals(500, q.polledTimeNs);
        assertEquals(EventQueue.TOUCH_MIN, touches[0], "every event of the bucket at 500 ns, once");
        for (int i = 1; i < EventQueue.TOUCH_MIN; i++)
        {
            q.poll();
            assertEquals(i, q.polledOrigin);
        }
        q.poll();
        assertEquals(700, q.polledTimeNs);
        assertEquals(EventQueue.TOUCH_MIN, touches[0], "a bucket below TOUCH_MIN is not touched");
    }

    @Test
    void shouldNotTouchALargeBucketWhenFewEventsArePending()
    {
        // few pending: their state is in the cache, the touch would only cost
        final EventQueue q = new EventQueue();
        final int[] touches = new int[1];
        final EventHandler h = touchCounting(touches);
        fill(q, 0);
        for (int i = 0; i < EventQueue.TOUCH_MIN; i++)
        {
            q.add(500, i, 0, h);
        }
        assertTrue(q.size() < EventQueue.TOUCH_PENDING);
        for (int i = 0; i < 40 + EventQueue.TOUCH_MIN; i++)
        {
            q.poll();
        }
        assertEquals(500, q.polledTimeNs);
        assertEquals(0, touches[0]);
    }

    @Test
    void shouldPollInOrderNearTheEndOfTime()
    {
        // times within a ring's reach of Long.MAX_VALUE must not overflow the bucket arithmetic
        final EventQueue q = new EventQueue();
        final long end = Long.MAX_VALUE;
        final SplittableRandom rnd = new SplittableRandom(3);
        final TreeSet<Key> pending = new TreeSet<>(ORDER);
        for (int i = 0; i < 200; i++)
        {
            final long at = i < 100 ? rnd.nextLong(1_000_000) : end - rnd.nextInt(5_000);
            final Key k = new Key(at, i, 0);
            pending.add(k);
            q.add(k.timeNs(), k.origin(), k.seq(), t -> { });
        }
        while (!pending.isEmpty())
        {
            final Key expected = pending.pollFirst();
            q.poll();
            assertEquals(expected, new Key(q.polledTimeNs, q.polledOrigin, q.polledSeq));
        }
        assertTrue(q.isEmpty());
    }

    @Test
    void shouldReportEmptyQueueTimeAsUnbounded()
    {
        final EventQueue q = new EventQueue();
        assertTrue(q.isEmpty());
        assertEquals(Long.MAX_VALUE, q.peekTimeNs());
    }
}
