package org.qsnet.fabric.engine;

/**
 * A cancellable scheduled event, from {@link Origin#scheduleCancellable(long, EventHandler)}.
 * It takes its place in the order {@code (timeNs, origin, originSeq)} like any other event; the
 * kernel drops a cancelled one when its time comes (it is neither counted nor hashed).
 */
public final class Event implements EventHandler
{
    private final long timeNs;
    private final EventHandler handler;
    private boolean cancelled;

    Event(final long timeNs, final EventHandler handler)
    {
        this.timeNs = timeNs;
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

    /**
     * Runs the wrapped handler unless the event was cancelled.
     *
     * @param nowNs the simulated time of the event.
     */
    @Override
    public void onEvent(final long nowNs)
    {
        if (!cancelled)
        {
            handler.onEvent(nowNs);
        }
    }
}
