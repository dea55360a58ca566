package mpitest;

import static mpitest.Job.check;

import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import mpi.CartComm;
import mpi.Datatype;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Op;
import mpi.Prequest;
import mpi.Request;
import mpi.ShiftParms;
import mpi.Status;
import mpi.UserFunction;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.qsnet.elan3.Prun;
import org.qsnet.fabric.machine.PlatformProfile;

/**
 * The second outside conformance round for the MPI layer: programs written from the Open MPI Java
 * bindings' documentation and the MPI standard's rules they cite (not from this project's
 * examples), launched as {@code prun} launches a job. Each scenario's ranks check what they see and
 * throw when it differs (which fails the job):
 * <ul>
 * <li>persistent requests: {@code sendInit}/{@code recvInit}/{@code startAll} over several rounds
 * (the send buffer is read at each start), and inactive persistent requests ignored by
 * {@code waitAny}/{@code testAny}/{@code waitSome}/{@code testSome} ("the same rule applies to
 * persistent handles that are not associated with an active communication operation");</li>
 * <li>{@code sSend} completing only once a receive has matched it, small and large;</li>
 * <li>{@code bSend} with an attached buffer: local completion without a receive, ERR_BUFFER
 * without a buffer or when it is full, {@code detachBuffer} returning the attached array;</li>
 * <li>probe with ANY_SOURCE/ANY_TAG and {@code getCount}/{@code getElements} for basic and
 * derived datatypes;</li>
 * <li>derived datatypes (vector, indexed, contiguous, resized vector) in point-to-point and
 * collectives;</li>
 * <li>reductions with predefined and non-commutative user operations on odd counts and
 * non-power-of-two rank counts (reduce, allReduce, scan, exScan, reduceScatter);</li>
 * <li>gatherv/scatterv/allToAllv with zero counts;</li>
 * <li>{@code split} with {@code MPI.UNDEFINED}, cartesian {@code shift} with PROC_NULL ends;</li>
 * <li>error classes on a bad rank, tag, count, root and an uncommitted datatype.</li>
 * </ul>
 *
 * <p>Defects found and fixed: waitAny/testAny/waitSome returned an inactive persistent request
 * (never started, or completed and waited for) as completed; a wait on an inactive request returned
 * the last round's status, and an empty status named PROC_NULL as source (MPI: ANY_SOURCE);
 * sendInit/recvInit accepted a bad rank or tag (found only at start); and (fixed in Elanlib) a
 * message from the only rank of a node to a rank of a fuller node went to the wrong queue address
 * ("queued DMA of 80 bytes does not fit the queue's 4-byte slots", datatypes at 5 ranks on 3 nodes).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class OutsideRound2Test
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
                case "persistent" -> persistent();
                case "inactive" -> inactive();
                case "completed-null" -> completedNull();
                case "ssend" -> ssend();
                case "bsend" -> bsend();
                case "probe" -> probe();
                case "datatypes" -> datatypes();
                case "reductions" -> reductions();
                case "zero-counts" -> zeroCounts();
                case "split-cart" -> splitCart();
                case "errors" -> errors();
                default -> throw new IllegalArgumentException(args[0]);
            }
            world.barrier();
            MPI.Finalize();
        }

        static void fail(final String what)
        {
            throw new AssertionError("rank " + rank + ": " + what);
        }

        static void ok(final boolean b, final String what)
        {
            check(b, "rank " + rank + ": " + what);
        }

        // ------------------------------------------------------------------ persistent requests

        /** 2+ ranks: three rounds of a persistent standard and a persistent synchronous send, received by persistent receives. */
        static void persistent() throws MPIException
        {
            if (rank == 0)
            {
                final int[] a = new int[5];
                final double[] d = new double[70_000];
                final Prequest[] s = {world.sendInit(a, 5, MPI.INT, 1, 11), world.sSendInit(d, d.length, MPI.DOUBLE, 1, 12)};
                for (int round = 0; round < 3; round++)
                {
                    for (int i = 0; i < a.length; i++)
                    {
                        a[i] = round * 100 + i;
                    }
                    Arrays.fill(d, round + 0.5);
                    Prequest.startAll(s);
                    Request.waitAll(s);
                }
                // a completed persistent request is inactive: a test says complete at once, a wait returns an empty status
                ok(s[0].test(), "test of an inactive persistent send is false");
                final Status e = s[1].waitStatus();
                ok(e.getSource() == MPI.ANY_SOURCE && e.getTag() == MPI.ANY_TAG && e.getCount(MPI.BYTE) == 0,
                    "wait on an inactive persistent request: source " + e.getSource() + " tag " + e.getTag() + " count "
                        + e.getCount(MPI.BYTE) + ", expected an empty status");
                s[0].free();
                s[1].free();
            }
            else if (rank == 1)
            {
                final int[] a = new int[5];
                final double[] d = new double[70_000];
                final Prequest ra = world.recvInit(a, 5, MPI.INT, 0, 11);
                final Prequest rd = world.recvInit(d, d.length, MPI.DOUBLE, MPI.ANY_SOURCE, MPI.ANY_TAG);
                for (int round = 0; round < 3; round++)
                {
                    Arrays.fill(a, -1);
                    Arrays.fill(d, -1);
                    ra.start();
                    rd.start();
                    final Status sa = ra.waitStatus();
                    final Status sd = rd.waitStatus();
                    ok(sa.getSource() == 0 && sa.getTag() == 11 && sa.getCount(MPI.INT) == 5, "round " + round + ": " + sa);
                    ok(sd.getSource() == 0 && sd.getTag() == 12 && sd.getCount(MPI.DOUBLE) == 70_000, "round " + round + ": " + sd);
                    for (int i = 0; i < a.length; i++)
                    {
                        ok(a[i] == round * 100 + i, "round " + round + " a[" + i + "] = " + a[i]
                            + " (the send buffer must be read at start)");
                    }
                    ok(d[0] == round + 0.5 && d[69_999] == round + 0.5, "round " + round + " d = " + d[0] + ".." + d[69_999]);
                }
                final Status again = ra.waitStatus();
                ok(again.getSource() == MPI.ANY_SOURCE && again.getTag() == MPI.ANY_TAG && again.getCount(MPI.INT) == 0,
                    "wait on a completed (inactive) persistent receive: source " + again.getSource() + " tag " + again.getTag()
                        + " count " + again.getCount(MPI.INT) + ", expected an empty status");
                ra.free();
                rd.free();
            }
        }

        /**
         * A non-persistent request that a wait or test reported complete is MPI_REQUEST_NULL (the
         * Java binding's handle is replaced by the null handle: {@code isNull()}); a second wait on
         * it returns an empty status at once; {@code testAnyStatus} over only such requests returns
         * an empty status with index UNDEFINED (MPI_TESTANY's flag is true), not null; a persistent
         * request stays a request.
         */
        static void completedNull() throws MPIException
        {
            final int peer = 1 - rank;
            final int[] in = {-1};
            final Request r = world.iRecv(in, 1, MPI.INT, peer, 11);
            final Request s = world.iSend(new int[] {40 + rank}, 1, MPI.INT, peer, 11);
            ok(!r.isNull() && !s.isNull(), "a request just started is null");
            s.waitFor();
            final Status st = r.waitStatus();
            ok(in[0] == 40 + peer && st.getSource() == peer && st.getTag() == 11, "received " + in[0] + " from "
                + st.getSource() + " tag " + st.getTag());
            ok(r.isNull() && s.isNull(), "after their waits: isNull " + r.isNull() + ", " + s.isNull() + ", expected both");
            final Status again = r.waitStatus();
            ok(again.getSource() == MPI.ANY_SOURCE && again.getTag() == MPI.ANY_TAG,
                "a second wait returned source " + again.getSource() + " tag " + again.getTag() + ", expected an empty status");
            final Status any = Request.testAnyStatus(new Request[] {r, s});
            ok(any != null && any.getIndex() == MPI.UNDEFINED, "testAnyStatus over completed requests returned "
                + (any == null ? "null" : "index " + any.getIndex()) + ", expected an empty status with index UNDEFINED");
            ok(Request.testAny(new Request[] {r, s}) == MPI.UNDEFINED, "testAny over completed requests");
            // test() completes a request too
            final Request t = world.iSend(new int[] {1}, 1, MPI.INT, peer, 12);
            final int[] got = {0};
            final Request u = world.iRecv(got, 1, MPI.INT, peer, 12);
            while (!u.test())
            {
                world.iProbe(peer, 99);
            }
            t.waitFor();
            ok(u.isNull() && t.isNull(), "after test() and waitFor(): isNull " + u.isNull() + ", " + t.isNull());
            // testAnyStatus with an active request that has not completed: null
            final Request pending = world.iRecv(new int[1], 1, MPI.INT, peer, 13);
            ok(Request.testAnyStatus(new Request[] {r, pending}) == null, "testAnyStatus before the message is not null");
            world.barrier();
            world.send(new int[] {2}, 1, MPI.INT, peer, 13);
            pending.waitFor();
            // a persistent request is never null after a wait: it becomes inactive
            final Prequest p = world.sendInit(new int[] {3}, 1, MPI.INT, peer, 14);
            final Prequest q = world.recvInit(new int[1], 1, MPI.INT, peer, 14);
            q.start();
            p.start();
            Request.waitAll(new Request[] {p, q});
            ok(!p.isNull() && !q.isNull(), "a persistent request is null after its wait");
            p.free();
            q.free();
        }

        /** 2 ranks: inactive persistent requests (never started, or completed) are ignored by the any/some calls. */
        static void inactive() throws MPIException
        {
            final int peer = 1 - rank;
            final int[] x = {-1};
            final Prequest never = world.recvInit(new int[1], 1, MPI.INT, peer, 99);
            final Prequest done = world.sendInit(new int[] {7}, 1, MPI.INT, peer, 98);
            final int[] y = {-1};
            final Prequest doneRecv = world.recvInit(y, 1, MPI.INT, peer, 98);
            doneRecv.start();
            done.start();
            Request.waitAll(new Request[] {done, doneRecv});
            ok(y[0] == 7, "persistent round trip got " + y[0]);

            final Request[] onlyInactive = {never, MPI.REQUEST_NULL, done, doneRecv};
            ok(Request.waitAny(onlyInactive) == MPI.UNDEFINED, "waitAny over inactive persistent and null requests returned "
                + "an index, expected MPI.UNDEFINED");
            ok(Request.testAny(onlyInactive) == MPI.UNDEFINED, "testAny over inactive requests returned an index");
            final int[] some = Request.waitSome(onlyInactive);
            ok(some == null, "waitSome over inactive requests returned " + Arrays.toString(some) + ", expected null (outcount UNDEFINED)");
            ok(Request.testAll(onlyInactive), "testAll over inactive requests is false");

            // one active receive among inactive ones: waitAny must return its index, not an inactive one's
            world.barrier();
            if (rank == 0)
            {
                final Request r = world.iRecv(x, 1, MPI.INT, 1, 5);
                final Request[] mixed = {never, done, r, doneRecv};
                final int[] t = Request.testSome(mixed);
                ok(t != null && t.length == 0, "testSome before the message: " + Arrays.toString(t) + ", expected none");
                world.barrier();
                final int i = Request.waitAny(mixed);
                ok(i == 2, "waitAny returned " + i + ", expected the only active request (2)");
                ok(x[0] == 55, "received " + x[0]);
            }
            else
            {
                world.barrier();
                world.send(new int[] {55}, 1, MPI.INT, 0, 5);
            }
            never.free();
            done.free();
            doneRecv.free();
        }

        // ------------------------------------------------------------------ synchronous and buffered sends

        /** 2 ranks: an sSend is not complete before the receive is posted (4 B and 200 KB). */
        static void ssend() throws MPIException
        {
            for (final int n : new int[] {4, 200_000})
            {
                if (rank == 0)
                {
                    final byte[] b = new byte[n];
                    b[n - 1] = 42;
                    final Request r = world.iSSend(b, n, MPI.BYTE, 1, 3);
                    final double t0 = MPI.wtime();
                    int polls = 0;
                    while (MPI.wtime() - t0 < 300e-6)
                    {
                        ok(!r.test(), n + "-byte iSSend complete before any receive was posted (poll " + polls + ")");
                        polls++;
                    }
                    world.barrier();
                    r.waitFor();
                    // a blocking sSend returns only after the receiver posted (rank 1 computes 500 us first)
                    final double t1 = MPI.wtime();
                    world.sSend(b, n, MPI.BYTE, 1, 4);
                    final double took = MPI.wtime() - t1;
                    ok(took >= 400e-6, "blocking " + n + "-byte sSend returned after " + took * 1e6
                        + " us, before the receive (posted 500 us later)");
                }
                else if (rank == 1)
                {
                    world.barrier();
                    final byte[] b = new byte[n];
                    world.recv(b, n, MPI.BYTE, 0, 3);
                    ok(b[n - 1] == 42, "ssend data");
                    final double t = MPI.wtime();
                    while (MPI.wtime() - t < 500e-6)
                    {
                        // compute: the receive is posted later
                        world.iProbe(0, 999);
                    }
                    world.recv(b, n, MPI.BYTE, 0, 4);
                }
                world.barrier();
            }
        }

        /** 2 ranks: buffered sends. */
        static void bsend() throws MPIException
        {
            world.setErrhandler(MPI.ERRORS_RETURN);
            if (rank == 0)
            {
                try
                {
                    world.bSend(new byte[100], 100, MPI.BYTE, 1, 1);
                    fail("bSend with no buffer attached succeeded");
                }
                catch (final MPIException e)
                {
                    ok(e.getErrorClass() == MPI.ERR_BUFFER, "bSend without a buffer: class " + e.getErrorClass() + " " + e);
                }
                final byte[] att = new byte[3 * (400 + MPI.BSEND_OVERHEAD)];
                MPI.attachBuffer(att);
                try
                {
                    world.bSend(new byte[att.length], att.length, MPI.BYTE, 1, 1);
                    fail("bSend larger than the whole attached buffer succeeded");
                }
                catch (final MPIException e)
                {
                    ok(e.getErrorClass() == MPI.ERR_BUFFER, "oversized bSend: class " + e.getErrorClass() + " " + e);
                }
                for (int i = 0; i < 3; i++)
                {
                    final int[] v = new int[100];
                    Arrays.fill(v, i + 1);
                    world.bSend(v, 100, MPI.INT, 1, 10 + i);
                    Arrays.fill(v, -9); // the buffer is reusable at once: the message was copied
                }
                try
                {
                    world.bSend(new int[100], 100, MPI.INT, 1, 13);
                    fail("a fourth 400-byte bSend into a buffer for three succeeded");
                }
                catch (final MPIException e)
                {
                    ok(e.getErrorClass() == MPI.ERR_BUFFER, "bSend into a full buffer: class " + e.getErrorClass() + " " + e);
                }
                world.barrier();
                final byte[] back = MPI.detachBuffer();
                ok(back == att, "detachBuffer did not return the attached array");
                // detached: bSend fails again
                try
                {
                    world.bSend(new byte[4], 4, MPI.BYTE, 1, 1);
                    fail("bSend after detach succeeded");
                }
                catch (final MPIException e)
                {
                    ok(e.getErrorClass() == MPI.ERR_BUFFER, "bSend after detach: class " + e.getErrorClass());
                }
            }
            else if (rank == 1)
            {
                world.barrier();
                for (int i = 0; i < 3; i++)
                {
                    final int[] v = new int[100];
                    final Status s = world.recv(v, 100, MPI.INT, 0, MPI.ANY_TAG);
                    ok(s.getTag() == 10 + i && s.getCount(MPI.INT) == 100, "buffered message " + i + ": " + s);
                    for (final int x : v)
                    {
                        ok(x == i + 1, "buffered message " + i + " holds " + x + " (the sender's later writes leaked)");
                    }
                }
                ok(world.iProbe(0, MPI.ANY_TAG) == null, "a message arrived from the refused bSends");
            }
        }

        // ------------------------------------------------------------------ probe and counts

        /** 3+ ranks. */
        static void probe() throws MPIException
        {
            final Datatype triple = Datatype.createContiguous(3, MPI.INT);
            triple.commit();
            if (rank == 1)
            {
                world.send(new double[3], 3, MPI.DOUBLE, 0, 21); // 24 bytes
                world.send(new int[9], 3, triple, 0, 22); // 3 triples, 36 bytes
            }
            else if (rank == 2)
            {
                world.send(new short[5], 5, MPI.SHORT, 0, 23); // 10 bytes
            }
            else if (rank == 0)
            {
                ok(world.iProbe(MPI.ANY_SOURCE, 77) == null, "iProbe for a tag nobody sent returned a status");
                boolean saw21 = false;
                boolean saw22 = false;
                boolean saw23 = false;
                for (int k = 0; k < 3; k++)
                {
                    final Status p = world.probe(MPI.ANY_SOURCE, MPI.ANY_TAG);
                    final Status again = world.probe(p.getSource(), p.getTag());
                    ok(again.getTag() == p.getTag(), "a probe consumed the message");
                    switch (p.getTag())
                    {
                        case 21 ->
                        {
                            ok(!saw22, "rank 1's second message probed before its first");
                            ok(p.getSource() == 1 && p.getCount(MPI.DOUBLE) == 3 && p.getCount(MPI.INT) == 6
                                && p.getCount(MPI.LONG) == 3 && p.getCount(MPI.SHORT) == 12 && p.getCount(MPI.BYTE) == 24
                                && p.getCount(triple) == 2, "24 bytes: counts " + p.getCount(MPI.INT) + "/" + p.getCount(triple));
                            ok(p.getCount(Datatype.createContiguous(5, MPI.INT)) == MPI.UNDEFINED,
                                "getCount of 24 bytes in 20-byte elements is not UNDEFINED");
                            world.recv(new double[3], 3, MPI.DOUBLE, 1, 21);
                            saw21 = true;
                        }
                        case 22 ->
                        {
                            ok(p.getCount(triple) == 3 && p.getElements(triple) == 9 && p.getCount(MPI.INT) == 9,
                                "3 triples: getCount " + p.getCount(triple) + " getElements " + p.getElements(triple));
                            final int[] got = new int[9];
                            final Status s = world.recv(got, 3, triple, 1, 22);
                            ok(s.getCount(triple) == 3 && s.getElements(triple) == 9, "recv of triples: " + s);
                            saw22 = true;
                        }
                        case 23 ->
                        {
                            ok(p.getSource() == 2 && p.getCount(MPI.SHORT) == 5 && p.getCount(MPI.INT) == MPI.UNDEFINED
                                && p.getCount(MPI.BYTE) == 10, "10 bytes: " + p.getCount(MPI.SHORT));
                            // a receive larger than the message: the count is what arrived
                            final short[] got = new short[50];
                            final Status s = world.recv(got, 50, MPI.SHORT, MPI.ANY_SOURCE, 23);
                            ok(s.getCount(MPI.SHORT) == 5 && s.getSource() == 2, "recv count " + s.getCount(MPI.SHORT));
                            saw23 = true;
                        }
                        default -> fail("probe saw tag " + p.getTag());
                    }
                }
                ok(saw21 && saw22 && saw23, "not every message probed");
            }
            triple.free();
        }

        // ------------------------------------------------------------------ derived datatypes

        /** 3+ ranks. */
        static void datatypes() throws MPIException
        {
            // a 4x5 row-major matrix; a column = vector(4, 1, 5)
            final Datatype column = Datatype.createVector(4, 1, 5, MPI.INT);
            column.commit();
            if (rank == 0)
            {
                final int[] m = new int[20];
                for (int i = 0; i < 20; i++)
                {
                    m[i] = i;
                }
                world.send(m, 1, column, 1, 1); // column 0 packed on the wire
                world.send(new int[] {100, 101, 102, 103}, 4, MPI.INT, 1, 2);
            }
            else if (rank == 1)
            {
                final int[] col = new int[4];
                final Status s = world.recv(col, 4, MPI.INT, 0, 1);
                ok(s.getCount(MPI.INT) == 4 && s.getCount(column) == 1, "a column as 4 ints: count " + s.getCount(MPI.INT));
                ok(Arrays.equals(col, new int[] {0, 5, 10, 15}), "column 0 received as " + Arrays.toString(col));
                final int[] c2 = new int[20];
                Arrays.fill(c2, -1);
                world.recv(c2, 1, column, 0, 2); // 4 contiguous ints scattered into column 0
                for (int i = 0; i < 20; i++)
                {
                    ok(c2[i] == (i % 5 == 0 ? 100 + i / 5 : -1), "column receive: element " + i + " = " + c2[i]);
                }
            }
            world.barrier();

            // indexed: blocks {2 at 0, 3 at 5, 1 at 9}
            final Datatype idx = Datatype.createIndexed(new int[] {2, 3, 1}, new int[] {0, 5, 9}, MPI.DOUBLE);
            idx.commit();
            final double[] src = new double[10];
            for (int i = 0; i < 10; i++)
            {
                src[i] = rank * 100 + i;
            }
            // gather one indexed element of every rank into contiguous doubles at the root
            final double[] all = new double[6 * size];
            world.gather(src, 1, idx, all, 6, MPI.DOUBLE, 0);
            if (rank == 0)
            {
                final int[] picked = {0, 1, 5, 6, 7, 9};
                for (int r = 0; r < size; r++)
                {
                    for (int k = 0; k < 6; k++)
                    {
                        ok(all[r * 6 + k] == r * 100 + picked[k], "gather of indexed: rank " + r + " item " + k + " = "
                            + all[r * 6 + k]);
                    }
                }
            }

            // a resized column (extent one int) gathers a transpose: root receives rank r's 4 ints into column r
            final Datatype col = Datatype.createVector(4, 1, size, MPI.INT);
            final Datatype colR = Datatype.createResized(col, 0, 1);
            colR.commit();
            final int[] mine = {rank * 10, rank * 10 + 1, rank * 10 + 2, rank * 10 + 3};
            final int[] t = new int[4 * size];
            world.gather(mine, 4, MPI.INT, t, 1, colR, 0);
            if (rank == 0)
            {
                for (int i = 0; i < 4; i++)
                {
                    for (int r = 0; r < size; r++)
                    {
                        ok(t[i * size + r] == r * 10 + i, "transpose [" + i + "][" + r + "] = " + t[i * size + r]);
                    }
                }
            }

            // bcast of a contiguous(3) of LONG, 2 elements
            final Datatype c3 = Datatype.createContiguous(3, MPI.LONG);
            c3.commit();
            final long[] b = new long[6];
            if (rank == size - 1)
            {
                for (int i = 0; i < 6; i++)
                {
                    b[i] = 1000L * i + 7;
                }
            }
            world.bcast(b, 2, c3, size - 1);
            for (int i = 0; i < 6; i++)
            {
                ok(b[i] == 1000L * i + 7, "bcast contiguous b[" + i + "] = " + b[i]);
            }
            column.free();
            idx.free();
            colR.free();
            c3.free();
        }

        // ------------------------------------------------------------------ reductions

        /** 2x2 integer matrices multiplied: associative, not commutative. */
        static final class MatMul extends UserFunction
        {
            @Override
            public void call(final Object in, final Object inOut, final int count, final Datatype type)
            {
                final int[] a = (int[])in;
                final int[] b = (int[])inOut;
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

        static int[] mul(final int[] a, final int[] b)
        {
            return new int[] {a[0] * b[0] + a[1] * b[2], a[0] * b[1] + a[1] * b[3], a[2] * b[0] + a[3] * b[2],
                a[2] * b[1] + a[3] * b[3]};
        }

        /** Any number of ranks (3, 5, 6). */
        static void reductions() throws MPIException
        {
            final int n = 7; // odd count
            final long[] v = new long[n];
            for (int i = 0; i < n; i++)
            {
                v[i] = (long)(rank + 1) * (i + 1) - 3L * (i % 2);
            }
            final long[] sum = new long[n];
            world.allReduce(v, sum, n, MPI.LONG, MPI.SUM);
            final long[] max = new long[n];
            world.reduce(v, max, n, MPI.LONG, MPI.MAX, size - 1);
            final long[] scan = new long[n];
            world.scan(v, scan, n, MPI.LONG, MPI.SUM);
            final long[] ex = new long[n];
            Arrays.fill(ex, -12345);
            world.exScan(v, ex, n, MPI.LONG, MPI.SUM);
            for (int i = 0; i < n; i++)
            {
                long s = 0;
                long upTo = 0;
                long before = 0;
                for (int r = 0; r < size; r++)
                {
                    final long x = (long)(r + 1) * (i + 1) - 3L * (i % 2);
                    s += x;
                    if (r <= rank)
                    {
                        upTo += x;
                    }
                    if (r < rank)
                    {
                        before += x;
                    }
                }
                ok(sum[i] == s, "allReduce SUM [" + i + "] = " + sum[i] + ", expected " + s);
                if (rank == size - 1)
                {
                    ok(max[i] == (long)size * (i + 1) - 3L * (i % 2), "reduce MAX at root " + (size - 1) + " [" + i + "] = " + max[i]);
                }
                ok(scan[i] == upTo, "scan [" + i + "] = " + scan[i] + ", expected " + upTo);
                if (rank > 0)
                {
                    ok(ex[i] == before, "exScan [" + i + "] = " + ex[i] + ", expected " + before);
                }
            }

            // non-commutative user op: the result must be m0*m1*...*m(size-1) in rank order
            final Op matmul = new Op(new MatMul(), false);
            final int[] mat = {rank + 1, 1, 2, rank}; // not triangular: order matters
            int[] want = {1, 0, 0, 1};
            int[] prefix = null;
            for (int r = 0; r < size; r++)
            {
                want = mul(want, new int[] {r + 1, 1, 2, r});
                if (r == rank)
                {
                    prefix = want.clone();
                }
            }
            final int[] red = new int[4];
            final int[] redAll = new int[4];
            final Datatype mt = Datatype.createContiguous(4, MPI.INT);
            mt.commit();
            world.allReduce(mat, redAll, 1, mt, matmul);
            ok(Arrays.equals(redAll, want), "allReduce of non-commutative matmul = " + Arrays.toString(redAll) + ", expected "
                + Arrays.toString(want));
            world.reduce(mat, red, 1, mt, matmul, 1);
            if (rank == 1)
            {
                ok(Arrays.equals(red, want), "reduce (root 1) of matmul = " + Arrays.toString(red) + ", expected "
                    + Arrays.toString(want));
            }
            final int[] sc = new int[4];
            world.scan(mat, sc, 1, mt, matmul);
            ok(Arrays.equals(sc, prefix), "scan of matmul = " + Arrays.toString(sc) + ", expected " + Arrays.toString(prefix));

            // reduceScatter: counts 0, 1, 2, ... (a zero at rank 0), odd total
            final int[] counts = new int[size];
            int total = 0;
            for (int r = 0; r < size; r++)
            {
                counts[r] = r;
                total += r;
            }
            final int[] in = new int[total];
            for (int i = 0; i < total; i++)
            {
                in[i] = i * (rank + 1);
            }
            final int[] out = new int[Math.max(1, rank)];
            Arrays.fill(out, -1);
            world.reduceScatter(in, out, counts, MPI.INT, MPI.SUM);
            int first = 0;
            for (int r = 0; r < rank; r++)
            {
                first += counts[r];
            }
            final int tri = size * (size + 1) / 2;
            for (int k = 0; k < rank; k++)
            {
                ok(out[k] == (first + k) * tri, "reduceScatter [" + k + "] = " + out[k] + ", expected " + (first + k) * tri);
            }
            if (rank == 0)
            {
                ok(out[0] == -1, "reduceScatter wrote into rank 0's buffer though its count is 0");
            }

            mt.free();
            matmul.free();
        }

        // ------------------------------------------------------------------ zero counts

        /** 3+ ranks: rank 1 contributes and receives nothing. */
        static void zeroCounts() throws MPIException
        {
            final int[] cnt = new int[size];
            final int[] disp = new int[size];
            int total = 0;
            for (int r = size - 1; r >= 0; r--)
            {
                cnt[r] = r == 1 ? 0 : r + 1;
                disp[r] = total; // displacements in reverse rank order
                total += cnt[r];
            }
            final int[] mine = new int[rank + 1];
            for (int i = 0; i <= rank; i++)
            {
                mine[i] = rank * 1000 + i;
            }
            final int[] g = new int[total + 1];
            Arrays.fill(g, -1);
            world.gatherv(mine, cnt[rank], MPI.INT, g, cnt, disp, MPI.INT, 2 % size);
            if (rank == 2 % size)
            {
                for (int r = 0; r < size; r++)
                {
                    for (int i = 0; i < cnt[r]; i++)
                    {
                        ok(g[disp[r] + i] == r * 1000 + i, "gatherv from " + r + " [" + i + "] = " + g[disp[r] + i]);
                    }
                }
                ok(g[total] == -1, "gatherv wrote past the last displacement");
            }
            final int[] sc = new int[rank + 2];
            Arrays.fill(sc, -1);
            final int[] src = new int[total];
            for (int i = 0; i < total; i++)
            {
                src[i] = 500 + i;
            }
            world.scatterv(src, cnt, disp, MPI.INT, sc, cnt[rank], MPI.INT, 0);
            for (int i = 0; i < cnt[rank]; i++)
            {
                ok(sc[i] == 500 + disp[rank] + i, "scatterv [" + i + "] = " + sc[i]);
            }
            ok(sc[cnt[rank]] == -1, "scatterv wrote past the count " + cnt[rank]);

            // allToAllv: rank r sends (r + d) % 2 items to rank d (0 between some pairs)
            final int[] scnt = new int[size];
            final int[] sdisp = new int[size];
            final int[] rcnt = new int[size];
            final int[] rdisp = new int[size];
            int so = 0;
            int ro = 0;
            for (int d = 0; d < size; d++)
            {
                scnt[d] = (rank + d) % 2 == 1 ? 2 : 0;
                sdisp[d] = so;
                so += scnt[d];
                rcnt[d] = (d + rank) % 2 == 1 ? 2 : 0;
                rdisp[d] = ro;
                ro += rcnt[d];
            }
            final int[] sb = new int[Math.max(1, so)];
            for (int d = 0; d < size; d++)
            {
                for (int k = 0; k < scnt[d]; k++)
                {
                    sb[sdisp[d] + k] = rank * 100 + d * 10 + k;
                }
            }
            final int[] rb = new int[Math.max(1, ro)];
            world.allToAllv(sb, scnt, sdisp, MPI.INT, rb, rcnt, rdisp, MPI.INT);
            for (int s = 0; s < size; s++)
            {
                for (int k = 0; k < rcnt[s]; k++)
                {
                    ok(rb[rdisp[s] + k] == s * 100 + rank * 10 + k, "allToAllv from " + s + " [" + k + "] = " + rb[rdisp[s] + k]);
                }
            }
            // a zero-count point-to-point message with a null-length buffer
            if (rank == 0)
            {
                world.send(new int[0], 0, MPI.INT, 1, 9);
            }
            else if (rank == 1)
            {
                final Status s = world.recv(new int[0], 0, MPI.INT, 0, 9);
                ok(s.getCount(MPI.INT) == 0 && s.getTag() == 9, "zero-count message: " + s);
            }
        }

        // ------------------------------------------------------------------ split and cartesian shift

        /** 6 ranks. */
        static void splitCart() throws MPIException
        {
            ok(size == 6, "needs 6 ranks");
            // colour: odd ranks UNDEFINED; even ranks keyed in reverse
            final Intracomm c = world.split(rank % 2 == 1 ? MPI.UNDEFINED : 0, -rank);
            if (rank % 2 == 1)
            {
                ok(c == null || c.isNull(), "split with MPI.UNDEFINED returned a communicator that is not COMM_NULL");
            }
            else
            {
                ok(c.getSize() == 3 && c.getRank() == (4 - rank) / 2, "split: size " + c.getSize() + " rank " + c.getRank());
                final int[] r = {rank};
                c.allReduce(r, 1, MPI.INT, MPI.SUM);
                ok(r[0] == 6, "allReduce over the even ranks = " + r[0]);
                c.free();
            }
            // ties in the key: ordered by old rank
            final Intracomm t = world.split(rank / 3, 0);
            ok(t.getRank() == rank % 3 && t.getSize() == 3, "split with equal keys: rank " + t.getRank());
            t.free();

            // 2 x 3 grid, periodic in dimension 1 only
            final CartComm cart = world.createCart(new int[] {2, 3}, new boolean[] {false, true}, false);
            final int[] xy = cart.getCoords(cart.getRank());
            final ShiftParms down = cart.shift(0, 1);
            final ShiftParms right = cart.shift(1, 1);
            final ShiftParms left2 = cart.shift(1, -2);
            final int expDownDest = xy[0] == 1 ? MPI.PROC_NULL : cart.getRank(new int[] {xy[0] + 1, xy[1]});
            final int expDownSrc = xy[0] == 0 ? MPI.PROC_NULL : cart.getRank(new int[] {xy[0] - 1, xy[1]});
            ok(down.getRankDest() == expDownDest && down.getRankSource() == expDownSrc, "shift(0,1) at " + Arrays.toString(xy)
                + ": source " + down.getRankSource() + " dest " + down.getRankDest());
            ok(right.getRankDest() == cart.getRank(new int[] {xy[0], (xy[1] + 1) % 3})
                && right.getRankSource() == cart.getRank(new int[] {xy[0], (xy[1] + 2) % 3}), "periodic shift(1,1)");
            ok(left2.getRankDest() == cart.getRank(new int[] {xy[0], (xy[1] + 1) % 3})
                && left2.getRankSource() == cart.getRank(new int[] {xy[0], (xy[1] + 2) % 3}), "periodic shift(1,-2) at "
                    + Arrays.toString(xy) + ": source " + left2.getRankSource() + " dest " + left2.getRankDest());
            // sendRecv along the non-periodic dimension: PROC_NULL ends complete at once with an empty-looking status
            final int[] in = {-7};
            final Status s = cart.sendRecv(new int[] {cart.getRank()}, 1, MPI.INT, down.getRankDest(), 4, in, 1, MPI.INT,
                down.getRankSource(), 4);
            if (down.getRankSource() == MPI.PROC_NULL)
            {
                ok(in[0] == -7, "a receive from PROC_NULL wrote the buffer");
                ok(s.getSource() == MPI.PROC_NULL && s.getTag() == MPI.ANY_TAG && s.getCount(MPI.INT) == 0,
                    "receive from PROC_NULL status: source " + s.getSource() + " tag " + s.getTag() + " count "
                        + s.getCount(MPI.INT));
            }
            else
            {
                ok(in[0] == down.getRankSource(), "shifted value " + in[0]);
            }
            final int[] dims = new int[2];
            CartComm.createDims(6, dims);
            ok(dims[0] == 3 && dims[1] == 2, "createDims(6) = " + Arrays.toString(dims));
            cart.free();
        }

        // ------------------------------------------------------------------ errors

        static void expect(final int cls, final String what, final Call call)
        {
            try
            {
                call.run();
                fail(what + ": no error");
            }
            catch (final MPIException e)
            {
                ok(e.getErrorClass() == cls, what + ": error class " + e.getErrorClass() + ", expected " + cls + " (" + e.getMessage()
                    + ")");
            }
            catch (final RuntimeException e)
            {
                fail(what + ": threw " + e + ", expected an MPIException of class " + cls);
            }
        }

        @FunctionalInterface
        interface Call
        {
            void run() throws MPIException;
        }

        /** 2+ ranks. */
        static void errors() throws MPIException
        {
            world.setErrhandler(MPI.ERRORS_RETURN);
            final int[] b = new int[4];
            expect(MPI.ERR_RANK, "send to rank size", () -> world.send(b, 1, MPI.INT, size, 0));
            expect(MPI.ERR_RANK, "iSend to rank -5", () -> world.iSend(b, 1, MPI.INT, -5, 0));
            expect(MPI.ERR_RANK, "recv from rank size", () -> world.recv(b, 1, MPI.INT, size, 0));
            expect(MPI.ERR_TAG, "send with tag -3", () -> world.send(b, 1, MPI.INT, 0, -3));
            expect(MPI.ERR_TAG, "send with ANY_TAG", () -> world.send(b, 1, MPI.INT, 0, MPI.ANY_TAG));
            expect(MPI.ERR_TAG, "iRecv with tag -3", () -> world.iRecv(b, 1, MPI.INT, 0, -3));
            expect(MPI.ERR_COUNT, "send of -1 ints", () -> world.send(b, -1, MPI.INT, 0, 0));
            expect(MPI.ERR_COUNT, "iRecv of -1 ints", () -> world.iRecv(b, -1, MPI.INT, 0, 0));
            expect(MPI.ERR_RANK, "sendInit to rank size", () -> world.sendInit(b, 1, MPI.INT, size, 0));
            expect(MPI.ERR_TAG, "recvInit with tag -3", () -> world.recvInit(b, 1, MPI.INT, 0, -3));
            expect(MPI.ERR_RANK, "probe of rank size", () -> world.iProbe(size, 0));
            expect(MPI.ERR_ROOT, "bcast with root size", () -> world.bcast(b, 1, MPI.INT, size));
            expect(MPI.ERR_ROOT, "reduce with root -1", () -> world.reduce(b, new int[4], 1, MPI.INT, MPI.SUM, -1));
            final Datatype unc = Datatype.createContiguous(2, MPI.INT);
            expect(MPI.ERR_TYPE, "send of an uncommitted datatype", () -> world.send(b, 1, unc, 0, 0));
            // nothing above may have left a message behind: a send to self then a receive still pair up
            final Request r = world.iRecv(b, 1, MPI.INT, rank, 3);
            world.send(new int[] {31}, 1, MPI.INT, rank, 3);
            r.waitFor();
            ok(b[0] == 31, "send to self after the errors got " + b[0]);
            ok(world.iProbe(MPI.ANY_SOURCE, MPI.ANY_TAG) == null, "a refused call left a message");
        }
    }

    @ParameterizedTest(name = "{0}: {1} ranks on {2} nodes")
    @CsvSource({"persistent, 2, 2", "persistent, 2, 1", "inactive, 2, 2", "completed-null, 2, 2", "completed-null, 2, 1", "ssend, 2, 2", "ssend, 2, 1", "bsend, 2, 2",
        "probe, 3, 3", "probe, 3, 1", "datatypes, 3, 3", "datatypes, 5, 3", "reductions, 3, 3", "reductions, 5, 5",
        "reductions, 6, 3", "zero-counts, 3, 3", "zero-counts, 5, 2", "split-cart, 6, 6", "errors, 2, 2",
        "datatypes, 2, 1", "zero-counts, 3, 1", "zero-counts, 4, 2", "persistent, 3, 2"})
    void shouldConform(final String scenario, final int n, final int nodes)
    {
        Prun.run(PlatformProfile.pentium3He(), new Prun.Options(n, nodes, false, 0, Map.of()), Program.class, scenario)
            .throwIfFailed();
    }

    /** The same programs with link CRC errors ({@code --set crcErrorRate}): every packet retried as needed, nothing lost. */
    @ParameterizedTest(name = "{0}: {1} ranks on {2} nodes, crcErrorRate {3}")
    @CsvSource({"persistent, 2, 2, 0.05", "datatypes, 5, 3, 0.05", "zero-counts, 5, 2, 0.1", "reductions, 6, 3, 0.05",
        "probe, 3, 3, 0.2"})
    void shouldConformWithLinkErrors(final String scenario, final int n, final int nodes, final double crc)
    {
        final PlatformProfile p = PlatformProfile.pentium3He();
        Prun.run(p.withFabric(p.fabric().withCrcErrorRate(crc)), new Prun.Options(n, nodes, false, 0, Map.of()), Program.class,
            scenario).throwIfFailed();
    }
}
