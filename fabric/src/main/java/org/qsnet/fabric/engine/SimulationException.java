package org.qsnet.fabric.engine;

import org.qsnet.fabric.QsnetException;

/**
 * A run could not complete: a deadlock (every process blocked, no event pending), a failed
 * event handler, or the wall-clock watchdog.
 */
public final class SimulationException extends QsnetException
{
    private static final long serialVersionUID = 1L;

    private final transient RunReport report;

    /**
     * @param message what went wrong.
     * @param cause   the underlying failure, or null.
     */
    public SimulationException(final String message, final Throwable cause)
    {
        this(message, cause, null);
    }

    /**
     * @param message what went wrong.
     * @param cause   the underlying failure, or null.
     * @param report  the outcome of every process when the run stopped, or null.
     */
    public SimulationException(final String message, final Throwable cause, final RunReport report)
    {
        super(message, cause);
        this.report = report;
    }

    /**
     * @return the outcome of every process when the run stopped, or null if not known.
     */
    public RunReport report()
    {
        return report;
    }
}
