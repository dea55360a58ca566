package mpitest;

import static mpitest.Job.check;

import java.util.Arrays;
import java.util.concurrent.TimeUnit;

import mpi.Datatype;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Op;
import mpi.Request;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.qsnet.elan3.ElanProcess;

/** MPI-3 non-blocking collectives: same results as the blocking ones, progress, overlap with computation. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class NonBlockingCollectivesTest
{
    /** Every non-blocking collective against its blocking twin, on COMM_WORLD and on a reordered split. */
    public static final class SameAsBlocking
    {
        public static void main(final String[] args) throws MPIException
        {
            MPI.Init(args);
            run(MPI.COMM_WORLD);
            final int r = MPI.COMM_WORLD.getRank();
            run(MPI.COMM_WORLD.split(r % 2, -r));
            MPI.Finalize();
        }

        private static int[] data(final int rank, final int len, final int salt)
        {
            final int[] d = new int[len];
            for (int i = 0; i < len; i++)
            {
                d[i] = (rank + 1) * 1000 + i * 7 + salt;
            }
            return d;
        }

        static void run(final Intracomm c) throws MPIException
        {
            final int rank = c.getRank();
            final int n = c.getSize();
            final String on = " on " + n + " ranks";
            c.iBarrier().waitFor();
            for (final int len : new int[] {3, 700})
            {
                // bcast from the last rank
                final int[] b1 = rank == n - 1 ? data(rank, len, 1) : new int[len];
                final int[] b2 = b1.clone();
                c.bcast(b1, len, MPI.INT, n - 1);
                c.iBcast(b2, len, MPI.INT, n - 1).waitFor();
                check(Arrays.equals(b1, b2) && b2[len - 1] == data(n - 1, len, 1)[len - 1], "iBcast" + on);
                // reduce to rank n/2, allReduce, with SUM and with a non-commutative user operator
                for (final Op op : new Op[] {MPI.SUM, MPI.MAX})
                {
                    final int[] r1 = new int[len];
                    final int[] r2 = new int[len];
                    c.reduce(data(rank, len, 2), r1, len, MPI.INT, op, n / 2);
                    c.iReduce(data(rank, len, 2), r2, len, MPI.INT, op, n / 2).waitFor();
                    check(Arrays.equals(r1, r2), "iReduce" + on);
                    final int[] a1 = new int[len];
                    final int[] a2 = new int[len];
                    c.allReduce(data(rank, len, 3), a1, len, MPI.INT, op);
                    final Request q = c.iAllReduce(data(rank, len, 3), a2, len, MPI.INT, op);
                    while (!q.test())
                    {
                        // spin on test: each test advances the schedule
                    }
                    check(Arrays.equals(a1, a2) && (op != MPI.SUM || a2[0] == sum(n, 3)), "iAllReduce" + on);
                }
                // gather / gatherv / scatter / scatterv / allGather / allGatherv / allToAll / allToAllv
                final int[] g1 = new int[len * n];
                final int[] g2 = new int[len * n];
                c.gather(data(rank, len, 4), len, MPI.INT, g1, len, MPI.INT, 0);
                c.iGather(data(rank, len, 4), len, MPI.INT, g2, len, MPI.INT, 0).waitFor();
                check(Arrays.equals(g1, g2) && (rank != 0 || g2[len * (n - 1)] == data(n - 1, len, 4)[0]), "iGather" + on);
                final int[] counts = new int[n];
                final int[] displs = new int[n];
                int total = 0;
                for (int i = 0; i < n; i++)
                {
                    counts[i] = 1 + i % 3;
                    displs[i] = total + i;
                    total += counts[i] + i;
                }
                final int[] v1 = new int[total];
                final int[] v2 = new int[total];
                c.gatherv(data(rank, counts[rank], 5), counts[rank], MPI.INT, v1, counts, displs, MPI.INT, n - 1);
                c.iGatherv(data(rank, counts[rank], 5), counts[rank], MPI.INT, v2, counts, displs, MPI.INT, n - 1)
                    .waitFor();
                check(Arrays.equals(v1, v2), "iGatherv" + on);
                final int[] src = data(rank, len * n, 6);
                final int[] s1 = new int[len];
                final int[] s2 = new int[len];
                c.scatter(src, len, MPI.INT, s1, len, MPI.INT, n / 2);
                c.iScatter(src, len, MPI.INT, s2, len, MPI.INT, n / 2).waitFor();
                check(Arrays.equals(s1, s2) && s2[0] == data(n / 2, len * n, 6)[rank * len], "iScatter" + on);
                final int[] sv1 = new int[counts[rank]];
                final int[] sv2 = new int[counts[rank]];
                final int[] vsrc = data(rank, total, 7);
                c.scatterv(vsrc, counts, displs, MPI.INT, sv1, counts[rank], MPI.INT, 0);
                c.iScatterv(vsrc, counts, displs, MPI.INT, sv2, counts[rank], MPI.INT, 0).waitFor();
                check(Arrays.equals(sv1, sv2), "iScatterv" + on);
                final int[] ag1 = new int[len * n];
                final int[] ag2 = new int[len * n];
                c.allGather(data(rank, len, 8), len, MPI.INT, ag1, len, MPI.INT);
                c.iAllGather(data(rank, len, 8), len, MPI.INT, ag2, len, MPI.INT).waitFor();
                check(Arrays.equals(ag1, ag2) && ag2[len * n - 1] == data(n - 1, len, 8)[len - 1], "iAllGather" + on);
                final int[] agv1 = new int[total];
                final int[] agv2 = new int[total];
                c.allGatherv(data(rank, counts[rank], 9), counts[rank], MPI.INT, agv1, counts, displs, MPI.INT);
                c.iAllGatherv(data(rank, counts[rank], 9), counts[rank], MPI.INT, agv2, counts, displs, MPI.INT)
                    .waitFor();
                check(Arrays.equals(agv1, agv2), "iAllGatherv" + on);
                final int[] at1 = new int[len * n];
                final int[] at2 = new int[len * n];
                c.allToAll(data(rank, len * n, 10), len, MPI.INT, at1, len, MPI.INT);
                c.iAllToAll(data(rank, len * n, 10), len, MPI.INT, at2, len, MPI.INT).waitFor();
                check(Arrays.equals(at1, at2) && (n < 2 || at2[len] == data(1, len * n, 10)[rank * len]),
                    "iAllToAll" + on);
                // rank i sends 1 + (i + j) % 3 elements to rank j (so what j expects from i is the same)
                final int[] pc = new int[n];
                final int[] pd = new int[n];
                int ptotal = 0;
                for (int j = 0; j < n; j++)
                {
                    pc[j] = 1 + (rank + j) % 3;
                    pd[j] = ptotal + 1;
                    ptotal += pc[j] + 1;
                }
                final int[] atv1 = new int[ptotal];
                final int[] atv2 = new int[ptotal];
                c.allToAllv(data(rank, ptotal, 11), pc, pd, MPI.INT, atv1, pc, pd, MPI.INT);
                c.iAllToAllv(data(rank, ptotal, 11), pc, pd, MPI.INT, atv2, pc, pd, MPI.INT).waitFor();
                check(Arrays.equals(atv1, atv2), "iAllToAllv" + on);
                // reduceScatter(Block), scan, exScan
                final int[] rs1 = new int[counts[rank]];
                final int[] rs2 = new int[counts[rank]];
                int sumCounts = 0;
                for (final int k : counts)
                {
                    sumCounts += k;
                }
                c.reduceScatter(data(rank, sumCounts, 12), rs1, counts, MPI.INT, MPI.SUM);
                c.iReduceScatter(data(rank, sumCounts, 12), rs2, counts, MPI.INT, MPI.SUM).waitFor();
                check(Arrays.equals(rs1, rs2), "iReduceScatter" + on);
                final int[] rb1 = new int[len];
                final int[] rb2 = new int[len];
                c.reduceScatterBlock(data(rank, len * n, 13), rb1, len, MPI.INT, MPI.SUM);
                c.iReduceScatterBlock(data(rank, len * n, 13), rb2, len, MPI.INT, MPI.SUM).waitFor();
                check(Arrays.equals(rb1, rb2), "iReduceScatterBlock" + on);
                final int[] sc1 = new int[len];
                final int[] sc2 = new int[len];
                c.scan(data(rank, len, 14), sc1, len, MPI.INT, MPI.SUM);
                c.iScan(data(rank, len, 14), sc2, len, MPI.INT, MPI.SUM).waitFor();
                check(Arrays.equals(sc1, sc2) && sc2[0] == sum(rank + 1, 14), "iScan" + on);
                final int[] ex1 = new int[len];
                final int[] ex2 = new int[len];
                c.exScan(data(rank, len, 15), ex1, len, MPI.INT, MPI.SUM);
                c.iExScan(data(rank, len, 15), ex2, len, MPI.INT, MPI.SUM).waitFor();
                check(rank == 0 || Arrays.equals(ex1, ex2) && ex2[0] == sum(rank, 15), "iExScan" + on);
            }
            // a non-commutative user operator: the product of the rank matrices, in rank order
            final Op mul = new Op(new CollectivesTest.MatMul(), false);
            final Datatype mat = Datatype.createContiguous(4, MPI.INT);
            mat.commit();
            final int[] m = {1, rank, 0, 1};
            final int[] mr = new int[4];
            c.iAllReduce(m, mr, 1, mat, mul).waitFor();
            check(mr[1] == n * (n - 1) / 2, "iAllReduce with a user operator" + on);
            final int[] seq = {1, 0, rank + 1, 1};
            final int[] sr = new int[4];
            c.iReduce(seq, sr, 1, mat, mul, n - 1).waitFor();
            check(rank != n - 1 || sr[2] == n * (n + 1) / 2, "iReduce with a non-commutative user operator" + on);
        }

        /** Element 0 of the sum of data(r, ., salt) over ranks 0..upTo-1. */
        private static int sum(final int upTo, final int salt)
        {
            int s = 0;
            for (int r = 0; r < upTo; r++)
            {
                s += (r + 1) * 1000 + salt;
            }
            return s;
        }
    }

    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {1, 2, 3, 4, 8})
    void shouldGiveTheResultsOfTheBlockingCollectives(final int n)
    {
        Job.run(n, SameAsBlocking.class);
    }

    /** A non-blocking barrier is not complete until every rank has joined; the call itself returns at once. */
    public static final class NotCompleteInTheCall
    {
        public static void main(final String[] args) throws MPIException
        {
            MPI.Init(args);
            final int rank = MPI.COMM_WORLD.getRank();
            final int n = MPI.COMM_WORLD.getSize();
            final double lateUs = 200;
            if (rank == n - 1)
            {
                ElanProcess.current().sim().compute((long)(lateUs * 1000));
            }
            final double t0 = MPI.wtime();
            final Request b = MPI.COMM_WORLD.iBarrier();
            final int[] sum = new int[1];
            final Request a = MPI.COMM_WORLD.iAllReduce(new int[] {rank}, sum, 1, MPI.INT, MPI.SUM);
            final double t1 = MPI.wtime();
            if (rank == 0)
            {
                check((t1 - t0) * 1e6 < 20, "iBarrier + iAllReduce calls took " + (t1 - t0) * 1e6 + " us");
                check(!b.test(), "iBarrier complete before the last rank joined");
                check(!a.test(), "iAllReduce complete before the last rank joined");
            }
            Request.waitAll(new Request[] {a, b});
            check(sum[0] == n * (n - 1) / 2, "sum " + sum[0]);
            check(MPI.wtime() * 1e6 >= lateUs, "left the barrier at " + MPI.wtime() * 1e6 + " us");
            MPI.Finalize();
        }
    }

    @Test
    void shouldNotCompleteInsideTheCall()
    {
        // the ranks' checks fail the job, which run() rethrows
        org.junit.jupiter.api.Assertions.assertDoesNotThrow(() -> Job.run(4, NotCompleteInTheCall.class));
    }

    /**
     * Overlap: computation of about the collective's own duration between iAllReduce and its wait
     * costs less simulated time than a blocking allReduce followed by the same computation.
     */
    public static final class Overlap
    {
        public static void main(final String[] args) throws MPIException
        {
            MPI.Init(args);
            final int r = MPI.COMM_WORLD.getRank();
            final int count = Integer.parseInt(args[0]);
            // a communicator not in world order: the blocking allReduce runs over point-to-point too
            final Intracomm c = MPI.COMM_WORLD.split(0, -r);
            final double[] in = new double[count];
            Arrays.fill(in, r);
            final double[] out = new double[count];
            c.barrier();
            double t0 = MPI.wtime();
            c.allReduce(in, out, count, MPI.DOUBLE, MPI.SUM);
            final double blocking = MPI.wtime() - t0;
            final long computeNs = (long)(blocking * 1e9);
            c.barrier();
            t0 = MPI.wtime();
            c.allReduce(in, out, count, MPI.DOUBLE, MPI.SUM);
            ElanProcess.current().sim().compute(computeNs);
            final double sequential = MPI.wtime() - t0;
            c.barrier();
            t0 = MPI.wtime();
            final Request q = c.iAllReduce(in, out, count, MPI.DOUBLE, MPI.SUM);
            ElanProcess.current().sim().compute(computeNs);
            q.waitFor();
            final double overlapped = MPI.wtime() - t0;
            final int n = c.getSize();
            check(out[count - 1] == n * (n - 1) / 2.0, "iAllReduce result " + out[count - 1]);
            check(overlapped * 1e9 >= computeNs, "overlapped " + overlapped + " s shorter than the computation");
            // rank 0 of c (world rank n-1) ends with the broadcast of the result: it overlaps least
            check(overlapped < sequential, "rank " + r + ": iAllReduce + compute + wait took " + overlapped * 1e6
                + " us, blocking allReduce + compute " + sequential * 1e6 + " us (compute " + computeNs / 1000.0 + " us)");
            if (r == 0)
            {
                System.out.printf("overlap, %d ranks, %d doubles: allReduce %.2f us; allReduce + compute %.2f us;"
                    + " iAllReduce + compute + wait %.2f us%n", n, count, blocking * 1e6, sequential * 1e6,
                    overlapped * 1e6);
            }
            MPI.Finalize();
        }
    }

    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {2, 4, 8})
    void shouldOverlapComputationWithANonBlockingAllReduce(final int n)
    {
        Job.run(n, Overlap.class, "2048");
    }

    /**
     * Several collectives in flight at once, with point-to-point between them, completed in
     * different orders on different ranks (every rank starts them in the same order, as MPI requires).
     */
    public static final class Concurrent
    {
        public static void main(final String[] args) throws MPIException
        {
            MPI.Init(args);
            final Intracomm w = MPI.COMM_WORLD;
            final int rank = w.getRank();
            final int n = w.getSize();
            final int[] s1 = new int[4];
            final int[] s2 = new int[4];
            final long[] bc = new long[300];
            if (rank == 0)
            {
                Arrays.fill(bc, 77);
            }
            final Request a = w.iAllReduce(new int[] {rank, 1, 2, 3}, s1, 4, MPI.INT, MPI.SUM);
            final Request b = w.iBcast(bc, bc.length, MPI.LONG, 0);
            final Request c = w.iAllReduce(new int[] {1, rank, 0, 0}, s2, 4, MPI.INT, MPI.MAX);
            final Request d = w.iBarrier();
            // point-to-point around the ring while they are in flight, on the same tags as nothing else
            final int[] got = new int[1];
            final Request rr = w.iRecv(got, 1, MPI.INT, (rank - 1 + n) % n, 0);
            w.send(new int[] {rank}, 1, MPI.INT, (rank + 1) % n, 0);
            rr.waitFor();
            check(got[0] == (rank - 1 + n) % n, "ring message " + got[0]);
            final Request[] all = rank % 2 == 0 ? new Request[] {c, b, d, a} : new Request[] {a, d, b, c};
            for (final Request q : all)
            {
                q.waitFor();
            }
            check(s1[0] == n * (n - 1) / 2 && s1[1] == n && s1[3] == 3 * n, "first iAllReduce " + Arrays.toString(s1));
            check(s2[0] == 1 && s2[1] == n - 1, "second iAllReduce " + Arrays.toString(s2));
            check(bc[299] == 77, "iBcast");
            MPI.Finalize();
        }
    }

    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {2, 3, 8})
    void shouldKeepConcurrentCollectivesAndPointToPointApart(final int n)
    {
        Job.run(n, Concurrent.class);
    }

    /**
     * MPI's progress rule, as a user relies on it: odd ranks wait for a broadcast in flight and
     * then send to their even neighbour; even ranks first block in the receive of that message,
     * and only then wait for the broadcast. Valid MPI: an even rank blocked in {@code recv} must
     * still forward the broadcast (a binomial tree from rank 0 has even ranks forward to odd
     * ones), or its odd neighbour never gets it and never sends.
     */
    public static final class ProgressWhileBlockedInReceive
    {
        public static void main(final String[] args) throws MPIException
        {
            MPI.Init(args);
            final Intracomm w = MPI.COMM_WORLD;
            final int r = w.getRank();
            final int n = w.getSize();
            final int[] b = new int[64];
            if (r == 0)
            {
                Arrays.fill(b, 4242);
            }
            final int[] sum = {r, 0};
            final int[] total = new int[2];
            // two collectives in flight, so the rank also progresses several at once
            final Request bc = w.iBcast(b, b.length, MPI.INT, 0);
            final Request ar = w.iAllReduce(sum, total, 2, MPI.INT, MPI.SUM);
            final int[] msg = new int[1];
            if (r % 2 == 0)
            {
                if (r + 1 < n)
                {
                    w.recv(msg, 1, MPI.INT, r + 1, 9);
                    check(msg[0] == 1000 + r + 1, "message from rank " + (r + 1) + ": " + msg[0]);
                }
                bc.waitFor();
            }
            else
            {
                bc.waitFor();
                check(b[63] == 4242, "broadcast at rank " + r);
                msg[0] = 1000 + r;
                w.send(msg, 1, MPI.INT, r - 1, 9);
            }
            ar.waitFor();
            check(b[0] == 4242 && total[0] == n * (n - 1) / 2, "results at rank " + r);
            // the same with a blocking probe in place of the receive
            final int[] c = new int[8];
            final Request bc2 = w.iBcast(c, c.length, MPI.INT, 0);
            if (r % 2 == 0)
            {
                if (r + 1 < n)
                {
                    w.probe(r + 1, 10);
                    w.recv(msg, 1, MPI.INT, r + 1, 10);
                }
                bc2.waitFor();
            }
            else
            {
                bc2.waitFor();
                w.send(msg, 1, MPI.INT, r - 1, 10);
            }
            MPI.Finalize();
        }
    }

    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {4, 8, 16})
    void shouldProgressCollectivesInFlightWhileARankIsBlockedInPointToPoint(final int n)
    {
        Job.run(n, ProgressWhileBlockedInReceive.class);
    }

    /**
     * A real deadlock with a collective in flight: rank 0 starts a barrier and waits for a
     * message from rank 1, which waits for one from rank 0 before it would join the barrier.
     */
    public static final class DeadlockWithACollectiveInFlight
    {
        public static void main(final String[] args) throws MPIException
        {
            MPI.Init(args);
            final Intracomm w = MPI.COMM_WORLD;
            if (w.getRank() == 1)
            {
                w.recv(new int[1], 1, MPI.INT, 0, 78);
            }
            final Request b = w.iBarrier();
            if (w.getRank() == 0)
            {
                w.recv(new int[1], 1, MPI.INT, 1, 77);
            }
            b.waitFor();
            MPI.Finalize();
        }
    }

    @Test
    void shouldReportADeadlockOfARankBlockedInAReceiveWithACollectiveInFlight()
    {
        final Throwable e = org.junit.jupiter.api.Assertions.assertThrows(Throwable.class,
            () -> Job.run(4, DeadlockWithACollectiveInFlight.class));
        final String m = String.valueOf(e.getMessage());
        // rank 0 is parked on its receive and on the barrier's operations at once, and says so
        org.junit.jupiter.api.Assertions.assertTrue(m.contains("deadlock") && m.contains("rank 0: BLOCKED")
            && m.contains("waits for MPI receive [Tports receive of tag 77 from sender 1") && m.contains("any of: "), m);
    }

    /**
     * {@code MPI_Waitany} over receives while a reduction is in flight: rank 1 sends to rank 0
     * only once the reduction has completed, so rank 0, waiting in {@code waitAny}, must progress
     * it; then a real deadlock: rank 0 waits for any of two receives nobody sends.
     */
    public static final class WaitAnyProgressAndDeadlock
    {
        public static void main(final String[] args) throws MPIException
        {
            MPI.Init(args);
            final Intracomm w = MPI.COMM_WORLD;
            final int r = w.getRank();
            final int[] in = {r + 1};
            final int[] out = new int[1];
            final Request red = w.iAllReduce(in, out, 1, MPI.INT, MPI.SUM);
            if (r == 0)
            {
                final int[] a = new int[1];
                final int[] b = new int[1];
                final Request[] two = {w.iRecv(a, 1, MPI.INT, 1, 5), w.iRecv(b, 1, MPI.INT, 2, 5)};
                final int first = Request.waitAny(two);
                check(first == 0 && a[0] == 99, "waitAny: index " + first + ", " + a[0]);
                red.waitFor();
                // index 1 stays pending: nobody sends it; with a fresh receive, nothing can complete
                Request.waitAny(new Request[] {two[1], w.iRecv(a, 1, MPI.INT, 3, 6)});
            }
            else
            {
                red.waitFor();
                if (r == 1)
                {
                    w.send(new int[] {99}, 1, MPI.INT, 0, 5);
                }
            }
            check(out[0] == w.getSize() * (w.getSize() + 1) / 2, "allReduce " + out[0]);
            MPI.Finalize();
        }
    }

    @Test
    void shouldProgressInWaitAnyAndReportItsDeadlock()
    {
        final Throwable e = org.junit.jupiter.api.Assertions.assertThrows(Throwable.class,
            () -> Job.run(4, WaitAnyProgressAndDeadlock.class));
        final String m = String.valueOf(e.getMessage());
        // rank 0 got past the first waitAny (it progressed the reduction) and parked in the second
        org.junit.jupiter.api.Assertions.assertTrue(m.contains("deadlock") && m.contains("rank 0: BLOCKED")
            && m.contains("MPI_Waitany over 2 requests") && m.contains("any of: "), m);
    }
}
