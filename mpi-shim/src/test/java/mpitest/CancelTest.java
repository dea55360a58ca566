package mpitest;

import static mpitest.Job.check;

import java.util.concurrent.TimeUnit;

import mpi.MPI;
import mpi.MPIException;
import mpi.Prequest;
import mpi.Request;
import mpi.Status;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** MPI_Cancel: a posted receive nobody matched is cancelled; a matched one and a send are not. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class CancelTest
{
    public static final class Cancel
    {
        public static void main(final String[] args) throws MPIException
        {
            MPI.Init(args);
            final int rank = MPI.COMM_WORLD.getRank();
            final int n = MPI.COMM_WORLD.getSize();
            // 1. a receive nobody has sent to: cancelled, buffer untouched, test completes it at once
            final int[] buf = {-1, -1};
            final Request r = MPI.COMM_WORLD.iRecv(buf, 2, MPI.INT, MPI.ANY_SOURCE, 5);
            r.cancel();
            final Status st = r.testStatus();
            check(st != null && st.isCancelled(), "a cancelled receive completes, cancelled");
            check(buf[0] == -1 && buf[1] == -1, "the cancelled receive's buffer was written");
            // 2. a message sent afterwards goes to the next receive, not the cancelled one
            MPI.COMM_WORLD.barrier();
            if (n > 1)
            {
                if (rank == 0)
                {
                    for (int d = 1; d < n; d++)
                    {
                        MPI.COMM_WORLD.send(new int[] {d, 10 * d}, 2, MPI.INT, d, 5);
                    }
                }
                else
                {
                    final int[] got = new int[2];
                    final Status s2 = MPI.COMM_WORLD.iRecv(got, 2, MPI.INT, MPI.ANY_SOURCE, 5).waitStatus();
                    check(!s2.isCancelled() && got[0] == rank && got[1] == 10 * rank && s2.getSource() == 0,
                        "the next receive got " + got[0] + "," + got[1]);
                    check(buf[0] == -1, "the cancelled receive's buffer was written later");
                }
            }
            // 3. a receive a message has already matched: the cancel fails, the data arrives
            MPI.COMM_WORLD.barrier();
            if (n > 1)
            {
                final int peer = rank ^ 1;
                if (peer < n)
                {
                    if (rank % 2 == 0)
                    {
                        MPI.COMM_WORLD.send(new long[] {rank + 100L}, 1, MPI.LONG, peer, 6);
                    }
                    MPI.COMM_WORLD.sendRecv(new int[0], 0, MPI.INT, peer, 7, new int[0], 0, MPI.INT, peer, 7);
                    if (rank % 2 == 1)
                    {
                        final long[] v = new long[1];
                        final Request m = MPI.COMM_WORLD.iRecv(v, 1, MPI.LONG, peer, 6);
                        m.cancel();
                        final Status s3 = m.waitStatus();
                        check(!s3.isCancelled() && v[0] == peer + 100L, "cancel of a matched receive: "
                            + s3.isCancelled() + ", " + v[0]);
                    }
                }
            }
            // 4. a send: the cancel does nothing (it has left: Tports cannot withdraw it); it completes
            MPI.COMM_WORLD.barrier();
            if (n > 1 && rank < 2)
            {
                final int[] x = {rank};
                final int[] y = new int[1];
                final Request rr = MPI.COMM_WORLD.iRecv(y, 1, MPI.INT, 1 - rank, 8);
                final Request s = MPI.COMM_WORLD.iSend(x, 1, MPI.INT, 1 - rank, 8);
                s.cancel();
                check(!s.waitStatus().isCancelled(), "a started send was reported cancelled");
                rr.waitFor();
                check(y[0] == 1 - rank, "the send whose cancel failed was delivered");
            }
            // 5. a persistent receive: started, cancelled, waited; started again, it receives
            MPI.COMM_WORLD.barrier();
            final int[] p = {-7};
            final Prequest pr = MPI.COMM_WORLD.recvInit(p, 1, MPI.INT, 0, 9);
            pr.start();
            pr.cancel();
            check(pr.waitStatus().isCancelled() && p[0] == -7, "persistent receive cancelled");
            MPI.COMM_WORLD.barrier();
            if (rank == 0)
            {
                for (int d = 0; d < n; d++)
                {
                    MPI.COMM_WORLD.send(new int[] {d + 1}, 1, MPI.INT, d, 9);
                }
            }
            pr.start();
            final Status s5 = pr.waitStatus();
            check(!s5.isCancelled() && p[0] == rank + 1, "persistent receive after a cancel got " + p[0]);
            pr.free();
            MPI.Finalize();
        }
    }

    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {1, 2, 3, 4, 8})
    void shouldCancelOnlyReceivesNoMessageHasMatched(final int n)
    {
        Job.run(n, Cancel.class);
    }
}
