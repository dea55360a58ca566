package mpitest;

import static mpitest.Job.check;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.concurrent.TimeUnit;

import mpi.CartComm;
import mpi.Datatype;
import mpi.MPI;
import mpi.MPIException;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.qsnet.elan3.Prun;
import org.qsnet.fabric.engine.SimulationException;
import org.qsnet.fabric.machine.PlatformProfile;
import org.qsnet.tports.RxEvent;
import org.qsnet.tports.Tport;
import org.qsnet.elan.ElanBase;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ErrorsTest
{
    /** A call that must fail with an error class and a message naming the argument. */
    @FunctionalInterface
    interface Call
    {
        void run() throws MPIException;
    }

    static void expect(final int errorClass, final String words, final Call call)
    {
        try
        {
            call.run();
        }
        catch (final MPIException e)
        {
            check(e.getErrorClass() == errorClass, "error class " + e.getErrorClass() + " instead of " + errorClass
                + ": " + e.getMessage());
            check(e.getMessage().contains(words), "message '" + e.getMessage() + "' does not name '" + words + "'");
            return;
        }
        throw new AssertionError("no MPIException (expected class " + errorClass + ", " + words + ")");
    }

    /** Bad arguments under ERRORS_RETURN. */
    public static final class BadArguments
    {
        public static void main(final String[] args) throws MPIException
        {
            expect(MPI.ERR_OTHER, "not initialized", () -> MPI.COMM_WORLD.getRank());
            MPI.Init(args);
            MPI.COMM_WORLD.setErrhandler(MPI.ERRORS_RETURN);
            final int n = MPI.COMM_WORLD.getSize();
            final int rank = MPI.COMM_WORLD.getRank();
            final int[] ints = new int[4];
            expect(MPI.ERR_RANK, "dest " + n, () -> MPI.COMM_WORLD.send(ints, 1, MPI.INT, n, 0));
            expect(MPI.ERR_RANK, "source -7", () -> MPI.COMM_WORLD.recv(ints, 1, MPI.INT, -7, 0));
            expect(MPI.ERR_COUNT, "count -1", () -> MPI.COMM_WORLD.send(ints, -1, MPI.INT, 0, 0));
            expect(MPI.ERR_TAG, "tag -5", () -> MPI.COMM_WORLD.send(ints, 1, MPI.INT, 0, -5));
            expect(MPI.ERR_TAG, "tag " + (MPI.TAG_UB + 1), () -> MPI.COMM_WORLD.iSend(ints, 1, MPI.INT, 0, MPI.TAG_UB + 1));
            expect(MPI.ERR_TYPE, "does not match datatype MPI_DOUBLE", () -> MPI.COMM_WORLD.send(ints, 1, MPI.DOUBLE, 0, 0));
            expect(MPI.ERR_BUFFER, "count 5", () -> MPI.COMM_WORLD.send(ints, 5, MPI.INT, 0, 0));
            expect(MPI.ERR_BUFFER, "must be a Java primitive array", () -> MPI.COMM_WORLD.send("text", 1, MPI.INT, 0, 0));
            expect(MPI.ERR_ROOT, "root " + n, () -> MPI.COMM_WORLD.bcast(ints, 1, MPI.INT, n));
            expect(MPI.ERR_OP, "MPI_MAXLOC", () -> MPI.COMM_WORLD.allReduce(ints, new int[4], 1, MPI.INT, MPI.MAXLOC));
            final Datatype raw = Datatype.createContiguous(2, MPI.INT);
            expect(MPI.ERR_TYPE, "not committed", () -> MPI.COMM_WORLD.send(ints, 1, raw, 0, 0));
            // a message longer than the receive
            final int right = (rank + 1) % n;
            final int left = (rank - 1 + n) % n;
            MPI.COMM_WORLD.iSend(new int[] {1, 2, 3, 4}, 4, MPI.INT, right, 9);
            expect(MPI.ERR_TRUNCATE, "does not fit", () -> MPI.COMM_WORLD.recv(new int[2], 2, MPI.INT, left, 9));
            MPI.Finalize();
        }
    }

    /** A bad argument under the default handler (ERRORS_ARE_FATAL) ends the rank. */
    public static final class Fatal
    {
        public static void main(final String[] args) throws MPIException
        {
            MPI.Init(args);
            MPI.COMM_WORLD.send(new int[1], 1, MPI.INT, 5, 0);
        }
    }

    /**
     * A Cartesian call's error under the default handler (ERRORS_ARE_FATAL) ends the rank like any
     * other call's (they threw their MPIException past the handler); under ERRORS_RETURN it is
     * thrown, and {@code sub} checks its argument's length.
     */
    public static final class FatalCart
    {
        public static void main(final String[] args) throws MPIException
        {
            MPI.Init(args);
            final CartComm cart = MPI.COMM_WORLD.createCart(new int[] {2, 1}, new boolean[] {false, false}, false);
            cart.setErrhandler(MPI.ERRORS_RETURN);
            try
            {
                cart.sub(new boolean[] {true});
                throw new AssertionError("sub with 1 of 2 dimensions accepted");
            }
            catch (final MPIException e)
            {
                if (e.getErrorClass() != MPI.ERR_ARG || !e.getMessage().contains("remainDims has 1 entries for a grid of 2"))
                {
                    throw new AssertionError("sub: class " + e.getErrorClass() + ": " + e.getMessage());
                }
            }
            cart.setErrhandler(MPI.ERRORS_ARE_FATAL);
            cart.getRank(new int[] {Integer.parseInt(args[0]), 0});
            MPI.Finalize();
        }
    }

    /** Two blocking synchronous sends to each other: neither can complete. */
    public static final class Deadlock
    {
        public static void main(final String[] args) throws MPIException
        {
            MPI.Init(args);
            final int other = 1 - MPI.COMM_WORLD.getRank();
            MPI.COMM_WORLD.sSend(new int[1], 1, MPI.INT, other, 0);
            MPI.COMM_WORLD.recv(new int[1], 1, MPI.INT, other, 0);
            MPI.Finalize();
        }
    }

    @Test
    void shouldReturnTheRightErrorClassForEachBadArgument()
    {
        Job.run(3, BadArguments.class);
    }

    @Test
    void shouldEndTheJobUnderErrorsAreFatal()
    {
        final SimulationException e = assertThrows(SimulationException.class, () -> Job.run(2, Fatal.class));
        assertTrue(e.getMessage().contains("MPI error on MPI_COMM_WORLD (MPI.ERRORS_ARE_FATAL; error class 6)")
            && e.getMessage().contains("dest 5 is outside MPI_COMM_WORLD"), e.getMessage());
    }

    @Test
    void shouldEndTheJobWhenACartesianCallFailsUnderErrorsAreFatal()
    {
        final SimulationException e = assertThrows(SimulationException.class, () -> Job.run(2, FatalCart.class, "5"));
        assertTrue(e.getMessage().contains("(MPI.ERRORS_ARE_FATAL; error class " + MPI.ERR_ARG + ")")
            && e.getMessage().contains("getRank: coordinate 5 is outside dimension 0 (0..1)"), e.getMessage());
    }

    /** Rank 1 aborts; rank 0 spins on {@code iProbe} for a message rank 1 will never send. */
    public static final class AbortWhileAPeerSpins
    {
        public static void main(final String[] args) throws MPIException
        {
            MPI.Init(args);
            if (MPI.COMM_WORLD.getRank() == 1)
            {
                MPI.COMM_WORLD.abort(3);
            }
            while (MPI.COMM_WORLD.iProbe(1, 0) == null)
            {
                // poll, as a progress loop would
            }
            MPI.Finalize();
        }
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void shouldEndEveryRankWhenOneCallsAbortEvenARankThatSpins()
    {
        // MPI_Abort "attempts to abort all tasks": before 2026-11-25 only the caller ended, and a
        // rank polling for it ran until the test's time-out
        final SimulationException e = assertThrows(SimulationException.class, () -> Job.run(2, AbortWhileAPeerSpins.class));
        final String m = e.getMessage();
        assertTrue(m.startsWith("job 0 rank 1 failed: org.qsnet.fabric.QsnetException: MPI_Abort(MPI_COMM_WORLD, 3) called by"
            + " rank 1; then the run was ended at "), m);
        assertTrue(m.contains("job 0 rank 0: RUNNING") && m.contains("in Comm.iProbe, called at "
            + AbortWhileAPeerSpins.class.getName() + ".main(ErrorsTest.java:"), m);
    }

    @Test
    void shouldReportTwoBlockingSynchronousSendsAsADeadlock()
    {
        final SimulationException e = assertThrows(SimulationException.class, () -> Job.run(2, Deadlock.class));
        final String m = e.getMessage();
        assertTrue(m.contains("deadlock"), m);
        for (final int r : new int[] {0, 1})
        {
            assertTrue(m.contains("job 0 rank " + r + ": BLOCKED") && m.contains("in Comm.sSend, called at "
                + Deadlock.class.getName() + ".main(ErrorsTest.java:"), m);
            assertTrue(m.contains("waits for Tports synchronous send of tag 0, 4 B to VP " + (1 - r)), m);
        }
    }

    /**
     * One-way time of an 8-byte MPI message into a posted receive on pentium3-he: Tports' time
     * plus exactly the MPI layer's modelled host work on the sender (MPI_Send's entry, the device
     * layer's call, the request descriptor by PIO); the receiver's entry is hidden behind the wait.
     */
    @Test
    void shouldTakeExactlyTportsTimePlusTheMpiSendWorkForASmallMessage()
    {
        final PlatformProfile p3 = PlatformProfile.pentium3He();
        final long[] mpi = new long[1];
        final long[] tports = new long[1];
        Prun.run(p3, new Prun.Options(2, 2, false, 0, Map.of()), (p, a) ->
        {
            MPI.Init(a);
            final int rank = MPI.COMM_WORLD.getRank();
            final long[] buf = new long[1];
            for (int i = 0; i < 3; i++)
            {
                final long slot = 100_000L * (i + 1);
                if (rank == 1)
                {
                    final var r = MPI.COMM_WORLD.iRecv(buf, 1, MPI.LONG, 0, i);
                    p.sim().advance(slot - p.nowNs());
                    r.waitFor();
                    mpi[0] = p.nowNs() - slot;
                    check(buf[0] == 42 + i, "data");
                }
                else
                {
                    p.sim().advance(slot - p.nowNs());
                    buf[0] = 42 + i;
                    MPI.COMM_WORLD.send(buf, 1, MPI.LONG, 1, i);
                }
            }
            MPI.Finalize();
        }).throwIfFailed();
        Prun.run(p3, new Prun.Options(2, 2, false, 0, Map.of()), (p, a) ->
        {
            final ElanBase base = ElanBase.baseInit(0);
            final Tport tp = Tport.init(base);
            final long buf = base.allocMain(64, 64);
            for (int i = 0; i < 3; i++)
            {
                final long slot = 100_000L * (i + 1);
                if (base.vp() == 1)
                {
                    final RxEvent rx = tp.rxStart(0, -1, 0, -1, i, buf, 8);
                    p.sim().advance(slot - p.nowNs());
                    rx.rxWait();
                    tports[0] = p.nowNs() - slot;
                }
                else
                {
                    p.sim().advance(slot - p.nowNs());
                    tp.txStart(0, 1, 0, i, buf, 8).txWait();
                }
            }
        }).throwIfFailed();
        // MPI_Send's entry, the device layer's call and its 5-word request descriptor by PIO
        assertEquals(tports[0] + 2 * p3.hostCallNs() + 5 * p3.pioWriteNs(), mpi[0]);
        assertEquals(4987, mpi[0]);
    }
}
