package org.qsnet.fabric.engine;

import java.util.Arrays;

/**
 * The pending events, ordered by {@code (time, origin, originSeq)}: a ladder of time buckets in
 * front of a small four-ary heap, in flat primitive arrays.
 *
 * <p>Where an event is, by its bucket {@code B = time >>> shift} and the current bucket {@code C}:
 * <pre>
 *   B &lt;= C            the bottom heap: a four-ary min-heap on (time, tie), the events due first
 *   C &lt; B &lt; C + nb    the ring: bucket B &amp; (nb - 1), an unsorted list (one push per add)
 *   B &gt;= C + nb       the overflow: a four-ary min-heap on time, for events far ahead
 * </pre>
 * Every event of the bottom heap is earlier than every event of the ring, and every event of the
 * ring earlier than every event of the overflow, so the head of the bottom heap is the first
 * event. While few events are pending ({@link #SMALL}) and the ring and the overflow are empty,
 * an add beyond {@code C} moves {@code C} up to its bucket and goes into the heap: a sparse
 * queue (a few processes and a NIC) is a plain small heap. When the bottom heap empties, the next non-empty bucket (found through a bitmap) becomes
 * {@code C} and its events are moved into the heap, together with overflow events that came
 * within the ring's reach. The heap stays as small as a bucket (a few events) instead of holding
 * everything pending, and a burst of events at one time (a 4096-process collective) costs
 * {@code log} of its size per event, not a scan of a sorted list.
 *
 * <p>The bucket width ({@code 1 << shift} ns, down to 1 ns) follows the pace of simulated time:
 * every {@link #CHECK_EVERY} polls it halves while buckets held 8 events or more on average and
 * doubles while they held fewer than 2 with 4 or more empty buckets skipped per bucket used (a
 * band of 4 between the two, so that it does not swing). The ring doubles when more than one add
 * in 16 lands in the overflow. Either change re-files every pending event; neither can change
 * the order of events, which is decided by the keys alone.
 *
 * <p>An event's key, sequence number and handler sit in a slot of a pool and do not move while
 * it is pending: the heaps and lists move only primitive slot numbers and keys. Storing a
 * handler (a young object) into the long-lived pool costs the collector's card-marking barrier
 * once per event instead of once per level of every heap sift.
 *
 * <p>Slot {@code s} of the pool: {@code pool[4s]} time, {@code pool[4s + 1]} tie =
 * {@code origin << 32 | rank}, {@code pool[4s + 2]} originSeq, {@code pool[4s + 3]} next slot
 * of its ring bucket (or of the free list); {@code handlers[s]}. Heap entry {@code i} of the
 * bottom heap: {@code heap[3i]} time, {@code heap[3i + 1]} tie, {@code heap[3i + 2]} slot.
 *
 * <p>Why {@code rank} may stand in for {@code originSeq}: an origin's sequence numbers are
 * handed out as its events are scheduled, so among the events of one origin, schedule order
 * (the queue's global rank, which only grows) is sequence order; events of different origins
 * are ordered by origin before the rank is looked at. Comparing {@code (time, tie)} is
 * therefore exactly the {@code (time, origin, originSeq)} order. When the rank would pass 32
 * bits, the pending events are renumbered {@code 0..size-1} in tie order, which leaves every
 * pairwise order (and so every heap) unchanged.
 *
 * <p>A bucket that becomes current is sorted once into the run: by origin in two byte-wide radix
 * passes when it is 1 ns wide, listed in rank order and holds 24 events or more, otherwise by a
 * quicksort (insertion sort when short). A run of 32 events or more, among 2048 or more pending,
 * is then touched ({@link EventHandler#touch()}) in one pass before its first event runs, so that
 * the cache misses of its events overlap (at 4096 nodes about a fifth of the host time).
 *
 * <p>Why one class of about 1,000 lines: the levels (pool, bottom heap, sorted run, ring, overflow)
 * share one set of flat arrays and indices, and every add and poll crosses several of them. As
 * separate classes each crossing would be a field load and a call on the kernel's hottest path,
 * and their invariants (every event of a level earlier than every event of the next) could not be
 * kept by any one of them. The levels are sections of the file; {@code EventQueueTest} checks the
 * whole against a reference order.
 */
