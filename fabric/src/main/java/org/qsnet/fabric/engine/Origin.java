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
    /** Run before this origin schedules or reserves anything: see {@link #beforeScheduling}. */
    Runnable beforeScheduling;

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
     * Makes a reusable {@link Reservation} for events of this origin.
     *
     * @return a reservation holding nothing.
     */
    public Reservation newReservation()
    {
        return kernel.register(new Reservation(kernel, this));
    }

    /**
     * Reserves the key of an event of this origin at {@code timeNs}, exactly as
     * {@link #schedule(long, EventHandler)} would give it, without putting the event in the queue.
     *
     * @param r      a reservation of this origin holding nothing.
     * @param timeNs absolute simulated time; it may be before now only while the owner catches up
     *               with its own reserved events.
     */
    public void reserve(final Reservation r, final long timeNs)
    {
        kernel.reserve(this, r, timeNs);
    }

    /**
     * Sets what runs before this origin schedules or reserves an event: the owner of reserved
     * events takes the ones due before the event running, so that the sequence numbers they
     * reserve come before those of what is scheduled now. Null for none.
     *
     * @param hook the catch-up, or null.
     */
    public void beforeScheduling(final Runnable hook)
    {
        this.beforeScheduling = hook;
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
