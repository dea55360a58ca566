package org.qsnet.fabric.engine;

/**
 * A scheduled event: its key {@code (timeNs, origin, originSeq)} totally orders all events.
 */
public final class Event
{
    final long timeNs;
    final int origin;
    final long originSeq;
    final EventHandler handler;
    boolean cancelled;

    Event(final long timeNs, final int origin, final long originSeq, final EventHandler handler)
    {
        this.timeNs = timeNs;
        this.origin = origin;
        this.originSeq = originSeq;
        this.handler = handler;
    }

    /**
     * @return the simulated time of the event.
     */
    public long timeNs()
    {
        return timeNs;
    }

    /**
     * Cancels the event: the kernel drops it when its time comes.
     */
    public void cancel()
    {
        cancelled = true;
    }

    /**
     * @return whether {@link #cancel()} was called.
     */
    public boolean isCancelled()
    {
        return cancelled;
    }

}
