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
import org.qsnet.fabric.engine.EventHandler;
import org.qsnet.fabric.engine.Kernel;
import org.qsnet.fabric.engine.Origin;

/**
 * The event core's cost per event against how many events are pending: one origin per pending
 * event, each rescheduling itself {@code pending / 1000} times as far ahead as
 * {@code KernelBenchmark.eventWith1000Pending}'s (the gaps spread over every ns, so that deeper
 * queues do not bring more events at one instant), so that the events per simulated ns are the
 * same at every size and only the queue's depth changes. A saturated fabric keeps about one event
 * pending per node (96, 291, 954 and 3,749 at 64, 256, 1024 and 4096 nodes): this is the queue's
 * share of the cost per packet-hop as the machine grows, with the model's own state left out.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
@State(Scope.Thread)
public class KernelScalingBenchmark
{
    private static final int EVENTS = 1_000_000;

    /** Events pending at once (one origin each). */
    @Param({"100", "1000", "4000", "16000"})
    public int pending;

    private Kernel kernel;

    /** A kernel with {@link #pending} origins, each with its first event scheduled (not timed). */
    @Setup(Level.Invocation)
    public void setUp()
    {
        final Kernel k = new Kernel();
        final long[] left = {EVENTS};
        for (int i = 0; i < pending; i++)
        {
            final Origin o = k.origin(i, "o");
            // eventWith1000Pending's gaps (50..1046 ns) stretched by pending / 1000, spread over every ns
            final long gap = 50L * pending / 1000 + (i * 7919L) % (997L * pending / 1000);
            o.schedule(gap, new EventHandler()
            {
                @Override
                public void onEvent(final long timeNs)
                {
                    if (--left[0] > 0)
                    {
                        o.schedule(timeNs + gap, this);
                    }
                }
            });
        }
        kernel = k;
    }

    /**
     * One event dequeued, dispatched and (but for the last {@link #pending} of the invocation)
     * rescheduled. An invocation dispatches {@code EVENTS + pending - 1} events and the score
     * divides by {@code EVENTS}: at 16,000 pending it overstates the cost per event by 1.6 %.
     *
     * @return the trace hash.
     */
    @Benchmark
    @OperationsPerInvocation(EVENTS)
    public long eventWithPending()
    {
        kernel.runUntil(Long.MAX_VALUE - 1);
        return kernel.traceHash();
    }
}
