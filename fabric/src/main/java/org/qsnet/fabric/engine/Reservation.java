package org.qsnet.fabric.engine;

/**
 * A place in the event order kept for one event of an origin that runs only if something needs
 * it: an event whose effect is on state its owner alone reads (a traffic source's next message,
 * which only joins the source's queue while the source is busy). Instead of putting the event in
 * the queue, its owner reserves its key {@code (time, origin, originSeq)} exactly when it would
 * have scheduled it ({@link Origin#reserve}), so the origin's sequence numbers, and hence the order
 * of every other event, are what they would have been. Before the owner reads that state in an
 * event, it takes every reserved event that orders before the event running
 * ({@link #precedesCurrentEvent()}, then {@link #take()}) and does its work; when something else
 * may need the event, the owner puts it in the queue at its reserved key ({@link #schedule}).
 * Either way the event's effect lands at its place in the order, and {@link Kernel#traceSum()}
 * counts a taken event as if it had been dispatched: a run with reservations has the event
 * digest of the same run without them.
 *
 * <p>The owner must also take due reserved events before its origin schedules anything else (an
 * origin's sequence numbers follow its scheduling order): {@link Origin#beforeScheduling}. A
 * reservation object is reused; it holds at most one event at a time.
 */
public final class Reservation
{
    private final Kernel kernel;
    private final Origin origin;
    long timeNs;
    /** {@code origin << 32 | rank}, as the queue's ties. */
    long tie;
    long seq;
    boolean held;

    Reservation(final Kernel kernel, final Origin origin)
    {
        this.kernel = kernel;
        this.origin = origin;
    }

    /**
     * @return whether an event is reserved and not yet taken or scheduled.
     */
    public boolean held()
    {
        return held;
    }

    /**
     * @return the reserved event's time.
     */
    public long timeNs()
    {
        return timeNs;
    }

    /**
     * @return whether an event is held and orders before the event being dispatched (call from an
     * event's handler).
     */
    public boolean precedesCurrentEvent()
    {
        return held && kernel.ordersBeforeCurrent(timeNs, tie);
    }

    /**
     * Takes the held event: its owner does its work now, at its place in the order. It is counted
     * in the event digest as a dispatched event.
     *
     * @return the event's time.
     */
    public long take()
    {
        requireHeld();
        held = false;
        kernel.traceTaken(timeNs, origin.id(), seq);
        return timeNs;
    }

    /**
     * Puts the held event in the queue at its reserved key.
     *
     * @param handler what to run.
     */
    public void schedule(final EventHandler handler)
    {
        requireHeld();
        kernel.scheduleReserved(this, handler);
        held = false;
    }

    private void requireHeld()
    {
        if (!held)
        {
            throw new IllegalStateException("no event reserved on " + origin);
        }
    }

    Origin origin()
    {
        return origin;
    }
}
