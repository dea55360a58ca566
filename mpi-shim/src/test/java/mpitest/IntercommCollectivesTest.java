package mpitest;

import static mpitest.Job.check;

import java.util.Arrays;
import java.util.concurrent.TimeUnit;

import mpi.Intercomm;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.qsnet.elan3.ElanProcess;

/** MPI-2 collectives on intercommunicators: group A = world ranks 0..a-1, group B = the rest. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class IntercommCollectivesTest
{
    public static final class Groups
    {
        public static void main(final String[] args) throws MPIException
        {
            MPI.Init(args);
            final int a = Integer.parseInt(args[0]);
            final int world = MPI.COMM_WORLD.getRank();
            final boolean inA = world < a;
            final Intracomm local = MPI.COMM_WORLD.split(inA ? 0 : 1, world);
            final Intercomm ic = MPI.COMM_WORLD.createIntercomm(local, 0, inA ? a : 0, 3);
            final int me = ic.getRank();
            final int mine = ic.getSize();
            final int other = ic.getRemoteSize();
            final int b = MPI.COMM_WORLD.getSize() - a;
            check(mine == (inA ? a : b) && other == (inA ? b : a), "sizes");

            // barrier: nobody in A leaves before the last of B has entered (B enters 300 us late)
            final double lateUs = 300;
            if (!inA)
            {
                ElanProcess.current().sim().compute((long)(lateUs * 1000));
            }
            final double entered = MPI.wtime();
            ic.barrier();
            check(!inA || (MPI.wtime() - entered) * 1e6 >= lateUs - 1, "A left the barrier before B entered");

            // bcast from rank 1 (or 0) of A to all of B
            final int root = Math.min(1, a - 1);
            final int[] v = new int[3];
            if (inA)
            {
                if (me == root)
                {
                    v[0] = 11;
                    v[1] = 22;
                    v[2] = 33;
                }
                ic.bcast(v, 3, MPI.INT, me == root ? MPI.ROOT : MPI.PROC_NULL);
                check(me == root || v[0] == 0, "bcast wrote into a non-root of the root's group");
            }
            else
            {
                ic.bcast(v, 3, MPI.INT, root);
                check(v[0] == 11 && v[2] == 33, "bcast to B: " + Arrays.toString(v));
            }

            // reduce of B's data to the last rank of A
            final int rroot = a - 1;
            final long[] sum = new long[2];
            if (inA)
            {
                ic.reduce(null, sum, 2, MPI.LONG, MPI.SUM, me == rroot ? MPI.ROOT : MPI.PROC_NULL);
                final long expect = (long)b * (b - 1) / 2;
                check(me != rroot || sum[0] == expect && sum[1] == b, "reduce at A's root: " + sum[0]);
            }
            else
            {
                ic.reduce(new long[] {me, 1}, sum, 2, MPI.LONG, MPI.SUM, rroot);
            }

            // allReduce: each group gets the other group's sum
            final int[] ar = new int[1];
            ic.allReduce(new int[] {inA ? 1 : 1000}, ar, 1, MPI.INT, MPI.SUM);
            check(ar[0] == (inA ? 1000 * b : a), "allReduce got " + ar[0]);

            // gather of B's ranks at A's rank 0; scatter from B's rank 0 to A
            if (inA)
            {
                final int[] g = new int[2 * b];
                ic.gather(null, 0, MPI.INT, g, 2, MPI.INT, me == 0 ? MPI.ROOT : MPI.PROC_NULL);
                for (int i = 0; me == 0 && i < b; i++)
                {
                    check(g[2 * i] == i && g[2 * i + 1] == -i, "gather from B rank " + i);
                }
                final int[] part = new int[1];
                ic.scatter(null, 0, MPI.INT, part, 1, MPI.INT, 0);
                check(part[0] == 7 * me, "scatter to A got " + part[0]);
            }
            else
            {
                ic.gather(new int[] {me, -me}, 2, MPI.INT, null, 0, MPI.INT, 0);
                final int[] src = new int[a];
                for (int i = 0; i < a; i++)
                {
                    src[i] = 7 * i;
                }
                ic.scatter(src, 1, MPI.INT, null, 0, MPI.INT, me == 0 ? MPI.ROOT : MPI.PROC_NULL);
            }

            // allGather: everyone gets the other group's values
            final int tagged = (inA ? 100 : 200) + me;
            final int[] all = new int[other];
            ic.allGather(new int[] {tagged}, 1, MPI.INT, all, 1, MPI.INT);
            for (int i = 0; i < other; i++)
            {
                check(all[i] == (inA ? 200 : 100) + i, "allGather from remote " + i + ": " + all[i]);
            }

            // allToAll: part j to remote rank j
            final int[] send = new int[other];
            for (int j = 0; j < other; j++)
            {
                send[j] = (inA ? 1 : 2) * 1000 + me * 10 + j;
            }
            final int[] recv = new int[other];
            ic.allToAll(send, 1, MPI.INT, recv, 1, MPI.INT);
            for (int i = 0; i < other; i++)
            {
                check(recv[i] == (inA ? 2 : 1) * 1000 + i * 10 + me, "allToAll from remote " + i + ": " + recv[i]);
            }

            // non-blocking forms on the intercommunicator
            final int[] nb = new int[1];
            ic.iAllReduce(new int[] {inA ? 2 : 3}, nb, 1, MPI.INT, MPI.PROD).waitFor();
            check(nb[0] == (inA ? pow(3, b) : pow(2, a)), "iAllReduce got " + nb[0]);
            ic.iBarrier().waitFor();
            MPI.Finalize();
        }

        private static int pow(final int x, final int e)
        {
            int r = 1;
            for (int i = 0; i < e; i++)
            {
                r *= x;
            }
            return r;
        }
    }

    @ParameterizedTest(name = "{0} + {1} ranks")
    @CsvSource({"1, 1", "2, 3", "4, 4", "3, 1"})
    void shouldRunTheCollectivesBetweenTheTwoGroups(final int a, final int b)
    {
        Job.run(a + b, Groups.class, Integer.toString(a));
    }
}
