package org.qsnet.fabric.engine;

/**
 * A place in the event order kept for one event of an origin that runs only if something needs
 * it: an event whose effect is on state only its owner reads (a busy traffic source's next
 * message, which only joins the source's queue; the EOP freeing a channel no header waits for).
 * Instead of putting the event in the queue, its owner reserves its key {@code (time, origin,
 * originSeq)} exactly when it would have scheduled it ({@link Origin#reserve}), so the origin's
 * sequence numbers, and hence the order of every other event, are what they would have been.
 *
 * <p>Before reading the state such an event changes, its owner calls {@link Origin#catchUp()}:
 * the origin's reserved events that order before the event running are taken, in key order, and
 * their handlers run there (with their own time). The kernel does the same before the origin
 * schedules or reserves anything (its sequence numbers follow its scheduling order) and at the end
 * of every {@link Kernel#runUntil} (every event due by then has run). When something else may need
 * the event, its owner puts it in the queue at its reserved key ({@link #schedule()}). Either way
 * the event's work lands at its place in the order, and {@link Kernel#traceSum()} counts a taken
 * event as a dispatched one: a run with reservations has the event digest of the same run without.
 * A reservation object is reusable; it holds at most one event at a time.
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
    EventHandler handler;
    /** Index in the queue's list of held reservations, and in the origin's. */
    int queueIndex = -1;
    int originIndex = -1;

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
     * Puts the held event in the queue at its reserved key, with the handler it was reserved with.
     * It must order after the event running (take it with {@link Origin#catchUp()} first).
     */
    public void schedule()
    {
        if (!held)
        {
            throw new IllegalStateException("no event reserved on " + origin);
        }
        kernel.scheduleReserved(this);
    }

    Origin origin()
    {
        return origin;
    }
}
