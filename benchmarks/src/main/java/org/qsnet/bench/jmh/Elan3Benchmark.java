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
import org.qsnet.bench.elan3.PingExperiment.Placement;
import org.qsnet.bench.elan3.PingExperiment;
import org.qsnet.elan3.E3DmaMain;
import org.qsnet.elan3.Elan3;
import org.qsnet.elan3.Elan3Context;
import org.qsnet.elan3.Prun;
import org.qsnet.fabric.machine.PlatformProfile;

/**
 * Cost of the emulated Elan3lib: host time per simulated round trip (two processes ping-pong
 * with 0-byte DMAs: hand-offs, NIC, fabric) and per KB moved by a large DMA.
 */
@BenchmarkMode(Mode.AverageTime)
// ten warm-up seconds: the round trip's code (library, NIC model, kernel) is still being compiled
// after four on a 2-core host (26.8 us a round trip in the first second, then 2.6, 2.2, 2.3, 2.1,
// 2.2, 2.0 before it settles near 1.9; `-wi 4 -i 10`, 2026-11-25)
@Warmup(iterations = 10, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class Elan3Benchmark
{
    /** Round trips per job: the job's set-up (about 1 ms, {@link #jobSetUp()}) is 0.1 us of each. */
    private static final int ROUND_TRIPS = 10_000;

    /**
     * One Elan3lib round trip: rank 0 puts, rank 1 waits on the word event and puts back.
     *
     * @return simulated end time.
     */
    @Benchmark
    @OutputTimeUnit(TimeUnit.NANOSECONDS)
    @OperationsPerInvocation(ROUND_TRIPS)
    public long roundTrip()
    {
        return pingPong(ROUND_TRIPS);
    }

    /**
     * The same job with no round trip: the machine, the two processes and their contexts built,
     * run and torn down. What {@link #roundTrip()} includes once per {@value #ROUND_TRIPS} round trips.
     *
     * @return simulated end time.
     */
    @Benchmark
    @OutputTimeUnit(TimeUnit.MICROSECONDS)
    public long jobSetUp()
    {
        return pingPong(0);
    }

    private static long pingPong(final int roundTrips)
    {
        return Prun.run(PlatformProfile.pentium3He(), new Prun.Options(2, 2, false, 0, Map.of()), (p, a) ->
        {
            final Elan3Context ctx = Elan3Context.open();
            final int me = ctx.process();
            final long ev = ctx.allocElan(8, 16);
            final long word = ctx.allocMain(8, 8);
            final long scratch = ctx.allocElan(32, 32);
            final long buf = ctx.sdram2elan(ctx.allocElan(64, 64));
            ctx.initeventWord(ev, word);
            ctx.primeevent(ev, 1);
            ctx.blockInputter(0);
            final E3DmaMain d = new E3DmaMain();
            d.dma_type = Elan3.E3_DMA_TYPE(Elan3.DMA_BYTE, Elan3.DMA_WRITE, Elan3.DMA_NORMAL, 0);
            d.dma_source = buf;
            d.dma_dest = buf;
            d.dma_destEvent = ctx.sdram2elan(ev);
            d.dma_destCookieVProc = 1 - me;
            p.sim().advance(10_000);
            for (int i = 0; i < roundTrips; i++)
            {
                if (me == 0)
                {
                    ctx.putdmaMain(d, scratch);
                }
                ctx.waitEventWord(ev, word, Elan3.ELAN_POLL_EVENT);
                ctx.putInt(word, 0);
                ctx.primeevent(ev, 1);
                if (me == 1)
                {
                    ctx.putdmaMain(d, scratch);
                }
            }
        }).throwIfFailed().endNs();
    }

    /**
     * One KB moved by 1 MB DMAs (main to Elan memory).
     *
     * @return the bandwidth.
     */
    @Benchmark
    @OutputTimeUnit(TimeUnit.NANOSECONDS)
    @OperationsPerInvocation(2 * 1024)
    public double kilobyteMoved()
    {
        return PingExperiment.bandwidthMBs(PlatformProfile.pentium3He(), 1 << 20, 2, Placement.MAIN, Placement.ELAN, false);
    }
}
