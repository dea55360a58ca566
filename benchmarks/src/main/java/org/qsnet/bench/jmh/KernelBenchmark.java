package org.qsnet.bench.jmh;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.qsnet.fabric.engine.EventHandler;
import org.qsnet.fabric.engine.Kernel;
import org.qsnet.fabric.engine.Origin;
import org.qsnet.fabric.engine.Signal;

/**
 * Cost of the simulation kernel: events, the fast path of {@code advance}, and hand-offs
 * between simulated processes. Scores are host ns per operation.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
@State(Scope.Thread)
public class KernelBenchmark
{
    private static final int EVENTS = 100_000;
    private static final int PENDING = 1_000;
    private static final int HANDOFFS = 10_000;

    /** Baseline: an empty kernel's construction and run. */
    @Benchmark
    public long emptyRun()
    {
        final Kernel k = new Kernel();
        k.run();
        return k.eventCount();
    }

    /**
     * One event: dequeued, dispatched and rescheduled, with 1000 events pending (a queue as deep
     * as a 64-node fabric under load).
     */
    @Benchmark
    @OperationsPerInvocation(EVENTS)
    public long eventWith1000Pending()
    {
        final Kernel k = new Kernel();
        final long[] left = {EVENTS};
        for (int i = 0; i < PENDING; i++)
        {
            final Origin o = k.origin(i, "o");
            final long gap = 50 + (i * 7919L) % 997;
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
        k.runUntil(Long.MAX_VALUE - 1);
        return k.traceHash();
    }

    /** One {@code advance} of a process with nothing pending: the fast path, no hand-off. */
    @Benchmark
    @OperationsPerInvocation(EVENTS)
    public long advanceFastPath()
    {
        final Kernel k = new Kernel();
        k.spawn(0, "p", self ->
        {
            for (int i = 0; i < EVENTS; i++)
            {
                self.advance(10);
            }
        });
        return k.run().endNs();
    }

    /**
     * One hand-off from a simulated process to another and back through the kernel (a blocking
     * wait resumed by the other's signal): the cost a ping-pong pays per message.
     */
    @Benchmark
    @OperationsPerInvocation(HANDOFFS)
    public long processHandOff()
    {
        final Kernel k = new Kernel();
        final Signal ping = new Signal("ping");
        final Signal pong = new Signal("pong");
        final int[] turn = {0};
        k.spawn(0, "a", self ->
        {
            for (int i = 0; i < HANDOFFS / 2; i++)
            {
                self.advance(100);
                turn[0] = 1;
                ping.fire();
                self.awaitUntil(() -> turn[0] == 0, pong);
            }
        });
        k.spawn(1, "b", self ->
        {
            for (int i = 0; i < HANDOFFS / 2; i++)
            {
                self.awaitUntil(() -> turn[0] == 1, ping);
                self.advance(100);
                turn[0] = 0;
                pong.fire();
            }
        });
        return k.run().endNs();
    }
    private static volatile boolean pingTurn;
    private static Thread ping;
    private static Thread pong;

    /**
     * The floor of a hand-off between two virtual threads, what processes cost when they run on
     * virtual threads ({@code -Dqsnet.carrier=virtual}): two bare virtual threads passing a turn
     * flag by park and unpark on the flags' single carrier, no kernel. Compare
     * {@link #processHandOff()}, which includes the kernel's work.
     *
     * @return the number of switches, as a sink.
     */
    @Benchmark
    @OperationsPerInvocation(HANDOFFS)
    public int virtualThreadPair() throws InterruptedException
    {
        pingTurn = true;
        ping = Thread.ofVirtual().unstarted(() ->
        {
            for (int i = 0; i < HANDOFFS / 2; i++)
            {
                while (!pingTurn)
                {
                    LockSupport.park();
                }
                pingTurn = false;
                LockSupport.unpark(pong);
            }
        });
        pong = Thread.ofVirtual().unstarted(() ->
        {
            for (int i = 0; i < HANDOFFS / 2; i++)
            {
                while (pingTurn)
                {
                    LockSupport.park();
                }
                pingTurn = true;
                LockSupport.unpark(ping);
            }
        });
        ping.start();
        pong.start();
        ping.join();
        pong.join();
        return HANDOFFS;
    }
}
