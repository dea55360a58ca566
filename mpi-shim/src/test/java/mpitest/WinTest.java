package mpitest;

import static mpitest.Job.check;

import java.nio.IntBuffer;
import java.util.concurrent.TimeUnit;

import mpi.Group;
import mpi.MPI;
import mpi.MPIException;
import mpi.Win;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** One-sided communication (MPI_Win): fence, passive-target locks, post/start/complete/wait, accumulate. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class WinTest
{
    public static final class Rma
    {
        public static void main(final String[] args) throws MPIException
        {
            MPI.Init(args);
            final int rank = MPI.COMM_WORLD.getRank();
            final int n = MPI.COMM_WORLD.getSize();
            final int right = (rank + 1) % n;
            final int left = (rank - 1 + n) % n;
            final IntBuffer mem = MPI.newIntBuffer(4 * n + 2);
            for (int i = 0; i < 4 * n + 2; i++)
            {
                mem.put(i, -1);
            }
            mem.put(0, 1000 + rank);
            final Win win = new Win(mem, 4 * n + 2, 1, MPI.INFO_NULL, MPI.COMM_WORLD);
            check(win.getGroup().getSize() == n, "window group");

            // fence epoch: put my rank into slot 1 + my rank of my right neighbour; get its slot 0
            win.fence(0);
            final IntBuffer one = MPI.newIntBuffer(1);
            one.put(0, rank);
            final double t0 = MPI.wtime();
            win.put(one, 1, MPI.INT, right, 1 + rank, 1, MPI.INT);
            final IntBuffer fetched = MPI.newIntBuffer(1);
            win.get(fetched, 1, MPI.INT, right, 0, 1, MPI.INT);
            win.fence(0);
            check(MPI.wtime() > t0, "RMA took no simulated time");
            check(mem.get(1 + left) == left, "put from the left neighbour: " + mem.get(1 + left));
            check(fetched.get(0) == 1000 + right, "get from the right neighbour: " + fetched.get(0));
            check(n == 1 || mem.get(1 + rank) == -1, "a slot nobody wrote changed");

            // accumulate: every rank adds rank+1 to slot 0 of rank 0 (atomic per target)
            final IntBuffer add = MPI.newIntBuffer(1);
            add.put(0, rank + 1);
            win.accumulate(add, 1, MPI.INT, 0, 0, 1, MPI.INT, MPI.SUM);
            win.fence(0);
            check(rank != 0 || mem.get(0) == 1000 + n * (n + 1) / 2, "accumulate SUM at rank 0: " + mem.get(0));

            // passive target: each rank, under an exclusive lock, increments slot 2n of rank n-1
            final IntBuffer v = MPI.newIntBuffer(1);
            win.lock(MPI.LOCK_EXCLUSIVE, n - 1, 0);
            win.get(v, 1, MPI.INT, n - 1, 2 * n, 1, MPI.INT);
            win.flush(n - 1);
            v.put(0, v.get(0) + 1);
            win.put(v, 1, MPI.INT, n - 1, 2 * n, 1, MPI.INT);
            win.unlock(n - 1);
            MPI.COMM_WORLD.barrier();
            // the target sees the remote updates in its buffer after a synchronisation of its own
            win.lock(MPI.LOCK_SHARED, rank, 0);
            win.unlock(rank);
            check(rank != n - 1 || mem.get(2 * n) == -1 + n, "locked increments at rank n-1: " + mem.get(2 * n));

            // local stores become visible to remote gets after the next synchronisation
            mem.put(3 * n, 7000 + rank);
            win.fence(0);
            final IntBuffer peek = MPI.newIntBuffer(1);
            win.get(peek, 1, MPI.INT, left, 3 * n, 1, MPI.INT);
            win.fence(0);
            check(peek.get(0) == 7000 + left, "local store of the left neighbour seen by get: " + peek.get(0));

            // general active target: each rank exposes to its left neighbour, accesses its right one
            final Group world = MPI.COMM_WORLD.getGroup();
            final Group from = world.incl(new int[] {left});
            final Group to = world.incl(new int[] {right});
            win.post(from, 0);
            win.start(to, 0);
            final IntBuffer w = MPI.newIntBuffer(1);
            w.put(0, 500 + rank);
            win.put(w, 1, MPI.INT, right, 3 * n + 1, 1, MPI.INT);
            win.complete();
            win.waitFor();
            check(mem.get(3 * n + 1) == 500 + left, "post/start/complete/wait: " + mem.get(3 * n + 1));

            // errors under ERRORS_RETURN
            win.setErrhandler(MPI.ERRORS_RETURN);
            MPI.COMM_WORLD.setErrhandler(MPI.ERRORS_RETURN);
            try
            {
                win.put(one, 1, MPI.INT, right, 4 * n + 2, 1, MPI.INT);
                check(false, "a put beyond the window");
            }
            catch (final MPIException e)
            {
                check(e.getErrorClass() == MPI.ERR_DISP, "error class " + e.getErrorClass());
            }
            try
            {
                win.unlock(0);
                check(false, "unlock without lock");
            }
            catch (final MPIException e)
            {
                check(e.getErrorClass() == MPI.ERR_RMA_SYNC, "error class " + e.getErrorClass());
            }
            win.free();
            MPI.Finalize();
        }
    }

    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {1, 2, 3, 4, 8})
    void shouldMoveDataOneSided(final int n)
    {
        Job.run(n, Rma.class);
    }
}
