package org.qsnet.elan3;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.qsnet.fabric.engine.ProcessState;
import org.qsnet.fabric.engine.RunReport;
import org.qsnet.fabric.machine.PlatformProfile;

import legacy.StaticRank;

/** The end of a run after a failed rank (found by a review of bc29bec): limits, failures at one instant, several JVMs. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class FailedRunEndTest
{
    @Test
    void sessionRunWithALimitReturnsTheReportWhenEveryRankEndedBeforeTheFailureEnd()
    {
        // rank 1 fails at 500 ns, rank 0 ends at 100 ns; a model event is pending at 50 us (as a
        // NIC's timer would be). Session.run() returns the report; run(maxSimNs) must too.
        final Prun.Session s = new Prun.Session(PlatformProfile.pentium3He(), 1);
        s.kernel().origin(999_999, "timer").schedule(50_000, t -> { });
        s.launch(new Prun.Options(2, 2, false, 0, Map.of()), (p, a) ->
        {
            if (p.rank() == 1)
            {
                p.sim().advance(500);
                throw new IllegalStateException("boom");
            }
            p.sim().advance(100);
        });
        final RunReport r = s.run(100_000);
        assertEquals(ProcessState.FAILED, r.outcomes().get(1).state());
    }

    @Test
    void sessionRunWithALimitOfSharedStaticRankGivesWhatRunGives()
    {
        final Prun.Options o = new Prun.Options(16, 16, false, 0, Map.of());
        final Prun.Session a = new Prun.Session(PlatformProfile.pentium3He(), 1);
        a.launch(o, (p, args) -> StaticRank.main(args));
        final RunReport unlimited = a.run();
        final Prun.Session b = new Prun.Session(PlatformProfile.pentium3He(), 1);
        b.launch(o, (p, args) -> StaticRank.main(args));
        final RunReport limited = b.run(1_000_000);
        assertEquals(unlimited.endNs(), limited.endNs());
        assertTrue(limited.outcomes().stream().anyMatch(x -> x.state() == ProcessState.FAILED));
    }

    /** Ranks 1 and 2 fail at the same instant, rank 3 shortly before the end; rank 0 spins. */
    private static void twoFailures(final ElanProcess p, final String[] a)
    {
        final int r = p.rank();
        if (r == 1 || r == 2)
        {
            p.sim().advance(500);
            throw new IllegalStateException("boom " + r);
        }
        if (r == 3)
        {
            p.sim().advance(1_500);
            throw new IllegalStateException("late " + r);
        }
        while (true)
        {
            p.sim().advance(7);
        }
    }

    @Test
    void failuresAtOneInstantInTwoPartitionsEndAlikeInOneTwoAndFourPartitions()
    {
        final Prun.Options o = new Prun.Options(4, 4, false, 6, Map.of());
        final String one = org.junit.jupiter.api.Assertions.assertThrows(org.qsnet.fabric.engine.SimulationException.class,
            () -> Prun.run(PlatformProfile.pentium3He(), o, FailedRunEndTest::twoFailures)).getMessage();
        for (final int partitions : new int[] {2, 4})
        {
            final String many = org.junit.jupiter.api.Assertions.assertThrows(
                org.qsnet.fabric.engine.SimulationException.class, () -> Prun.runPartitioned(PlatformProfile.pentium3He(),
                    partitions, s -> s.launch(o, FailedRunEndTest::twoFailures))).getMessage();
            assertEquals(one, many, partitions + " partitions");
        }
        assertTrue(one.contains("1000 ns after job 0 rank 1 failed"), one);
        assertTrue(one.contains("job 0 rank 3: FAILED"), one);
    }

    /** Ranks 2 and 10 fail at the same instant (their names sort the other way round); the others spin. */
    private static void twoFailuresOutOfNameOrder(final ElanProcess p, final String[] a)
    {
        final int r = p.rank();
        if (r == 2 || r == 10)
        {
            p.sim().advance(500);
            throw new IllegalStateException("boom " + r);
        }
        while (true)
        {
            p.sim().advance(7);
        }
    }

    @Test
    void failuresAtOneInstantEndTheRunForTheEarlierRankAsTheCauseSays()
    {
        // before: the end named the lower name ("job 0 rank 10" sorts before "job 0 rank 2") while
        // the exception's cause was rank 2's
        final Prun.Options o = new Prun.Options(12, 12, false, 0, Map.of());
        final org.qsnet.fabric.engine.SimulationException one = org.junit.jupiter.api.Assertions.assertThrows(
            org.qsnet.fabric.engine.SimulationException.class,
            () -> Prun.run(PlatformProfile.pentium3He(), o, FailedRunEndTest::twoFailuresOutOfNameOrder));
        assertTrue(one.getMessage().contains("1000 ns after job 0 rank 2 failed"), one.getMessage());
        assertEquals("boom 2", one.getCause().getMessage());
        // both at one instant: the choice is the tie's
        final RunReport r = one.report();
        assertEquals(ProcessState.FAILED, r.outcomes().get(2).state());
        assertEquals(r.outcomes().get(2).finishedAtNs(), r.outcomes().get(10).finishedAtNs());
        final org.qsnet.fabric.engine.SimulationException two = org.junit.jupiter.api.Assertions.assertThrows(
            org.qsnet.fabric.engine.SimulationException.class, () -> Prun.runPartitioned(PlatformProfile.pentium3He(), 2,
                s -> s.launch(o, FailedRunEndTest::twoFailuresOutOfNameOrder)));
        assertEquals(one.getMessage(), two.getMessage());
    }

    /** Rank 1 fails at 500 ns; the others spin. */
    private static void oneFailure(final ElanProcess p, final String[] a)
    {
        if (p.rank() == 1)
        {
            p.sim().advance(500);
            throw new IllegalStateException("boom");
        }
        while (true)
        {
            p.sim().advance(7);
        }
    }

    @Test
    void everyJvmOfAJobOverSeveralJvmsReportsTheSameEndWithItsOwnRanks()
    {
        final Prun.Options o = new Prun.Options(4, 4, false, 6, Map.of());
        final String one = org.junit.jupiter.api.Assertions.assertThrows(org.qsnet.fabric.engine.SimulationException.class,
            () -> Prun.run(PlatformProfile.pentium3He(), o, FailedRunEndTest::oneFailure)).getMessage();
        final java.util.List<org.qsnet.fabric.transport.local.LocalTransport> transports =
            org.qsnet.fabric.transport.local.LocalTransport.createJob(new org.qsnet.fabric.transport.TransportContext()
                .jobId(44).jobKey(new byte[16]).partition(0, 2));
        final String[] messages = new String[2];
        org.qsnet.fabric.distributed.PartitionThreads.run(transports, part ->
        {
            try
            {
                Prun.runPartitioned(PlatformProfile.pentium3He(), transports.get(part), new RankResults(),
                    s -> s.launch(o, FailedRunEndTest::oneFailure));
            }
            catch (final org.qsnet.fabric.engine.SimulationException e)
            {
                messages[part] = e.getMessage();
            }
        });
        // each JVM reports the end with its own ranks (as it does a deadlock): the same instant and
        // the same failed rank, and between them every rank's line of the one-JVM report
        final java.util.regex.Matcher end = java.util.regex.Pattern.compile("the run was ended at \\d+ ns, 1000 ns after job 0"
            + " rank 1 failed").matcher(one);
        assertTrue(end.find(), one);
        final java.util.Set<String> oneLines = new java.util.TreeSet<>();
        final java.util.Set<String> jvmLines = new java.util.TreeSet<>();
        for (final String line : one.split("\n"))
        {
            if (line.startsWith("  job 0 rank "))
            {
                oneLines.add(line);
            }
        }
        for (final String m : messages)
        {
            assertTrue(m != null && m.contains(end.group()), m);
            for (final String line : m.split("\n"))
            {
                if (line.startsWith("  job 0 rank "))
                {
                    jvmLines.add(line);
                }
            }
        }
        assertEquals(4, oneLines.size(), one);
        assertEquals(oneLines, jvmLines);
    }
}
