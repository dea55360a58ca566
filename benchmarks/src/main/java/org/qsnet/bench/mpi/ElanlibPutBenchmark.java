package org.qsnet.bench.mpi;

import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.qsnet.bench.elan3.ElanlibExperiment;
import org.qsnet.fabric.machine.PlatformProfile;

/**
 * An Elanlib exchange under JMH: the host time of running the embedded {@code elan_put} latency
 * experiment (a two-node job on xeon-gc), and beside it ({@link SimulatedTime}) the simulated
 * one-way latency it measured.
 *
 * <pre>./qsnet jmh ElanlibPutBenchmark</pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3)
@Measurement(iterations = 5)
@Fork(1)
public class ElanlibPutBenchmark
{
    /** Bytes put. */
    @Param({"8", "65536"})
    public int size;

    /**
     * Runs the experiment; records the simulated latency of one put.
     *
     * @param sim the simulated-time counter.
     * @return the simulated latency in ns.
     */
    @Benchmark
    public long put(final SimulatedTime sim)
    {
        final long ns = ElanlibExperiment.putLatencyNs(PlatformProfile.xeonGc(), size);
        sim.record(ns, 1);
        return ns;
    }
}
