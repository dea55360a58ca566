package org.qsnet.fabric.engine;

import java.util.List;

/**
 * The outcome of a run: the final simulated time, the number of events, the trace hash, and
 * each process's outcome.
 *
 * @param endNs      simulated time when the run returned.
 * @param eventCount events processed.
 * @param traceHash  hash over the key of every processed event (see {@link Kernel#traceHash()}).
 * @param outcomes   one per process, in spawn order.
 */
public record RunReport(long endNs, long eventCount, long traceHash, List<Outcome> outcomes)
{
    /**
     * The outcome of one process.
     *
     * @param name        the process's name.
     * @param state       its state when the report was made.
     * @param finishedAtNs simulated time it finished at, or -1 if it has not.
     * @param failure     what it threw, or null.
     * @param waitingFor  what it waits for, if blocked (empty otherwise).
     * @param clockNs     its simulated clock when the report was made.
     * @param stack       where its code was when the report was made, innermost frame first; empty
     *                    once it has finished.
     */
    public record Outcome(String name, ProcessState state, long finishedAtNs, Throwable failure, String waitingFor,
        long clockNs, List<StackTraceElement> stack)
    {
        /**
         * Copies the stack.
         */
        public Outcome
        {
            stack = List.copyOf(stack);
        }

        /**
         * An outcome without clock or stack (clock: the finishing time, or 0).
         *
         * @param name         the process's name.
         * @param state        its state.
         * @param finishedAtNs simulated time it finished at, or -1.
         * @param failure      what it threw, or null.
         * @param waitingFor   what it waits for, if blocked.
         */
        public Outcome(final String name, final ProcessState state, final long finishedAtNs, final Throwable failure,
            final String waitingFor)
        {
            this(name, state, finishedAtNs, failure, waitingFor, Math.max(0, finishedAtNs), List.of());
        }
    }

    /**
     * @return whether every process finished normally.
     */
    public boolean allSucceeded()
    {
        for (final Outcome o : outcomes)
        {
            if (o.state != ProcessState.DONE)
            {
                return false;
            }
        }
        return true;
    }

    /**
     * Throws a {@link SimulationException} carrying the first failure if any process failed.
     *
     * @return this report, for chaining.
     */
    public RunReport throwIfFailed()
    {
        for (final Outcome o : outcomes)
        {
            if (o.state == ProcessState.FAILED)
            {
                throw new SimulationException("process " + o.name + " failed: " + o.failure, o.failure, this);
            }
        }
        return this;
    }

    @Override
    public String toString()
    {
        final StringBuilder sb = new StringBuilder("run ended at ").append(endNs).append(" ns after ")
            .append(eventCount).append(" events");
        for (final Outcome o : outcomes)
        {
            sb.append("\n  ").append(o.name).append(": ").append(o.state);
            if (o.finishedAtNs >= 0)
            {
                sb.append(" at ").append(o.finishedAtNs).append(" ns");
            }
            else if (!o.state.isTerminal())
            {
                sb.append(", clock ").append(o.clockNs).append(" ns");
            }
            if (o.failure != null)
            {
                sb.append(" (").append(o.failure).append(')');
            }
            if (o.state == ProcessState.BLOCKED)
            {
                sb.append(", waits for ").append(o.waitingFor);
            }
        }
        return sb.toString();
    }
}
