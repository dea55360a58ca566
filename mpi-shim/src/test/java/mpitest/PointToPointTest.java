package mpitest;

import static mpitest.Job.check;

import java.nio.IntBuffer;
import java.util.concurrent.TimeUnit;

import mpi.MPI;
import mpi.MPIException;
import mpi.Request;
import mpi.Status;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class PointToPointTest
{
    /** Ring exchanges, wildcards, ordering, probes, PROC_NULL, non-blocking calls with arrays and direct buffers. */
    public static final class Ring
    {
        /** A C global: each rank has its own (per-rank class loading), as each MPI process had. */
        private static int starts;

        public static void main(final String[] args) throws MPIException
        {
            starts++;
            MPI.Init(args);
            check(starts == 1, "static field shared between ranks: " + starts);
            check(MPI.isInitialized(), "isInitialized");
            final int rank = MPI.COMM_WORLD.getRank();
            final int size = MPI.COMM_WORLD.getSize();
            check(size == Integer.parseInt(args[0]), "size " + size);
            final int right = (rank + 1) % size;
            final int left = (rank - 1 + size) % size;

            // sendRecv around the ring
            final int[] out = {rank, rank * 10};
            final int[] in = new int[2];
            final Status s = MPI.COMM_WORLD.sendRecv(out, 2, MPI.INT, right, 7, in, 2, MPI.INT, left, 7);
            check(in[0] == left && in[1] == left * 10, "sendRecv got " + in[0]);
            check(s.getSource() == left && s.getTag() == 7 && s.getCount(MPI.INT) == 2, "status " + s);

            // ordering: 20 messages of one sender with ANY_TAG arrive in the order sent
            if (size > 1)
            {
                if (rank == 0)
                {
                    for (int i = 0; i < 20; i++)
                    {
                        MPI.COMM_WORLD.send(new long[] {i}, 1, MPI.LONG, 1, i % 3);
                    }
                }
                else if (rank == 1)
                {
                    final long[] v = new long[1];
                    for (int i = 0; i < 20; i++)
                    {
                        final Status st = MPI.COMM_WORLD.recv(v, 1, MPI.LONG, MPI.ANY_SOURCE, MPI.ANY_TAG);
                        check(v[0] == i && st.getTag() == i % 3 && st.getSource() == 0, "message " + i + " got " + v[0]);
                    }
                }
            }

            // ANY_SOURCE gather by hand at rank 0 with iRecv (arrays) and waitAll
            if (rank == 0)
            {
                final int[][] got = new int[size][1];
                final Request[] r = new Request[size - 1];
                for (int i = 1; i < size; i++)
                {
                    r[i - 1] = MPI.COMM_WORLD.iRecv(got[i], 1, MPI.INT, MPI.ANY_SOURCE, 3);
                }
                final Status[] st = Request.waitAllStatus(r);
                final boolean[] seen = new boolean[size];
                for (int i = 1; i < size; i++)
                {
                    check(got[i][0] == st[i - 1].getSource() * 100, "from " + st[i - 1].getSource() + " got " + got[i][0]);
                    seen[st[i - 1].getSource()] = true;
                }
                for (int i = 1; i < size; i++)
                {
                    check(seen[i], "no message from " + i);
                }
            }
            else
            {
                final IntBuffer b = MPI.newIntBuffer(1);
                b.put(0, rank * 100);
                MPI.COMM_WORLD.iSend(b, 1, MPI.INT, 0, 3).waitFor();
            }

            // probe then receive of the probed size; iProbe is null when nothing waits
            check(MPI.COMM_WORLD.iProbe(MPI.ANY_SOURCE, 99) == null, "iProbe found a message");
            MPI.COMM_WORLD.send(new double[] {1.5, 2.5, rank}, 3, MPI.DOUBLE, right, 11);
            final Status p = MPI.COMM_WORLD.probe(MPI.ANY_SOURCE, 11);
            check(p.getSource() == left && p.getCount(MPI.DOUBLE) == 3, "probe " + p);
            final double[] d = new double[p.getCount(MPI.DOUBLE)];
            MPI.COMM_WORLD.recv(d, d.length, MPI.DOUBLE, p.getSource(), 11);
            check(d[2] == left, "probed message");

            // PROC_NULL: returns at once with source PROC_NULL and count 0
            final Status n = MPI.COMM_WORLD.recv(new int[1], 1, MPI.INT, MPI.PROC_NULL, 0);
            check(n.getSource() == MPI.PROC_NULL && n.getCount(MPI.INT) == 0, "PROC_NULL status " + n);
            MPI.COMM_WORLD.send(new int[1], 1, MPI.INT, MPI.PROC_NULL, 0);

            // a big message (pulled by the receiver) and a synchronous one, test() polling to completion
            final byte[] big = new byte[100_000];
            final byte[] bigIn = new byte[100_000];
            for (int i = 0; i < big.length; i++)
            {
                big[i] = (byte)(i * 7 + rank);
            }
            final Request rr = MPI.COMM_WORLD.iRecv(bigIn, bigIn.length, MPI.BYTE, left, 5);
            final Request sr = MPI.COMM_WORLD.iSSend(big, big.length, MPI.BYTE, right, 5);
            while (!rr.test())
            {
                // polling makes simulated time pass
            }
            sr.waitFor();
            for (int i = 0; i < bigIn.length; i++)
            {
                check(bigIn[i] == (byte)(i * 7 + left), "big message byte " + i);
            }
            // waitAny
            final Request[] two = {MPI.COMM_WORLD.iRecv(new int[1], 1, MPI.INT, left, 6),
                MPI.COMM_WORLD.iSend(new int[] {1}, 1, MPI.INT, right, 6)};
            final int first = Request.waitAny(two);
            check(first == 0 || first == 1, "waitAny " + first);
            Request.waitAll(two);
            final double t = MPI.wtime();
            check(t > 0 && MPI.wtick() == 1e-9, "wtime " + t);
            MPI.Finalize();
            check(MPI.isFinalized(), "finalized");
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4, 8, 16})
    void shouldExchangeAroundTheRing(final int n)
    {
        Job.run(n, Ring.class, Integer.toString(n));
    }
}
