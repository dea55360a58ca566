package mpitest;

import static mpitest.Job.check;

import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;

import mpi.CartComm;
import mpi.Comm;
import mpi.Datatype;
import mpi.GraphComm;
import mpi.Group;
import mpi.Intercomm;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Prequest;
import mpi.ShiftParms;
import mpi.Status;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class CommunicatorTest
{
    /** dup, split, create, groups, Cartesian and graph topologies, intercommunicators. */
    public static final class Comms
    {
        public static void main(final String[] args) throws MPIException
        {
            MPI.Init(args);
            final int rank = MPI.COMM_WORLD.getRank();
            final int n = MPI.COMM_WORLD.getSize();
            // dup: same group, separate traffic
            final Intracomm dup = MPI.COMM_WORLD.dup();
            check(Comm.compare(dup, MPI.COMM_WORLD) == MPI.CONGRUENT, "dup compares CONGRUENT");
            check(Comm.compare(MPI.COMM_WORLD, MPI.COMM_WORLD) == MPI.IDENT, "IDENT");
            final int right = (rank + 1) % n;
            final int left = (rank - 1 + n) % n;
            // the same tag on two communicators: each receive gets its own communicator's message
            MPI.COMM_WORLD.iSend(new int[] {1}, 1, MPI.INT, right, 0);
            dup.iSend(new int[] {2}, 1, MPI.INT, right, 0);
            final int[] x = new int[1];
            dup.recv(x, 1, MPI.INT, left, 0);
            check(x[0] == 2, "dup message " + x[0]);
            MPI.COMM_WORLD.recv(x, 1, MPI.INT, left, 0);
            check(x[0] == 1, "world message " + x[0]);
            // split into thirds, reversed order
            final Intracomm third = MPI.COMM_WORLD.split(rank % 3, n - rank);
            final int members = (n - rank % 3 + 2) / 3;
            check(third.getSize() == members, "split size " + third.getSize() + " != " + members);
            final int[] sum = new int[1];
            third.allReduce(new int[] {rank}, sum, 1, MPI.INT, MPI.SUM);
            int expect = 0;
            for (int r = rank % 3; r < n; r += 3)
            {
                expect += r;
            }
            check(sum[0] == expect, "split allReduce " + sum[0]);
            check(third.getRank() == members - 1 - rank / 3, "split rank by key");
            // UNDEFINED colour
            final Intracomm none = MPI.COMM_WORLD.split(rank == 0 ? MPI.UNDEFINED : 1, 0);
            check(rank == 0 ? none.isNull() : none.getSize() == n - 1, "UNDEFINED colour");
            // groups
            final Group world = MPI.COMM_WORLD.getGroup();
            final Group evens = world.incl(evens(n));
            final Group odds = Group.difference(world, evens);
            check(evens.size() + odds.size() == n, "group sizes");
            check(Group.compare(Group.union(evens, odds), world) == (n <= 2 ? MPI.IDENT : MPI.SIMILAR), "union");
            check(Group.intersection(evens, odds).size() == 0, "intersection");
            final int[] tr = Group.translateRanks(world, new int[] {0, n - 1}, evens);
            check(tr[0] == 0 && tr[1] == ((n - 1) % 2 == 0 ? (n - 1) / 2 : MPI.UNDEFINED), "translateRanks");
            check(world.excl(new int[] {0}).size() == n - 1, "excl");
            final Intracomm ev = MPI.COMM_WORLD.create(evens);
            check(rank % 2 == 0 ? ev.getRank() == rank / 2 : ev.isNull(), "create");
            if (rank % 2 == 0)
            {
                ev.barrier();
            }
            // Cartesian topology
            final int[] dims = new int[2];
            CartComm.createDims(n, dims);
            check(dims[0] * dims[1] == n && dims[0] >= dims[1], "createDims " + dims[0] + "x" + dims[1]);
            final CartComm cart = MPI.COMM_WORLD.createCart(dims, new boolean[] {true, false}, false);
            check(cart.getTopology() == MPI.CART, "CART");
            final int[] co = cart.getCoords(rank);
            check(cart.getRank(co) == rank, "coords round trip");
            final ShiftParms sh = cart.shift(0, 1);
            final int[] got = new int[1];
            cart.sendRecv(new int[] {rank}, 1, MPI.INT, sh.getRankDest(), 0, got, 1, MPI.INT, sh.getRankSource(), 0);
            check(got[0] == sh.getRankSource(), "cart shift exchange");
            final ShiftParms edge = cart.shift(1, 1);
            check(co[1] < dims[1] - 1 || edge.getRankDest() == MPI.PROC_NULL, "non-periodic edge");
            final CartComm row = cart.sub(new boolean[] {false, true});
            check(row.getSize() == dims[1], "sub size");
            // graph: a ring
            final int[] index = new int[n];
            final int[] edges = new int[n];
            for (int i = 0; i < n; i++)
            {
                index[i] = i + 1;
                edges[i] = (i + 1) % n;
            }
            final GraphComm g = MPI.COMM_WORLD.createGraph(index, edges, false);
            check(g.getNeighbors(rank)[0] == right && g.getDims().getEdgeCount() == n, "graph");
            // intercommunicator between the even and the odd ranks
            if (n >= 2)
            {
                final Intracomm side = MPI.COMM_WORLD.split(rank % 2, rank);
                final Intercomm inter = MPI.COMM_WORLD.createIntercomm(side, 0, rank % 2 == 0 ? 1 : 0, 42);
                check(inter.isInter() && inter.getRemoteSize() == (rank % 2 == 0 ? n / 2 : (n + 1) / 2), "intercomm");
                final int peer = side.getRank() % inter.getRemoteSize();
                if (rank % 2 == 0)
                {
                    inter.send(new int[] {rank}, 1, MPI.INT, peer, 1);
                }
                else
                {
                    int expectMsgs = 0;
                    for (int e = 0; e < (n + 1) / 2; e++)
                    {
                        expectMsgs += e % (n / 2) == side.getRank() ? 1 : 0;
                    }
                    for (int k = 0; k < expectMsgs; k++)
                    {
                        final Status st = inter.recv(x, 1, MPI.INT, MPI.ANY_SOURCE, 1);
                        check(x[0] == 2 * st.getSource(), "intercomm message from " + st.getSource());
                    }
                }
                inter.setErrhandler(MPI.ERRORS_RETURN);
                inter.barrier();
                try
                {
                    // MPI_IN_PLACE is not allowed on an intercommunicator
                    inter.allGather(new int[2 * n], 1, MPI.INT);
                    check(false, "in-place allGather on an intercommunicator");
                }
                catch (final MPIException e)
                {
                    check(e.getErrorClass() == MPI.ERR_COMM, "intercomm in-place error class " + e.getErrorClass());
                }
                final Intercomm interDup = inter.dup();
                check(interDup.getRemoteSize() == inter.getRemoteSize(), "intercomm dup");
                if (rank % 2 == 0)
                {
                    interDup.send(new int[] {rank + 1}, 1, MPI.INT, peer, 2);
                }
                else
                {
                    int expectMsgs = 0;
                    for (int e = 0; e < (n + 1) / 2; e++)
                    {
                        expectMsgs += e % (n / 2) == side.getRank() ? 1 : 0;
                    }
                    for (int k = 0; k < expectMsgs; k++)
                    {
                        final Status st = interDup.recv(x, 1, MPI.INT, MPI.ANY_SOURCE, MPI.ANY_TAG);
                        check(x[0] == 2 * st.getSource() + 1 && st.getTag() == 2, "intercomm dup message");
                    }
                }
                final Intracomm merged = inter.merge(rank % 2 == 1);
                check(merged.getSize() == n, "merge size");
                final int[] ms = new int[1];
                merged.allReduce(new int[] {merged.getRank()}, ms, 1, MPI.INT, MPI.SUM);
                check(ms[0] == n * (n - 1) / 2, "merged allReduce");
                check(merged.getRank() == (rank % 2 == 0 ? rank / 2 : (n + 1) / 2 + rank / 2), "merge order " + merged.getRank());
            }
            MPI.Finalize();
        }

        private static int[] evens(final int n)
        {
            final int[] e = new int[(n + 1) / 2];
            for (int i = 0; i < e.length; i++)
            {
                e[i] = 2 * i;
            }
            return e;
        }
    }

    /** Derived datatypes, persistent requests and buffered sends. */
    public static final class Types
    {
        public static void main(final String[] args) throws MPIException
        {
            MPI.Init(args);
            final int rank = MPI.COMM_WORLD.getRank();
            final int n = MPI.COMM_WORLD.getSize();
            final int right = (rank + 1) % n;
            final int left = (rank - 1 + n) % n;
            // a column of a 4x4 matrix (vector), sent into a contiguous array
            final Datatype column = Datatype.createVector(4, 1, 4, MPI.DOUBLE);
            column.commit();
            check(column.getSize() == 4 && column.getExtent() == 13, "vector size/extent " + column.getExtent());
            final double[] m = new double[16];
            for (int i = 0; i < 16; i++)
            {
                m[i] = 100 * rank + i;
            }
            final double[] col = new double[4];
            MPI.COMM_WORLD.sendRecv(m, 1, column, right, 0, col, 4, MPI.DOUBLE, left, 0);
            for (int i = 0; i < 4; i++)
            {
                check(col[i] == 100 * left + 4 * i, "column element " + i);
            }
            // indexed: elements 1, 2 and 7 of an int array, received into the same places
            final Datatype idx = Datatype.createIndexed(new int[] {2, 1}, new int[] {1, 7}, MPI.INT);
            idx.commit();
            final int[] a = new int[8];
            for (int i = 0; i < 8; i++)
            {
                a[i] = rank * 10 + i;
            }
            final int[] b = new int[8];
            final Status st = MPI.COMM_WORLD.sendRecv(a, 1, idx, right, 1, b, 1, idx, left, 1);
            check(b[1] == left * 10 + 1 && b[2] == left * 10 + 2 && b[7] == left * 10 + 7 && b[0] == 0 && b[3] == 0,
                "indexed");
            check(st.getCount(idx) == 1 && st.getElements(idx) == 3, "indexed count/elements");
            // contiguous of a vector, and a struct in a ByteBuffer
            final Datatype two = Datatype.createContiguous(2, MPI.INT);
            two.commit();
            final int[] c = new int[4];
            MPI.COMM_WORLD.sendRecv(new int[] {rank, 1, 2, 3}, 2, two, right, 2, c, 2, two, left, 2);
            check(c[0] == left && c[3] == 3, "contiguous");
            final Datatype st2 = Datatype.createStruct(new int[] {1, 2}, new int[] {0, 8}, new Datatype[] {MPI.DOUBLE, MPI.INT});
            st2.commit();
            final ByteBuffer sb = MPI.newByteBuffer(16);
            sb.putDouble(0, rank + 0.25).putInt(8, rank).putInt(12, -rank);
            final ByteBuffer rb = MPI.newByteBuffer(16);
            MPI.COMM_WORLD.sendRecv(sb, 1, st2, right, 3, rb, 1, st2, left, 3);
            check(rb.getDouble(0) == left + 0.25 && rb.getInt(8) == left && rb.getInt(12) == -left, "struct");
            // persistent requests, started three times
            final int[] out = new int[1];
            final int[] in = new int[1];
            final Prequest ps = MPI.COMM_WORLD.sendInit(out, 1, MPI.INT, right, 4);
            final Prequest pr = MPI.COMM_WORLD.recvInit(in, 1, MPI.INT, left, 4);
            for (int round = 0; round < 3; round++)
            {
                out[0] = rank * 1000 + round;
                Prequest.startAll(new Prequest[] {pr, ps});
                pr.waitFor();
                ps.waitFor();
                check(in[0] == left * 1000 + round, "persistent round " + round);
            }
            // an inactive persistent request can be cancelled
            final Prequest idle = MPI.COMM_WORLD.recvInit(in, 1, MPI.INT, left, 5);
            idle.cancel();
            check(idle.waitStatus().isCancelled(), "cancelled");
            // buffered sends
            // buffered sends: a 100-byte buffer holds one message of 4 ints at a time (+ BSEND_OVERHEAD)
            MPI.attachBuffer(new byte[16 + MPI.BSEND_OVERHEAD + 50]);
            for (int k = 0; k < 5; k++)
            {
                MPI.COMM_WORLD.bSend(new int[] {rank, k, 0, 0}, 4, MPI.INT, right, 6);
                final int[] q = new int[4];
                MPI.COMM_WORLD.recv(q, 4, MPI.INT, left, 6);
                check(q[0] == left && q[1] == k, "bSend " + k);
            }
            MPI.COMM_WORLD.setErrhandler(MPI.ERRORS_RETURN);
            try
            {
                MPI.COMM_WORLD.bSend(new int[30], 30, MPI.INT, right, 7);
                check(false, "a bSend larger than the attached buffer");
            }
            catch (final MPIException e)
            {
                check(e.getErrorClass() == MPI.ERR_BUFFER, "bSend overflow error class " + e.getErrorClass());
            }
            MPI.detachBuffer();
            MPI.Finalize();
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4, 8, 16})
    void shouldCreateCommunicatorsGroupsAndTopologies(final int n)
    {
        Job.run(n, Comms.class);
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 3, 4})
    void shouldCarryDerivedDatatypesAndPersistentRequests(final int n)
    {
        Job.run(n, Types.class);
    }
}
