package org.qsnet.bench.jmh;

import java.util.SplittableRandom;
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

/**
 * The host's own memory, not the emulator: the latency of one dependent load (a pointer chase
 * over one random cycle through every cache line of a working set of {@code megabytes}). It is
 * the yardstick for the network model's cost per packet-hop at scale: at saturation every header
 * hop and channel release reads the state of a link and a switch that no recent event touched, so
 * once the network's state outgrows the caches each such read costs what this benchmark measures
 * at that size (README, "What limits each target").
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
@State(Scope.Thread)
public class HostMemoryBenchmark
{
    private static final int LINE_INTS = 16;
    private static final int STEPS = 1 << 16;

    /** Working set, MB (one cache line of 64 bytes per element of the cycle). */
    @Param({"1", "4", "8", "16", "32", "64"})
    public int megabytes;

    private int[] next;
    private int at;

    @Setup(Level.Trial)
    public void setUp()
    {
        final int lines = megabytes * (1 << 20) / 64;
        final int[] order = new int[lines];
        for (int i = 0; i < lines; i++)
        {
            order[i] = i;
        }
        final SplittableRandom random = new SplittableRandom(42);
        for (int i = lines - 1; i > 0; i--)
        {
            final int j = random.nextInt(i + 1);
            final int t = order[i];
            order[i] = order[j];
            order[j] = t;
        }
        next = new int[lines * LINE_INTS];
        for (int i = 0; i < lines; i++)
        {
            next[order[i] * LINE_INTS] = order[(i + 1) % lines] * LINE_INTS;
        }
    }

    /**
     * {@value #STEPS} dependent loads, each from a line the previous one named.
     *
     * @return where the chase stopped (it continues from there next time).
     */
    @Benchmark
    @OperationsPerInvocation(STEPS)
    public int dependentLoad()
    {
        final int[] n = next;
        int p = at;
        for (int i = 0; i < STEPS; i++)
        {
            p = n[p];
        }
        at = p;
        return p;
    }
}
