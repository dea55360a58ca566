package org.qsnet.fabric.engine;

/**
 * What an event does when the kernel reaches its time.
 */
@FunctionalInterface
public interface EventHandler
{
    /**
     * Runs the event.
     *
     * @param timeNs the simulated time of the event, equal to {@link Kernel#nowNs()}.
     */
    void onEvent(long timeNs);

    /**
     * Reads, without changing anything, the state {@link #onEvent} will read first, and returns
     * some of it folded into an int. When a large bucket of simultaneous events becomes due, the
     * kernel calls it for every event of the bucket before running any of them: the reads of one
     * event do not wait for another's, so the processor overlaps their cache misses, and the
     * events then find their state in the cache. It must have no effect a run could see.
     *
     * @return any value derived from the state read (kept, so that the reads are not removed).
     */
    default int touch()
    {
        return 0;
    }
}