final class EventQueue
{
    private static final long RANK_LIMIT = 1L << 32;
    private static final int NONE = -1;
    private static final int MIN_BUCKETS = 1 << 10;
    private static final int MAX_BUCKETS = 1 << 16;
    private static final int MAX_SHIFT = 40;
    /** Up to this many events pending, with the ring and the overflow empty, the heap takes every add. */
    private static final int SMALL = 32;
    /**
     * A bucket of at least this many events is sorted at once when it becomes current (insertion
     * sort up to 16, a quicksort above) and polled from that run; a single event goes to the heap.
     * It was 16 until 2026-11-25: buckets of 2-15 events (most of them at 64 nodes, where the width
     * keeps 2-8 events per bucket) were sifted into and out of the heap one by one, and
     * {@code heapRemoveTop} had a tenth of a 64-node run's samples. JMH
     * {@code uniformSaturated10us -p nodes=64}, six alternated runs: 286-309 µs in five (408 in
     * one) against 326-399 µs with 16.
     */
    private static final int RUN_MIN = 2;
    /**
     * The touch runs only while at least this many events are pending: the state of fewer (a fabric
     * at saturation keeps about one pending event per node) is in the cache already, where the touch
     * only costs ({@code FabricBenchmark.packetHop}, 64 nodes: 101.7 ns a hop with its buckets
     * touched, 92.4 without).
     */
    static final int TOUCH_PENDING = Integer.getInteger("qsnet.touchPending", 2048);
    /** A sorted run of at least this many events is touched ({@link EventHandler#touch()}) before it runs. */
    static final int TOUCH_MIN = Integer.getInteger("qsnet.touchMin", 32);
    /** A 1 ns bucket of at least this many events, listed rank by rank, is sorted by {@link #radixRun}. */
    static final int RADIX_MIN = Integer.getInteger("qsnet.radixMin", 24);
    /** Events polled between two checks of the width. */
    private static final int CHECK_EVERY = 1 << 13;

    // ---- the pool of slots
    private long[] pool = new long[4 * 256];
    private EventHandler[] handlers = new EventHandler[256];
    private int freeSlot = NONE;
    private int slotsUsed;

    // ---- the bottom heap
    private long[] heap = new long[3 * 64];
    private int heapSize;

    // ---- the current bucket's events, sorted when it became current: (time, tie, slot) per entry,
    // taken from runHead on; events added to the current bucket after that go to the heap, and a
    // poll takes the earlier of the two heads
    private long[] run = new long[3 * 64];
    private int runHead;
    private int runSize;

    // ---- the ring
    private int shift = 4;
    private int buckets = MIN_BUCKETS;
    private int[] ringHead = filled(MIN_BUCKETS);
    private long[] ringBits = new long[MIN_BUCKETS / 64];
    private int ringCount;
    /** The current bucket C: every event of the bottom heap has {@code time >>> shift <= current}. */
    private long current;

    // ---- the overflow: heap on time, entries (time, slot)
    private long[] over = new long[2 * 16];
    private int overSize;

    // ---- width control
    private int advances;
    private long pollsSinceCheck;
    private long skippedSinceCheck;
    private long addsSinceCheck;
    private long overAddsSinceCheck;

    private int size;
    private long nextRank;
    /** For tests: how often the ring was re-filled with a new width or size. */
    int refiles;

    /** Key of the event returned by the last {@link #poll()}. */
    long polledTimeNs;
    int polledOrigin;
    long polledSeq;
    /** Tie ({@code origin << 32 | rank}) of the event returned by the last {@link #poll()}. */
    long polledTie;

