package org.qsnet.fabric.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.qsnet.fabric.QsnetException;

@Timeout(value = 30, unit = TimeUnit.SECONDS)
class WaitReportTest
{
    @Test
    void shouldBuildAWaitsDescriptionOnlyWhenAReportShowsIt()
    {
        final AtomicInteger built = new AtomicInteger();
        final Kernel k = new Kernel();
        final Signal landed = new Signal(() ->
        {
            built.incrementAndGet();
            return "NIC write to 0x1000";
        });
        k.origin(1, "nic").schedule(10, t -> landed.fire());
        final Supplier<String> what = () ->
        {
            built.incrementAndGet();
            return "the receive of tag 7";
        };
        k.spawn(100, "vp 0", self -> self.await(landed, what));
        k.run().throwIfFailed();
        assertEquals(0, built.get(), "a wait that ends builds no text");

        final Kernel stuck = new Kernel();
        stuck.spawn(100, "vp 0", self -> self.awaitUntil(() -> false, landed, what));
        final SimulationException e = assertThrows(SimulationException.class, stuck::run);
        assertTrue(e.getMessage().contains("vp 0 waits for the receive of tag 7 [NIC write to 0x1000]"), e.getMessage());
        assertEquals("the receive of tag 7 [NIC write to 0x1000]", e.report().outcomes().get(0).waitingFor());
    }

    @Test
    void shouldReportABlockedProcessWithItsClockAndStackBeforeKillingIt()
    {
        final Kernel k = new Kernel();
        final Signal never = new Signal("never");
        k.spawn(100, "vp 0", self ->
        {
            self.advance(250);
            self.await(never, "a message nobody sends");
        });
        final SimulationException e = assertThrows(SimulationException.class, k::run);
        final RunReport.Outcome o = e.report().outcomes().get(0);
        assertEquals(ProcessState.BLOCKED, o.state());
        assertEquals(250, o.clockNs());
        assertTrue(o.stack().stream().anyMatch(f -> f.getClassName().equals(SimProcess.class.getName())
            && f.getMethodName().equals("await")), o.stack().toString());
        assertEquals("a message nobody sends [never]", o.waitingFor());
    }

    @Test
    void shouldShutDownAJobStoppedAtALimit()
    {
        final Kernel k = new Kernel();
        final SimProcess spinner = k.spawn(100, "spinner", self ->
        {
            while (true)
            {
                self.advance(100);
            }
        });
        final RunReport r = k.runUntil(1_000);
        assertEquals(ProcessState.RUNNING, r.outcomes().get(0).state());
        assertTrue(r.outcomes().get(0).stack().isEmpty(), "report() takes no stacks");
        final RunReport.Outcome where = k.snapshot().outcomes().get(0);
        assertEquals(1_000, where.clockNs());
        assertTrue(where.stack().stream().anyMatch(f -> f.getMethodName().equals("advance")), where.stack().toString());
        k.shutdown();
        assertEquals(ProcessState.KILLED, spinner.state());
        assertEquals("kernel has ended (shut down, deadlock or watchdog)",
            assertThrows(QsnetException.class, () -> k.runUntil(2_000)).getMessage());
    }

    @Test
    void shouldStopAtTheNextEventWhenTheWallClockSafetyNetFires()
    {
        final Kernel k = new Kernel(new KernelContext(KernelContext.ComputeMode.ZERO, 1.0, 200_000_000L));
        // two processes taking turns: every step goes through the kernel, which can stop there
        k.spawn(100, "a", self ->
        {
            while (true)
            {
                self.advance(10);
            }
        });
        k.spawn(101, "b", self ->
        {
            while (true)
            {
                self.advance(7);
            }
        });
        final SimulationException e = assertThrows(SimulationException.class, k::run);
        assertTrue(e.getMessage().startsWith("watchdog (a wall-clock safety net, not a result): the run took more than 200 ms"),
            e.getMessage());
        assertTrue(!e.getMessage().contains("snapshot"), "stopped cooperatively: " + e.getMessage());
        assertTrue(e.report().outcomes().stream().allMatch(o -> o.state() == ProcessState.RUNNING), e.report().toString());
        assertTrue(e.report().outcomes().get(0).stack().stream().anyMatch(f -> f.getMethodName().equals("advance")));
    }
}
