package mpitest;

import static mpitest.Job.check;

import java.nio.IntBuffer;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import mpi.CartComm;
import mpi.CartParms;
import mpi.Comm;
import mpi.Datatype;
import mpi.Group;
import mpi.Intercomm;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Message;
import mpi.Op;
import mpi.Request;
import mpi.ShiftParms;
import mpi.Status;
import mpi.UserFunction;
import mpi.Win;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.qsnet.elan3.Prun;
import org.qsnet.fabric.machine.PlatformProfile;

/**
 * The third outside conformance round for the MPI layer: programs written from the Open MPI Java
 * bindings' documentation ({@code ompi/mpi/java/java/*.java}) and the MPI rules they cite, launched as
 * {@code prun} launches a job, aimed at what rounds 1 and 2 did not call. Each scenario's ranks check
 * what they see and throw when it differs (which fails the job):
 * <ul>
 * <li>{@code sendrecv}: {@code sendRecv} with different send and receive types, {@code sendRecvReplace}
 * around a ring (small and 800 KB) and along a line whose ends talk to {@code PROC_NULL};</li>
 * <li>{@code mprobe}: a message matched by {@code Message.mProbe}/{@code imProbe} belongs to that
 * message handle: no later receive may take it (MPI 3.1 §3.8.2), and {@code mRecv} gets exactly
 * it, small or large; a probe of PROC_NULL gives {@code MPI_MESSAGE_NO_PROC};</li>
 * <li>{@code order}: non-overtaking between a pair of ranks through ANY_SOURCE/ANY_TAG receives,
 * for sizes crossing the eager/rendezvous boundary (0 B to 1 MB) from several senders;</li>
 * <li>{@code truncate}: a message longer than the receive buffer is {@code MPI_ERR_TRUNCATE}, for
 * blocking and nonblocking receives and {@code mRecv}/{@code imRecv}, small, synchronous and large;
 * the refused message's sender still completes and the pair keeps working after;
 * {@code getCount}/{@code getElements} of a partial derived-type receive;</li>
 * <li>{@code groups}: {@code Group} incl/excl/rangeIncl/rangeExcl/translateRanks/compare/union/
 * intersection/difference, {@code Comm.compare}, {@code create} ({@code createGroup} has its own
 * {@link CreateGroupTest});</li>
 * <li>{@code intercomm}: {@code createIntercomm} between the even and odd ranks, point-to-point, a
 * matched probe and a rooted broadcast across it, {@code merge} with high/low ordering;</li>
 * <li>{@code vcoll}: {@code allGatherv}/{@code allToAllv} with displacements in reverse order and
 * gaps, {@code reduceScatterBlock}, {@code scan} with a non-commutative user operation over a
 * derived type;</li>
 * <li>{@code nbc-mixed}: {@code iBcast}/{@code iAllReduce} in flight while point-to-point traffic
 * with the same tags goes on;</li>
 * <li>{@code win}: RMA fence epochs (put/get), exclusive-lock accumulate from every rank, and
 * {@code flush}.</li>
 * <li>{@code inherit}: communicators made by dup, split, create, createCart, createIntercomm and
 * merge inherit their parent's {@code ERRORS_RETURN} (MPI 3.1 §8.3); the errors name the value.</li>
 * <li>{@code cart}: {@code createDims} with fixed entries and its refusals, a grid periodic in one
 * dimension (getTopo, getCoords, wrapping getRank, shift by -2 and 3, a halo sendRecv with PROC_NULL,
 * sub), a grid smaller than the communicator, one larger;</li>
 * <li>{@code dtypes}: vector count 2 (extent, not size, between elements), resized vectors
 * overlapping, indexed/hindexed/indexed-block receives, the resized-column scatter and gather,
 * {@code dup}.</li>
 * <li>{@code ops}: LXOR/LAND over booleans, BXOR over longs (high bits), PROD of floats at the last
 * rank, MINLOC/MAXLOC ties over {@code MPI_2INT} pairs (lowest index wins), ERR_OP for BXOR over
 * doubles;</li>
 * <li>{@code win-rmw}: get-flush-put increments under exclusive locks lose no update.</li>
 * <li>{@code waitall-error}: {@code waitAll} and {@code waitSome} over receives one of which is
 * truncated.</li>
 * <li>{@code inplace}, {@code self}: the MPI_IN_PLACE overloads; messages to oneself and COMM_SELF.</li>
 * <li>{@code bad-args}: group, datatype, operator and communicator refusals the earlier rounds did not
 * make.</li>
 * </ul>
 *
 * <p>Defects found and fixed: a message matched by {@code mProbe}/{@code imProbe} stayed matchable, so
 * the next {@code recv} for that sender and tag took it and {@code mRecv} got the following message
 * (or hung when there was none); a large or synchronous message whose receive was too short
 * ({@code MPI_ERR_TRUNCATE} at the receiver) never completed at its sender (the job deadlocked, fixed
 * in Tports); {@code CartComm.createDims} accepted a negative entry (overwriting it) and
 * {@code getRank} of too few coordinates threw {@code ArrayIndexOutOfBoundsException}, not an
 * {@code MPIException} naming the rule; {@code Request.waitAll} stopped at the first failed request,
 * throwing its own class (MPI_ERR_TRUNCATE) and leaving the requests after it uncompleted — their data
 * not delivered into the program's buffers — where MPI_WAITALL completes every request and reports
 * MPI_ERR_IN_STATUS; {@code waitSome}/{@code testSome} likewise threw the failed request's own class;
 * a job one of whose ranks failed while the others waited in {@code barrier} never ended (the
 * hardware barrier's test was retried for ever; fixed in the fabric's DMA engine);
 * {@code Datatype.createVector(65536, 65536, ...)} overflowed its element count and threw
 * {@code ArrayIndexOutOfBoundsException}; {@code MPI.SUM.free()} was accepted silently (freeing a
 * predefined operator is erroneous: MPI_ERR_OP); freeing COMM_WORLD was refused without naming it; a
 * send whose type starts before the buffer (a negative displacement) was refused with a wrong reason
 * ("needs 0 elements but buf holds 4").
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class OutsideRound3Test
{
    public static final class Program
    {
        static int rank;
        static int size;
        static Intracomm world;

        public static void main(final String[] args) throws MPIException
        {
            MPI.Init(args);
            world = MPI.COMM_WORLD;
            rank = world.getRank();
            size = world.getSize();
            switch (args[0])
            {
                case "sendrecv" -> sendRecv();
                case "mprobe" -> mprobe();
                case "order" -> order();
                case "truncate" -> truncate();
                case "groups" -> groups();
                case "intercomm" -> intercomm();
                case "vcoll" -> vcoll();
                case "nbc-mixed" -> nbcMixed();
                case "win" -> win();
                case "inherit" -> inherit();
                case "cart" -> cart();
                case "dtypes" -> dtypes();
                case "ops" -> ops();
                case "win-rmw" -> winRmw();
                case "waitall-error" -> waitAllError();
                case "inplace" -> inPlace();
                case "self" -> self();
                case "bad-args" -> badArgs();
                case "fail-in-barrier" -> {
                    if (rank == 1)
                    {
                        throw new IllegalStateException("rank 1 fails on purpose");
                    }
                }
                default -> throw new IllegalArgumentException(args[0]);
            }
            world.barrier();
            MPI.Finalize();
        }

        static void ok(final boolean b, final String what)
        {
            check(b, "rank " + rank + ": " + what);
        }

        // ------------------------------------------------------------------ sendRecv

        static void sendRecv() throws MPIException
        {
            final int right = (rank + 1) % size;
            final int left = (rank + size - 1) % size;
            final Datatype triple = Datatype.createContiguous(3, MPI.INT);
            triple.commit();
            final int[] out = {rank, rank * 10, rank * 100};
            final int[] in = new int[6];
            Arrays.fill(in, -1);
            final Status s = world.sendRecv(out, 3, MPI.INT, right, 4, in, 2, triple, left, 4);
            ok(s.getSource() == left && s.getTag() == 4 && s.getCount(triple) == 1 && s.getCount(MPI.INT) == 3,
                "sendRecv status " + s);
            ok(in[0] == left && in[1] == left * 10 && in[2] == left * 100 && in[3] == -1, "sendRecv got " + Arrays.toString(in));

            // replace around the ring, small then large: after size steps everyone has its own data back
            for (final int n : new int[] {5, 100_000})
            {
                final double[] b = new double[n];
                for (int i = 0; i < n; i++)
                {
                    b[i] = rank * 1e6 + i;
                }
                for (int step = 1; step <= size; step++)
                {
                    final Status r = world.sendRecvReplace(b, n, MPI.DOUBLE, right, 7, left, 7);
                    ok(r.getSource() == left && r.getCount(MPI.DOUBLE) == n, "sendRecvReplace status " + r);
                    final int from = ((rank - step) % size + size) % size;
                    ok(b[0] == from * 1e6 && b[n - 1] == from * 1e6 + n - 1, n + " doubles, step " + step + ": b[0] = " + b[0]
                        + ", expected rank " + from + "'s data");
                }
            }

            // replace through a strided type: only the strided elements change
            final Datatype every2 = Datatype.createVector(3, 1, 2, MPI.INT);
            every2.commit();
            final int[] st = {rank, -1, rank + 10, -2, rank + 20, -3};
            world.sendRecvReplace(st, 1, every2, right, 8, left, 8);
            ok(Arrays.equals(st, new int[] {left, -1, left + 10, -2, left + 20, -3}), "strided sendRecvReplace "
                + Arrays.toString(st));
            // a line: the ends exchange with PROC_NULL
            final int up = rank == size - 1 ? MPI.PROC_NULL : rank + 1;
            final int down = rank == 0 ? MPI.PROC_NULL : rank - 1;
            final int[] x = {rank + 1000, rank + 2000};
            final Status r = world.sendRecvReplace(x, 2, MPI.INT, up, 9, down, 9);
            if (down == MPI.PROC_NULL)
            {
                ok(r.getSource() == MPI.PROC_NULL && r.getTag() == MPI.ANY_TAG && r.getCount(MPI.INT) == 0,
                    "sendRecvReplace from PROC_NULL: status " + r);
                ok(x[0] == 1000 && x[1] == 2000, "sendRecvReplace from PROC_NULL changed the buffer: " + Arrays.toString(x));
            }
            else
            {
                ok(r.getSource() == down && x[0] == down + 1000 && x[1] == down + 2000, "line replace: " + r + " "
                    + Arrays.toString(x));
            }
        }

        // ------------------------------------------------------------------ matched probe

        /** 3 ranks: ranks 1 and 2 send rank 0 two messages each (tag 5); rank 0 matches with mProbe. */
        static void mprobe() throws MPIException
        {
            if (rank == 0)
            {
                world.barrier(); // the senders' messages are on their way
                final Message none = new Message();
                ok(none.isNull(), "a new Message is not MESSAGE_NULL");
                // wait until rank 1's first message is here, and hold it
                final Message m = new Message();
                final Status ps = m.mProbe(1, 5, world);
                ok(ps.getSource() == 1 && ps.getTag() == 5 && ps.getCount(MPI.INT) == 4, "mProbe status " + ps);
                ok(!m.isNull() && !m.isNoProc(), "matched message is null or NO_PROC");
                // the held message is no longer matchable: a receive for (1, 5) gets rank 1's second message
                final int[] b = new int[4];
                final Status rs = world.recv(b, 4, MPI.INT, 1, 5);
                ok(b[0] == 1 && b[1] == 2, "a receive posted after mProbe got message " + b[0] + " of rank " + b[1]
                    + ", expected rank 1's second (the first is held by the Message)");
                ok(rs.getSource() == 1, "recv status " + rs);
                // a probe does not see a held message either
                final Status again = world.iProbe(1, 5);
                ok(again == null, "iProbe after mProbe and recv still saw a message from rank 1: " + again);
                final int[] c = new int[4];
                final Status ms = m.mRecv(c, 4, MPI.INT);
                ok(c[0] == 0 && c[1] == 1 && ms.getSource() == 1 && ms.getTag() == 5, "mRecv got message " + c[0]
                    + " of rank " + c[1] + " status " + ms + ", expected rank 1's first");
                ok(m.isNull(), "after mRecv the Message is not MESSAGE_NULL");

                // imProbe with ANY_SOURCE holds one of rank 2's messages (the first), then an ANY_SOURCE recv gets the second
                Status is;
                final Message m2 = new Message();
                while ((is = m2.imProbe(MPI.ANY_SOURCE, MPI.ANY_TAG, world)) == null)
                {
                    world.iProbe(2, 99);
                }
                ok(is.getSource() == 2 && is.getCount(MPI.INT) == 25_000, "imProbe status " + is);
                final int[] big2 = new int[25_000];
                final Status r2 = world.recv(big2, 25_000, MPI.INT, MPI.ANY_SOURCE, MPI.ANY_TAG);
                ok(big2[0] == 1 && big2[24_999] == 1 && r2.getSource() == 2, "ANY_SOURCE recv after imProbe got message "
                    + big2[0] + " (expected rank 2's second)");
                final int[] big1 = new int[25_000];
                final Request q = m2.imRecv(big1, 25_000, MPI.INT);
                final Status qs = q.waitStatus();
                ok(big1[0] == 0 && big1[24_999] == 0 && qs.getCount(MPI.INT) == 25_000, "imRecv got message " + big1[0]
                    + " (expected rank 2's first)");

                // probing PROC_NULL: MESSAGE_NO_PROC, received at once with an empty status
                final Message np = new Message();
                final Status ns = np.mProbe(MPI.PROC_NULL, 5, world);
                ok(ns.getSource() == MPI.PROC_NULL && np.isNoProc(), "mProbe(PROC_NULL) " + ns);
                final Status nr = np.mRecv(new int[1], 1, MPI.INT);
                ok(nr.getSource() == MPI.PROC_NULL && nr.getCount(MPI.INT) == 0, "mRecv of NO_PROC " + nr);
                ok(new Message().imProbe(MPI.ANY_SOURCE, MPI.ANY_TAG, world) == null, "a message is left over");
            }
            else
            {
                if (rank == 1)
                {
                    world.send(new int[] {0, 1, 0, 0}, 4, MPI.INT, 0, 5);
                    world.send(new int[] {1, 2, 0, 0}, 4, MPI.INT, 0, 5);
                }
                else
                {
                    final int[] a = new int[25_000];
                    final int[] b = new int[25_000];
                    Arrays.fill(b, 1);
                    final Request r1 = world.iSend(a, a.length, MPI.INT, 0, 6);
                    final Request r2 = world.iSend(b, b.length, MPI.INT, 0, 7);
                    world.barrier();
                    Request.waitAll(new Request[] {r1, r2});
                    return;
                }
                world.barrier();
            }
        }

        // ------------------------------------------------------------------ non-overtaking

        static final int[] SIZES = {1, 40_000, 0, 75, 300_000, 2, 16_384, 0, 1_000};

        static void order() throws MPIException
        {
            if (rank == 0)
            {
                final int[] next = new int[size];
                final int[] buf = new int[300_001];
                final int total = (size - 1) * SIZES.length;
                for (int k = 0; k < total; k++)
                {
                    Arrays.fill(buf, 0, 4, -7);
                    final Status s = world.recv(buf, buf.length, MPI.INT, MPI.ANY_SOURCE, MPI.ANY_TAG);
                    final int src = s.getSource();
                    final int i = next[src]++;
                    final int n = SIZES[i] + 1;
                    ok(s.getTag() == 100 + i % 3, "message " + i + " from " + src + " has tag " + s.getTag());
                    ok(s.getCount(MPI.INT) == n, "message " + i + " from " + src + ": count " + s.getCount(MPI.INT) + ", expected " + n
                        + " (overtaken?)");
                    ok(buf[0] == i && (n == 1 || buf[n - 1] == src * 1_000_000 + i), "message " + i + " from " + src + " holds seq " + buf[0]
                        + " / " + buf[n - 1]);
                }
            }
            else
            {
                final Request[] r = new Request[SIZES.length];
                for (int i = 0; i < SIZES.length; i++)
                {
                    final int[] b = new int[SIZES[i] + 1];
                    Arrays.fill(b, src(i));
                    b[0] = i;
                    r[i] = world.iSend(b, b.length, MPI.INT, 0, 100 + i % 3);
                }
                Request.waitAll(r);
            }
        }

        static int src(final int i)
        {
            return rank * 1_000_000 + i;
        }

        // ------------------------------------------------------------------ truncation

        static void truncate() throws MPIException
        {
            world.setErrhandler(MPI.ERRORS_RETURN);
            if (rank == 0)
            {
                final int[] small = new int[10];
                Arrays.fill(small, 3);
                final int[] big = new int[50_000];
                Arrays.fill(big, 4);
                world.send(small, 10, MPI.INT, 1, 1);
                world.send(big, big.length, MPI.INT, 1, 2);
                world.send(small, 10, MPI.INT, 1, 3);
                world.send(big, big.length, MPI.INT, 1, 4);
                world.sSend(small, 10, MPI.INT, 1, 7); // returns once matched, though the match is refused
                world.send(new int[] {8, 8, 8, 8, 8, 8, 8, 8}, 8, MPI.INT, 1, 8);
                world.sSend(big, big.length, MPI.INT, 1, 9);
                // a buffer with room for one 100 KB message: the second bSend needs the first's space back
                MPI.attachBuffer(new byte[100_000 + MPI.BSEND_OVERHEAD]);
                world.bSend(big, 25_000, MPI.INT, 1, 10);
                world.sSend(new int[] {0}, 0, MPI.INT, 1, 99); // matched only after rank 1 has refused tag 10
                final int[] b11 = new int[25_000];
                Arrays.fill(b11, 11);
                world.bSend(b11, 25_000, MPI.INT, 1, 11);
                MPI.detachBuffer();
                world.send(new int[] {77}, 1, MPI.INT, 1, 5);
                world.send(new int[] {1, 2, 3, 4, 5}, 5, MPI.INT, 1, 6);
            }
            else if (rank == 1)
            {
                for (final int tag : new int[] {1, 2})
                {
                    final int[] into = new int[5];
                    try
                    {
                        world.recv(into, 5, MPI.INT, 0, tag);
                        ok(false, "recv of a longer message (tag " + tag + ") into 5 ints succeeded");
                    }
                    catch (final MPIException e)
                    {
                        ok(e.getErrorClass() == MPI.ERR_TRUNCATE, "recv truncation (tag " + tag + "): class " + e.getErrorClass()
                            + " " + e.getMessage());
                    }
                }
                for (final int tag : new int[] {3, 4})
                {
                    final int[] into = new int[5];
                    try
                    {
                        final Request q = world.iRecv(into, 5, MPI.INT, 0, tag);
                        final Status s = q.waitStatus();
                        ok(false, "iRecv of a longer message (tag " + tag + ") into 5 ints completed: " + s);
                    }
                    catch (final MPIException e)
                    {
                        ok(e.getErrorClass() == MPI.ERR_TRUNCATE, "iRecv truncation (tag " + tag + "): class " + e.getErrorClass()
                            + " " + e.getMessage());
                    }
                }
                try
                {
                    world.recv(new int[5], 5, MPI.INT, 0, 7);
                    ok(false, "recv of a 10-int sSend into 5 ints succeeded");
                }
                catch (final MPIException e)
                {
                    ok(e.getErrorClass() == MPI.ERR_TRUNCATE, "sSend truncation: class " + e.getErrorClass());
                }
                // a matched message longer than the mRecv buffer
                final Message m = new Message();
                final Status ms = m.mProbe(0, 8, world);
                ok(ms.getCount(MPI.INT) == 8, "mProbe of 8 ints: " + ms);
                try
                {
                    m.mRecv(new int[4], 4, MPI.INT);
                    ok(false, "mRecv of 8 ints into 4 succeeded");
                }
                catch (final MPIException e)
                {
                    ok(e.getErrorClass() == MPI.ERR_TRUNCATE, "mRecv truncation: class " + e.getErrorClass() + " " + e.getMessage());
                }
                ok(m.isNull(), "a Message is not MESSAGE_NULL after its (truncated) mRecv");
                final Message m9 = new Message();
                m9.mProbe(0, 9, world);
                try
                {
                    m9.imRecv(new int[100], 100, MPI.INT).waitFor();
                    ok(false, "imRecv of 50000 ints into 100 completed");
                }
                catch (final MPIException e)
                {
                    ok(e.getErrorClass() == MPI.ERR_TRUNCATE, "imRecv truncation: class " + e.getErrorClass());
                }
                // a buffered send the receiver refuses still gives its buffer space back (see rank 0's second bSend)
                try
                {
                    world.recv(new int[4], 4, MPI.INT, 0, 10);
                    ok(false, "recv of a 25000-int bSend into 4 ints succeeded");
                }
                catch (final MPIException e)
                {
                    ok(e.getErrorClass() == MPI.ERR_TRUNCATE, "bSend truncation: class " + e.getErrorClass());
                }
                world.recv(new int[0], 0, MPI.INT, 0, 99);
                final int[] bb = new int[25_000];
                world.recv(bb, bb.length, MPI.INT, 0, 11);
                ok(bb[24_999] == 11, "the second bSend " + bb[24_999]);
                final int[] one = new int[1];
                final Status s = world.recv(one, 1, MPI.INT, 0, 5);
                ok(one[0] == 77 && s.getTag() == 5, "the message after the truncations: " + one[0] + " " + s);
                // 5 ints received as pairs: 2 whole pairs and one more int
                final Datatype pair = Datatype.createContiguous(2, MPI.INT);
                pair.commit();
                final int[] p = new int[6];
                final Status ps = world.recv(p, 3, pair, 0, 6);
                ok(ps.getCount(pair) == MPI.UNDEFINED && ps.getElements(pair) == 5 && ps.getCount(MPI.INT) == 5,
                    "5 ints into pairs: getCount " + ps.getCount(pair) + " getElements " + ps.getElements(pair));
                ok(p[4] == 5 && p[5] == 0, "5 ints into pairs: " + Arrays.toString(p));
            }
        }

        // ------------------------------------------------------------------ groups

        /** 6 ranks. */
        static void groups() throws MPIException
        {
            final Group g = world.getGroup();
            ok(g.getSize() == 6 && g.getRank() == rank, "world group");
            final Group odd = g.incl(new int[] {5, 3, 1});
            ok(odd.getSize() == 3 && odd.getRank() == (rank % 2 == 1 ? (5 - rank) / 2 : MPI.UNDEFINED), "incl rank " + odd.getRank());
            final Group r = g.rangeIncl(new int[][] {{5, 1, -2}});
            ok(Group.compare(odd, r) == MPI.IDENT, "incl {5,3,1} vs rangeIncl {5,1,-2}: " + Group.compare(odd, r));
            final Group even = g.excl(new int[] {1, 3, 5});
            final Group re = g.rangeExcl(new int[][] {{1, 5, 2}});
            ok(Group.compare(even, re) == MPI.IDENT, "excl vs rangeExcl");
            final Group oddUp = g.incl(new int[] {1, 3, 5});
            ok(Group.compare(odd, oddUp) == MPI.SIMILAR, "reversed group compare " + Group.compare(odd, oddUp));
            ok(Group.compare(odd, even) == MPI.UNEQUAL, "odd vs even compare");
            final int[] t = Group.translateRanks(odd, new int[] {0, 1, 2, MPI.PROC_NULL}, even);
            ok(Arrays.equals(t, new int[] {MPI.UNDEFINED, MPI.UNDEFINED, MPI.UNDEFINED, MPI.PROC_NULL}), "translate odd to even "
                + Arrays.toString(t));
            final int[] t2 = Group.translateRanks(odd, new int[] {0, 2}, g);
            ok(Arrays.equals(t2, new int[] {5, 1}), "translate odd to world " + Arrays.toString(t2));
            final Group u = Group.union(odd, even);
            final int[] tu = Group.translateRanks(u, new int[] {0, 1, 2, 3, 4, 5}, g);
            ok(Arrays.equals(tu, new int[] {5, 3, 1, 0, 2, 4}), "union order " + Arrays.toString(tu));
            final Group in = Group.intersection(g.incl(new int[] {4, 1, 2}), oddUp);
            ok(in.getSize() == 1 && Group.translateRanks(in, new int[] {0}, g)[0] == 1, "intersection");
            final Group d = Group.difference(g, odd);
            ok(Group.compare(d, even) == MPI.IDENT, "difference world - odd vs even: " + Group.compare(d, even));
            final Group empty = Group.intersection(odd, even);
            ok(empty.getSize() == 0 && empty.getRank() == MPI.UNDEFINED, "empty intersection");

            // communicators
            final Intracomm dup = world.dup();
            ok(Comm.compare(world, dup) == MPI.CONGRUENT && Comm.compare(world, world) == MPI.IDENT, "compare dup");
            final Intracomm c = world.create(odd);
            if (rank % 2 == 1)
            {
                ok(c != null && !c.isNull() && c.getSize() == 3 && c.getRank() == (5 - rank) / 2, "create(odd)");
                final int[] v = {rank};
                c.allReduce(v, 1, MPI.INT, MPI.SUM);
                ok(v[0] == 9, "allReduce over create(odd) " + v[0]);
            }
            else
            {
                ok(c == null || c.isNull(), "create(odd) at an even rank is not COMM_NULL");
            }
            final Intracomm c2 = world.create(oddUp);
            if (rank % 2 == 1)
            {
                ok(Comm.compare(c, c2) == MPI.SIMILAR, "compare comms of reordered groups " + Comm.compare(c, c2));
                final int[] b = {c2.getRank() == 0 ? 42 : 0};
                c2.bcast(b, 1, MPI.INT, 0);
                ok(b[0] == 42 && c2.getRank() == rank / 2, "create(oddUp) bcast");
            }
            final Intracomm s = world.split(rank % 2, -rank);
            ok(Comm.compare(world, s) == MPI.UNEQUAL, "world vs split");
        }

        // ------------------------------------------------------------------ intercommunicators

        /** 5 ranks: evens (0, 2, 4) and odds (1, 3). */
        static void intercomm() throws MPIException
        {
            final int colour = rank % 2;
            final Intracomm local = world.split(colour, rank);
            final Intercomm ic = world.createIntercomm(local, 0, colour == 0 ? 1 : 0, 33);
            ok(ic.isInter(), "not an intercommunicator");
            final int remoteSize = colour == 0 ? 2 : 3;
            ok(ic.getRemoteSize() == remoteSize && ic.getSize() == local.getSize() && ic.getRank() == rank / 2,
                "sizes: remote " + ic.getRemoteSize() + " local " + ic.getSize());
            // point-to-point: local rank i sends to remote rank i % remoteSize
            final int lr = ic.getRank();
            final Request sr = ic.iSend(new int[] {rank}, 1, MPI.INT, lr % remoteSize, 1);
            // receives: from every remote rank j with j % localSize == lr
            int expected = 0;
            for (int j = 0; j < ic.getRemoteSize(); j++)
            {
                if (j % ic.getSize() == lr)
                {
                    expected++;
                }
            }
            for (int k = 0; k < expected; k++)
            {
                final int[] v = {-1};
                final Status s = ic.recv(v, 1, MPI.INT, MPI.ANY_SOURCE, 1);
                final int worldOfSrc = colour == 0 ? 2 * s.getSource() + 1 : 2 * s.getSource();
                ok(v[0] == worldOfSrc, "intercomm recv from remote " + s.getSource() + " got " + v[0]);
            }
            sr.waitFor();
            // a matched probe across the intercommunicator: local rank 0 of each side sends remote rank 0 two messages
            if (lr == 0)
            {
                ic.send(new int[] {rank, 1}, 2, MPI.INT, 0, 2);
                ic.send(new int[] {rank, 2}, 2, MPI.INT, 0, 2);
                final Message m = new Message();
                final Status ms = m.mProbe(MPI.ANY_SOURCE, 2, ic);
                ok(ms.getSource() == 0 && ms.getCount(MPI.INT) == 2, "mProbe on an intercomm " + ms);
                final int[] second = new int[2];
                ic.recv(second, 2, MPI.INT, 0, 2);
                final int[] first = new int[2];
                m.mRecv(first, 2, MPI.INT);
                final int other = colour == 0 ? 1 : 0;
                ok(first[0] == other && first[1] == 1 && second[1] == 2, "intercomm mProbe/mRecv got " + Arrays.toString(first)
                    + " and recv " + Arrays.toString(second));
            }
            // rooted broadcast from odd rank 1 (remote rank 0 of the evens)
            final int[] b = {colour == 1 && lr == 0 ? 99 : -1};
            if (colour == 1)
            {
                ic.bcast(b, 1, MPI.INT, lr == 0 ? MPI.ROOT : MPI.PROC_NULL);
                ok(b[0] == (lr == 0 ? 99 : -1), "bcast at the root's group changed a non-root's buffer: " + b[0]);
            }
            else
            {
                ic.bcast(b, 1, MPI.INT, 0);
                ok(b[0] == 99, "intercomm bcast got " + b[0]);
            }
            // merge: odds high, so the evens come first
            final Intracomm m = ic.merge(colour == 1);
            final int want = colour == 0 ? rank / 2 : 3 + rank / 2;
            ok(m.getSize() == 5 && m.getRank() == want, "merge rank " + m.getRank() + ", expected " + want);
            final int[] all = new int[5];
            m.allGather(new int[] {rank}, 1, MPI.INT, all, 1, MPI.INT);
            ok(Arrays.equals(all, new int[] {0, 2, 4, 1, 3}), "merged order " + Arrays.toString(all));
        }

        // ------------------------------------------------------------------ v-collectives and user ops

        static void vcoll() throws MPIException
        {
            // rank r contributes r ints (rank 0 none), placed in reverse rank order with a gap of 1 after each
            final int[] cnt = new int[size];
            final int[] disp = new int[size];
            int at = 0;
            for (int r = size - 1; r >= 0; r--)
            {
                cnt[r] = r;
                disp[r] = at;
                at += r + 1;
            }
            final int[] mine = new int[rank];
            for (int i = 0; i < rank; i++)
            {
                mine[i] = rank * 10 + i;
            }
            final int[] all = new int[at];
            Arrays.fill(all, -1);
            world.allGatherv(mine, rank, MPI.INT, all, cnt, disp, MPI.INT);
            for (int r = 0; r < size; r++)
            {
                for (int i = 0; i < r; i++)
                {
                    ok(all[disp[r] + i] == r * 10 + i, "allGatherv from " + r + "[" + i + "] = " + all[disp[r] + i]);
                }
                ok(all[disp[r] + r] == -1, "allGatherv wrote into the gap after rank " + r);
            }

            // allToAllv: rank s sends (d + 1) ints to d, laid out in reverse order of d
            final int[] sc = new int[size];
            final int[] sd = new int[size];
            final int[] rc = new int[size];
            final int[] rd = new int[size];
            int so = 0;
            int ro = 0;
            for (int d = size - 1; d >= 0; d--)
            {
                sc[d] = d + 1;
                sd[d] = so;
                so += d + 1;
                rc[d] = rank + 1;
                rd[d] = ro;
                ro += rank + 2;
            }
            final int[] sb = new int[so];
            for (int d = 0; d < size; d++)
            {
                for (int k = 0; k < sc[d]; k++)
                {
                    sb[sd[d] + k] = rank * 100 + d * 10 + k;
                }
            }
            final int[] rb = new int[ro];
            Arrays.fill(rb, -1);
            world.allToAllv(sb, sc, sd, MPI.INT, rb, rc, rd, MPI.INT);
            for (int s = 0; s < size; s++)
            {
                for (int k = 0; k <= rank; k++)
                {
                    ok(rb[rd[s] + k] == s * 100 + rank * 10 + k, "allToAllv from " + s + "[" + k + "] = " + rb[rd[s] + k]);
                }
                ok(rb[rd[s] + rank + 1] == -1, "allToAllv wrote into a gap");
            }

            // reduceScatterBlock: 2 per rank
            final int[] in = new int[2 * size];
            for (int i = 0; i < in.length; i++)
            {
                in[i] = rank + i;
            }
            final int[] out = new int[2];
            world.reduceScatterBlock(in, out, 2, MPI.INT, MPI.SUM);
            final int rs = size * (size - 1) / 2;
            ok(out[0] == rs + size * 2 * rank && out[1] == rs + size * (2 * rank + 1), "reduceScatterBlock " + Arrays.toString(out));

            // scan with a non-commutative op over 2x2 int matrices (a contiguous type of 4 ints)
            final Datatype mat = Datatype.createContiguous(4, MPI.INT);
            mat.commit();
            final Op mul = new Op(new UserFunction()
            {
                @Override
                public void call(final Object inVec, final Object inOutVec, final int count, final Datatype datatype)
                {
                    final int[] a = (int[])inVec;
                    final int[] b = (int[])inOutVec;
                    for (int k = 0; k < count; k++)
                    {
                        final int o = 4 * k;
                        final int p = a[o] * b[o] + a[o + 1] * b[o + 2];
                        final int q = a[o] * b[o + 1] + a[o + 1] * b[o + 3];
                        final int r = a[o + 2] * b[o] + a[o + 3] * b[o + 2];
                        final int s = a[o + 2] * b[o + 1] + a[o + 3] * b[o + 3];
                        b[o] = p;
                        b[o + 1] = q;
                        b[o + 2] = r;
                        b[o + 3] = s;
                    }
                }
            }, false);
            final int[] m = {1, rank + 1, 0, 1, 1, 0, rank, 1};
            final int[] pre = new int[8];
            world.scan(m, pre, 2, mat, mul);
            // prefix of [[1, r+1],[0,1]] products: [[1, sum(r+1)],[0,1]]; of [[1,0],[r,1]]: [[1,0],[sum r,1]]
            final int s1 = (rank + 1) * (rank + 2) / 2;
            final int s2 = rank * (rank + 1) / 2;
            ok(Arrays.equals(pre, new int[] {1, s1, 0, 1, 1, 0, s2, 1}), "scan of matrices " + Arrays.toString(pre));
            // order matters: [[1,1],[0,1]] then [[1,0],[1,1]] differ by side; use a rank-dependent non-commuting pair
            final int[] nc = rank % 2 == 0 ? new int[] {1, 1, 0, 1} : new int[] {1, 0, 1, 1};
            final int[] res = new int[4];
            world.scan(nc, res, 1, mat, mul);
            int[] want = {1, 1, 0, 1};
            for (int r = 1; r <= rank; r++)
            {
                final int[] b = r % 2 == 0 ? new int[] {1, 1, 0, 1} : new int[] {1, 0, 1, 1};
                want = new int[] {want[0] * b[0] + want[1] * b[2], want[0] * b[1] + want[1] * b[3], want[2] * b[0] + want[3] * b[2],
                    want[2] * b[1] + want[3] * b[3]};
            }
            ok(Arrays.equals(res, want), "non-commutative scan " + Arrays.toString(res) + ", expected " + Arrays.toString(want));
        }

        // ------------------------------------------------------------------ nonblocking collectives mixed with point-to-point

        static void nbcMixed() throws MPIException
        {
            final int[] bc = new int[20_000];
            if (rank == 1)
            {
                Arrays.fill(bc, 11);
            }
            final Request b = world.iBcast(bc, bc.length, MPI.INT, 1);
            final int right = (rank + 1) % size;
            final int left = (rank + size - 1) % size;
            final int[] got = new int[3];
            final Request r = world.iRecv(got, 3, MPI.INT, left, 0);
            world.send(new int[] {rank, rank, rank}, 3, MPI.INT, right, 0);
            final double[] sum = {rank + 0.5};
            final double[] tot = new double[1];
            final Request a = world.iAllReduce(sum, tot, 1, MPI.DOUBLE, MPI.SUM);
            final int[] big = new int[60_000];
            final Request r2 = world.iRecv(big, big.length, MPI.INT, MPI.ANY_SOURCE, MPI.ANY_TAG);
            final int[] bigOut = new int[60_000];
            Arrays.fill(bigOut, rank + 5);
            final Request s2 = world.iSend(bigOut, bigOut.length, MPI.INT, right, 0);
            Request.waitAll(new Request[] {a, r, b, r2, s2});
            ok(got[0] == left && got[2] == left, "p2p beside collectives got " + Arrays.toString(got));
            ok(bc[0] == 11 && bc[19_999] == 11, "iBcast got " + bc[0]);
            ok(tot[0] == size * (size - 1) / 2.0 + size * 0.5, "iAllReduce got " + tot[0]);
            ok(big[0] == left + 5 && big[59_999] == left + 5, "large p2p beside collectives got " + big[0]);
        }

        // ------------------------------------------------------------------ RMA

        static void win() throws MPIException
        {
            final IntBuffer mem = MPI.newIntBuffer(16);
            for (int i = 0; i < 16; i++)
            {
                mem.put(i, rank * 100 + i);
            }
            final Win w = new Win(mem, 16, 1, MPI.INFO_NULL, world);
            final int right = (rank + 1) % size;
            final IntBuffer o = MPI.newIntBuffer(4);
            for (int i = 0; i < 4; i++)
            {
                o.put(i, 1000 + rank * 10 + i);
            }
            final IntBuffer g = MPI.newIntBuffer(2);
            w.fence(0);
            w.put(o, 4, MPI.INT, right, 2, 4, MPI.INT);
            w.get(g, 2, MPI.INT, right, 10, 2, MPI.INT);
            w.fence(0);
            final int left = (rank + size - 1) % size;
            for (int i = 0; i < 4; i++)
            {
                ok(mem.get(2 + i) == 1000 + left * 10 + i, "fence put landed " + mem.get(2 + i) + " at " + (2 + i));
            }
            ok(mem.get(1) == rank * 100 + 1 && mem.get(6) == rank * 100 + 6, "put wrote outside its target range");
            ok(g.get(0) == right * 100 + 10 && g.get(1) == right * 100 + 11, "fence get " + g.get(0) + "," + g.get(1));
            // everyone adds to rank 0's element 15 under an exclusive lock, several times
            final IntBuffer one = MPI.newIntBuffer(1);
            one.put(0, rank + 1);
            for (int k = 0; k < 3; k++)
            {
                w.lock(MPI.LOCK_EXCLUSIVE, 0, 0);
                w.accumulate(one, 1, MPI.INT, 0, 15, 1, MPI.INT, MPI.SUM);
                w.flush(0);
                w.unlock(0);
            }
            world.barrier();
            if (rank == 0)
            {
                w.lock(MPI.LOCK_SHARED, 0, 0);
                final int v = mem.get(15);
                w.unlock(0);
                ok(v == 15 + 3 * size * (size + 1) / 2, "accumulated counter " + v);
            }
            w.free();
        }
        // ------------------------------------------------------------------ error handlers

        @FunctionalInterface
        interface Call
        {
            void run() throws MPIException;
        }

        static void returns(final String what, final int errorClass, final Call c, final String... named)
        {
            try
            {
                c.run();
            }
            catch (final MPIException e)
            {
                ok(e.getErrorClass() == errorClass, what + ": error class " + e.getErrorClass() + ", expected " + errorClass + ": "
                    + e.getMessage());
                for (final String n : named)
                {
                    ok(String.valueOf(e.getMessage()).contains(n), what + ": the error does not name '" + n + "': " + e.getMessage());
                }
                return;
            }
            catch (final RuntimeException e)
            {
                ok(false, what + ": threw " + e + " where the communicator's handler is ERRORS_RETURN (an MPIException)");
            }
            ok(false, what + ": succeeded");
        }

        /** 4 ranks: a new communicator inherits its parent's error handler (MPI 3.1 §8.3). */
        static void inherit() throws MPIException
        {
            world.setErrhandler(MPI.ERRORS_RETURN);
            final int[] b = new int[1];
            final Intracomm dup = world.dup();
            returns("send to rank 9 on a dup", MPI.ERR_RANK, () -> dup.send(b, 1, MPI.INT, 9, 0), "9");
            final Intracomm half = world.split(rank % 2, rank);
            returns("send to rank 2 on a split of 2", MPI.ERR_RANK, () -> half.send(b, 1, MPI.INT, 2, 0), "2");
            final Intracomm c = world.create(world.getGroup().incl(new int[] {0, 1, 2, 3}));
            returns("recv with tag -5 on create", MPI.ERR_TAG, () -> c.recv(b, 1, MPI.INT, 0, -5), "-5");
            final CartComm cart = world.createCart(new int[] {2, 2}, new boolean[] {false, true}, false);
            returns("send to rank 4 on a cart", MPI.ERR_RANK, () -> cart.send(b, 1, MPI.INT, 4, 0), "4");
            final Intercomm ic = world.createIntercomm(half, 0, rank % 2 == 0 ? 1 : 0, 5);
            returns("send to remote rank 2 of an intercomm", MPI.ERR_RANK, () -> ic.send(b, 1, MPI.INT, 2, 0), "2");
            final Intracomm merged = ic.merge(rank % 2 == 1);
            returns("bcast with root 4 on a merge", MPI.ERR_ROOT, () -> merged.bcast(b, 1, MPI.INT, 4), "4");
            // COMM_SELF keeps its own (default) handler; set to return, its errors come back too
            MPI.COMM_SELF.setErrhandler(MPI.ERRORS_RETURN);
            returns("send to rank 1 on COMM_SELF", MPI.ERR_RANK, () -> MPI.COMM_SELF.send(b, 1, MPI.INT, 1, 0), "1");
            // everything still works
            final int[] v = {rank};
            merged.allReduce(v, 1, MPI.INT, MPI.SUM);
            ok(v[0] == 6, "allReduce on the merged communicator " + v[0]);
        }

        // ------------------------------------------------------------------ cartesian topology

        /** 6 ranks. */
        static void cart() throws MPIException
        {
            world.setErrhandler(MPI.ERRORS_RETURN);
            final int[] d = {0, 0};
            CartComm.createDims(6, d);
            ok(d[0] == 3 && d[1] == 2, "createDims(6, {0,0}) = " + Arrays.toString(d));
            final int[] d3 = {0, 3, 0};
            CartComm.createDims(12, d3);
            ok(Arrays.equals(d3, new int[] {2, 3, 2}), "createDims(12, {0,3,0}) = " + Arrays.toString(d3));
            final int[] d7 = {0, 0};
            CartComm.createDims(7, d7);
            ok(Arrays.equals(d7, new int[] {7, 1}), "createDims(7, {0,0}) = " + Arrays.toString(d7));
            returns("createDims(6, {4, 0})", MPI.ERR_DIMS, () -> CartComm.createDims(6, new int[] {4, 0}), "6");
            returns("createDims(6, {-2, 0})", MPI.ERR_DIMS, () -> CartComm.createDims(6, new int[] {-2, 0}), "-2");
            // a 3 x 2 grid, periodic in the second dimension only
            final CartComm cart = world.createCart(new int[] {3, 2}, new boolean[] {false, true}, false);
            final CartParms t = cart.getTopo();
            ok(t.getDimCount() == 2 && t.getDim(0) == 3 && t.getDim(1) == 2 && !t.getPeriod(0) && t.getPeriod(1),
                "getTopo dims/periods");
            final int[] me = cart.getCoords(cart.getRank());
            ok(me[0] == rank / 2 && me[1] == rank % 2 && t.getCoord(0) == me[0] && t.getCoord(1) == me[1], "coords "
                + Arrays.toString(me));
            ok(cart.getRank(new int[] {me[0], me[1] + 2}) == rank && cart.getRank(new int[] {me[0], me[1] - 1}) == cart.getRank(
                new int[] {me[0], 1 - me[1]}), "periodic getRank does not wrap");
            returns("getRank outside the non-periodic dimension", MPI.ERR_ARG, () -> cart.getRank(new int[] {3, 0}), "3");
            returns("getRank with one coordinate on a 2-D grid", MPI.ERR_ARG, () -> cart.getRank(new int[] {1}), "1");
            returns("getCoords of rank 6", MPI.ERR_RANK, () -> cart.getCoords(6), "6");
            // shift by -2 along the non-periodic dimension: PROC_NULL where it leaves the grid
            final ShiftParms s = cart.shift(0, -2);
            ok(s.getRankDest() == (me[0] >= 2 ? rank - 4 : MPI.PROC_NULL) && s.getRankSource() == (me[0] < 1 ? rank + 4
                : MPI.PROC_NULL), "shift(0,-2) at " + Arrays.toString(me) + ": source " + s.getRankSource() + " dest "
                    + s.getRankDest());
            final ShiftParms p = cart.shift(1, 3);
            ok(p.getRankDest() == cart.getRank(new int[] {me[0], me[1] + 1}) && p.getRankSource() == p.getRankDest(),
                "periodic shift(1,3)");
            // a halo exchange along dimension 0 with sendRecv and PROC_NULL at the edges
            final ShiftParms up = cart.shift(0, 1);
            final int[] got = {-1};
            final Status st = cart.sendRecv(new int[] {rank}, 1, MPI.INT, up.getRankDest(), 3, got, 1, MPI.INT,
                up.getRankSource(), 3);
            ok(up.getRankSource() == MPI.PROC_NULL ? got[0] == -1 && st.getSource() == MPI.PROC_NULL
                : got[0] == up.getRankSource(), "halo got " + got[0]);
            // sub-grids: rows (keep dimension 1)
            final CartComm row = cart.sub(new boolean[] {false, true});
            ok(row.getSize() == 2 && row.getRank() == me[1], "sub row rank " + row.getRank());
            final int[] sum = {rank};
            row.allReduce(sum, 1, MPI.INT, MPI.SUM);
            ok(sum[0] == 2 * (rank / 2) * 2 + 1, "row sum " + sum[0]);
            // a grid smaller than the communicator: the extra ranks get COMM_NULL
            final CartComm small = world.createCart(new int[] {2, 2}, new boolean[] {true, true}, false);
            ok(rank < 4 ? small != null && !small.isNull() && small.getSize() == 4 : small == null || small.isNull(),
                "createCart 2x2 of 6 at rank " + rank);
            returns("createCart 4x2 of 6", MPI.ERR_DIMS, () -> world.createCart(new int[] {4, 2}, new boolean[] {false, false},
                false), "8");
        }

        // ------------------------------------------------------------------ derived datatypes

        /** 2 ranks. */
        static void dtypes() throws MPIException
        {
            final int peer = 1 - rank;
            // a vector of 2 blocks of 2 with stride 3: size 4, extent 5 (ints), so count 2 starts the second at 5
            final Datatype v = Datatype.createVector(2, 2, 3, MPI.INT);
            v.commit();
            ok(v.getSize() == 4 && v.getExtent() == 5 && v.getTrueExtent() == 5 && v.getLb() == 0, "vector size " + v.getSize()
                + " extent " + v.getExtent());
            final int[] src = new int[12];
            for (int i = 0; i < src.length; i++)
            {
                src[i] = 100 * rank + i;
            }
            final int[] dst = new int[8];
            final Status s = world.sendRecv(src, 2, v, peer, 1, dst, 8, MPI.INT, peer, 1);
            ok(s.getCount(MPI.INT) == 8 && s.getCount(v) == 2 && s.getElements(v) == 8, "vector count " + s.getCount(v));
            final int o = 100 * peer;
            ok(Arrays.equals(dst, new int[] {o, o + 1, o + 3, o + 4, o + 5, o + 6, o + 8, o + 9}), "2 vectors sent as "
                + Arrays.toString(dst));
            // resized to an extent of 1 int: count 3 of it starts at 0, 1, 2 (overlapping reads are legal for sends)
            final Datatype r = Datatype.createResized(v, 0, 1);
            r.commit();
            ok(r.getExtent() == 1 && r.getSize() == 4 && r.getTrueExtent() == 5, "resized extent " + r.getExtent() + " true "
                + r.getTrueExtent());
            final int[] d2 = new int[12];
            world.sendRecv(src, 3, r, peer, 2, d2, 12, MPI.INT, peer, 2);
            ok(Arrays.equals(d2, new int[] {o, o + 1, o + 3, o + 4, o + 1, o + 2, o + 4, o + 5, o + 2, o + 3, o + 5, o + 6}),
                "3 resized vectors sent as " + Arrays.toString(d2));
            // indexed receive: blocks in reverse order
            final Datatype ix = Datatype.createIndexed(new int[] {1, 2, 3}, new int[] {7, 3, 0}, MPI.INT);
            ix.commit();
            ok(ix.getSize() == 6 && ix.getExtent() == 8 && ix.getLb() == 0, "indexed size " + ix.getSize() + " extent "
                + ix.getExtent());
            final int[] d3 = new int[9];
            Arrays.fill(d3, -1);
            world.sendRecv(new int[] {10, 11, 12, 13, 14, 15}, 6, MPI.INT, peer, 3, d3, 1, ix, peer, 3);
            ok(Arrays.equals(d3, new int[] {13, 14, 15, 11, 12, -1, -1, 10, -1}), "indexed receive " + Arrays.toString(d3));
            // hindexed in bytes and indexed block
            final Datatype hx = Datatype.createHIndexed(new int[] {1, 1}, new int[] {8, 0}, MPI.INT);
            hx.commit();
            final int[] d4 = new int[4];
            world.sendRecv(new int[] {7, 8}, 2, MPI.INT, peer, 4, d4, 1, hx, peer, 4);
            ok(d4[2] == 7 && d4[0] == 8, "hindexed receive " + Arrays.toString(d4));
            final Datatype ib = Datatype.createIndexedBlock(2, new int[] {4, 0}, MPI.INT);
            ib.commit();
            final int[] d5 = new int[6];
            world.sendRecv(new int[] {1, 2, 3, 4}, 4, MPI.INT, peer, 5, d5, 1, ib, peer, 5);
            ok(Arrays.equals(d5, new int[] {3, 4, 0, 0, 1, 2}), "indexed block receive " + Arrays.toString(d5));
            // a resized column type scattered: the classic matrix-column scatter (root 0, 2 ranks, 4x2 matrix)
            final Datatype col = Datatype.createVector(4, 1, 2, MPI.INT);
            col.commit();
            final Datatype col1 = Datatype.createResized(col, 0, 1);
            col1.commit();
            final int[] m = {0, 1, 10, 11, 20, 21, 30, 31};
            final int[] mine = new int[4];
            world.scatter(m, 1, col1, mine, 4, MPI.INT, 0);
            ok(Arrays.equals(mine, new int[] {rank, 10 + rank, 20 + rank, 30 + rank}), "column scatter " + Arrays.toString(mine));
            // and gathered back into columns
            final int[] back = new int[8];
            world.gather(mine, 4, MPI.INT, back, 1, col1, 0);
            if (rank == 0)
            {
                ok(Arrays.equals(back, m), "column gather " + Arrays.toString(back));
            }
            // a dup keeps the layout; a freed type is refused
            final Datatype vd = v.dup();
            final int[] d6 = new int[4];
            world.sendRecv(src, 1, vd, peer, 6, d6, 4, MPI.INT, peer, 6);
            ok(Arrays.equals(d6, new int[] {o, o + 1, o + 3, o + 4}), "dup of vector " + Arrays.toString(d6));
        }

        // ------------------------------------------------------------------ predefined operations

        static void ops() throws MPIException
        {
            // logical xor over booleans: true where an odd number of ranks hold true
            final boolean[] b = new boolean[5];
            for (int i = 0; i < 5; i++)
            {
                b[i] = (rank + i) % 3 == 0;
            }
            final boolean[] x = new boolean[5];
            world.allReduce(b, x, 5, MPI.BOOLEAN, MPI.LXOR);
            final boolean[] land = new boolean[5];
            world.allReduce(b, land, 5, MPI.BOOLEAN, MPI.LAND);
            for (int i = 0; i < 5; i++)
            {
                int n = 0;
                for (int r = 0; r < size; r++)
                {
                    n += (r + i) % 3 == 0 ? 1 : 0;
                }
                ok(x[i] == (n % 2 == 1), "LXOR [" + i + "] = " + x[i] + " with " + n + " true");
                ok(land[i] == (n == size), "LAND [" + i + "] = " + land[i]);
            }
            // bitwise xor and or over longs, the high bits included
            final long[] l = {1L << (40 + rank), -1L ^ (1L << rank), rank};
            final long[] lx = new long[3];
            world.allReduce(l, lx, 3, MPI.LONG, MPI.BXOR);
            long w0 = 0;
            long w1 = 0;
            long w2 = 0;
            for (int r = 0; r < size; r++)
            {
                w0 ^= 1L << (40 + r);
                w1 ^= -1L ^ (1L << r);
                w2 ^= r;
            }
            ok(lx[0] == w0 && lx[1] == w1 && lx[2] == w2, "BXOR " + Arrays.toString(lx));
            // product of floats at a non-zero root
            final float[] f = {rank + 1f, 0.5f, -1f};
            final float[] fp = new float[3];
            world.reduce(f, fp, 3, MPI.FLOAT, MPI.PROD, size - 1);
            if (rank == size - 1)
            {
                float fact = 1f;
                for (int r = 1; r <= size; r++)
                {
                    fact *= r;
                }
                ok(fp[0] == fact && fp[1] == (float)Math.pow(0.5, size) && fp[2] == (size % 2 == 0 ? 1f : -1f), "PROD "
                    + Arrays.toString(fp));
            }
            // MINLOC with ties: the lowest index wins; MAXLOC likewise (pairs in a ByteBuffer, as the bindings have MPI_2INT)
            final int[][] pairs = {{rank % 2, rank * 10}, {7, size - rank}};
            final java.nio.ByteBuffer in = MPI.newByteBuffer(2 * MPI.int2.getExtent());
            for (int k = 0; k < 2; k++)
            {
                final mpi.Int2.Data d = MPI.int2.getData(in, k);
                d.putValue(pairs[k][0]);
                d.putIndex(pairs[k][1]);
            }
            final java.nio.ByteBuffer lo = MPI.newByteBuffer(2 * MPI.int2.getExtent());
            world.allReduce(in, lo, 2, MPI.INT2, MPI.MINLOC);
            final mpi.Int2.Data lo0 = MPI.int2.getData(lo, 0);
            final mpi.Int2.Data lo1 = MPI.int2.getData(lo, 1);
            ok(lo0.getValue() == 0 && lo0.getIndex() == 0 && lo1.getValue() == 7 && lo1.getIndex() == 1, "MINLOC (" + lo0.getValue()
                + ", " + lo0.getIndex() + "), (" + lo1.getValue() + ", " + lo1.getIndex() + "), expected (0, 0), (7, 1)");
            final java.nio.ByteBuffer hi = MPI.newByteBuffer(2 * MPI.int2.getExtent());
            world.allReduce(in, hi, 2, MPI.INT2, MPI.MAXLOC);
            final mpi.Int2.Data hi0 = MPI.int2.getData(hi, 0);
            final mpi.Int2.Data hi1 = MPI.int2.getData(hi, 1);
            ok(hi0.getValue() == (size > 1 ? 1 : 0) && hi0.getIndex() == (size > 1 ? 10 : 0) && hi1.getValue() == 7
                && hi1.getIndex() == 1, "MAXLOC (" + hi0.getValue() + ", " + hi0.getIndex() + "), (" + hi1.getValue() + ", "
                    + hi1.getIndex() + ") (ties go to the lowest index)");
            // an operator that does not fit the type
            world.setErrhandler(MPI.ERRORS_RETURN);
            returns("BXOR over doubles", MPI.ERR_OP, () -> world.allReduce(new double[1], new double[1], 1, MPI.DOUBLE, MPI.BXOR),
                "BXOR");
        }

        // ------------------------------------------------------------------ RMA read-modify-write under an exclusive lock

        static void winRmw() throws MPIException
        {
            final IntBuffer mem = MPI.newIntBuffer(4);
            final Win w = new Win(mem, 4, 1, MPI.INFO_NULL, world);
            world.barrier();
            final IntBuffer cur = MPI.newIntBuffer(1);
            final IntBuffer next = MPI.newIntBuffer(1);
            for (int k = 0; k < 5; k++)
            {
                // get, then put the value + 1: exclusive locks make the increments atomic
                w.lock(MPI.LOCK_EXCLUSIVE, 0, 0);
                w.get(cur, 1, MPI.INT, 0, 2, 1, MPI.INT);
                w.flush(0);
                next.put(0, cur.get(0) + 1);
                w.put(next, 1, MPI.INT, 0, 2, 1, MPI.INT);
                w.unlock(0);
            }
            world.barrier();
            if (rank == 0)
            {
                w.lock(MPI.LOCK_SHARED, 0, 0);
                final int v = mem.get(2);
                w.unlock(0);
                ok(v == 5 * size, "counter after " + 5 * size + " locked increments: " + v + " (a lost update)");
            }
            w.free();
        }

        // ------------------------------------------------------------------ a failed request among several

        /**
         * 2 ranks: MPI_WAITALL completes every request and reports a failure among them as
         * MPI_ERR_IN_STATUS (MPI 3.1 §3.7.5), so the requests that succeeded have delivered their
         * data when the exception reaches the program.
         */
        static void waitAllError() throws MPIException
        {
            world.setErrhandler(MPI.ERRORS_RETURN);
            if (rank == 0)
            {
                world.send(new int[] {9, 9, 9, 9, 9, 9, 9, 9, 9, 9}, 10, MPI.INT, 1, 1);
                world.send(new int[] {1, 2, 3}, 3, MPI.INT, 1, 2);
                world.send(new int[] {4, 5, 6}, 3, MPI.INT, 1, 3);
                world.send(new int[] {7}, 1, MPI.INT, 1, 4);
            }
            else
            {
                final int[] b2 = new int[3];
                final int[] b3 = new int[3];
                final Request[] rs = {world.iRecv(b2, 3, MPI.INT, 0, 2), world.iRecv(new int[5], 5, MPI.INT, 0, 1),
                    world.iRecv(b3, 3, MPI.INT, 0, 3)};
                try
                {
                    Request.waitAll(rs);
                    ok(false, "waitAll with a truncated receive succeeded");
                }
                catch (final MPIException e)
                {
                    ok(e.getErrorClass() == MPI.ERR_IN_STATUS, "waitAll with a truncated receive: class " + e.getErrorClass()
                        + ", expected MPI_ERR_IN_STATUS (" + MPI.ERR_IN_STATUS + "): " + e.getMessage());
                }
                ok(Arrays.equals(b2, new int[] {1, 2, 3}) && Arrays.equals(b3, new int[] {4, 5, 6}), "after waitAll the "
                    + "receives that succeeded hold " + Arrays.toString(b2) + " and " + Arrays.toString(b3));
                ok(rs[0].isNull() && rs[2].isNull(), "waitAll left a request that succeeded active");
                final int[] one = new int[1];
                world.recv(one, 1, MPI.INT, 0, 4);
                ok(one[0] == 7, "the next message " + one[0]);
            }
            // waitSome over three receives that have all arrived, the middle one truncated: MPI_ERR_IN_STATUS, the others done
            final int[] c0 = new int[2];
            final int[] c2 = new int[2];
            final Request[] rq = rank == 1 ? new Request[] {world.iRecv(c0, 2, MPI.INT, 0, 11), world.iRecv(new int[1], 1, MPI.INT,
                0, 12), world.iRecv(c2, 2, MPI.INT, 0, 13)} : null;
            world.barrier();
            if (rank == 0)
            {
                world.send(new int[] {1, 1}, 2, MPI.INT, 1, 11);
                world.send(new int[] {2, 2}, 2, MPI.INT, 1, 12);
                world.send(new int[] {3, 3}, 2, MPI.INT, 1, 13);
            }
            world.barrier();
            if (rank == 1)
            {
                try
                {
                    final int[] done = Request.waitSome(rq);
                    ok(false, "waitSome with a truncated receive returned " + Arrays.toString(done));
                }
                catch (final MPIException e)
                {
                    ok(e.getErrorClass() == MPI.ERR_IN_STATUS, "waitSome with a truncated receive: class " + e.getErrorClass()
                        + ", expected MPI_ERR_IN_STATUS: " + e.getMessage());
                }
                ok(c0[1] == 1 && c2[1] == 3 && rq[0].isNull() && rq[2].isNull(), "after waitSome: " + Arrays.toString(c0) + " "
                    + Arrays.toString(c2) + " null " + rq[0].isNull() + " " + rq[2].isNull());
            }
        }

        // ------------------------------------------------------------------ MPI_IN_PLACE forms

        /** The bindings' one-buffer overloads are MPI_IN_PLACE: each rank's part is already where the result puts it. */
        static void inPlace() throws MPIException
        {
            final int root = size - 1;
            // allGather: rank r's 2 ints at [2r, 2r+1]
            final int[] ag = new int[2 * size];
            Arrays.fill(ag, -1);
            ag[2 * rank] = rank * 10;
            ag[2 * rank + 1] = rank * 10 + 1;
            world.allGather(ag, 2, MPI.INT);
            for (int r = 0; r < size; r++)
            {
                ok(ag[2 * r] == r * 10 && ag[2 * r + 1] == r * 10 + 1, "allGather in place [" + r + "] " + Arrays.toString(ag));
            }
            // allGatherv: rank r's r+1 ints at displacement (size - 1 - r) * size, reversed with gaps
            final int[] cnt = new int[size];
            final int[] disp = new int[size];
            for (int r = 0; r < size; r++)
            {
                cnt[r] = r + 1;
                disp[r] = (size - 1 - r) * (size + 1);
            }
            final int[] agv = new int[size * (size + 1)];
            Arrays.fill(agv, -1);
            for (int i = 0; i <= rank; i++)
            {
                agv[disp[rank] + i] = rank * 100 + i;
            }
            world.allGatherv(agv, cnt, disp, MPI.INT);
            for (int r = 0; r < size; r++)
            {
                for (int i = 0; i <= r; i++)
                {
                    ok(agv[disp[r] + i] == r * 100 + i, "allGatherv in place from " + r + " [" + i + "] = " + agv[disp[r] + i]);
                }
                ok(agv[disp[r] + r + 1] == -1, "allGatherv in place wrote into a gap");
            }
            // gather at a non-zero root: the root's part already at [root]; the others send their [0]
            final int[] g = new int[size];
            Arrays.fill(g, -1);
            g[rank == root ? root : 0] = 500 + rank;
            world.gather(g, 1, MPI.INT, root);
            if (rank == root)
            {
                for (int r = 0; r < size; r++)
                {
                    ok(g[r] == 500 + r, "gather in place [" + r + "] = " + g[r]);
                }
            }
            // scatter from the root: its own part stays; the others receive into [0]
            final int[] sc = new int[size];
            if (rank == root)
            {
                for (int r = 0; r < size; r++)
                {
                    sc[r] = 700 + r;
                }
            }
            world.scatter(sc, 1, MPI.INT, root);
            ok(sc[rank == root ? root : 0] == 700 + rank, "scatter in place got " + Arrays.toString(sc));
            // gatherv: the root in place at displs[root]; the others with the send form
            if (rank == root)
            {
                final int[] gv = new int[size * (size + 1)];
                Arrays.fill(gv, -1);
                for (int i = 0; i <= root; i++)
                {
                    gv[disp[root] + i] = 900 + root * 10 + i;
                }
                world.gatherv(gv, cnt, disp, MPI.INT, root);
                for (int r = 0; r < size; r++)
                {
                    for (int i = 0; i <= r; i++)
                    {
                        ok(gv[disp[r] + i] == 900 + r * 10 + i, "gatherv in place from " + r + " [" + i + "] = " + gv[disp[r] + i]);
                    }
                }
            }
            else
            {
                final int[] mine = new int[rank + 1];
                for (int i = 0; i <= rank; i++)
                {
                    mine[i] = 900 + rank * 10 + i;
                }
                world.gatherv(mine, rank + 1, MPI.INT, root);
            }
            // reduce and allReduce in place
            final long[] red = {rank, 1L << rank};
            world.reduce(red, 2, MPI.LONG, MPI.SUM, root);
            if (rank == root)
            {
                ok(red[0] == size * (size - 1) / 2 && red[1] == (1L << size) - 1, "reduce in place " + Arrays.toString(red));
            }
            final double[] ar = {rank, -rank};
            world.allReduce(ar, 2, MPI.DOUBLE, MPI.MAX);
            ok(ar[0] == size - 1 && ar[1] == 0, "allReduce in place " + Arrays.toString(ar));
            // reduceScatter in place: the whole vector in, my block at the start
            final int[] counts = new int[size];
            int total = 0;
            for (int r = 0; r < size; r++)
            {
                counts[r] = (r % 2) + 1;
                total += counts[r];
            }
            final int[] rs = new int[total];
            for (int i = 0; i < total; i++)
            {
                rs[i] = i + rank;
            }
            world.reduceScatter(rs, counts, MPI.INT, MPI.SUM);
            int first = 0;
            for (int r = 0; r < rank; r++)
            {
                first += counts[r];
            }
            for (int k = 0; k < counts[rank]; k++)
            {
                ok(rs[k] == size * (first + k) + size * (size - 1) / 2, "reduceScatter in place [" + k + "] = " + rs[k]);
            }
            final int[] rsb = new int[2 * size];
            for (int i = 0; i < rsb.length; i++)
            {
                rsb[i] = i * rank;
            }
            world.reduceScatterBlock(rsb, 2, MPI.INT, MPI.SUM);
            final int tri = size * (size - 1) / 2;
            ok(rsb[0] == 2 * rank * tri && rsb[1] == (2 * rank + 1) * tri, "reduceScatterBlock in place " + rsb[0] + ", " + rsb[1]);
            // scan and exScan in place
            final int[] sn = {rank + 1};
            world.scan(sn, 1, MPI.INT, MPI.SUM);
            ok(sn[0] == (rank + 1) * (rank + 2) / 2, "scan in place " + sn[0]);
            final int[] ex = {rank + 1};
            world.exScan(ex, 1, MPI.INT, MPI.SUM);
            if (rank > 0)
            {
                ok(ex[0] == rank * (rank + 1) / 2, "exScan in place " + ex[0]);
            }
        }

        // ------------------------------------------------------------------ messages to oneself and COMM_SELF

        static void self() throws MPIException
        {
            // a 3 MB receive posted first, then the send to self; then the reverse order for 3 MB and 10 B
            final double[] big = new double[400_000];
            final double[] out = new double[400_000];
            for (int i = 0; i < out.length; i++)
            {
                out[i] = rank + i * 0.5;
            }
            final Request r = world.iRecv(big, big.length, MPI.DOUBLE, rank, 1);
            world.send(out, out.length, MPI.DOUBLE, rank, 1);
            final Status s = r.waitStatus();
            ok(s.getSource() == rank && s.getCount(MPI.DOUBLE) == 400_000 && big[399_999] == out[399_999], "3 MB to self " + s);
            final Request q = world.iSend(out, out.length, MPI.DOUBLE, rank, 2);
            final double[] b2 = new double[400_000];
            world.recv(b2, b2.length, MPI.DOUBLE, MPI.ANY_SOURCE, 2);
            q.waitFor();
            ok(b2[0] == out[0] && b2[399_999] == out[399_999], "3 MB to self, send first");
            // synchronous send to self with the receive posted
            final int[] x = new int[2];
            final Request rx = world.iRecv(x, 2, MPI.INT, rank, 3);
            world.sSend(new int[] {4, 5}, 2, MPI.INT, rank, 3);
            rx.waitFor();
            ok(x[0] == 4 && x[1] == 5, "sSend to self " + Arrays.toString(x));
            // sendRecv with oneself, the same tag both ways
            final int[] y = new int[3];
            world.sendRecv(new int[] {7, 8, 9}, 3, MPI.INT, rank, 4, y, 3, MPI.INT, rank, 4);
            ok(y[2] == 9, "sendRecv with self " + Arrays.toString(y));
            // COMM_SELF: a communicator of one
            final Intracomm me = MPI.COMM_SELF;
            ok(me.getSize() == 1 && me.getRank() == 0, "COMM_SELF size " + me.getSize() + " rank " + me.getRank());
            final int[] v = {rank + 3};
            me.allReduce(v, 1, MPI.INT, MPI.PROD);
            ok(v[0] == rank + 3, "allReduce on COMM_SELF " + v[0]);
            final int[] g = new int[1];
            me.gather(new int[] {rank}, 1, MPI.INT, g, 1, MPI.INT, 0);
            ok(g[0] == rank, "gather on COMM_SELF");
            final int[] e = {42};
            me.exScan(new int[] {5}, e, 1, MPI.INT, MPI.SUM);
            me.barrier();
            final int[] z = new int[1];
            final Request zr = me.iRecv(z, 1, MPI.INT, 0, 0);
            me.send(new int[] {rank + 60}, 1, MPI.INT, 0, 0);
            zr.waitFor();
            ok(z[0] == rank + 60, "COMM_SELF message " + z[0]);
            ok(world.iProbe(MPI.ANY_SOURCE, MPI.ANY_TAG) == null && me.iProbe(MPI.ANY_SOURCE, MPI.ANY_TAG) == null,
                "a message to self is left over");
        }

        // ------------------------------------------------------------------ refusals the earlier rounds did not make

        static void badArgs() throws MPIException
        {
            world.setErrhandler(MPI.ERRORS_RETURN);
            final Group g = world.getGroup();
            returns("incl with a repeated rank", MPI.ERR_RANK, () -> g.incl(new int[] {0, 0}), "0");
            returns("incl of rank size", MPI.ERR_RANK, () -> g.incl(new int[] {size}), Integer.toString(size));
            returns("excl of rank -1", MPI.ERR_RANK, () -> g.excl(new int[] {-1}), "-1");
            returns("rangeIncl with stride 0", MPI.ERR_ARG, () -> g.rangeIncl(new int[][] {{0, 1, 0}}), "0");
            returns("translateRanks of rank size", MPI.ERR_RANK, () -> Group.translateRanks(g, new int[] {size}, g),
                Integer.toString(size));
            returns("createVector of 2^16 x 2^16 ints", MPI.ERR_COUNT, () -> Datatype.createVector(65_536, 65_536, 65_536, MPI.INT),
                "65536");
            returns("createContiguous of -1", MPI.ERR_COUNT, () -> Datatype.createContiguous(-1, MPI.INT), "-1");
            returns("free of MPI.SUM", MPI.ERR_OP, () -> MPI.SUM.free(), "SUM");
            final Intracomm d = world.dup();
            d.free();
            returns("send on a freed communicator", MPI.ERR_COMM, () -> d.send(new int[1], 1, MPI.INT, 0, 0), "free");
            returns("split of a freed communicator", MPI.ERR_COMM, () -> d.split(0, 0), "free");
            returns("free of COMM_WORLD", MPI.ERR_COMM, () -> world.free(), "WORLD");
            // Open MPI's MPI_Intercomm_create: a leader outside its communicator is MPI_ERR_ARG
            returns("createIntercomm with local leader size", MPI.ERR_ARG, () -> world.createIntercomm(MPI.COMM_SELF, 1, 0, 3),
                "localLeader 1");
            returns("createIntercomm with remote leader size", MPI.ERR_ARG, () -> world.createIntercomm(MPI.COMM_SELF, 0, size,
                3), "remoteLeader " + size);
            final Datatype before = Datatype.createIndexed(new int[] {1}, new int[] {-1}, MPI.INT);
            before.commit();
            returns("send of a type reaching before the buffer", MPI.ERR_BUFFER, () -> world.send(new int[4], 1, before, rank, 0),
                "-1");
            returns("split with colour -3", MPI.ERR_ARG, () -> world.split(-3, 0), "-3");
            returns("createCart with a dimension of 0", MPI.ERR_DIMS, () -> world.createCart(new int[] {0, 2}, new boolean[2], false),
                "0");
            returns("getCount with a freed type", MPI.ERR_TYPE, () ->
            {
                final Datatype t = Datatype.createContiguous(2, MPI.INT);
                t.commit();
                final Status st = world.sendRecv(new int[2], 1, t, rank, 5, new int[2], 1, t, rank, 5);
                t.free();
                st.getCount(t);
            }, "free");
            // still works
            final int[] v = {1};
            world.allReduce(v, 1, MPI.INT, MPI.SUM);
            ok(v[0] == size, "allReduce after the refusals " + v[0]);
        }
    }

    @ParameterizedTest(name = "{0}: {1} ranks on {2} nodes")
    @CsvSource({"sendrecv, 3, 3", "sendrecv, 4, 2", "mprobe, 3, 3", "mprobe, 3, 1", "order, 3, 3", "order, 4, 2", "truncate, 2, 2",
        "truncate, 2, 1", "groups, 6, 3", "intercomm, 5, 5", "intercomm, 5, 2", "vcoll, 4, 4", "vcoll, 5, 3", "nbc-mixed, 4, 4",
        "nbc-mixed, 3, 1", "win, 3, 3", "win, 4, 2", "inherit, 4, 4", "inherit, 4, 2", "cart, 6, 6", "cart, 6, 2", "dtypes, 2, 2",
        "dtypes, 2, 1", "ops, 5, 3", "ops, 2, 2", "win-rmw, 4, 4", "win-rmw, 3, 1", "waitall-error, 2, 2", "waitall-error, 2, 1", "inplace, 4, 4",
        "inplace, 3, 1", "inplace, 5, 2", "self, 2, 2", "self, 2, 1", "bad-args, 2, 2"})
    void shouldConform(final String scenario, final int n, final int nodes)
    {
        Prun.run(PlatformProfile.pentium3He(), new Prun.Options(n, nodes, false, 0, Map.of()), Program.class, scenario)
            .throwIfFailed();
    }

    /** The same programs with link CRC errors ({@code crcErrorRate}): nothing lost, duplicated or reordered. */
    @ParameterizedTest(name = "{0}: {1} ranks on {2} nodes, crcErrorRate {3}")
    @CsvSource({"order, 3, 3, 0.1", "mprobe, 3, 3, 0.1", "sendrecv, 4, 4, 0.2", "win, 3, 3, 0.1", "nbc-mixed, 4, 4, 0.1",
        "truncate, 2, 2, 0.2", "vcoll, 5, 3, 0.1", "intercomm, 5, 5, 0.1", "dtypes, 2, 2, 0.2", "win-rmw, 4, 4, 0.1", "groups, 6, 6, 0.05"})
    void shouldConformWithLinkErrors(final String scenario, final int n, final int nodes, final double crc)
    {
        final PlatformProfile p = PlatformProfile.pentium3He();
        Prun.run(p.withFabric(p.fabric().withCrcErrorRate(crc)), new Prun.Options(n, nodes, false, 0, Map.of()), Program.class,
            scenario).throwIfFailed();
    }

    /**
     * A rank that fails while the others wait in {@code barrier} (a hardware barrier): the job ends
     * with the failure and the report of who waits for what, rather than running for ever.
     */
    @org.junit.jupiter.api.Test
    void shouldEndAJobOneOfWhoseRanksFailedWhileTheOthersWaitInABarrier()
    {
        final org.qsnet.fabric.engine.SimulationException e = org.junit.jupiter.api.Assertions.assertThrows(
            org.qsnet.fabric.engine.SimulationException.class, () -> Prun.run(PlatformProfile.pentium3He(), new Prun.Options(4, 4,
                false, 0, Map.of()), Program.class, "fail-in-barrier").throwIfFailed());
        org.junit.jupiter.api.Assertions.assertTrue(e.getMessage().contains("rank 1 fails on purpose")
            && e.getMessage().contains("barrier"), e.getMessage());
    }
}
