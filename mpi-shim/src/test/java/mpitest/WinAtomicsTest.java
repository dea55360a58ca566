package mpitest;

import static mpitest.Job.check;

import java.nio.IntBuffer;
import java.nio.LongBuffer;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;

import mpi.MPI;
import mpi.MPIException;
import mpi.Request;
import mpi.Win;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** MPI-3 RMA on Win: fetchAndOp, compareAndSwap, getAccumulate, request-based rPut/rGet, allocated windows. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class WinAtomicsTest
{
    public static final class Program
    {
        static final int ROUNDS = 10;

        public static void main(final String[] args) throws MPIException
        {
            MPI.Init(args);
            final int rank = MPI.COMM_WORLD.getRank();
            final int n = MPI.COMM_WORLD.getSize();
            final LongBuffer mem = MPI.newLongBuffer(4 + n);
            mem.put(1, -1);
            final Win win = new Win(4 + n, 1, MPI.INFO_NULL, MPI.COMM_WORLD, mem, Win.FLAVOR_PRIVATE);

            // every rank increments rank 0's counter ROUNDS times at once: each fetch must be distinct
            final LongBuffer one = MPI.newLongBuffer(1);
            one.put(0, 1);
            final LongBuffer old = MPI.newLongBuffer(1);
            final long[] fetched = new long[ROUNDS];
            win.lockAll(0);
            for (int i = 0; i < ROUNDS; i++)
            {
                win.fetchAndOp(one, old, MPI.LONG, 0, 0, MPI.SUM);
                fetched[i] = old.get(0);
            }
            win.unlockAll();
            final long[] all = new long[ROUNDS * n];
            MPI.COMM_WORLD.allGather(fetched, ROUNDS, MPI.LONG, all, ROUNDS, MPI.LONG);
            Arrays.sort(all);
            for (int i = 0; i < all.length; i++)
            {
                check(all[i] == i, "fetched values are not 0.." + (all.length - 1) + ": " + Arrays.toString(all));
            }

            // compare-and-swap: of every rank trying to swap -1 for its rank, exactly one wins
            final LongBuffer mine = MPI.newLongBuffer(1);
            mine.put(0, rank);
            final LongBuffer expect = MPI.newLongBuffer(1);
            expect.put(0, -1);
            final LongBuffer was = MPI.newLongBuffer(1);
            win.lock(MPI.LOCK_SHARED, 0, 0);
            win.compareAndSwap(mine, expect, was, MPI.LONG, 0, 1);
            win.unlock(0);
            final int[] won = {was.get(0) == -1 ? 1 : 0};
            final int[] winners = new int[1];
            MPI.COMM_WORLD.allReduce(won, winners, 1, MPI.INT, MPI.SUM);
            check(winners[0] == 1, winners[0] + " ranks won the compare-and-swap");
            check(was.get(0) == -1 || was.get(0) >= 0 && was.get(0) < n, "a loser saw " + was.get(0));

            win.fence(0);
            if (rank == 0)
            {
                check(mem.get(0) == (long)ROUNDS * n, "counter " + mem.get(0) + " after " + ROUNDS * n + " increments");
                check(mem.get(1) >= 0 && mem.get(1) < n, "compare-and-swap left " + mem.get(1));
            }
            win.fence(0);

            // getAccumulate: NO_OP reads, REPLACE swaps (on my right neighbour's slot 2)
            final int right = (rank + 1) % n;
            final LongBuffer seven = MPI.newLongBuffer(1);
            seven.put(0, 7 + rank);
            final LongBuffer res = MPI.newLongBuffer(1);
            win.lock(MPI.LOCK_EXCLUSIVE, right, 0);
            win.getAccumulate(null, 0, MPI.LONG, res, 1, MPI.LONG, right, 2, 1, MPI.LONG, MPI.NO_OP);
            check(res.get(0) == 0, "NO_OP read " + res.get(0));
            win.getAccumulate(seven, 1, MPI.LONG, res, 1, MPI.LONG, right, 2, 1, MPI.LONG, MPI.REPLACE);
            check(res.get(0) == 0, "REPLACE fetched " + res.get(0));
            win.rGetAccumulate(seven, 1, MPI.LONG, res, 1, MPI.LONG, right, 2, 1, MPI.LONG, MPI.SUM).waitFor();
            check(res.get(0) == 7 + rank, "rGetAccumulate fetched " + res.get(0));
            win.unlock(right);
            win.fence(0);
            final int left = (rank - 1 + n) % n;
            check(mem.get(2) == 2L * (7 + left), "slot 2 holds " + mem.get(2));

            // rPut / rGet: the request completes the operation without a synchronisation call
            final LongBuffer tag = MPI.newLongBuffer(1);
            tag.put(0, 100 + rank);
            win.lock(MPI.LOCK_EXCLUSIVE, right, 0);
            final Request put = win.rPut(tag, 1, MPI.LONG, right, 4 + rank, 1, MPI.LONG);
            put.waitFor();
            final LongBuffer back = MPI.newLongBuffer(1);
            final Request get = win.rGet(back, 1, MPI.LONG, right, 4 + rank, 1, MPI.LONG);
            Request.waitAll(new Request[] {get});
            check(back.get(0) == 100 + rank, "rGet after rPut read " + back.get(0));
            win.rAccumulate(tag, 1, MPI.LONG, right, 4 + rank, 1, MPI.LONG, MPI.SUM).waitFor();
            win.unlock(right);
            win.fence(0);
            check(mem.get(4 + left) == 2L * (100 + left), "rPut + rAccumulate from the left: " + mem.get(4 + left));

            // what is refused, with the error class
            win.setErrhandler(MPI.ERRORS_RETURN);
            try
            {
                win.attach(MPI.newIntBuffer(1), 1);
                check(false, "attach on a created window was accepted");
            }
            catch (final MPIException e)
            {
                check(e.getErrorClass() == MPI.ERR_UNSUPPORTED_OPERATION, "attach: class " + e.getErrorClass());
            }
            win.free();

            final IntBuffer shared = MPI.newIntBuffer(2);
            try
            {
                final Win sw = new Win(2, 1, MPI.INFO_NULL, MPI.COMM_WORLD, shared, Win.FLAVOR_SHARED);
                check(n == 1, "a shared window of " + n + " ranks was accepted");
                final IntBuffer v = MPI.newIntBuffer(1);
                v.put(0, 42);
                sw.fence(0);
                sw.put(v, 1, MPI.INT, 0, 1, 1, MPI.INT);
                sw.fence(0);
                check(shared.get(1) == 42, "shared window of one rank");
                sw.free();
            }
            catch (final MPIException e)
            {
                check(n > 1 && e.getErrorClass() == MPI.ERR_UNSUPPORTED_OPERATION, "shared window: " + e.getMessage());
            }
            MPI.Finalize();
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4})
    void atomicsAreAtomicPerTarget(final int n)
    {
        Job.run(n, Program.class);
    }
}
