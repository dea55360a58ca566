package org.qsnet.fabric.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.lang.ref.WeakReference;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * What a process may rely on whichever way the kernel carries it (continuations on a carrier
 * thread, or virtual threads with {@code -Dqsnet.carrier=virtual}; the build runs this class both
 * ways): its own thread identity for its whole life, its own process-local values and context
 * class loader, the unwinding of a killed process.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ProcessCarrierTest
{
    @Test
    void shouldCarryProcessesAsTheBuildsFlagsSay()
    {
        // the build's JVM flags export jdk.internal.vm: without it every hand-off is a virtual
        // thread switch, about 60 % dearer, with nothing to say so but the benchmarks
        assertEquals(!"virtual".equals(System.getProperty("qsnet.carrier")), SimProcess.runsOnContinuations(),
            Continuations.WHY_NOT);
    }

    @Test
    void shouldResumeAProcessOnTheThreadItWasSuspendedOnAcrossWindowsAndOtherRuns()
    {
        final Kernel k = new Kernel();
        final List<Set<Thread>> seen = new ArrayList<>();
        for (int i = 0; i < 3; i++)
        {
            final Set<Thread> mine = new HashSet<>();
            seen.add(mine);
            final long step = 7 + i;
            k.spawn(i, "p" + i, self ->
            {
                for (int n = 0; n < 200; n++)
                {
                    mine.add(Thread.currentThread());
                    self.advance(step);
                }
                mine.add(Thread.currentThread());
            });
        }
        for (long end = 10; end < 3_000; end += 10)
        {
            k.runUntil(end);
            // another kernel's run between two windows takes carriers from the pool meanwhile
            final Kernel other = new Kernel();
            other.spawn(0, "other", self -> self.advance(5));
            other.run();
        }
        k.run();
        for (int i = 0; i < 3; i++)
        {
            assertEquals(1, seen.get(i).size(), "process p" + i + " ran on " + seen.get(i));
            assertEquals(ProcessState.DONE, k.processes().get(i).state());
        }
    }

    @Test
    void shouldKeepEachProcessItsOwnProcessLocalValueAndCurrentProcess()
    {
        final ProcessLocal<String> name = new ProcessLocal<>();
        final Kernel k = new Kernel();
        final List<String> errors = new ArrayList<>();
        for (int i = 0; i < 4; i++)
        {
            final String mine = "rank " + i;
            k.spawn(i, mine, self ->
            {
                name.set(mine);
                for (int n = 0; n < 50; n++)
                {
                    self.advance(3);
                    if (!mine.equals(name.get()) || SimProcess.current() != self)
                    {
                        errors.add(mine + " saw " + name.get() + " and " + SimProcess.current());
                    }
                }
            });
        }
        k.run();
        assertEquals(List.of(), errors);
        assertNull(name.get(), "the driver's thread runs no process");
        assertNull(SimProcess.current());
    }

    @Test
    void shouldKeepEachProcessItsOwnContextClassLoader() throws Exception
    {
        final ClassLoader driverLoader = Thread.currentThread().getContextClassLoader();
        try (URLClassLoader own = new URLClassLoader(new URL[0], driverLoader))
        {
            final Kernel k = new Kernel();
            final List<ClassLoader> seenByA = new ArrayList<>();
            final List<ClassLoader> seenByB = new ArrayList<>();
            k.spawn(0, "a", self ->
            {
                Thread.currentThread().setContextClassLoader(own);
                for (int n = 0; n < 5; n++)
                {
                    self.advance(2);
                    seenByA.add(Thread.currentThread().getContextClassLoader());
                }
            });
            k.spawn(1, "b", self ->
            {
                for (int n = 0; n < 5; n++)
                {
                    self.advance(2);
                    seenByB.add(Thread.currentThread().getContextClassLoader());
                }
            });
            k.run();
            assertEquals(List.of(own, own, own, own, own), seenByA);
            assertEquals(List.of(driverLoader, driverLoader, driverLoader, driverLoader, driverLoader), seenByB);
            assertSame(driverLoader, Thread.currentThread().getContextClassLoader());
        }
    }

    @Test
    void shouldUnwindAProcessKilledWhileSuspended() throws Exception
    {
        final Kernel k = new Kernel();
        final AtomicBoolean finallyRan = new AtomicBoolean();
        final Signal never = new Signal("never");
        k.spawn(0, "stuck", self ->
        {
            try
            {
                self.await(never, "a signal nobody fires");
            }
            finally
            {
                finallyRan.set(true);
            }
        });
        final SimulationException e = assertThrows(SimulationException.class, k::run);
        assertTrue(e.getMessage().contains("deadlock"), e.getMessage());
        assertEquals(ProcessState.KILLED, k.processes().get(0).state());
        // the unwinding runs on the process's own thread after the run ended, as a killed thread's would
        final long deadline = System.nanoTime() + 10_000_000_000L;
        while (!finallyRan.get() && System.nanoTime() < deadline)
        {
            Thread.sleep(1);
        }
        assertTrue(finallyRan.get(), "the killed process's finally block ran");
    }

    /** The process {@link HandsOffInItsInitialiser} advances (set before that class is first used). */
    static SimProcess initialising;

    /** A class whose initialiser hands off: the JVM cannot suspend a continuation there. */
    static final class HandsOffInItsInitialiser
    {
        static final long CLOCK;

        static
        {
            initialising.advance(10);
            CLOCK = initialising.nowNs();
        }
    }

    @Test
    void shouldFailAProcessThatHandsOffInAStaticInitialiserInsteadOfHanging()
    {
        assumeTrue(SimProcess.runsOnContinuations(), "on virtual threads such a process hangs the run (pinned)");
        final Kernel k = new Kernel();
        k.spawn(0, "initialiser", self ->
        {
            initialising = self;
            assertTrue(HandsOffInItsInitialiser.CLOCK > 0);
        });
        k.spawn(1, "other", self -> self.advance(5));
        final SimulationException e = assertThrows(SimulationException.class, k::run);
        assertTrue(e.getMessage().contains("process initialiser gave control to the kernel where the JVM cannot suspend it"),
            e.getMessage());
        assertTrue(e.getMessage().contains("static initialiser"), e.getMessage());
    }

    @Test
    void shouldKeepAnInterruptToTheProcessThatSetIt() throws Exception
    {
        // a process that interrupts itself (the "restore the interrupt" idiom after an
        // InterruptedException) keeps its interrupt, as its own thread kept it: another process
        // must not see it, and the thread that carried the processes must not keep it afterwards
        // (its wait for the next run would return at once, spinning a core)
        final Kernel k = new Kernel();
        final boolean[] seen = new boolean[3];
        final Set<Thread> threads = new HashSet<>();
        k.spawn(0, "interrupts itself", self ->
        {
            threads.add(Thread.currentThread());
            Thread.currentThread().interrupt();
            self.advance(10);
            seen[0] = Thread.currentThread().isInterrupted();
        });
        k.spawn(1, "other", self ->
        {
            threads.add(Thread.currentThread());
            self.advance(5);
            seen[1] = Thread.currentThread().isInterrupted();
            self.advance(10);
            seen[2] = Thread.currentThread().isInterrupted();
        });
        k.run().throwIfFailed();
        assertTrue(seen[0], "the process that interrupted itself keeps its interrupt across a hand-off");
        assertFalse(seen[1], "another process saw the first one's interrupt");
        assertFalse(seen[2], "another process saw the first one's interrupt");
        for (final Thread t : threads)
        {
            if (!t.isVirtual())
            {
                final long deadline = System.nanoTime() + 5_000_000_000L;
                while (t.getState() == Thread.State.RUNNABLE && System.nanoTime() < deadline)
                {
                    Thread.sleep(1);
                }
                assertFalse(t.isInterrupted(), t.getName() + " kept a process's interrupt after the run");
            }
        }
    }

    @Test
    void shouldChargeEachProcessOnlyItsOwnMeasuredCompute()
    {
        // MEASURED charges the host time a process computed between two library calls: not the time
        // other processes computed while it waited in a hand-off (they share its carrier's CPU clock,
        // and on virtual threads the wall clock)
        final long burnNs = 20_000_000L;
        final long stepNs = 10_000_000L;
        final Kernel k = new Kernel(new KernelContext(KernelContext.ComputeMode.MEASURED, 1.0, 0));
        final long[] clock = new long[2];
        k.spawn(0, "computes", self ->
        {
            double x = 0;
            self.chargeCompute();
            for (int n = 0; n < 5; n++)
            {
                final long t0 = System.nanoTime();
                while (System.nanoTime() - t0 < burnNs)
                {
                    x += Math.sqrt(n + x);
                }
                self.chargeCompute();
                self.advance(1);
            }
            clock[0] = self.nowNs() + (x < 0 ? 1 : 0);
        });
        k.spawn(1, "only calls", self ->
        {
            self.chargeCompute();
            for (int n = 0; n < 10; n++)
            {
                self.advance(stepNs);
                self.chargeCompute();
            }
            clock[1] = self.nowNs();
        });
        k.run().throwIfFailed();
        assertTrue(clock[0] > 5 * burnNs / 2, "the computing process is charged its compute: " + clock[0] + " ns");
        assertTrue(clock[1] - 10 * stepNs < burnNs / 2, "a process that only calls the library was charged "
            + (clock[1] - 10 * stepNs) + " ns of compute (the other process's)");
    }

    @Test
    void shouldUnwindAKilledProcessWithItsOwnContextClassLoader() throws Exception
    {
        final ClassLoader base = Thread.currentThread().getContextClassLoader();
        try (URLClassLoader a = new URLClassLoader(new URL[0], base); URLClassLoader b = new URLClassLoader(new URL[0], base))
        {
            final ClassLoader[] own = {a, b};
            final ClassLoader[] inFinally = new ClassLoader[2];
            final java.util.concurrent.CountDownLatch unwound = new java.util.concurrent.CountDownLatch(2);
            final Kernel k = new Kernel();
            final Signal never = new Signal("never");
            for (int i = 0; i < 2; i++)
            {
                final int me = i;
                k.spawn(i, "p" + i, self ->
                {
                    Thread.currentThread().setContextClassLoader(own[me]);
                    try
                    {
                        self.await(never, "a signal nobody fires");
                    }
                    finally
                    {
                        inFinally[me] = Thread.currentThread().getContextClassLoader();
                        unwound.countDown();
                    }
                });
            }
            assertThrows(SimulationException.class, k::run);
            assertTrue(unwound.await(10, TimeUnit.SECONDS), "the killed processes unwound");
            assertSame(a, inFinally[0], "p0's finally block ran with another context class loader");
            assertSame(b, inFinally[1], "p1's finally block ran with another context class loader");
        }
    }

    /** A class loader that reaches the job (as a rank's loader does through its program's static fields). */
    static final class LoaderOfAJob extends ClassLoader
    {
        Object job;

        LoaderOfAJob(final ClassLoader parent)
        {
            super(parent);
        }
    }

    /** Runs a window of a kernel whose process stays suspended, and drops the kernel. */
    private static WeakReference<Kernel> runAWindowAndDrop(final Thread[] carrier)
    {
        final Kernel k = new Kernel();
        final LoaderOfAJob loader = new LoaderOfAJob(ProcessCarrierTest.class.getClassLoader());
        loader.job = k;
        k.spawn(0, "suspended", self ->
        {
            Thread.currentThread().setContextClassLoader(loader);
            carrier[0] = Thread.currentThread();
            while (true)
            {
                self.advance(3);
            }
        });
        k.runUntil(100);
        return new WeakReference<>(k);
    }

    @Test
    void shouldEndTheCarrierOfAKernelThatWasDropped() throws Exception
    {
        assumeTrue(SimProcess.runsOnContinuations(), "virtual threads: no carrier of the kernel's own");
        final Thread[] carrier = new Thread[1];
        final WeakReference<Kernel> dropped = runAWindowAndDrop(carrier);
        final long deadline = System.nanoTime() + 20_000_000_000L;
        while (dropped.get() != null && System.nanoTime() < deadline)
        {
            System.gc();
            Thread.sleep(50);
        }
        assertNull(dropped.get(), "a dropped kernel with a suspended process was kept reachable (by its carrier)");
        carrier[0].join(10_000);
        assertFalse(carrier[0].isAlive(), "the carrier of a collected kernel did not end");
    }

    private static volatile boolean stopComputing;

    @Test
    void shouldUnwindTheSuspendedProcessesOfARunTheWatchdogLeftRunning() throws Exception
    {
        // the watchdog's driver leaves after its grace second when a process computes without
        // calling the library; the processes that wait must still unwind, as killed threads do
        final Kernel k = new Kernel(new KernelContext(KernelContext.ComputeMode.ZERO, 1.0, 300_000_000L));
        final java.util.concurrent.CountDownLatch unwound = new java.util.concurrent.CountDownLatch(2);
        final Signal never = new Signal("never");
        stopComputing = false;
        for (int i = 0; i < 2; i++)
        {
            k.spawn(i, "waits " + i, self ->
            {
                try
                {
                    self.await(never, "a signal nobody fires");
                }
                finally
                {
                    unwound.countDown();
                }
            });
        }
        k.spawn(2, "computes", self ->
        {
            self.advance(5);
            while (!stopComputing)
            {
                Thread.onSpinWait();
            }
            self.advance(5);
        });
        try
        {
            final SimulationException e = assertThrows(SimulationException.class, k::run);
            assertTrue(e.getMessage().contains("did not give control back"), e.getMessage());
        }
        finally
        {
            stopComputing = true;
        }
        assertTrue(unwound.await(10, TimeUnit.SECONDS), "the waiting processes did not unwind");
        for (final SimProcess p : k.processes())
        {
            assertEquals(ProcessState.KILLED, p.state(), p.name());
        }
    }

    private static void cleanupFails()
    {
        throw new IllegalStateException("cleanup failed");
    }

    @Test
    void shouldUnwindEveryKilledProcessWhenACleanupThrows() throws Exception
    {
        // a killed process whose finally block throws (a cleanup that fails once the run has ended)
        // stays killed: the run has ended, its end is not moved by a new failure, and the other
        // killed processes unwind as well
        final Kernel k = new Kernel();
        k.endRunWhenAProcessFails(0);
        final java.util.concurrent.CountDownLatch unwound = new java.util.concurrent.CountDownLatch(2);
        final Signal never = new Signal("never");
        k.spawn(0, "cleanup throws", self ->
        {
            try
            {
                self.await(never, "a signal nobody fires");
            }
            finally
            {
                unwound.countDown();
                cleanupFails();
            }
        });
        k.spawn(1, "waits later", self ->
        {
            self.advance(10);
            try
            {
                self.await(never, "a signal nobody fires");
            }
            finally
            {
                unwound.countDown();
            }
        });
        final SimulationException e = assertThrows(SimulationException.class, k::run);
        assertTrue(e.getMessage().startsWith("deadlock at 10 ns"), e.getMessage());
        assertTrue(unwound.await(10, TimeUnit.SECONDS), "a killed process did not unwind");
        for (final SimProcess p : k.processes())
        {
            final long deadline = System.nanoTime() + 5_000_000_000L;
            while (p.failure() == null && System.nanoTime() < deadline && p.name().startsWith("cleanup"))
            {
                Thread.sleep(10);
            }
            assertEquals(ProcessState.KILLED, p.state(), p.name());
            assertNull(p.failure(), p.name());
        }
        assertEquals(Long.MAX_VALUE, k.failureEndNs());
    }
}
