package org.qsnet.fabric.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.qsnet.fabric.QsnetException;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class KernelTest
{
    @Test
    void shouldOrderEventsByTimeThenOriginThenOriginSequence()
    {
        final Kernel k = new Kernel();
        final Origin high = k.origin(5, "high");
        final Origin low = k.origin(2, "low");
        final List<String> order = new ArrayList<>();
        high.schedule(10, t -> order.add("high-a"));
        high.schedule(10, t -> order.add("high-b"));
        low.schedule(10, t -> order.add("low-a"));
        low.schedule(5, t -> order.add("low-early"));
        high.schedule(3, t -> order.add("high-earliest"));
        k.run();
        assertEquals(List.of("high-earliest", "low-early", "low-a", "high-a", "high-b"), order);
        assertEquals(10, k.nowNs());
        assertEquals(5, k.eventCount());
    }

    @Test
    void shouldRejectDuplicateOriginAndEventInThePast()
    {
        final Kernel k = new Kernel();
        final Origin o = k.origin(1, "a");
        final QsnetException dup = assertThrows(QsnetException.class, () -> k.origin(1, "b"));
        assertTrue(dup.getMessage().contains("origin id 1 is already taken by a"), dup.getMessage());
        o.schedule(100, t -> { });
        k.run();
        final QsnetException past = assertThrows(QsnetException.class, () -> o.schedule(50, t -> { }));
        assertTrue(past.getMessage().contains("before now (100 ns)"), past.getMessage());
    }

    @Test
    void shouldProcessEveryEarlierEventBeforeAdvanceReturns()
    {
        final Kernel k = new Kernel();
        final Origin nic = k.origin(1, "nic");
        final long[] memory = new long[1];
        nic.schedule(50, t -> memory[0] = 42);
        final long[] seen = new long[2];
        k.spawn(100, "p", self ->
        {
            self.advance(49);
            seen[0] = memory[0];
            self.advance(51);
            seen[1] = memory[0];
        });
        final RunReport r = k.run().throwIfFailed();
        assertEquals(0, seen[0], "the DMA at 50 ns has not landed at 49 ns");
        assertEquals(42, seen[1], "the DMA at 50 ns has landed at 100 ns");
        assertEquals(100, r.outcomes().get(0).finishedAtNs());
    }

    @Test
    void shouldTakeFastPathWhenNothingIsPending()
    {
        final Kernel k = new Kernel();
        k.spawn(100, "p", self ->
        {
            for (int i = 0; i < 1000; i++)
            {
                self.advance(7);
            }
        });
        final RunReport r = k.run().throwIfFailed();
        assertEquals(7000, r.outcomes().get(0).finishedAtNs());
        assertEquals(1, k.eventCount(), "only the start event: every advance took the fast path");
    }

    @Test
    void shouldMakeBusyPollingLoopAdvanceSimulatedTime()
    {
        final Kernel k = new Kernel();
        final Origin nic = k.origin(1, "nic");
        final boolean[] flag = new boolean[1];
        nic.schedule(1000, t -> flag[0] = true);
        k.spawn(100, "poller", self ->
        {
            while (!flag[0])
            {
                self.poll(30);
            }
        });
        final RunReport r = k.run().throwIfFailed();
        assertEquals(1020, r.outcomes().get(0).finishedAtNs(), "first poll at or after 1000 ns is 34 x 30");
    }

    @Test
    void shouldRunAnEventDueAtTheSameInstantFirstWhenItsOriginOrdersBeforeTheProcess()
    {
        // (time, origin, origin sequence): a process that advances exactly onto the time of a
        // pending event of a lower origin must see that event's effect; of a higher origin, not yet
        final Kernel k = new Kernel();
        final Origin nic = k.origin(1, "nic");
        final Origin later = k.origin(500, "later");
        final boolean[] written = new boolean[2];
        nic.schedule(1000, t -> written[0] = true);
        later.schedule(1000, t -> written[1] = true);
        final boolean[] seen = new boolean[2];
        k.spawn(100, "poller", self ->
        {
            self.advance(1000);
            seen[0] = written[0];
            seen[1] = written[1];
        });
        k.run().throwIfFailed();
        assertTrue(seen[0], "origin 1 orders before the process (100) at 1000 ns: its write is seen");
        assertFalse(seen[1], "origin 500 orders after the process at 1000 ns: its write is not seen yet");
    }

    @Test
    void shouldResumeBlockedProcessAtTheTimeTheSignalFires()
    {
        final Kernel k = new Kernel();
        final Origin nic = k.origin(1, "nic");
        final Signal done = new Signal("dma done");
        nic.schedule(777, t -> done.fire());
        final long[] woke = new long[1];
        k.spawn(100, "waiter", self ->
        {
            self.await(done);
            woke[0] = self.nowNs();
        });
        k.run().throwIfFailed();
        assertEquals(777, woke[0]);
    }

    @Test
    void shouldResumeAProcessParkedOnSeveralSignalsAtTheFirstThatMakesItsConditionTrue()
    {
        final Kernel k = new Kernel();
        final Origin nic = k.origin(1, "nic");
        final Signal a = new Signal("a");
        final Signal b = new Signal("b");
        final Signal c = new Signal("c");
        final boolean[] set = new boolean[3];
        // b fires first but leaves the condition false: the process parks again on all three
        nic.schedule(300, t -> b.fire());
        nic.schedule(500, t ->
        {
            set[2] = true;
            c.fire();
        });
        nic.schedule(900, t ->
        {
            set[0] = true;
            a.fire();
        });
        final long[] woke = new long[2];
        k.spawn(100, "waiter", self ->
        {
            self.awaitAny(() -> set[0] || set[2], new Signal[] {a, b, c}, "a or c");
            woke[0] = self.nowNs();
            // taken off every signal it waited for: a later wait on a alone is resumed by a, once
            self.await(a);
            woke[1] = self.nowNs();
        });
        k.run().throwIfFailed();
        assertEquals(500, woke[0]);
        assertEquals(900, woke[1]);
        assertTrue(!a.hasWaiters() && !b.hasWaiters() && !c.hasWaiters());
    }

    @Test
    void shouldReportADeadlockOfAProcessParkedOnSeveralSignalsNamingThemAll()
    {
        final Kernel k = new Kernel();
        k.spawn(10, "rank 0", self -> self.awaitAny(() -> false,
            new Signal[] {new Signal("recv from 1"), new Signal("ibarrier round 0")}, "MPI_Recv"));
        final SimulationException e = assertThrows(SimulationException.class, k::run);
        assertTrue(e.getMessage().contains("rank 0 waits for MPI_Recv [any of: recv from 1 | ibarrier round 0]"), e.getMessage());
        final Kernel k2 = new Kernel();
        final Throwable[] refused = new Throwable[1];
        k2.spawn(0, "p", self -> refused[0] = assertThrows(QsnetException.class, () -> self.awaitAny(() -> false, new Signal[0], null)));
        k2.run().throwIfFailed();
        assertTrue(refused[0].getMessage().contains("signals"), refused[0].getMessage());
    }

    @Test
    void shouldStopARunThatNeverEndsWhenItsDriverIsInterrupted() throws Exception
    {
        // a process that polls forever: simulated time runs on, no deadlock is ever seen; a test's
        // timeout (which interrupts the thread that runs the kernel) must still end the run
        final Kernel k = new Kernel();
        k.spawn(0, "spinner", self ->
        {
            while (true)
            {
                self.poll(50);
            }
        });
        final Throwable[] thrown = new Throwable[1];
        final boolean[] keptInterrupt = new boolean[1];
        final Thread driver = new Thread(() ->
        {
            try
            {
                k.run();
            }
            catch (final Throwable t)
            {
                thrown[0] = t;
                keptInterrupt[0] = Thread.currentThread().isInterrupted();
            }
        });
        driver.start();
        Thread.sleep(300);
        driver.interrupt();
        driver.join(10_000);
        assertTrue(!driver.isAlive(), "the run did not stop");
        assertTrue(thrown[0] instanceof SimulationException, String.valueOf(thrown[0]));
        assertTrue(thrown[0].getMessage().startsWith("interrupted"), thrown[0].getMessage());
        assertTrue(keptInterrupt[0]);
        // the poller was stopped at its next poll, not abandoned still spinning on the carrier
        assertTrue(!thrown[0].getMessage().contains("did not give control back"), thrown[0].getMessage());
        assertEquals(ProcessState.KILLED, k.processes().get(0).state());
        final Kernel next = new Kernel();
        next.spawn(0, "after", self -> self.advance(10));
        assertEquals(10, next.run().endNs());
    }

    @Test
    void shouldInterleaveTwoProcessesPingPongWithExactTimes()
    {
        final Kernel k = new Kernel();
        final Signal toB = new Signal("ping");
        final Signal toA = new Signal("pong");
        final boolean[] flags = new boolean[2];
        final List<String> log = new ArrayList<>();
        k.spawn(100, "A", self ->
        {
            for (int i = 0; i < 3; i++)
            {
                self.advance(100);
                log.add("A sends at " + self.nowNs());
                flags[0] = true;
                toB.fire();
                self.awaitUntil(() -> flags[1], toA);
                flags[1] = false;
            }
        });
        k.spawn(101, "B", self ->
        {
            for (int i = 0; i < 3; i++)
            {
                self.awaitUntil(() -> flags[0], toB);
                flags[0] = false;
                self.advance(50);
                log.add("B replies at " + self.nowNs());
                flags[1] = true;
                toA.fire();
            }
        });
        k.run().throwIfFailed();
        assertEquals(List.of("A sends at 100", "B replies at 150", "A sends at 250", "B replies at 300",
            "A sends at 400", "B replies at 450"), log);
    }

    @Test
    void shouldReportDeadlockNamingWhatEachProcessWaitsFor()
    {
        final Kernel k = new Kernel();
        final Signal a = new Signal("event 0x1000 on vp 1");
        final Signal b = new Signal("event 0x2000 on vp 0");
        k.spawn(100, "vp 0", self -> self.await(a));
        k.spawn(101, "vp 1", self ->
        {
            self.advance(10);
            self.await(b);
        });
        final SimulationException e = assertThrows(SimulationException.class, k::run);
        assertTrue(e.getMessage().contains("deadlock at 10 ns"), e.getMessage());
        assertTrue(e.getMessage().contains("vp 0 waits for event 0x1000 on vp 1"), e.getMessage());
        assertTrue(e.getMessage().contains("vp 1 waits for event 0x2000 on vp 0"), e.getMessage());
        assertNotNull(e.report());
    }

    @Test
    void shouldReportProcessFailureWithItsStackAndLetOthersFinish()
    {
        final Kernel k = new Kernel();
        k.spawn(100, "bad", self ->
        {
            self.advance(5);
            throw new IllegalStateException("boom");
        });
        k.spawn(101, "good", self -> self.advance(20));
        final RunReport r = k.run();
        assertEquals(ProcessState.FAILED, r.outcomes().get(0).state());
        assertEquals("boom", r.outcomes().get(0).failure().getMessage());
        assertTrue(r.outcomes().get(0).failure().getStackTrace().length > 0);
        assertEquals(ProcessState.DONE, r.outcomes().get(1).state());
        final SimulationException e = assertThrows(SimulationException.class, r::throwIfFailed);
        assertTrue(e.getMessage().contains("process bad failed"), e.getMessage());
    }

    @Test
    void shouldEndTheRunAFixedDelayAfterAFailureWhenAskedKillingAProcessThatSpins()
    {
        final Kernel k = new Kernel();
        k.endRunWhenAProcessFails(1_000);
        k.spawn(100, "bad", self ->
        {
            self.advance(5);
            throw new IllegalStateException("boom");
        });
        final long[] spun = new long[1];
        k.spawn(101, "spinner", self ->
        {
            while (true)
            {
                self.advance(7);
                spun[0] = self.nowNs();
            }
        });
        final SimulationException e = assertThrows(SimulationException.class, k::run);
        assertEquals("the run was ended at 1005 ns, 1000 ns after bad failed (a failed process ends its job, as prun ends one"
            + " when a process dies): the processes still running or blocked were killed", e.getMessage());
        assertEquals("boom", e.getCause().getMessage());
        assertEquals(1005, k.nowNs());
        // the spinner ran up to the end and no further
        assertEquals(1001, spun[0]);
        assertEquals(ProcessState.RUNNING, e.report().outcomes().get(1).state());
        assertEquals(ProcessState.KILLED, k.processes().get(1).state());
        assertThrows(QsnetException.class, k::run);
    }

    @Test
    void shouldLetAFailedRunEndByItselfWhenEveryProcessFinishesBeforeTheDelay()
    {
        final Kernel k = new Kernel();
        k.endRunWhenAProcessFails(1_000);
        k.spawn(100, "bad", self ->
        {
            self.advance(5);
            throw new IllegalStateException("boom");
        });
        k.spawn(101, "good", self -> self.advance(900));
        final boolean[] timer = new boolean[1];
        k.origin(7, "timer").schedule(3_000, t -> timer[0] = true);
        final RunReport r = k.run();
        // every process ended by 900 ns, before the end the failure set at 1005 ns: that end kills
        // nothing and the run goes on to its last event
        assertTrue(timer[0]);
        assertEquals(3_000, r.endNs());
        assertEquals(ProcessState.DONE, r.outcomes().get(1).state());
        assertEquals(ProcessState.FAILED, r.outcomes().get(0).state());
        // the failure that ended nothing does not outlive its run: a later process runs on (a
        // review found it killed at the old end)
        k.spawn(102, "later", self -> self.advance(5_000));
        final RunReport again = k.run();
        assertEquals(ProcessState.DONE, again.outcomes().get(2).state());
        assertEquals(8_000, again.endNs());
        assertThrows(QsnetException.class, () -> k.endRunWhenAProcessFails(-1));
    }

    @Test
    void shouldAbortRunWhenEventHandlerFails()
    {
        final Kernel k = new Kernel();
        final Origin o = k.origin(1, "nic");
        o.schedule(10, t ->
        {
            throw new IllegalArgumentException("bad descriptor");
        });
        k.spawn(100, "p", self -> self.advance(100));
        final SimulationException e = assertThrows(SimulationException.class, k::run);
        assertTrue(e.getMessage().contains("bad descriptor"), e.getMessage());
    }

    @Test
    void shouldSurfaceModelErrorInTheBlockedCallOfTheProcess()
    {
        final Kernel k = new Kernel();
        final Origin nic = k.origin(1, "nic");
        final Signal never = new Signal("dma event");
        final SimProcess[] p = new SimProcess[1];
        final String[] caught = new String[1];
        p[0] = k.spawn(100, "vp 0", self ->
        {
            try
            {
                self.await(never);
            }
            catch (final QsnetException e)
            {
                caught[0] = e.getMessage() + " at " + self.nowNs();
            }
        });
        nic.schedule(300, t -> p[0].failWith(new QsnetException("DMA to vp 9 outside capability 0..7")));
        k.run().throwIfFailed();
        assertEquals("DMA to vp 9 outside capability 0..7 at 300", caught[0]);
    }

    @Test
    void shouldStopAtRunUntilLimitAndContinueLater()
    {
        final Kernel k = new Kernel();
        final List<Long> ticks = new ArrayList<>();
        k.spawn(100, "p", self ->
        {
            for (int i = 0; i < 5; i++)
            {
                self.advance(100);
                ticks.add(self.nowNs());
            }
        });
        k.runUntil(250);
        assertEquals(List.of(100L, 200L), ticks);
        assertEquals(250, k.nowNs());
        k.run().throwIfFailed();
        assertEquals(List.of(100L, 200L, 300L, 400L, 500L), ticks);
    }

    @Test
    void shouldRunManyProcessesToCompletion()
    {
        final Kernel k = new Kernel();
        final int n = 2000;
        final long[] sum = new long[1];
        for (int i = 0; i < n; i++)
        {
            final int id = i;
            k.spawn(100 + i, "p" + i, self ->
            {
                for (int j = 0; j < 10; j++)
                {
                    self.advance(1 + id % 7);
                }
                sum[0] += self.nowNs();
            });
        }
        final RunReport r = k.run().throwIfFailed();
        long expected = 0;
        for (int i = 0; i < n; i++)
        {
            expected += 10L * (1 + i % 7);
        }
        assertEquals(expected, sum[0]);
        assertTrue(r.allSucceeded());
    }

    @Test
    void shouldRejectAdvanceFromAnotherThreadAndNegativeTime()
    {
        final Kernel k = new Kernel();
        final SimProcess[] p = new SimProcess[1];
        final String[] msg = new String[1];
        p[0] = k.spawn(100, "p", self ->
        {
            msg[0] = assertThrows(QsnetException.class, () -> self.advance(-1)).getMessage();
        });
        assertThrows(QsnetException.class, () -> p[0].advance(1));
        k.run().throwIfFailed();
        assertEquals("ns -1 must be at least 0", msg[0]);
    }

    private static volatile boolean stopSpinning;

    @Test
    void shouldFailByTheWallClockWatchdogOnlyAsASafetyNetAndSaySo()
    {
        final Kernel k = new Kernel(new KernelContext(KernelContext.ComputeMode.ZERO, 1.0, 300_000_000L));
        stopSpinning = false;
        k.spawn(100, "spinner", self ->
        {
            while (!stopSpinning)
            {
                Thread.onSpinWait();
            }
        });
        try
        {
            final SimulationException e = assertThrows(SimulationException.class, k::run);
            assertTrue(e.getMessage().startsWith("watchdog (a wall-clock safety net, not a result)"), e.getMessage());
        }
        finally
        {
            stopSpinning = true;
        }
    }

    @Test
    void shouldChargeMeasuredComputeTimeWhenAsked()
    {
        final Kernel k = new Kernel(new KernelContext(KernelContext.ComputeMode.MEASURED, 2.0, 0));
        final long[] clock = new long[1];
        k.spawn(100, "worker", self ->
        {
            self.chargeCompute();
            double x = 0;
            for (int i = 0; i < 5_000_000; i++)
            {
                x += Math.sqrt(i);
            }
            self.chargeCompute();
            clock[0] = self.nowNs() + (x < 0 ? 1 : 0);
        });
        k.run().throwIfFailed();
        assertTrue(clock[0] > 100_000, "5 M square roots charged: " + clock[0] + " ns");
        final Kernel zero = new Kernel();
        zero.spawn(100, "worker", self ->
        {
            self.chargeCompute();
            double x = 0;
            for (int i = 0; i < 1_000_000; i++)
            {
                x += Math.sqrt(i);
            }
            self.chargeCompute();
            clock[0] = self.nowNs() + (x < 0 ? 1 : 0);
        });
        zero.run().throwIfFailed();
        assertEquals(0, clock[0], "the default charges compute as zero");
    }

    @Test
    void shouldRejectInvalidKernelContext()
    {
        final QsnetException e = assertThrows(QsnetException.class,
            () -> new KernelContext(KernelContext.ComputeMode.MEASURED, -2.0, 0));
        assertEquals("computeFactor -2.0 must be a finite number at least 0", e.getMessage());
    }
}
