package org.qsnet.bench.jmh;

import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.qsnet.bench.traffic.Pattern;
import org.qsnet.bench.traffic.TrafficExperiment;
import org.qsnet.bench.traffic.TrafficSpec;
import org.qsnet.fabric.engine.Kernel;
import org.qsnet.fabric.network.Fabric;
import org.qsnet.fabric.network.FabricConfig;
import org.qsnet.fabric.network.Packet;

/**
 * Cost of the fabric model: host ns per packet-hop, and host time per simulated microsecond of
 * saturated uniform traffic (the slowdown).
 */
@BenchmarkMode(Mode.AverageTime)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class FabricBenchmark
{
    /** A 64-node fabric, reused: each invocation sends one complement permutation. */
    @State(Scope.Thread)
    public static class Idle
    {
        Kernel kernel;
        Fabric fabric;

        /** Builds the fabric once per trial. */
        @Setup(Level.Trial)
        public void setUp()
        {
            kernel = new Kernel();
            fabric = new Fabric(kernel, FabricConfig.elite(3));
        }
    }

    /**
     * One packet-hop: 64 packets (a complement permutation, 6 links each through the top of
     * the tree) injected together and run to their acknowledgements; 384 hops per invocation.
     *
     * @param s the fabric.
     * @return the trace hash.
     */
    @Benchmark
    @OutputTimeUnit(TimeUnit.NANOSECONDS)
    @OperationsPerInvocation(64 * 6)
    public long packetHop(final Idle s)
    {
        for (int i = 0; i < 64; i++)
        {
            s.fabric.port(i).inject(Packet.unicast(i, 63 - i, 320));
        }
        s.kernel.run();
        return s.kernel.traceHash();
    }

    /** Uniform traffic at offered load 1.0, warmed up; each invocation simulates 10 us. */
    @State(Scope.Thread)
    public static class Saturated
    {
        @Param({"64", "1024"})
        int nodes;

        TrafficExperiment experiment;
        long untilNs;

        /** Fresh experiment, past its warm-up, for every invocation. */
        @Setup(Level.Invocation)
        public void setUp()
        {
            final TrafficSpec spec = new TrafficSpec(Pattern.UNIFORM, nodes, FabricConfig.elite(TrafficSpec.dimFor(nodes)),
                320, false, true, 10_000, 10_000, 0, 0, 1, false, true, false, 0, false, 1, false, org.qsnet.fabric.machine.PlatformProfile.pentium3He());
            experiment = new TrafficExperiment(spec, 1.0);
            experiment.runTo(spec.warmupNs());
            untilNs = spec.warmupNs() + spec.measureNs();
        }
    }

    /**
     * Host time for 10 us of simulated saturated uniform traffic; divide by 10 us for the slowdown.
     *
     * @param s the experiment.
     * @return events processed.
     */
    @Benchmark
    @OutputTimeUnit(TimeUnit.MICROSECONDS)
    public long uniformSaturated10us(final Saturated s)
    {
        s.experiment.runTo(s.untilNs);
        return s.experiment.kernel().eventCount();
    }
}
