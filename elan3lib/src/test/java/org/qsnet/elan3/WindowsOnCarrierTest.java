package org.qsnet.elan3;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.qsnet.fabric.distributed.PartitionThreads;
import org.qsnet.fabric.engine.KernelContext;
import org.qsnet.fabric.engine.RunReport;
import org.qsnet.fabric.engine.SimProcess;
import org.qsnet.fabric.engine.SimulationException;
import org.qsnet.fabric.machine.PlatformProfile;
import org.qsnet.fabric.transport.TransportContext;
import org.qsnet.fabric.transport.local.LocalTransport;

/**
 * A partition whose ranks run ends its windows on the ranks' carrier thread
 * ({@code Kernel.WindowBoundary}) instead of handing the turn to the driver's thread and back in
 * every window: the same run, window for window, as with {@code -Dqsnet.windowsOnCarrier=false},
 * and as in one JVM.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class WindowsOnCarrierTest
{
    private static final int ITERATIONS = 40;

    /** An Elan3lib ping-pong of {@code size} bytes, as legacy code writes it; the payload is checked each way. */
    private static void pingPong(final ElanProcess p, final String[] args)
    {
        final int size = 256;
        final Elan3Context ctx = Elan3Context.open();
        final int me = ctx.process();
        final int peer = 1 - me;
        final long buf = ctx.allocElan(64, size);
        final long ev = ctx.allocElan(Elan3.E3_EVENT_ALIGN, Elan3.E3_BLOCK_COPY_EVENT_SIZE);
        final long word = ctx.allocMain(8, 8);
        final long scratch = ctx.allocElan(Elan3.E3_DMA_ALIGN, Elan3.E3_DMA_SIZE);
        ctx.initeventWord(ev, word);
        ctx.primeevent(ev, 1);
        ctx.blockInputter(0);
        final E3DmaMain dma = new E3DmaMain();
        dma.dma_type = Elan3.E3_DMA_TYPE(Elan3.DMA_BYTE, Elan3.DMA_WRITE, Elan3.DMA_NORMAL, 0);
        dma.dma_size = size;
        dma.dma_source = ctx.sdram2elan(buf);
        dma.dma_dest = ctx.sdram2elan(buf);
        dma.dma_destEvent = ctx.sdram2elan(ev);
        dma.dma_destCookieVProc = peer;
        dma.dma_srcCookieVProc = ctx.localCookie(me, peer);
        for (int i = 0; i < ITERATIONS; i++)
        {
            if (me == 0)
            {
                ctx.putInt(Elan3.HOST_SDRAM_BASE + buf, i);
                ctx.putdmaMain(dma, scratch);
            }
            ctx.waitEventWord(ev, word, Elan3.ELAN_POLL_EVENT);
            final int got = ctx.getInt(Elan3.HOST_SDRAM_BASE + buf);
            if (got != (me == 0 ? -i : i))
            {
                throw new IllegalStateException("rank " + me + " round " + i + " read " + got);
            }
            ctx.putInt(word, 0);
            ctx.primeevent(ev, 1);
            if (me == 1)
            {
                ctx.putInt(Elan3.HOST_SDRAM_BASE + buf, -i);
                ctx.putdmaMain(dma, scratch);
            }
            // some computing between the rounds, so that windows pass with nothing to carry
            p.sim().advance(3_000 + 500L * me);
        }
    }

    private record Run(Prun.PartitionedResult result, long[] carrierWindows)
    {
    }

    private static Run inTwoPartitions(final Prun.Options o, final boolean onCarrier)
    {
        final String was = System.getProperty("qsnet.windowsOnCarrier");
        System.setProperty("qsnet.windowsOnCarrier", Boolean.toString(onCarrier));
        try
        {
            final List<Prun.Session> sessions = new CopyOnWriteArrayList<>();
            final Prun.PartitionedResult r = Prun.runPartitioned(PlatformProfile.pentium3He(), 2, s ->
            {
                sessions.add(s);
                s.launch(o, WindowsOnCarrierTest::pingPong);
            });
            final long[] carried = sessions.stream().mapToLong(s -> s.partitionDriver().windowsEndedOnCarrier()).toArray();
            return new Run(r, carried);
        }
        finally
        {
            if (was == null)
            {
                System.clearProperty("qsnet.windowsOnCarrier");
            }
            else
            {
                System.setProperty("qsnet.windowsOnCarrier", was);
            }
        }
    }

    @Test
    void shouldRunTheSameWindowsWhenTheRanksCarrierEndsThem()
    {
        // with -Dqsnet.carrier=virtual (or without jdk.internal.vm exported) each rank has a virtual thread and no carrier
        assumeTrue(SimProcess.runsOnContinuations(), "processes run on virtual threads: no carrier ends windows");
        // nodes 7 and 8: one rank in each partition of the 16-node machine
        final Prun.Options o = new Prun.Options(2, 2, false, 7, Map.of());
        final Prun.Session alone = new Prun.Session(PlatformProfile.pentium3He(), 1);
        alone.launch(o, WindowsOnCarrierTest::pingPong);
        final RunReport one = alone.run();
        one.throwIfFailed();

        final Run carried = inTwoPartitions(o, true);
        final Run driven = inTwoPartitions(o, false);
        carried.result().report().throwIfFailed();
        driven.result().report().throwIfFailed();
        assertNull(carried.result().differenceFrom(one, alone.kernel()), "windows ended on the carrier");
        assertNull(driven.result().differenceFrom(one, alone.kernel()), "windows ended by the driver");
        // the same windows, whoever ends them
        assertEquals(driven.result().windows(), carried.result().windows());
        assertEquals(2, carried.carrierWindows().length);
        for (int part = 0; part < 2; part++)
        {
            assertTrue(carried.carrierWindows()[part] > carried.result().windows() / 2,
                "partition " + part + " ended " + carried.carrierWindows()[part] + " of " + carried.result().windows()
                    + " windows on its rank's carrier");
            assertEquals(0, driven.carrierWindows()[part], "partition " + part + " with -Dqsnet.windowsOnCarrier=false");
        }
    }

    @Test
    void shouldRunASinglePartitionThroughTheDriverAsInOneJvm()
    {
        // one partition: nothing to exchange, its kernel is not partitioned and no carrier ends windows
        final Prun.Options o = new Prun.Options(2, 2, false, 7, Map.of());
        final Prun.Session alone = new Prun.Session(PlatformProfile.pentium3He(), 1);
        alone.launch(o, WindowsOnCarrierTest::pingPong);
        final RunReport one = alone.run();
        final Prun.PartitionedResult r = Prun.runPartitioned(PlatformProfile.pentium3He(), 1,
            s -> s.launch(o, WindowsOnCarrierTest::pingPong));
        r.report().throwIfFailed();
        assertNull(r.differenceFrom(one, alone.kernel()));
    }

    @Test
    void shouldGiveTheDriverItsTurnWhenTheWatchdogFiresWhileTheCarrierWaitsForAPeer() throws Exception
    {
        assumeTrue(SimProcess.runsOnContinuations(), "processes run on virtual threads: no carrier ends windows");
        // rank 1 (partition 1) computes 3 s of host time inside one window; rank 0 (partition 0)
        // polls, so partition 0's carrier waits in the exchange. Partition 0's watchdog (0.5 s) must
        // end its run with the watchdog's report, its carrier giving the turn back, not the driver
        // leaving after its grace second as from a process that never calls the library.
        final byte[] key = new byte[16];
        final List<LocalTransport> transports = LocalTransport.createJob(new TransportContext().jobId(4242).jobKey(key)
            .partition(0, 2));
        final KernelContext watchdog = new KernelContext(KernelContext.ComputeMode.ZERO, 1.0, 500_000_000L);
        final Throwable[] failures = new Throwable[2];
        final long[] tookMs = new long[2];
        final Prun.Options o = new Prun.Options(2, 2, false, 7, Map.of());
        final long start = System.nanoTime();
        try
        {
            PartitionThreads.run(transports, part ->
            {
                final Prun.Session s = new Prun.Session(PlatformProfile.pentium3He(), 1, watchdog, transports.get(part));
                s.launch(o, (p, a) ->
                {
                    if (p.rank() == 1)
                    {
                        p.sim().advance(2_000);
                        final long until = System.nanoTime() + 3_000_000_000L;
                        while (System.nanoTime() < until)
                        {
                            Thread.onSpinWait();
                        }
                    }
                    while (true)
                    {
                        p.sim().advance(50);
                    }
                });
                try
                {
                    s.run();
                }
                catch (final RuntimeException e)
                {
                    failures[part] = e;
                    tookMs[part] = (System.nanoTime() - start) / 1_000_000;
                    throw e;
                }
            });
        }
        catch (final RuntimeException expected)
        {
            // the job fails; each partition's own failure is checked below
        }
        assertNotNull(failures[0], "partition 0 failed");
        final String m = String.valueOf(failures[0].getMessage());
        assertTrue(failures[0] instanceof SimulationException && m.contains("watchdog"), m);
        assertFalse(m.contains("did not give control back"), "partition 0's carrier gave the turn back: " + m);
        assertTrue(tookMs[0] < 2_500, "partition 0 ended after " + tookMs[0] + " ms, before rank 1's 3 s: " + m);
    }

    @Test
    void shouldEndAFailedJobAloneWhenTheFailureComesWhileTheCarrierEndsWindows()
    {
        // rank 1 fails after a few rounds' time; rank 0 waits for it on its carrier: the run ends
        // at the same instant, with the same report, as in one JVM
        final Prun.Options o = new Prun.Options(2, 2, false, 7, Map.of());
        final String one = org.junit.jupiter.api.Assertions.assertThrows(org.qsnet.fabric.engine.SimulationException.class,
            () -> Prun.run(PlatformProfile.pentium3He(), o, WindowsOnCarrierTest::failLate)).getMessage();
        final String two = org.junit.jupiter.api.Assertions.assertThrows(org.qsnet.fabric.engine.SimulationException.class,
            () -> Prun.runPartitioned(PlatformProfile.pentium3He(), 2, s -> s.launch(o, WindowsOnCarrierTest::failLate)))
            .getMessage();
        assertEquals(one, two);
        assertTrue(one.contains("late failure"), one);
    }

    /** Rank 1 computes, then fails; rank 0 polls in short steps for ever. */
    private static void failLate(final ElanProcess p, final String[] args)
    {
        if (p.rank() == 1)
        {
            p.sim().advance(25_000);
            throw new IllegalStateException("late failure");
        }
        while (true)
        {
            p.sim().advance(50);
        }
    }
}
