package mpitest;

import static mpitest.Job.check;

import java.nio.ByteBuffer;
import java.nio.IntBuffer;
import java.util.concurrent.TimeUnit;

import mpi.Datatype;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** MPI_ALLTOALLW and MPI_IALLTOALLW: a datatype per peer, byte displacements. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class AllToAllwTest
{
    public static final class Program
    {
        /** Peer j is sent j+1 elements of type(j): ints for even j, doubles for odd j. */
        static Datatype type(final int j)
        {
            return j % 2 == 0 ? MPI.INT : MPI.DOUBLE;
        }

        static int size(final int j)
        {
            return j % 2 == 0 ? 4 : 8;
        }

        static int intValue(final int src, final int dst, final int k)
        {
            return 100_000 * src + 100 * dst + k;
        }

        static double doubleValue(final int src, final int dst, final int k)
        {
            return src + dst / 16.0 + k / 256.0;
        }

        public static void main(final String[] args) throws MPIException
        {
            MPI.Init(args);
            final int me = MPI.COMM_WORLD.getRank();
            final int n = MPI.COMM_WORLD.getSize();
            // send buffer: parts in reverse peer order with an 8-byte gap before each
            final int[] sendCount = new int[n];
            final int[] sDispls = new int[n];
            final Datatype[] sendTypes = new Datatype[n];
            int at = 0;
            for (int j = n - 1; j >= 0; j--)
            {
                at += 8;
                sendCount[j] = j + 1;
                sDispls[j] = at;
                sendTypes[j] = type(j);
                at += (j + 1) * size(j);
            }
            final ByteBuffer send = MPI.newByteBuffer(at);
            for (int j = 0; j < n; j++)
            {
                for (int k = 0; k <= j; k++)
                {
                    if (j % 2 == 0)
                    {
                        send.putInt(sDispls[j] + 4 * k, intValue(me, j, k));
                    }
                    else
                    {
                        send.putDouble(sDispls[j] + 8 * k, doubleValue(me, j, k));
                    }
                }
            }
            // receive: from every peer, me+1 elements of type(me), packed in peer order
            final int[] recvCount = new int[n];
            final int[] rDispls = new int[n];
            final Datatype[] recvTypes = new Datatype[n];
            for (int i = 0; i < n; i++)
            {
                recvCount[i] = me + 1;
                rDispls[i] = i * (me + 1) * size(me);
                recvTypes[i] = type(me);
            }
            for (final boolean nonBlocking : new boolean[] {false, true})
            {
                final ByteBuffer recv = MPI.newByteBuffer(n * (me + 1) * size(me) + 4);
                recv.putInt(recv.capacity() - 4, -7);
                if (nonBlocking)
                {
                    final Request r = MPI.COMM_WORLD.iAllToAllw(send, sendCount, sDispls, sendTypes, recv, recvCount,
                        rDispls, recvTypes);
                    while (!r.test())
                    {
                        // each test advances the schedule
                    }
                }
                else
                {
                    MPI.COMM_WORLD.allToAllw(send, sendCount, sDispls, sendTypes, recv, recvCount, rDispls, recvTypes);
                }
                final String how = nonBlocking ? "iAllToAllw" : "allToAllw";
                for (int i = 0; i < n; i++)
                {
                    for (int k = 0; k <= me; k++)
                    {
                        if (me % 2 == 0)
                        {
                            final int got = recv.getInt(rDispls[i] + 4 * k);
                            check(got == intValue(i, me, k), how + ": int " + k + " from " + i + " is " + got);
                        }
                        else
                        {
                            final double got = recv.getDouble(rDispls[i] + 8 * k);
                            check(got == doubleValue(i, me, k), how + ": double " + k + " from " + i + " is " + got);
                        }
                    }
                }
                check(recv.getInt(recv.capacity() - 4) == -7, how + " wrote past the parts");
            }

            // derived types per peer: send every other int of a vector, receive contiguous ints
            final IntBuffer src = MPI.newIntBuffer(2 * n * 2);
            for (int i = 0; i < src.capacity(); i++)
            {
                src.put(i, me * 1000 + i);
            }
            final Datatype everyOther = Datatype.createVector(2, 1, 2, MPI.INT);
            everyOther.commit();
            final Datatype[] vec = new Datatype[n];
            final Datatype[] ints = new Datatype[n];
            final int[] one = new int[n];
            final int[] two = new int[n];
            final int[] sd = new int[n];
            final int[] rd = new int[n];
            for (int j = 0; j < n; j++)
            {
                vec[j] = everyOther;
                ints[j] = MPI.INT;
                one[j] = 1;
                two[j] = 2;
                sd[j] = 4 * 4 * j;
                rd[j] = 4 * 2 * j;
            }
            final IntBuffer dst = MPI.newIntBuffer(2 * n);
            MPI.COMM_WORLD.allToAllw(src, one, sd, vec, dst, two, rd, ints);
            for (int i = 0; i < n; i++)
            {
                check(dst.get(2 * i) == i * 1000 + 4 * me && dst.get(2 * i + 1) == i * 1000 + 4 * me + 2,
                    "vector part from " + i + ": " + dst.get(2 * i) + "," + dst.get(2 * i + 1));
            }

            // a displacement that is not a whole int of an IntBuffer is refused
            MPI.COMM_WORLD.setErrhandler(MPI.ERRORS_RETURN);
            final int[] bad = rd.clone();
            bad[0] = 2;
            try
            {
                MPI.COMM_WORLD.allToAllw(src, one, sd, vec, dst, two, bad, ints);
                check(false, "a displacement of 2 bytes into an IntBuffer was accepted");
            }
            catch (final MPIException e)
            {
                check(e.getErrorClass() == MPI.ERR_ARG, "bad displacement: error class " + e.getErrorClass());
            }
            MPI.Finalize();
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4})
    void mixedTypesArriveWhereTheByteDisplacementsSay(final int n)
    {
        Job.run(n, Program.class);
    }
}
