package org.qsnet.bench.distributed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.qsnet.bench.examples.ElanPing;
import org.qsnet.bench.examples.TportPing;
import org.qsnet.elan3.Prun;
import org.qsnet.fabric.engine.ProcessState;
import org.qsnet.fabric.engine.RunReport;
import org.qsnet.fabric.machine.PlatformProfile;

/**
 * Legacy-style programs (Elan3lib, Tports) run in one JVM and in 2 and 4 partitions: the same
 * run, rank for rank and event for event.
 */
class DistributedProgramTest
{
    /** 16 nodes: partitions of 8 or 4 nodes. */
    private static final PlatformProfile MACHINE = PlatformProfile.pentium3He()
        .withFabric(PlatformProfile.pentium3He().fabric().withDim(2));

    private static void assertSameRunPartitioned(final Prun.Options o, final Class<?> program, final String... args)
    {
        assertSameRunPartitioned(MACHINE, o, program, args);
    }

    private static void assertSameRunPartitioned(final PlatformProfile machine, final Prun.Options o,
        final Class<?> program, final String... args)
    {
        final Prun.Session one = new Prun.Session(machine, 1);
        one.launch(o, program, args);
        final RunReport single = one.run();
        for (final RunReport.Outcome r : single.outcomes())
        {
            assertEquals(ProcessState.DONE, r.state(), r.name() + " in one JVM: " + r.failure());
        }
        for (final int partitions : new int[] {2, 4})
        {
            final Prun.PartitionedResult many = Prun.runPartitioned(machine, partitions, s -> s.launch(o, program, args));
            assertNull(many.differenceFrom(single, one.kernel()), "1 partition against " + partitions);
            assertTrue(many.windows() > 10, "windows run: " + many.windows());
        }
    }

    @Test
    @Timeout(60)
    void shouldRunAnElan3libPingPongAcrossPartitionsAsInOneJvm()
    {
        // ranks on nodes 7 and 8: partitions 0 and 1 of 2, 1 and 2 of 4
        assertSameRunPartitioned(new Prun.Options(2, 2, false, 7, Map.of()), ElanPing.class, "100", "50");
    }

    @Test
    @Timeout(60)
    void shouldRunATportsPingPongAcrossPartitionsAsInOneJvm()
    {
        assertSameRunPartitioned(new Prun.Options(2, 2, false, 7, Map.of()), TportPing.class, "1000", "20");
    }

    @Test
    @Timeout(60)
    void shouldRunBothPingPongsWithAnalyticTimingAcrossPartitionsAsInOneJvm()
    {
        // no replicated network: a packet's tail runs only in the partition it lands in
        final PlatformProfile analytic = MACHINE.withFabric(MACHINE.fabric().withAnalyticTiming(true));
        assertSameRunPartitioned(analytic, new Prun.Options(2, 2, false, 7, Map.of()), ElanPing.class, "100", "50");
        assertSameRunPartitioned(analytic, new Prun.Options(2, 2, false, 7, Map.of()), TportPing.class, "1000", "20");
    }
}
