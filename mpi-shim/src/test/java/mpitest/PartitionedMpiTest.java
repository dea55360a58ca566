package mpitest;

import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.Map;

import mpi.MPI;
import mpi.MPIException;
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
        assertSameInPartitions(PlatformProfile.pentium3He(), n, program, args);
    }

    private static void assertSameInPartitions(final PlatformProfile machine, final int n, final Class<?> program,
        final String... args)
    {
        // ranks centred on the 16-node machine: they straddle the partitions' boundaries
        final Prun.Options o = new Prun.Options(n, n, false, (16 - n) / 2, Map.of());
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

    /** A ping-pong with 1 ms of computation between messages: mostly idle simulated time. */
    public static final class ComputeAndPing
    {
        public static void main(final String[] args) throws MPIException
        {
            MPI.Init(args);
            final int me = MPI.COMM_WORLD.getRank();
            final int[] buf = new int[16];
            for (int i = 0; i < 20; i++)
            {
                org.qsnet.elan3.ElanProcess.current().sim().compute(1_000_000);
                if (me == 0)
                {
                    buf[0] = i;
                    MPI.COMM_WORLD.send(buf, 16, MPI.INT, 1, 3);
                    MPI.COMM_WORLD.recv(buf, 16, MPI.INT, 1, 4);
                }
                else
                {
                    MPI.COMM_WORLD.recv(buf, 16, MPI.INT, 0, 3);
                    Job.check(buf[0] == i, "message " + i);
                    MPI.COMM_WORLD.send(buf, 16, MPI.INT, 0, 4);
                }
            }
            MPI.Finalize();
        }
    }

    @Test
    @Timeout(60)
    void shouldSkipIdleSimulatedTimeInOneWindowPerEventRatherThanOnePerLookahead()
    {
        // two ranks in different partitions (nodes 7 and 8 of 16), 20 ms of computation in all
        final PlatformProfile machine = PlatformProfile.pentium3He();
        final Prun.Options o = new Prun.Options(2, 2, false, 7, Map.of());
        final Prun.Session one = new Prun.Session(machine, 1);
        one.launch(o, ComputeAndPing.class);
        final RunReport single = one.run().throwIfFailed();
        final Prun.PartitionedResult two = Prun.runPartitioned(machine, 2, s -> s.launch(o, ComputeAndPing.class));
        two.report().throwIfFailed();
        assertNull(two.differenceFrom(single, one.kernel()));
        System.out.printf("compute-and-ping: %d windows for %d ns simulated in 2 partitions%n", two.windows(), single.endNs());
        final long lookaheads = single.endNs() / machine.fabric().wireDelayNs();
        org.junit.jupiter.api.Assertions.assertTrue(single.endNs() > 20_000_000, "simulated " + single.endNs() + " ns");
        // without skip-ahead a run would take one window per 20 ns lookahead: a million here
        org.junit.jupiter.api.Assertions.assertTrue(two.windows() < lookaheads / 100,
            two.windows() + " windows for " + lookaheads + " lookaheads of simulated time");
    }

    @Test
    @Timeout(120)
    void shouldRunTheCollectivesProgramAsInOneJvm()
    {
        assertSameInPartitions(16, CollectivesTest.All.class);
    }

    @Test
    @Timeout(120)
    void shouldRunTheRmaProgramsAsInOneJvm()
    {
        // one-sided puts and gets, locks over remote atomics, fetch-and-op: the atomic's old value
        // comes back across the partitions in the acknowledgement
        assertSameInPartitions(8, WinTest.Rma.class);
        assertSameInPartitions(8, WinAtomicsTest.Program.class);
    }

    @Test
    @Timeout(120)
    void shouldRunTheCollectivesAndRmaProgramsWithAnalyticTimingAsInOneJvm()
    {
        // no network is replicated: each packet's tail runs where it lands, its ack where it left;
        // the collectives' hardware broadcasts run where their recipients live, and an atomic's old
        // value comes back in the ack
        final PlatformProfile analytic = PlatformProfile.pentium3He()
            .withFabric(PlatformProfile.pentium3He().fabric().withAnalyticTiming(true));
        assertSameInPartitions(analytic, 16, CollectivesTest.All.class);
        assertSameInPartitions(analytic, 8, WinAtomicsTest.Program.class);
        assertSameInPartitions(analytic, 16, PointToPointTest.Ring.class, "16");
    }

    @Test
    @Timeout(120)
    void shouldRunThePointToPointProgramAsInOneJvm()
    {
        assertSameInPartitions(16, PointToPointTest.Ring.class, "16");
    }

    /** Rank 3 fails before the barrier the others enter. */
    public static final class FailBeforeBarrier
    {
        public static void main(final String[] args) throws MPIException
        {
            MPI.Init(args);
            if (MPI.COMM_WORLD.getRank() == 3)
            {
                throw new IllegalStateException("rank 3 gives up");
            }
            MPI.COMM_WORLD.barrier();
            MPI.Finalize();
        }
    }

    /**
     * A rank that fails while the others wait in a barrier ends the job in partitions as in one JVM,
     * at the same simulated time (the barrier's hardware test was once retried for ever in
     * partitions: only a time limit ended the job; later the deadlock was reported; now the
     * failure ends the job 1 µs after it).
     */
    @Test
    @Timeout(60)
    void shouldReportARankMissingFromABarrierAsInOneJvm()
    {
        final PlatformProfile machine = PlatformProfile.pentium3He();
        final Prun.Options o = new Prun.Options(4, 4, false, 6, Map.of());
        final Prun.Session one = new Prun.Session(machine, 1);
        one.launch(o, FailBeforeBarrier.class);
        final String single = org.junit.jupiter.api.Assertions.assertThrows(org.qsnet.fabric.engine.SimulationException.class,
            () -> one.run().throwIfFailed()).getMessage();
        final String two = org.junit.jupiter.api.Assertions.assertThrows(org.qsnet.fabric.engine.SimulationException.class,
            () -> Prun.runPartitioned(machine, 2, s -> s.launch(o, FailBeforeBarrier.class)).report().throwIfFailed())
            .getMessage();
        // rank 3's failure ends the job (the others wait in the barrier for it) at the same instant
        final java.util.regex.Pattern at = java.util.regex.Pattern.compile("the run was ended at (\\d+) ns, 1000 ns after job 0"
            + " rank 3 failed");
        final java.util.regex.Matcher a = at.matcher(single);
        final java.util.regex.Matcher b = at.matcher(two);
        org.junit.jupiter.api.Assertions.assertTrue(a.find(), single);
        org.junit.jupiter.api.Assertions.assertTrue(b.find(), two);
        org.junit.jupiter.api.Assertions.assertEquals(a.group(1), b.group(1), single + "\n" + two);
        org.junit.jupiter.api.Assertions.assertTrue(two.contains("barrier"), two);
    }
}
