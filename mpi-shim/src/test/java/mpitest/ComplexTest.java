package mpitest;

import static mpitest.Job.check;

import java.nio.DoubleBuffer;
import java.nio.FloatBuffer;
import java.util.concurrent.TimeUnit;

import mpi.Count;
import mpi.Datatype;
import mpi.DoubleComplex;
import mpi.FloatComplex;
import mpi.MPI;
import mpi.MPIException;
import mpi.Status;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * MPI.FLOAT_COMPLEX and MPI.DOUBLE_COMPLEX with the FloatComplex/DoubleComplex views: point-to-point,
 * collectives, SUM and PROD on complex values (MPI defines no MAX/MIN on them).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ComplexTest
{
    @Test
    void viewsReadAndWriteTheirStorage()
    {
        final float[] a = new float[6];
        final FloatComplex z = FloatComplex.get(a, 1);
        z.putReal(2.5f);
        z.putImag(-1f);
        assertEquals(2.5f, a[2]);
        assertEquals(-1f, a[3]);
        assertEquals(2.5f, FloatComplex.get(a, 1).getReal());
        assertEquals(-1f, z.getBuffer().get(1));
        final DoubleBuffer d = MPI.newDoubleBuffer(4);
        DoubleComplex.get(d, 1).putImag(7);
        assertEquals(7.0, d.get(3));
        final java.nio.ByteBuffer bytes = MPI.newByteBuffer(16);
        DoubleComplex.get(bytes).putReal(3);
        assertEquals(3.0, bytes.asDoubleBuffer().get(0));
        assertEquals(0.0, DoubleComplex.get(new double[] {0, 0}).getImag());
    }

    public static final class Program
    {
        public static void main(final String[] args) throws MPIException
        {
            MPI.Init(args);
            final int rank = MPI.COMM_WORLD.getRank();
            final int n = MPI.COMM_WORLD.getSize();
            check(MPI.FLOAT_COMPLEX.getSize() == 2 && MPI.DOUBLE_COMPLEX.getExtent() == 2,
                "a complex number is two base elements");

            // point-to-point: rank 0 sends three double complex numbers to every other rank
            if (rank == 0)
            {
                for (int dest = 1; dest < n; dest++)
                {
                    final double[] z = new double[6];
                    for (int i = 0; i < 3; i++)
                    {
                        DoubleComplex.get(z, i).putReal(dest + i);
                        DoubleComplex.get(z, i).putImag(-dest * i);
                    }
                    MPI.COMM_WORLD.send(z, 3, MPI.DOUBLE_COMPLEX, dest, 5);
                }
            }
            else
            {
                final DoubleBuffer z = MPI.newDoubleBuffer(8);
                final Status st = MPI.COMM_WORLD.recv(z, 4, MPI.DOUBLE_COMPLEX, 0, 5);
                check(st.getCount(MPI.DOUBLE_COMPLEX) == 3, "count " + st.getCount(MPI.DOUBLE_COMPLEX));
                check(st.getElements(MPI.DOUBLE_COMPLEX) == 3, "elements " + st.getElements(MPI.DOUBLE_COMPLEX));
                check(st.getElementsX(MPI.DOUBLE_COMPLEX).equals(new Count(3)), "elementsX");
                check(st.getCount(MPI.DOUBLE) == 6, "the same message is six doubles");
                for (int i = 0; i < 3; i++)
                {
                    check(DoubleComplex.get(z, i).getReal() == rank + i && DoubleComplex.get(z, i).getImag() == -rank * i,
                        "received " + DoubleComplex.get(z, i));
                }
            }

            // bcast of float complex numbers in a FloatBuffer
            final FloatBuffer fb = MPI.newFloatBuffer(4);
            if (rank == n - 1)
            {
                FloatComplex.get(fb, 0).putReal(1.5f);
                FloatComplex.get(fb, 1).putImag(-2f);
            }
            MPI.COMM_WORLD.bcast(fb, 2, MPI.FLOAT_COMPLEX, n - 1);
            check(FloatComplex.get(fb, 0).getReal() == 1.5f && FloatComplex.get(fb, 1).getImag() == -2f, "bcast");

            // SUM: (r+1) + r i summed over ranks
            final double[] mine = {rank + 1, rank};
            final double[] sum = new double[2];
            MPI.COMM_WORLD.allReduce(mine, sum, 1, MPI.DOUBLE_COMPLEX, MPI.SUM);
            check(sum[0] == n * (n + 1) / 2.0 && sum[1] == n * (n - 1) / 2.0, "complex SUM " + sum[0] + "," + sum[1]);

            // PROD: (1 + i)^n, and (r+1 + i) multiplied over ranks, exact in small integers
            final float[] onePlusI = {1, 1};
            final float[] p = new float[2];
            MPI.COMM_WORLD.allReduce(onePlusI, p, 1, MPI.FLOAT_COMPLEX, MPI.PROD);
            final float[][] powers = {{1, 1}, {0, 2}, {-2, 2}, {-4, 0}};
            check(p[0] == powers[n - 1][0] && p[1] == powers[n - 1][1], "(1+i)^" + n + " = " + p[0] + "," + p[1]);
            double er = 1;
            double ei = 0;
            for (int r = 0; r < n; r++)
            {
                final double nr = er * (r + 1) - ei;
                ei = er + ei * (r + 1);
                er = nr;
            }
            final double[] q = new double[2];
            MPI.COMM_WORLD.reduce(new double[] {rank + 1, 1}, q, 1, MPI.DOUBLE_COMPLEX, MPI.PROD, 0);
            check(rank != 0 || q[0] == er && q[1] == ei, "complex PROD at the root " + q[0] + "," + q[1] + " not "
                + er + "," + ei);
            final double[] q2 = new double[2];
            MPI.COMM_WORLD.iAllReduce(new double[] {rank + 1, 1}, q2, 1, MPI.DOUBLE_COMPLEX, MPI.PROD).waitFor();
            check(q2[0] == er && q2[1] == ei, "iAllReduce complex PROD");

            // a derived type of complex numbers is still multiplied as complex numbers
            final Datatype two = Datatype.createContiguous(2, MPI.DOUBLE_COMPLEX);
            two.commit();
            final double[] pair = new double[4];
            MPI.COMM_WORLD.allReduce(new double[] {rank + 1, 1, 1, 1}, pair, 1, two, MPI.PROD);
            check(pair[0] == er && pair[1] == ei, "PROD over a contiguous type of complex numbers");
            final float[] pw = powers[n - 1];
            check(pair[2] == pw[0] && pair[3] == pw[1], "second element of the contiguous type");

            // MAX is not defined on complex numbers
            MPI.COMM_WORLD.setErrhandler(MPI.ERRORS_RETURN);
            try
            {
                MPI.COMM_WORLD.allReduce(new double[2], new double[2], 1, MPI.DOUBLE_COMPLEX, MPI.MAX);
                check(false, "MAX on complex numbers was accepted");
            }
            catch (final MPIException e)
            {
                check(e.getErrorClass() == MPI.ERR_OP, "MAX on complex: error class " + e.getErrorClass());
            }
            MPI.Finalize();
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4})
    void complexValuesTravelAndReduce(final int n)
    {
        Job.run(n, Program.class);
    }
}
