package org.qsnet.fabric.engine;

/**
 * Life cycle of a simulated process.
 */
public enum ProcessState
{
    /** Spawned, not yet started. */
    NEW,
    /** Its code runs, or it waits for the kernel to reach its new clock. */
    RUNNING,
    /** Parked on a {@link Signal} until an event fires it. */
    BLOCKED,
    /** Its code returned. */
    DONE,
    /** Its code threw; see the outcome's failure. */
    FAILED,
    /** Stopped by the kernel after a deadlock or an abort. */
    KILLED;

    /**
     * @return whether the process will not run again.
     */
    public boolean isTerminal()
    {
        return this == DONE || this == FAILED || this == KILLED;
    }
}
