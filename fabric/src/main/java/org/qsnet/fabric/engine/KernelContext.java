package org.qsnet.fabric.engine;

import org.qsnet.fabric.QsnetException;

/**
 * Configuration of a kernel.
 *
 * @param computeMode   how time spent in user code between library calls is charged.
 * @param computeFactor multiplier applied to measured compute time ({@link ComputeMode#MEASURED}).
 * @param watchdogNs    wall-clock safety net for one {@code run} call in host ns, 0 for none. It is
 *                      never part of a result: when it fires the run fails and says so.
 */
public record KernelContext(ComputeMode computeMode, double computeFactor, long watchdogNs)
{
    /** Compute charged as zero, no watchdog: fully deterministic. */
    public static final KernelContext DEFAULT = new KernelContext(ComputeMode.ZERO, 1.0, 0);

    /**
     * Validates the configuration.
     */
    public KernelContext
    {
        QsnetException.require(computeMode != null, "computeMode", computeMode, "must not be null");
        QsnetException.require(computeFactor >= 0 && !Double.isNaN(computeFactor) && !Double.isInfinite(computeFactor),
            "computeFactor", computeFactor, "must be a finite number at least 0");
        QsnetException.require(watchdogNs >= 0, "watchdogNs", watchdogNs, "must be at least 0 (0 = none)");
    }

    /**
     * How compute time between library calls is charged to a process's clock.
     */
    public enum ComputeMode
    {
        /** Charged as zero; a program charges explicit amounts with {@link SimProcess#compute(long)}. Deterministic. */
        ZERO,
        /**
         * Host CPU time of the process's thread since its previous library call, times the factor. Not
         * deterministic: only for studies where compute really matters.
         */
        MEASURED
    }
}
