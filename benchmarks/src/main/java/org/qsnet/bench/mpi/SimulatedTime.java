package org.qsnet.bench.mpi;

import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.infra.IterationParams;

/**
 * JMH support: reports the simulated time of what a {@code @Benchmark} ran on the embedded
 * machine as an auxiliary counter, {@code simNsPerOp}, beside JMH's host-time score. Add a
 * parameter of this type to the benchmark method and call {@link #record} with the simulated
 * nanoseconds the exchange took and the operations it counted (e.g. {@code MPI.wtime()}
 * differences inside the job).
 *
 * <p>JMH sums an {@code EVENTS} counter over the invocations of an iteration and over the
 * measurement iterations of a run. So use it with {@code @BenchmarkMode(Mode.SingleShotTime)} (one
 * invocation per iteration); the counter holds that invocation's simulated ns per operation
 * divided by the number of iterations of its kind, so that the run's sum, the figure JMH prints,
 * is their mean. The simulated figure is deterministic: its error is 0 while the host time varies.
 */
@State(Scope.Thread)
@AuxCounters(AuxCounters.Type.EVENTS)
public class SimulatedTime
{
    /** The simulated ns per operation of the last invocation, over the iterations of its kind. */
    public double simNsPerOp;
    private int iterations = 1;

    /**
     * Learns how many iterations the coming one belongs to (warm-up or measurement).
     *
     * @param params the iteration's parameters (JMH injects them).
     */
    @Setup(Level.Iteration)
    public void iteration(final IterationParams params)
    {
        iterations = Math.max(1, params.getCount());
        simNsPerOp = 0;
    }

    /**
     * Records what one invocation simulated.
     *
     * @param simulatedNs the simulated time of the exchange.
     * @param operations  how many operations it counted (at least 1).
     */
    public void record(final double simulatedNs, final long operations)
    {
        simNsPerOp = simulatedNs / Math.max(1, operations) / iterations;
    }
}
