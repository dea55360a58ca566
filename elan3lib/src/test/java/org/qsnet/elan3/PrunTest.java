package org.qsnet.elan3;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.qsnet.fabric.QsnetException;
import org.qsnet.fabric.engine.KernelContext;
import org.qsnet.fabric.engine.ProcessState;
import org.qsnet.fabric.engine.RunReport;
import org.qsnet.fabric.engine.SimulationException;
import org.qsnet.fabric.machine.PlatformProfile;

import legacy.Forever;
import legacy.GlobalCounter;
import legacy.StaticRank;
import legacy.ThrowThenBlock;
import legacy.ThrowThenSpin;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class PrunTest
{
    @Test
    void shouldGiveEachProcessItsEnvironmentAndCapability()
    {
        final Map<Integer, Map<String, String>> envs = new ConcurrentHashMap<>();
        Prun.run(PlatformProfile.pentium3He(), new Prun.Options(8, 4, true, 2, Map.of("LIBELAN_WAITTYPE", "POLL")), (p, a) ->
        {
            envs.put(p.rank(), p.environment());
            final ElanCapability cap = Rms.getcap();
            assertEquals(p.rank(), cap.location2vp(new ElanLocation(p.node() - cap.lowNode, cap.myContext - cap.lowContext)));
            assertEquals("POLL", Rms.getenv("LIBELAN_WAITTYPE"));
        }).throwIfFailed();
        assertEquals(8, envs.size());
        // cyclic over 4 nodes from node 2: rank 5 is on relative node 1, second process there
        assertEquals("1", envs.get(5).get("RMS_NODEID"));
        assertEquals("8", envs.get(5).get("RMS_NPROCS"));
        assertEquals("4", envs.get(5).get("RMS_NNODES"));
        assertTrue(envs.get(5).get("LIBELAN_ECAP0").matches("N3C1024-1025-1025N2-5R1c"), envs.get(5).get("LIBELAN_ECAP0"));
    }

    @Test
    void shouldRunTwoJobsOnOneFabricWithoutReachingEachOther()
    {
        final Prun.Session s = new Prun.Session(PlatformProfile.pentium3He(), 7);
        final int[][] seen = new int[2][2];
        final String[] refused = new String[1];
        final ElanMain program = (p, a) ->
        {
            final Elan3Context ctx = Elan3Context.open();
            final int me = ctx.process();
            final long buf = ctx.allocMain(64, 64);
            final long ev = ctx.allocElan(8, 16);
            final long word = ctx.allocMain(8, 8);
            final long scratch = ctx.allocElan(32, 32);
            ctx.initeventWord(ev, word);
            ctx.primeevent(ev, 1);
            ctx.blockInputter(0);
            p.sim().advance(5_000);
            final E3DmaMain d = new E3DmaMain();
            d.dma_type = Elan3.E3_DMA_TYPE(Elan3.DMA_BYTE, Elan3.DMA_WRITE, Elan3.DMA_NORMAL, 0);
            d.dma_size = 4;
            d.dma_source = ctx.main2elan(buf);
            d.dma_dest = ctx.main2elan(buf);
            d.dma_destEvent = ctx.sdram2elan(ev);
            if (me == 0)
            {
                ctx.putInt(buf, 1000 * (p.job() + 1));
                d.dma_destCookieVProc = 2;
                if (p.job() == 0)
                {
                    refused[0] = assertThrows(QsnetException.class, () -> ctx.putdmaMain(d, scratch)).getMessage();
                }
                d.dma_destCookieVProc = 1;
                ctx.putdmaMain(d, scratch);
            }
            else
            {
                ctx.waitEventWord(ev, word, Elan3.ELAN_POLL_EVENT);
            }
            seen[p.job()][me] = ctx.getInt(buf);
        };
        // both jobs on nodes 0 and 1, each with its own capability and contexts
        s.launch(new Prun.Options(2, 2, false, 0, Map.of()), program);
        s.launch(new Prun.Options(2, 2, false, 0, Map.of()), program);
        s.run().throwIfFailed();
        assertEquals(1000, seen[0][1]);
        assertEquals(2000, seen[1][1]);
        assertEquals("VP 2 is outside the capability (VPs 0..1) or a hole", refused[0]);
        final ElanCapability a = s.processes().get(0).capability();
        final ElanCapability b = s.processes().get(2).capability();
        assertNotEquals(a.lowContext, b.lowContext);
        assertNotEquals(a.userKey[0], b.userKey[0]);
    }

    @Test
    void shouldCountTheNodesThatHoldRanksAsLaunchPlacesThem()
    {
        for (int procs = 1; procs <= 17; procs++)
        {
            for (int nodes = 0; nodes <= 9; nodes++)
            {
                for (final boolean cyclic : new boolean[] {false, true})
                {
                    final Prun.Options o = new Prun.Options(procs, nodes, cyclic, 0, Map.of());
                    final int n = nodes == 0 ? procs : nodes;
                    final int ppn = (procs + n - 1) / n;
                    int last = -1;
                    for (int r = 0; r < procs; r++)
                    {
                        last = Math.max(last, cyclic ? r % n : r / ppn);
                    }
                    assertEquals(last + 1, o.nodesWithRanks(), procs + " procs on " + nodes + " nodes, cyclic " + cyclic);
                }
            }
        }
        // -n 5 -N 4: 2 ranks a node, the fourth node empty
        assertEquals(3, new Prun.Options(5, 4, false, 0, Map.of()).nodesWithRanks());
        assertEquals(4, new Prun.Options(5, 4, true, 0, Map.of()).nodesWithRanks());
    }

    @Test
    void shouldRejectBadOptions()
    {
        assertEquals("-n 0 must be at least 1", assertThrows(QsnetException.class,
            () -> new Prun.Options(0, 0, false, 0, Map.of())).getMessage());
        final Prun.Session s = new Prun.Session(PlatformProfile.pentium3He(), 1);
        assertEquals("-B + -N 20 must be at most the machine's 16 nodes (pentium3-he)", assertThrows(QsnetException.class,
            () -> s.launch(new Prun.Options(4, 4, false, 16, Map.of()), (p, a) -> { })).getMessage());
    }

    @Test
    void shouldGiveEachOfSixteenRanksItsOwnStaticFields()
    {
        final RunReport r = Prun.run(PlatformProfile.pentium3He(), new Prun.Options(16, 16, false, 0, Map.of()),
            StaticRank.class);
        r.throwIfFailed();
        assertEquals(16, r.outcomes().size());
        final RunReport counted = Prun.run(PlatformProfile.pentium3He(), new Prun.Options(16, 16, false, 0, Map.of()),
            GlobalCounter.class);
        counted.throwIfFailed();
    }

    @Test
    void shouldMixRanksGlobalsWhenAProgramObjectSharesTheCallersClasses()
    {
        // the control: the same program run as one object in the caller's classes shares its statics
        // the ranks that see another's rank fail; every rank has ended within the microsecond after
        // the first failure, so the run returns its report
        final RunReport r = Prun.run(PlatformProfile.pentium3He(), new Prun.Options(16, 16, false, 0, Map.of()),
            (p, a) -> StaticRank.main(a));
        assertTrue(r.outcomes().stream().anyMatch(o -> o.state() == ProcessState.FAILED
            && o.failure().getMessage().contains("sees my_rank 15")), r.toString());
    }

    @Test
    void shouldRefuseAProgramInALibraryPackageWhoseStaticsWouldBeShared()
    {
        assertEquals("MAIN-CLASS org.qsnet.elan3.PrunTest is in a package of the emulator's library or the JDK, whose classes"
            + " every rank shares: put the program in a package of its own",
            assertThrows(QsnetException.class, () -> Prun.Program.of(PrunTest.class)).getMessage());
        assertEquals("MAIN-CLASS legacy.NoSuchProgram is not on the class path (add it with CLASSPATH)",
            assertThrows(QsnetException.class, () -> Prun.Program.named("legacy.NoSuchProgram", java.util.List.of(),
                PrunTest.class.getClassLoader())).getMessage());
    }

    @Test
    void shouldNameTheFailureFirstThenEndTheJobAndSayWhereEachRankWaits()
    {
        final SimulationException e = assertThrows(SimulationException.class, () -> Prun.run(PlatformProfile.pentium3He(),
            new Prun.Options(2, 2, false, 0, Map.of()), ThrowThenBlock.class));
        final String m = e.getMessage();
        assertTrue(java.util.regex.Pattern.compile("^job 0 rank 1 failed: java.lang.IllegalStateException: boom: rank 1 cannot"
            + " open its input file; then the run was ended at \\d+ ns, 1000 ns after job 0 rank 1 failed \\(a failed process"
            + " ends its job, as prun ends one when a process dies\\): the processes still running or blocked were killed;"
            + " where each rank is:\n").matcher(m).find(), m);
        assertInstanceOf(IllegalStateException.class, e.getCause());
        assertTrue(java.util.regex.Pattern.compile("job 0 rank 1: FAILED at \\d+\\.\\d{3} us: java.lang.IllegalStateException: boom")
            .matcher(m).find(), m);
        assertTrue(m.contains(", at legacy.ThrowThenBlock.main(ThrowThenBlock.java:"), m);
        // rank 0: where it is in its program, which library call, what for in the user's terms
        assertTrue(m.contains("job 0 rank 0: BLOCKED, clock "), m);
        assertTrue(m.contains(", in Elan3Context.waitEventWord, called at legacy.ThrowThenBlock.main(ThrowThenBlock.java:"), m);
        assertTrue(m.contains("waits for elan3_waitevent_word on event 0x"), m);
        assertTrue(m.contains("[NIC write to 0x"), m);
        assertEquals(ProcessState.BLOCKED, e.report().outcomes().get(0).state());
    }

    @Test
    void shouldEndAJobWhoseRankSpinsForAPeerThatFailed()
    {
        // before: rank 0's polls cost simulated time, so no deadlock was ever seen and the run went
        // on until a limit or the test's timeout
        final SimulationException e = assertTimeoutPreemptively(java.time.Duration.ofSeconds(60),
            () -> assertThrows(SimulationException.class, () -> Prun.run(PlatformProfile.pentium3He(),
                new Prun.Options(2, 2, false, 0, Map.of()), ThrowThenSpin.class)));
        final String m = e.getMessage();
        assertTrue(java.util.regex.Pattern.compile("^job 0 rank 1 failed: java.lang.IllegalStateException: boom: rank 1 cannot"
            + " open its input file; then the run was ended at \\d+ ns, 1000 ns after job 0 rank 1 failed ").matcher(m).find(), m);
        assertInstanceOf(IllegalStateException.class, e.getCause());
        // rank 0 was found where it spun, then killed; its clock is past rank 1's failure
        final RunReport.Outcome spinner = e.report().outcomes().get(0);
        assertEquals(ProcessState.RUNNING, spinner.state(), m);
        assertTrue(m.contains("job 0 rank 0: RUNNING, clock "), m);
        assertTrue(m.contains("called at legacy.ThrowThenSpin.main(ThrowThenSpin.java:"), m);
        final RunReport.Outcome failed = e.report().outcomes().get(1);
        assertEquals(ProcessState.FAILED, failed.state());
        // the same program ends at the same simulated time every run
        final SimulationException again = assertThrows(SimulationException.class, () -> Prun.run(
            PlatformProfile.pentium3He(), new Prun.Options(2, 2, false, 0, Map.of()), ThrowThenSpin.class));
        assertEquals(m, again.getMessage());
    }

    @Test
    void shouldEndAFailedJobAtTheSameInstantInOneTwoAndFourPartitions()
    {
        // ranks on nodes 6-9 straddle the partitions' boundaries; rank 1 fails, the others spin
        final Prun.Options o = new Prun.Options(4, 4, false, 6, Map.of());
        final String one = assertTimeoutPreemptively(java.time.Duration.ofSeconds(60), () -> assertThrows(
            SimulationException.class, () -> Prun.run(PlatformProfile.pentium3He(), o, ThrowThenSpin.class))).getMessage();
        assertTrue(one.contains("job 0 rank 0: RUNNING") && one.contains("job 0 rank 2: RUNNING")
            && one.contains("job 0 rank 3: RUNNING") && one.contains("job 0 rank 1: FAILED"), one);
        for (final int partitions : new int[] {2, 4})
        {
            final String many = assertTimeoutPreemptively(java.time.Duration.ofSeconds(60), () -> assertThrows(
                SimulationException.class, () -> Prun.runPartitioned(PlatformProfile.pentium3He(), partitions,
                    s -> s.launch(o, ThrowThenSpin.class)))).getMessage();
            // the same end, the same ranks at the same clocks and places
            assertEquals(one, many, partitions + " partitions");
        }
    }

    @Test
    void shouldEndAJobAtTheSimulatedTimeLimitWithWhereEachRankIs()
    {
        final Prun.Session s = new Prun.Session(PlatformProfile.pentium3He(), 1);
        s.launch(new Prun.Options(3, 3, false, 0, Map.of()), Forever.class);
        final SimulationException e = assertThrows(SimulationException.class, () -> s.run(20_000));
        final String m = e.getMessage();
        assertTrue(m.startsWith("simulated time limit of 20.000 us reached (the job has not finished); where each rank is:"), m);
        assertTrue(m.contains("job 0 rank 0: BLOCKED, clock "), m);
        assertTrue(m.contains("waits for elan3_waitevent_word on event 0x"), m);
        assertTrue(m.contains("job 0 rank 1: RUNNING, clock 20.000 us, in SimProcess.compute, called at legacy.Forever.main(Forever.java:"), m);
        assertTrue(m.contains("job 0 rank 2: RUNNING, clock 20.000 us"), m);
        // the job is over: its ranks are killed and the session cannot run again
        assertEquals("kernel has ended (shut down, deadlock or watchdog)", assertThrows(QsnetException.class, s::run).getMessage());
        // a job that finishes within the limit just finishes
        final Prun.Session quick = new Prun.Session(PlatformProfile.pentium3He(), 1);
        quick.launch(new Prun.Options(16, 16, false, 0, Map.of()), StaticRank.class);
        assertEquals(1_000, quick.run(20_000).throwIfFailed().endNs());
    }

    @Test
    void shouldEndAJobByTheWallClockSafetyNetWithWhereEachRankIs()
    {
        final Prun.Session s = new Prun.Session(PlatformProfile.pentium3He(), 1,
            new KernelContext(KernelContext.ComputeMode.ZERO, 1.0, 300_000_000L));
        s.launch(new Prun.Options(3, 3, false, 0, Map.of()), Forever.class);
        final SimulationException e = assertThrows(SimulationException.class, s::run);
        final String m = e.getMessage();
        assertTrue(m.startsWith("watchdog (a wall-clock safety net, not a result): the run took more than 300 ms of host time;"),
            m);
        assertTrue(m.contains("job 0 rank 0: BLOCKED"), m);
        assertTrue(m.contains("job 0 rank 1: RUNNING, clock "), m);
        assertTrue(!m.contains("could not stop"), "the kernel stopped at its next event: " + m);
    }
}
