package mpitest;

import static mpitest.Job.check;

import java.util.Map;
import java.util.concurrent.TimeUnit;

import mpi.MPI;
import mpi.MPIException;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.qsnet.elan3.Prun;
import org.qsnet.fabric.machine.PlatformProfile;

/** A smoke run of the collectives at 1024 ranks (16 per node of the 64-node alpha-es40); slow, run with -Pslow. */
@Tag("slow")
@Timeout(value = 600, unit = TimeUnit.SECONDS)
class LargeJobTest
{
    /** Barrier, broadcast, reductions, allGather and a split at scale. */
    public static final class Collectives
    {
        public static void main(final String[] args) throws MPIException
        {
            MPI.Init(args);
            final int rank = MPI.COMM_WORLD.getRank();
            final int n = MPI.COMM_WORLD.getSize();
            MPI.COMM_WORLD.barrier();
            final int[] b = {rank == 0 ? 4242 : 0};
            MPI.COMM_WORLD.bcast(b, 1, MPI.INT, 0);
            check(b[0] == 4242, "bcast");
            final long[] s = new long[1];
            MPI.COMM_WORLD.allReduce(new long[] {rank}, s, 1, MPI.LONG, MPI.SUM);
            check(s[0] == (long)n * (n - 1) / 2, "allReduce " + s[0]);
            final int[] all = new int[n];
            MPI.COMM_WORLD.allGather(new int[] {rank}, 1, MPI.INT, all, 1, MPI.INT);
            check(all[n - 1] == n - 1, "allGather");
            final int[] m = new int[1];
            MPI.COMM_WORLD.split(rank % 4, rank).allReduce(new int[] {1}, m, 1, MPI.INT, MPI.SUM);
            check(m[0] == n / 4, "split allReduce " + m[0]);
            MPI.Finalize();
        }
    }

    @Test
    void shouldRunTheCollectivesAt1024Ranks()
    {
        final org.qsnet.fabric.engine.RunReport r = Prun.run(PlatformProfile.alphaEs40(),
            new Prun.Options(1024, 64, false, 0, Map.of()), Collectives.class).throwIfFailed();
        // every rank checked its results (Job.check throws); all 1024 finished
        org.junit.jupiter.api.Assertions.assertEquals(1024, r.outcomes().size());
        org.junit.jupiter.api.Assertions.assertTrue(r.allSucceeded());
    }
}
