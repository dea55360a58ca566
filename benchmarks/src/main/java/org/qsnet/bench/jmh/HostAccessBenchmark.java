package org.qsnet.bench.jmh;

import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Warmup;
import org.qsnet.elan3.Elan3Context;
import org.qsnet.elan3.Prun;
import org.qsnet.fabric.machine.PlatformProfile;

/**
 * Host cost of a ported program's own loads of emulated memory ({@code ctx.getInt(addr)}, the
 * port of {@code *(int *)addr}): each charges its modelled host cost and lets due events run,
 * so this is the price of making C-style spin loops progress.
 */
@BenchmarkMode(Mode.AverageTime)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class HostAccessBenchmark
{
    private static final int LOADS = 100_000;

    /**
     * One load of a word of the process's main memory, nothing else pending (the fast path).
     *
     * @return the sum of the words loaded.
     */
    @Benchmark
    @OutputTimeUnit(TimeUnit.NANOSECONDS)
    @OperationsPerInvocation(LOADS)
    public long load()
    {
        final long[] sum = new long[1];
        Prun.run(PlatformProfile.pentium3He(), new Prun.Options(1, 1, false, 0, Map.of()), (p, a) ->
        {
            final Elan3Context ctx = Elan3Context.open();
            final long word = ctx.allocMain(8, 8);
            ctx.putInt(word, 1);
            long s = 0;
            for (int i = 0; i < LOADS; i++)
            {
                s += ctx.getInt(word);
            }
            sum[0] = s;
        }).throwIfFailed();
        return sum[0];
    }
}
