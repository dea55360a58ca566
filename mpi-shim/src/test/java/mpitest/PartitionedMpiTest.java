package mpitest;

import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.qsnet.elan3.Prun;
import org.qsnet.fabric.engine.RunReport;
import org.qsnet.fabric.machine.PlatformProfile;

/**
 * MPI programs run in one JVM and in 2 and 4 partitions (threads joined by the in-JVM transport):
 * the same run, rank for rank and event for event.
 */
class PartitionedMpiTest
{
    private static void assertSameInPartitions(final int n, final Class<?> program, final String... args)
    {
        final PlatformProfile machine = PlatformProfile.pentium3He();
        final Prun.Options o = new Prun.Options(n, n, false, 0, Map.of());
        final Prun.Session one = new Prun.Session(machine, 1);
        one.launch(o, program, args);
        final RunReport single = one.run().throwIfFailed();
        for (final int partitions : new int[] {2, 4})
        {
            final Prun.PartitionedResult many = Prun.runPartitioned(machine, partitions, s -> s.launch(o, program, args));
            many.report().throwIfFailed();
            assertNull(many.differenceFrom(single, one.kernel()), program.getSimpleName() + ": 1 partition against " + partitions);
        }
    }

    @Test
    @Timeout(120)
    void shouldRunTheCollectivesProgramAsInOneJvm()
    {
        assertSameInPartitions(16, CollectivesTest.All.class);
    }

    @Test
    @Timeout(120)
    void shouldRunThePointToPointProgramAsInOneJvm()
    {
        assertSameInPartitions(16, PointToPointTest.Ring.class, "16");
    }
}
