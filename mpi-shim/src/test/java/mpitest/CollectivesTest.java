package mpitest;

import static mpitest.Job.check;

import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;

import mpi.DoubleInt;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Op;
import mpi.UserFunction;
import mpi.Datatype;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class CollectivesTest
{
    /** A non-commutative operator: 2x2 integer matrix product, inout = in x inout. */
    static final class MatMul extends UserFunction
    {
        @Override
        public void call(final Object inVec, final Object inOutVec, final int count, final Datatype datatype)
        {
            final int[] a = (int[])inVec;
            final int[] b = (int[])inOutVec;
            for (int k = 0; k < count; k++)
            {
                final int o = 4 * k;
                final int c0 = a[o] * b[o] + a[o + 1] * b[o + 2];
                final int c1 = a[o] * b[o + 1] + a[o + 1] * b[o + 3];
                final int c2 = a[o + 2] * b[o] + a[o + 3] * b[o + 2];
                final int c3 = a[o + 2] * b[o + 1] + a[o + 3] * b[o + 3];
                b[o] = c0;
                b[o + 1] = c1;
                b[o + 2] = c2;
                b[o + 3] = c3;
            }
        }
    }

    /** Every collective on COMM_WORLD and on a split communicator (point-to-point algorithms). */
    public static final class All
    {
        public static void main(final String[] args) throws MPIException
        {
            MPI.Init(args);
            run(MPI.COMM_WORLD);
            // a communicator of part of the job: its collectives run over point-to-point
            final Intracomm half = MPI.COMM_WORLD.split(MPI.COMM_WORLD.getRank() % 2, -MPI.COMM_WORLD.getRank());
            run(half);
            MPI.Finalize();
        }

        static void run(final Intracomm c) throws MPIException
        {
            final int rank = c.getRank();
            final int n = c.getSize();
            c.barrier();
            // bcast, small (Elanlib) and large (binomial tree)
            for (final int len : new int[] {5, 20_000})
            {
                final double[] d = new double[len];
                if (rank == n - 1)
                {
                    for (int i = 0; i < len; i++)
                    {
                        d[i] = i + 0.5;
                    }
                }
                c.bcast(d, len, MPI.DOUBLE, n - 1);
                check(d[len - 1] == len - 0.5 && d[0] == 0.5, "bcast of " + len);
            }
            // reductions
            final int[] v = {rank + 1, rank % 2, 1 << (rank % 31)};
            final int[] r = new int[3];
            c.allReduce(v, r, 1, MPI.INT, MPI.SUM);
            check(r[0] == n * (n + 1) / 2, "allReduce SUM " + r[0]);
            c.reduce(v, r, 1, MPI.INT, MPI.MAX, 0);
            check(rank != 0 || r[0] == n, "reduce MAX " + r[0]);
            final long[] p = {rank + 1};
            final long[] pr = new long[1];
            c.allReduce(p, pr, 1, MPI.LONG, MPI.PROD);
            long fact = 1;
            for (int i = 1; i <= n; i++)
            {
                fact *= i;
            }
            check(pr[0] == fact, "PROD " + pr[0]);
            final float[] f = {-rank};
            final float[] fr = new float[1];
            c.allReduce(f, fr, 1, MPI.FLOAT, MPI.MIN);
            check(fr[0] == -(n - 1), "MIN " + fr[0]);
            final boolean[] b = {rank % 2 == 0};
            final boolean[] land = new boolean[1];
            final boolean[] lor = new boolean[1];
            c.allReduce(b, land, 1, MPI.BOOLEAN, MPI.LAND);
            c.allReduce(b, lor, 1, MPI.BOOLEAN, MPI.LOR);
            check(land[0] == (n == 1) && lor[0], "LAND/LOR " + land[0] + lor[0]);
            final int[] bits = {1 << (rank % 31)};
            final int[] bor = new int[1];
            final int[] bxor = new int[1];
            c.allReduce(bits, bor, 1, MPI.INT, MPI.BOR);
            c.allReduce(new int[] {rank}, bxor, 1, MPI.INT, MPI.BXOR);
            int ex = 0;
            int ebor = 0;
            for (int i = 0; i < n; i++)
            {
                ex ^= i;
                ebor |= 1 << (i % 31);
            }
            check(bor[0] == ebor && bxor[0] == ex, "BOR/BXOR");
            // in place
            final int[] ip = {rank};
            c.allReduce(ip, 1, MPI.INT, MPI.SUM);
            check(ip[0] == n * (n - 1) / 2, "allReduce in place " + ip[0]);
            // MAXLOC/MINLOC on DOUBLE_INT in a ByteBuffer
            final ByteBuffer in = MPI.newByteBuffer(MPI.doubleInt.getExtent());
            final ByteBuffer out = MPI.newByteBuffer(MPI.doubleInt.getExtent());
            final DoubleInt.Data di = MPI.doubleInt.getData(in);
            di.putValue(rank == n / 2 ? 100.0 : rank);
            di.putIndex(rank);
            c.allReduce(in, out, 1, MPI.DOUBLE_INT, MPI.MAXLOC);
            final DoubleInt.Data dout = MPI.doubleInt.getData(out);
            check(dout.getValue() == 100.0 && dout.getIndex() == n / 2, "MAXLOC " + dout.getValue() + "@" + dout.getIndex());
            c.allReduce(in, out, 1, MPI.DOUBLE_INT, MPI.MINLOC);
            check(dout.getIndex() == (n == 1 ? 0 : n / 2 == 0 ? 1 : 0), "MINLOC index " + dout.getIndex());
            // a non-commutative user operator: the product of rank matrices in rank order
            final Op mul = new Op(new MatMul(), false);
            final Datatype mat = Datatype.createContiguous(4, MPI.INT);
            mat.commit();
            final int[] m = {1, rank, 0, 1};
            final int[] mr = new int[4];
            c.allReduce(m, mr, 1, mat, mul);
            check(mr[0] == 1 && mr[1] == n * (n - 1) / 2 && mr[2] == 0 && mr[3] == 1, "user op " + mr[1]);
            final int[] seq = {1, 0, rank + 1, 1};
            final int[] sr = new int[4];
            c.reduce(seq, sr, 1, mat, mul, n - 1);
            check(rank != n - 1 || sr[2] == n * (n + 1) / 2, "user reduce " + sr[2]);
            // gather/scatter/allGather/allToAll
            final int[] all = new int[2 * n];
            c.gather(new int[] {rank, -rank}, 2, MPI.INT, all, 2, MPI.INT, 0);
            for (int i = 0; rank == 0 && i < n; i++)
            {
                check(all[2 * i] == i && all[2 * i + 1] == -i, "gather " + i);
            }
            final int[] part = new int[2];
            final int[] src = new int[2 * n];
            for (int i = 0; i < 2 * n; i++)
            {
                src[i] = i * 3;
            }
            c.scatter(src, 2, MPI.INT, part, 2, MPI.INT, n / 2);
            check(part[0] == 6 * rank && part[1] == 6 * rank + 3, "scatter " + part[0]);
            final short[] ag = new short[n];
            c.allGather(new short[] {(short)(rank * 2)}, 1, MPI.SHORT, ag, 1, MPI.SHORT);
            for (int i = 0; i < n; i++)
            {
                check(ag[i] == 2 * i, "allGather " + i);
            }
            final int[] a2a = new int[n];
            final int[] a2aIn = new int[n];
            for (int i = 0; i < n; i++)
            {
                a2a[i] = rank * 1000 + i;
            }
            c.allToAll(a2a, 1, MPI.INT, a2aIn, 1, MPI.INT);
            for (int i = 0; i < n; i++)
            {
                check(a2aIn[i] == i * 1000 + rank, "allToAll " + i);
            }
            // gatherv: rank i sends i+1 ints
            final int[] counts = new int[n];
            final int[] displs = new int[n];
            int total = 0;
            for (int i = 0; i < n; i++)
            {
                counts[i] = i + 1;
                displs[i] = total;
                total += i + 1;
            }
            final int[] mine = new int[rank + 1];
            java.util.Arrays.fill(mine, rank);
            final int[] gv = new int[total];
            c.allGatherv(mine, rank + 1, MPI.INT, gv, counts, displs, MPI.INT);
            for (int i = 0; i < n; i++)
            {
                check(gv[displs[i]] == i && gv[displs[i] + i] == i, "allGatherv " + i);
            }
            // scan / exScan / reduceScatterBlock
            final int[] sc = new int[1];
            c.scan(new int[] {rank + 1}, sc, 1, MPI.INT, MPI.SUM);
            check(sc[0] == (rank + 1) * (rank + 2) / 2, "scan " + sc[0]);
            final int[] es = {-7};
            c.exScan(new int[] {rank + 1}, es, 1, MPI.INT, MPI.SUM);
            check(rank == 0 ? es[0] == -7 : es[0] == rank * (rank + 1) / 2, "exScan " + es[0]);
            final int[] rsb = new int[2 * n];
            for (int i = 0; i < 2 * n; i++)
            {
                rsb[i] = i;
            }
            final int[] rsOut = new int[2];
            c.reduceScatterBlock(rsb, rsOut, 2, MPI.INT, MPI.SUM);
            check(rsOut[0] == 2 * rank * n && rsOut[1] == (2 * rank + 1) * n, "reduceScatterBlock " + rsOut[0]);
            // non-blocking collectives (complete when their requests are waited for)
            final int[] ia = new int[1];
            final int[] ib = {rank == 0 ? 77 : 0};
            final int[] ig = new int[total];
            mpi.Request.waitAll(new mpi.Request[] {c.iBarrier(), c.iAllReduce(new int[] {2}, ia, 1, MPI.INT, MPI.SUM),
                c.iBcast(ib, 1, MPI.INT, 0), c.iAllGatherv(mine, rank + 1, MPI.INT, ig, counts, displs, MPI.INT),
                c.iExScan(new int[] {1}, es, 1, MPI.INT, MPI.SUM)});
            check(ia[0] == 2 * n && ib[0] == 77 && ig[displs[n - 1]] == n - 1 && (rank == 0 || es[0] == rank),
                "non-blocking collectives");
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4, 8, 16})
    void shouldComputeEveryCollective(final int n)
    {
        Job.run(n, All.class);
    }
}