    /** The held reservations (their ties are renumbered with the pending events'). */
    private Reservation[] reservations = new Reservation[0];
    /** The held reservations' times, side by side ({@link #dueHeld}'s scan reads no reservation object). */
    private long[] heldTimes = new long[0];
    private int heldCount;

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
        if (heapSize == 0 && runHead == runSize)
        {
            if (size == 0)
            {
                return Long.MAX_VALUE;
            }
            advance();
        }
        if (runHead == runSize)
        {
            return heap[0];
        }
        final long rt = run[3 * runHead];
        return heapSize == 0 ? rt : Math.min(rt, heap[0]);
    }

    /**
     * @return the origin of the first event ({@link #peekTimeNs()} must have been called since
     * the last change, and the queue must not be empty).
     */
    int peekOrigin()
    {
        return (int)((runFirst() ? run[3 * runHead + 1] : heap[1]) >>> 32);
    }

    /** Whether the first event is the sorted run's head rather than the heap's (both heads current). */
    private boolean runFirst()
    {
        final int r = 3 * runHead;
        return runHead < runSize && (heapSize == 0 || run[r] < heap[0] || (run[r] == heap[0] && run[r + 1] < heap[1]));
    }

    void add(final long timeNs, final int origin, final long originSeq, final EventHandler handler)
    {
        addReserved(timeNs, reserveTie(origin), originSeq, handler);
    }

    /** The tie the next event of {@code origin} gets: {@code origin << 32 | rank}. */
    long reserveTie(final int origin)
    {
        if (nextRank == RANK_LIMIT)
        {
            renumber();
        }
        return ((long)origin << 32) | nextRank++;
    }

    /** @return how many reservations are held (reserved and not yet taken or scheduled). */
    int heldCount()
    {
        return heldCount;
    }

    /** @return held reservation {@code i} (0 &lt;= i &lt; {@link #heldCount()}), in no particular order. */
    Reservation held(final int i)
    {
        return reservations[i];
    }

    /**
     * @param limitNs a time.
     * @param from    the first index to look at.
     * @return the index of a held reservation due by {@code limitNs} at or after {@code from}, -1
     * if none.
     */
    int dueHeldFrom(final long limitNs, final int from)
    {
        final long[] t = heldTimes;
        for (int i = from; i < heldCount; i++)
        {
            if (t[i] <= limitNs)
            {
                return i;
            }
        }
        return -1;
    }

    /**
     * @param limitNs a time.
     * @return a held reservation due by {@code limitNs}, null if none.
     */
    Reservation dueHeld(final long limitNs)
    {
        final long[] t = heldTimes;
        for (int i = 0; i < heldCount; i++)
        {
            if (t[i] <= limitNs)
            {
                return reservations[i];
            }
        }
        return null;
    }

    void hold(final Reservation r)
    {
        if (heldCount == reservations.length)
        {
            reservations = Arrays.copyOf(reservations, Math.max(8, heldCount * 2));
            heldTimes = Arrays.copyOf(heldTimes, reservations.length);
        }
        r.queueIndex = heldCount;
        heldTimes[heldCount] = r.timeNs;
        reservations[heldCount++] = r;
    }

    void unhold(final Reservation r)
    {
        final int i = r.queueIndex;
        final Reservation last = reservations[--heldCount];
        reservations[i] = last;
        heldTimes[i] = heldTimes[heldCount];
        last.queueIndex = i;
        reservations[heldCount] = null;
        r.queueIndex = -1;
    }

    /** Adds an event under a tie from {@link #reserveTie(int)}. */
    void addReserved(final long timeNs, final long tie, final long originSeq, final EventHandler handler)
    {
        int s = freeSlot;
        if (s == NONE)
        {
            s = newSlot();
        }
        else
        {
            freeSlot = (int)pool[4 * s + 3];
        }
        final long[] p = pool;
        final int x = 4 * s;
        p[x] = timeNs;
        p[x + 1] = tie;
        p[x + 2] = originSeq;
        handlers[s] = handler;
        size++;
        file(s, timeNs, tie);
    }

    /** Puts slot {@code s} in the bottom heap, the ring or the overflow, by its bucket. */
    private void file(final int s, final long timeNs, final long tie)
    {
        final long b = timeNs >>> shift;
        final long c = current;
        if (b <= c)
        {
            heapAdd(timeNs, tie, s);
        }
        else if (heapSize < SMALL && ringCount == 0 && overSize == 0 && runHead == runSize)
        {
            // few events pending: the heap alone holds them (its bucket range grows to take this one)
            current = b;
            heapAdd(timeNs, tie, s);
        }
        else if (b - c < buckets)
        {
            final int i = (int)b & (buckets - 1);
            pool[4 * s + 3] = ringHead[i];
            ringHead[i] = s;
            ringBits[i >>> 6] |= 1L << i;
            ringCount++;
            addsSinceCheck++;
        }
        else
        {
            overAdd(timeNs, s);
            addsSinceCheck++;
            overAddsSinceCheck++;
        }
    }

    /**
     * Removes the first event; its key is left in {@link #polledTimeNs}, {@link #polledOrigin}
     * and {@link #polledSeq}.
     *
     * @return its handler.
     */
    EventHandler poll()
    {
        if (++pollsSinceCheck >= CHECK_EVERY)
        {
            adjust();
        }
        if (heapSize == 0 && runHead == runSize)
        {
            advance();
        }
        final int s;
        final long tie;
        final long time;
        final int r = 3 * runHead;
        final long[] hk = heap;
        if (runFirst())
        {
            time = run[r];
            tie = run[r + 1];
            s = (int)run[r + 2];
            runHead++;
        }
        else
        {
            time = hk[0];
            tie = hk[1];
            s = (int)hk[2];
            heapRemoveTop();
        }
        polledTimeNs = time;
        polledOrigin = (int)(tie >>> 32);
        polledTie = tie;
        final int x = 4 * s;
        polledSeq = pool[x + 2];
        final EventHandler h = handlers[s];
        handlers[s] = null;
        pool[x + 3] = freeSlot;
        freeSlot = s;
        size--;
        return h;
    }

    private int newSlot()
    {
        if (slotsUsed == handlers.length)
        {
            final int n = handlers.length * 2;
            pool = Arrays.copyOf(pool, 4 * n);
            handlers = Arrays.copyOf(handlers, n);
        }
        return slotsUsed++;
    }

    // ---------------------------------------------------------------- the ring

    /** Makes the next non-empty bucket current and moves its events into the (empty) bottom heap. */
    private void advance()
    {
        advances++;
        if (ringCount == 0)
        {
            // everything pending is in the overflow: jump to its first bucket
            current = (over[0] >>> shift) - 1;
            drainOverflow();
        }
        final int mask = buckets - 1;
        final long[] bits = ringBits;
        final int words = bits.length;
        int i = (int)(current + 1) & mask;
        int w = i >>> 6;
        long word = bits[w] & (-1L << i);
        int scanned = 0;
        while (word == 0)
        {
            w = w + 1 == words ? 0 : w + 1;
            word = bits[w];
            if (++scanned > words)
            {
                throw new IllegalStateException("event ring lost its events");
            }
        }
        final int found = (w << 6) | Long.numberOfTrailingZeros(word);
        final long skipped = (found - i) & mask;
        skippedSinceCheck += skipped;
        current += skipped + 1;
        bits[w] &= ~(1L << found);
        int s = ringHead[found];
        ringHead[found] = NONE;
        final long[] p = pool;
        int moved = 0;
        runHead = 0;
        long[] ru = run;
        // whether the list is newest first, rank by rank (no reserved or re-filed event in it), and
        // every origin below 2^16: then byte-wide radix passes sort a 1 ns bucket (one when every
        // origin is below 256)
        long lastRank = Long.MAX_VALUE;
        long highOrigins = 0;
        boolean radix = shift == 0;
        while (s != NONE)
        {
            final int x = 4 * s;
            final int next = (int)p[x + 3];
            if (3 * moved == ru.length)
            {
                ru = run = Arrays.copyOf(ru, 2 * ru.length);
            }
            final int y = 3 * moved;
            final long tie = p[x + 1];
            final long rank = tie & 0xFFFF_FFFFL;
            radix &= rank < lastRank && tie >>> 48 == 0;
            highOrigins |= tie >>> 40;
            lastRank = rank;
            ru[y] = p[x];
            ru[y + 1] = tie;
            ru[y + 2] = s;
            s = next;
            moved++;
        }
        if (moved < RUN_MIN)
        {
            // a single event: the heap takes it, and polls need not look at two heads
            for (int j = 0; j < moved; j++)
            {
                heapAdd(ru[3 * j], ru[3 * j + 1], (int)ru[3 * j + 2]);
            }
            runSize = 0;
        }
        else
        {
            runSize = moved;
            if (radix && moved >= RADIX_MIN)
            {
                radixRun(ru, moved, highOrigins);
            }
            else
            {
                sortRun(ru, 0, moved - 1);
            }
            if (moved >= TOUCH_MIN && size >= TOUCH_PENDING)
            {
                touchRun(ru, moved);
            }
        }
        ringCount -= moved;
        if (overSize > 0)
        {
            drainOverflow();
        }
    }

    /** For tests: how many buckets {@link #radixRun} sorted. */
    int radixRuns;
    /** Scratch of {@link #radixRun}: (tie, slot) per entry. */
    private long[] radixTmp = new long[2 * 64];
    private final int[] radixCount = new int[257];

    /**
     * Sorts a 1 ns bucket's {@code n} entries, all of one time and listed newest first (ranks
     * descending), by tie: a stable sort by origin of the list read oldest first, in two passes of
     * one byte each (origins below 2^16), without the comparisons whose outcome a processor cannot
     * predict. Among one origin's events the rank then ascends, as the order requires.
     */
    private void radixRun(final long[] ru, final int n, final long highOrigins)
    {
        radixRuns++;
        long[] tmp = radixTmp;
        if (tmp.length < 2 * n)
        {
            tmp = radixTmp = new long[4 * n];
        }
        final int[] cnt = radixCount;
        Arrays.fill(cnt, 0);
        for (int j = 0; j < n; j++)
        {
            cnt[((int)(ru[3 * j + 1] >>> 32) & 0xFF) + 1]++;
        }
        for (int d = 1; d <= 256; d++)
        {
            cnt[d] += cnt[d - 1];
        }
        for (int j = n - 1; j >= 0; j--)
        {
            final long tie = ru[3 * j + 1];
            final int k = cnt[(int)(tie >>> 32) & 0xFF]++;
            tmp[2 * k] = tie;
            tmp[2 * k + 1] = ru[3 * j + 2];
        }
        final long t = ru[0];
        if (highOrigins == 0)
        {
            // every origin below 256: the first pass sorted them
            for (int k = 0; k < n; k++)
            {
                ru[3 * k] = t;
                ru[3 * k + 1] = tmp[2 * k];
                ru[3 * k + 2] = tmp[2 * k + 1];
            }
            return;
        }
        Arrays.fill(cnt, 0);
        for (int k = 0; k < n; k++)
        {
            cnt[((int)(tmp[2 * k] >>> 40) & 0xFF) + 1]++;
        }
        for (int d = 1; d <= 256; d++)
        {
            cnt[d] += cnt[d - 1];
        }
        for (int k = 0; k < n; k++)
        {
            final long tie = tmp[2 * k];
            final int m = cnt[(int)(tie >>> 40) & 0xFF]++;
            ru[3 * m] = t;
            ru[3 * m + 1] = tie;
            ru[3 * m + 2] = tmp[2 * k + 1];
        }
    }

    /** What the last touched run's reads folded to: written so that the reads stay. */
    int touched;

    /** Calls {@link EventHandler#touch()} on each event of the sorted run, in order. */
    private void touchRun(final long[] ru, final int n)
    {
        final EventHandler[] hs = handlers;
        int sum = 0;
        for (int j = 0; j < n; j++)
        {
            sum += hs[(int)ru[3 * j + 2]].touch();
        }
        touched = sum;
    }

    /** Moves the overflow events that the ring now reaches into it (or into the heap). */
    private void drainOverflow()
    {
        // b - current, not b < current + buckets: no overflow for times near Long.MAX_VALUE
        while (overSize > 0 && (over[0] >>> shift) - current < buckets)
        {
            final int s = (int)over[1];
            overRemoveTop();
            final int x = 4 * s;
            final long t = pool[x];
            final long b = t >>> shift;
            if (b <= current)
            {
                heapAdd(t, pool[x + 1], s);
            }
            else
            {
                final int i = (int)b & (buckets - 1);
                pool[x + 3] = ringHead[i];
                ringHead[i] = s;
                ringBits[i >>> 6] |= 1L << i;
                ringCount++;
            }
        }
    }

    /**
     * Every {@link #CHECK_EVERY} polls: narrows the buckets when they hold many events each, widens
     * them when most of the ring scanned was empty, and doubles the ring when the overflow takes
     * many of the events added.
     */
    private void adjust()
    {
        if (ringCount == 0 && overSize == 0 && heapSize <= SMALL && runHead == runSize)
        {
            // a small heap alone holds what is pending: nothing to tune
            advances = 0;
            pollsSinceCheck = 0;
            skippedSinceCheck = 0;
            addsSinceCheck = 0;
            overAddsSinceCheck = 0;
            return;
        }
        double perBucket = (double)pollsSinceCheck / Math.max(1, advances);
        double skippedPer = (double)skippedSinceCheck / Math.max(1, advances);
        int newShift = shift;
        while (perBucket >= 8 && newShift > 0)
        {
            newShift--;
            perBucket /= 2;
        }
        while (perBucket < 2 && skippedPer >= 4 && newShift < MAX_SHIFT)
        {
            newShift++;
            perBucket *= 2;
            skippedPer /= 2;
        }
        final int newBuckets = overAddsSinceCheck * 16 > addsSinceCheck && buckets < MAX_BUCKETS ? buckets * 2 : buckets;
        advances = 0;
        pollsSinceCheck = 0;
        skippedSinceCheck = 0;
        addsSinceCheck = 0;
        overAddsSinceCheck = 0;
        if (newShift != shift || newBuckets != buckets)
        {
            refile(newShift, newBuckets);
        }
    }

    /** Re-files every pending event with a new width and ring size. */
    private void refile(final int newShift, final int newBuckets)
    {
        refiles++;
        final int n = size;
        final int[] slots = new int[n];
        int k = 0;
        long minTime = Long.MAX_VALUE;
        for (int j = 0; j < heapSize; j++)
        {
            slots[k++] = (int)heap[3 * j + 2];
            minTime = Math.min(minTime, heap[3 * j]);
        }
        for (int j = runHead; j < runSize; j++)
        {
            slots[k++] = (int)run[3 * j + 2];
            minTime = Math.min(minTime, run[3 * j]);
        }
        runHead = 0;
        runSize = 0;
        for (int i = 0; i < buckets; i++)
        {
            for (int s = ringHead[i]; s != NONE; s = (int)pool[4 * s + 3])
            {
                slots[k++] = s;
                minTime = Math.min(minTime, pool[4 * s]);
            }
        }
        for (int j = 0; j < overSize; j++)
        {
            slots[k++] = (int)over[2 * j + 1];
            minTime = Math.min(minTime, over[2 * j]);
        }
        shift = newShift;
        if (newBuckets != buckets)
        {
            buckets = newBuckets;
            ringHead = filled(newBuckets);
            ringBits = new long[newBuckets / 64];
        }
        else
        {
            Arrays.fill(ringHead, NONE);
            Arrays.fill(ringBits, 0);
        }
        heapSize = 0;
        ringCount = 0;
        overSize = 0;
        // every pending event is after the new current bucket: the next poll advances to the first
        current = k == 0 ? 0 : (minTime >>> shift) - 1;
        for (int j = 0; j < k; j++)
        {
            final int s = slots[j];
            file(s, pool[4 * s], pool[4 * s + 1]);
        }
    }

    private static int[] filled(final int n)
    {
        final int[] a = new int[n];
        Arrays.fill(a, NONE);
        return a;
    }

    // ---------------------------------------------------------------- the sorted run

    /**
     * Sorts entries {@code lo..hi} (inclusive) of {@code a} by (time, tie): insertion sort for
     * short ranges, otherwise quicksort on the median of three. Keys are unique (the tie holds the
     * global rank), so the order is total.
     */
    private static void sortRun(final long[] a, final int lo, final int hi)
    {
        int l = lo;
        int h = hi;
        while (h - l >= 16)
        {
            final int m = (l + h) >>> 1;
            // median of three to position m, then partition around its key
            if (before(a, m, l))
            {
                swap(a, m, l);
            }
            if (before(a, h, m))
            {
                swap(a, h, m);
                if (before(a, m, l))
                {
                    swap(a, m, l);
                }
            }
            final long pt = a[3 * m];
            final long pk = a[3 * m + 1];
            int i = l;
            int j = h;
            while (i <= j)
            {
                while (a[3 * i] < pt || (a[3 * i] == pt && a[3 * i + 1] < pk))
                {
                    i++;
                }
                while (a[3 * j] > pt || (a[3 * j] == pt && a[3 * j + 1] > pk))
                {
                    j--;
                }
                if (i <= j)
                {
                    swap(a, i, j);
                    i++;
                    j--;
                }
            }
            // recurse into the smaller side, loop on the larger (stack depth log n)
            if (j - l < h - i)
            {
                sortRun(a, l, j);
                l = i;
            }
            else
            {
                sortRun(a, i, h);
                h = j;
            }
        }
        for (int i = l + 1; i <= h; i++)
        {
            final long t = a[3 * i];
            final long k = a[3 * i + 1];
            final long v = a[3 * i + 2];
            int j = i - 1;
            while (j >= l && (a[3 * j] > t || (a[3 * j] == t && a[3 * j + 1] > k)))
            {
                a[3 * j + 3] = a[3 * j];
                a[3 * j + 4] = a[3 * j + 1];
                a[3 * j + 5] = a[3 * j + 2];
                j--;
            }
            a[3 * j + 3] = t;
            a[3 * j + 4] = k;
            a[3 * j + 5] = v;
        }
    }

    private static boolean before(final long[] a, final int x, final int y)
    {
        return a[3 * x] < a[3 * y] || (a[3 * x] == a[3 * y] && a[3 * x + 1] < a[3 * y + 1]);
    }

    private static void swap(final long[] a, final int x, final int y)
    {
        for (int f = 0; f < 3; f++)
        {
            final long v = a[3 * x + f];
            a[3 * x + f] = a[3 * y + f];
            a[3 * y + f] = v;
        }
    }

    // ---------------------------------------------------------------- the bottom heap

    private void heapAdd(final long timeNs, final long tie, final int slot)
    {
        if (3 * heapSize == heap.length)
        {
            heap = Arrays.copyOf(heap, heap.length * 2);
        }
        final long[] ks = heap;
        int i = heapSize++;
        while (i > 0)
        {
            final int parent = (i - 1) >>> 2;
            final int p = parent * 3;
            final long pt = ks[p];
            if (timeNs > pt || (timeNs == pt && tie > ks[p + 1]))
            {
                break;
            }
            final int x = i * 3;
            ks[x] = pt;
            ks[x + 1] = ks[p + 1];
            ks[x + 2] = ks[p + 2];
            i = parent;
        }
        final int x = i * 3;
        ks[x] = timeNs;
        ks[x + 1] = tie;
        ks[x + 2] = slot;
    }

    private void heapRemoveTop()
    {
        final long[] ks = heap;
        final int n = --heapSize;
        if (n == 0)
        {
            return;
        }
        final int lx = n * 3;
        final long t = ks[lx];
        final long k = ks[lx + 1];
        final long s = ks[lx + 2];
        int i = 0;
        while (true)
        {
            final int first = (i << 2) + 1;
            if (first >= n)
            {
                break;
            }
            // the least of up to four children
            int c = first;
            long ct = ks[first * 3];
            long ck = ks[first * 3 + 1];
            final int end = Math.min(first + 4, n);
            for (int j = first + 1; j < end; j++)
            {
                final long jt = ks[j * 3];
                final long jk = ks[j * 3 + 1];
                if (jt < ct || (jt == ct && jk < ck))
                {
                    c = j;
                    ct = jt;
                    ck = jk;
                }
            }
            if (ct > t || (ct == t && ck > k))
            {
                break;
            }
            final int x = i * 3;
            ks[x] = ct;
            ks[x + 1] = ck;
            ks[x + 2] = ks[c * 3 + 2];
            i = c;
        }
        final int x = i * 3;
        ks[x] = t;
        ks[x + 1] = k;
        ks[x + 2] = s;
    }

    // ---------------------------------------------------------------- the overflow heap (time only)

    private void overAdd(final long timeNs, final int slot)
    {
        if (2 * overSize == over.length)
        {
            over = Arrays.copyOf(over, over.length * 2);
        }
        final long[] ks = over;
        int i = overSize++;
        while (i > 0)
        {
            final int parent = (i - 1) >>> 2;
            final long pt = ks[2 * parent];
            if (timeNs >= pt)
            {
                break;
            }
            ks[2 * i] = pt;
            ks[2 * i + 1] = ks[2 * parent + 1];
            i = parent;
        }
        ks[2 * i] = timeNs;
        ks[2 * i + 1] = slot;
    }

    private void overRemoveTop()
    {
        final long[] ks = over;
        final int n = --overSize;
        if (n == 0)
        {
            return;
        }
        final long t = ks[2 * n];
        final long s = ks[2 * n + 1];
        int i = 0;
        while (true)
        {
            final int first = (i << 2) + 1;
            if (first >= n)
            {
                break;
            }
            int c = first;
            long ct = ks[2 * first];
            final int end = Math.min(first + 4, n);
            for (int j = first + 1; j < end; j++)
            {
                if (ks[2 * j] < ct)
                {
                    c = j;
                    ct = ks[2 * j];
                }
            }
            if (ct >= t)
            {
                break;
            }
            ks[2 * i] = ct;
            ks[2 * i + 1] = ks[2 * c + 1];
            i = c;
        }
        ks[2 * i] = t;
        ks[2 * i + 1] = s;
    }

    // ---------------------------------------------------------------- ranks

    /** Gives the pending events the ranks {@code 0..size-1} in tie order (see the class comment). */
    private void renumber()
    {
        final long[] ties = new long[size + heldCount + 1];
        int k = 0;
        for (int s = 0; s < slotsUsed; s++)
        {
            if (handlers[s] != null)
            {
                ties[k++] = pool[4 * s + 1];
            }
        }
        for (int i = 0; i < heldCount; i++)
        {
            ties[k++] = reservations[i].tie;
        }
        // the event being dispatched, which a reservation's key is compared with
        ties[k++] = polledTie;
        Arrays.sort(ties, 0, k);
        for (int s = 0; s < slotsUsed; s++)
        {
            if (handlers[s] != null)
            {
                final long tie = pool[4 * s + 1];
                final long rank = Arrays.binarySearch(ties, 0, k, tie);
                pool[4 * s + 1] = (tie & ~(RANK_LIMIT - 1)) | rank;
            }
        }
        for (int i = 0; i < heapSize; i++)
        {
            heap[3 * i + 1] = pool[4 * (int)heap[3 * i + 2] + 1];
        }
        for (int i = runHead; i < runSize; i++)
        {
            run[3 * i + 1] = pool[4 * (int)run[3 * i + 2] + 1];
        }
        for (int i = 0; i < heldCount; i++)
        {
            final Reservation r = reservations[i];
            r.tie = (r.tie & ~(RANK_LIMIT - 1)) | Arrays.binarySearch(ties, 0, k, r.tie);
        }
        polledTie = (polledTie & ~(RANK_LIMIT - 1)) | Arrays.binarySearch(ties, 0, k, polledTie);
        nextRank = k;
    }

    /** For tests: the bucket width, ns. */
    long bucketWidthNs()
    {
        return 1L << shift;
    }

    /** For tests: the ring's buckets. */
    int ringBuckets()
    {
        return buckets;
    }

    /** For tests: makes the next rank {@code rank}, to exercise {@link #renumber()}. */
    void setNextRankForTest(final long rank)
    {
        nextRank = rank;
    }
}
