package org.qsnet.fabric.engine;

/**
 * An entity that schedules events (a NIC, a switch, a link, a process). Its id and its own
 * event counter form the tie-break of the event order, so the order never depends on how
 * the system is partitioned or on the order entities happened to be created in.
 */
public final class Origin
{
    private final Kernel kernel;
    private final int id;
    private final String name;
    private long nextSeq;

    Origin(final Kernel kernel, final int id, final String name)
    {
        this.kernel = kernel;
        this.id = id;
        this.name = name;
    }

    /**
     * @return the id given at registration; unique within the kernel.
     */
    public int id()
    {
        return id;
    }

    /**
     * @return the name given at registration, for reports.
     */
    public String name()
    {
        return name;
    }

    /**
     * Schedules an event of this origin.
     *
     * @param timeNs  absolute simulated time; not before {@link Kernel#nowNs()}.
     * @param handler what to run.
     */
    public void schedule(final long timeNs, final EventHandler handler)
    {
        kernel.schedule(this, timeNs, handler);
    }

    /**
     * For a partitioned run: takes the key an event of this origin at {@code timeNs} would get from
     * {@link #schedule(long, EventHandler)} now, for an event that only another partition runs
     * (its owner ships it there under this key, as a {@link TracedHere}: that partition counts it
     * in its {@link Kernel#traceSum()} if it runs it, so the digest summed over the partitions is
     * the one-JVM run's).
     *
     * @param timeNs absolute simulated time, after {@link Kernel#nowNs()}.
     * @return the event's sequence number at this origin.
     */
    public long scheduleElsewhere(final long timeNs)
    {
        return kernel.scheduleElsewhere(this, timeNs);
    }

    /**
     * Takes the sequence number the next event of this origin gets, for an event whose time is
     * known only later (a partitioned run's broadcast acknowledgement, timed once every recipient
     * answered); it is then put in the queue under that key with
     * {@link Kernel#scheduleRemote(int, long, long, EventHandler)}. Events scheduled in between
     * order after it at equal times, as if it had been scheduled now.
     *
     * @return the sequence number taken.
     */
    public long reserveSeq()
    {
        if (heldCount > 0)
        {
            catchUp();
        }
        return nextSeq();
    }

    /**
     * Schedules an event of this origin whose instant is probed: whether the whole run had nothing
     * else pending there, and the process resumptions it had seen ({@link QuiescenceProbe}; in a
     * partitioned run the other partitions' answers arrive at the end of that event's window, so
     * decide from the probes of earlier events). In a partitioned run the event must lie at least
     * the lookahead ahead.
     *
     * @param timeNs  absolute simulated time; not before {@link Kernel#nowNs()}.
     * @param handler what to run.
     * @return the probe, complete once every partition has answered.
     */
    public QuiescenceProbe scheduleProbed(final long timeNs, final EventHandler handler)
    {
        return kernel.scheduleProbed(this, timeNs, handler);
    }

    /**
     * Schedules an event of this origin that may be cancelled. It costs one object more than
     * {@link #schedule(long, EventHandler)}, which is what the packet path uses.
     *
     * @param timeNs  absolute simulated time; not before {@link Kernel#nowNs()}.
     * @param handler what to run.
     * @return the scheduled event, which may be cancelled.
     */
    public Event scheduleCancellable(final long timeNs, final EventHandler handler)
    {
        final Event e = new Event(timeNs, handler);
        kernel.schedule(this, timeNs, e);
        return e;
    }

    /**
     * Schedules an event of this origin after a delay.
     *
     * @param delayNs delay from now, at least zero.
     * @param handler what to run.
     */
    public void scheduleIn(final long delayNs, final EventHandler handler)
    {
        kernel.schedule(this, kernel.nowNs() + delayNs, handler);
    }

    /**
     * {@link Kernel#noteProgress()} of this origin's kernel.
     */
    public void noteProgress()
    {
        kernel.noteProgress();
    }

    /**
     * Makes a reusable {@link Reservation} for events of this origin.
     *
     * @return a reservation holding nothing.
     */
    public Reservation newReservation()
    {
        return new Reservation(kernel, this);
    }

    /**
     * Reserves the key an event of this origin at {@code timeNs} would get from
     * {@link #schedule(long, EventHandler)} now, without putting it in the queue.
     *
     * @param r       a reservation of this origin holding nothing.
     * @param timeNs  absolute simulated time, not before the event running.
     * @param handler what the event does when it is taken or scheduled.
     */
    public void reserve(final Reservation r, final long timeNs, final EventHandler handler)
    {
        kernel.reserve(this, r, timeNs, handler);
    }

    /**
     * Takes, in key order, this origin's reserved events that order before the event running
     * (from a process: before its clock), and runs them. Owners call it before reading the state
     * those events change.
     */
    public void catchUp()
    {
        if (heldCount > 0 && !catchingUp && heldFirstNs <= kernel.currentTimeNs())
        {
            kernel.catchUp(this, false, 0);
        }
    }

    // ---- held reservations, few at a time (a traffic source's next message)
    Reservation[] held = new Reservation[4];
    int heldCount;
    /** The earliest time among the held reservations ({@link Long#MAX_VALUE} when none): a cheap first test. */
    long heldFirstNs = Long.MAX_VALUE;
    boolean catchingUp;

    void addHeld(final Reservation r)
    {
        if (heldCount == held.length)
        {
            held = java.util.Arrays.copyOf(held, heldCount * 2);
        }
        r.originIndex = heldCount;
        held[heldCount++] = r;
        heldFirstNs = Math.min(heldFirstNs, r.timeNs);
    }

    void removeHeld(final Reservation r)
    {
        final int i = r.originIndex;
        final Reservation last = held[--heldCount];
        held[i] = last;
        last.originIndex = i;
        held[heldCount] = null;
        r.originIndex = -1;
        long first = Long.MAX_VALUE;
        for (int j = 0; j < heldCount; j++)
        {
            first = Math.min(first, held[j].timeNs);
        }
        heldFirstNs = first;
    }

    /** The held reservation with the least key. */
    Reservation firstHeld()
    {
        Reservation best = held[0];
        for (int i = 1; i < heldCount; i++)
        {
            final Reservation r = held[i];
            if (r.timeNs < best.timeNs || r.timeNs == best.timeNs && r.tie < best.tie)
            {
                best = r;
            }
        }
        return best;
    }

    long nextSeq()
    {
        return nextSeq++;
    }

    /**
     * The sequence number the next event scheduled by this origin will get: for a partitioned
     * run, which ships an event it schedules to the partitions that must run it, under its key.
     *
     * @return the next sequence number.
     */
    public long peekSeq()
    {
        return nextSeq;
    }

    @Override
    public String toString()
    {
        return name + "#" + id;
    }
}
