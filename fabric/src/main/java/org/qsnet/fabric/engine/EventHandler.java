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
}
