package mpitest;

import static mpitest.Job.check;

import java.util.concurrent.TimeUnit;

import mpi.Count;
import mpi.GRequest;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;
import mpi.Status;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Generalised requests: start, complete, the query/free/cancel callbacks, mixing with other requests. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class GRequestTest
{
    /** The state of one user-defined operation. */
    static final class Op
    {
        int queried;
        int freed;
        boolean cancelled;
        int cancelCalls;
        boolean cancelSawComplete;
    }

    public static final class Program
    {
        static GRequest start(final Op op, final int elements) throws MPIException
        {
            return GRequest.start((state, status) ->
            {
                final Op o = (Op)state;
                o.queried++;
                status.setElements(MPI.INT, elements);
                status.setCancelled(o.cancelled);
            }, state -> ((Op)state).freed++, (state, complete) ->
            {
                final Op o = (Op)state;
                o.cancelCalls++;
                o.cancelSawComplete = complete;
                o.cancelled = !complete;
            }, op);
        }

        public static void main(final String[] args) throws MPIException
        {
            MPI.Init(args);
            final int rank = MPI.COMM_WORLD.getRank();
            final int n = MPI.COMM_WORLD.getSize();

            // an operation carried out by point-to-point messages, completed by the program
            final Op a = new Op();
            final GRequest g = start(a, 5);
            check(!g.test(), "test succeeded before complete()");
            final int[] got = new int[1];
            final Request r = MPI.COMM_WORLD.iRecv(got, 1, MPI.INT, (rank - 1 + n) % n, 3);
            MPI.COMM_WORLD.send(new int[] {rank}, 1, MPI.INT, (rank + 1) % n, 3);
            check(!Request.testAll(new Request[] {g, r}), "testAll with an incomplete generalised request");
            r.waitFor();
            g.complete();
            final Status s = g.waitStatus();
            check(s.getCount(MPI.INT) == 5 && s.getElements(MPI.INT) == 5, "count from the query function");
            check(!s.isCancelled(), "not cancelled");
            check(a.queried == 1 && a.freed == 1, "query " + a.queried + ", free " + a.freed);
            check(g.isNull() || g.test(), "the completed request is inactive");
            check(a.queried == 1 && a.freed == 1, "a second test ran the callbacks again");
            check(got[0] == (rank - 1 + n) % n, "the operation's message");

            // waitAny over a generalised request and a receive
            final Op b = new Op();
            final GRequest g2 = start(b, 2);
            g2.complete();
            final Status any = Request.waitAnyStatus(new Request[] {MPI.COMM_WORLD.iRecv(new int[1], 1, MPI.INT,
                MPI.ANY_SOURCE, 99), g2});
            check(any.getIndex() == 1 && any.getElementsX(MPI.INT).equals(new Count(2)), "waitAny picked index "
                + any.getIndex());

            // cancel before completion: the cancel function decides, the query reports it
            final Op c = new Op();
            final GRequest g3 = start(c, 0);
            g3.cancel();
            g3.complete();
            final Status cs = g3.waitStatus();
            check(c.cancelCalls == 1 && !c.cancelSawComplete && cs.isCancelled(), "cancel before complete");
            final Op c2 = new Op();
            final GRequest g4 = start(c2, 1);
            g4.complete();
            g4.cancel();
            check(c2.cancelSawComplete && !g4.waitStatus().isCancelled(), "cancel after complete");

            // free before completion: the free function runs at complete()
            final Op d = new Op();
            final GRequest g5 = start(d, 1);
            g5.free();
            check(d.freed == 0, "freed before complete");
            g5.complete();
            check(d.freed == 1 && d.queried == 0, "free ran at complete, query never");

            // set_elements_x with a Count
            final GRequest g6 = GRequest.start((state, status) -> status.setElementsX(MPI.DOUBLE, new Count(7)), null,
                null, null);
            g6.complete();
            check(g6.waitStatus().getElementsX(MPI.DOUBLE).getCount() == 7, "setElementsX");

            // waiting for one nothing will complete is a deadlock, reported instead of hanging
            MPI.COMM_WORLD.setErrhandler(MPI.ERRORS_RETURN);
            final GRequest never = start(new Op(), 0);
            try
            {
                never.waitFor();
                check(false, "wait on an incomplete generalised request returned");
            }
            catch (final MPIException e)
            {
                check(e.getErrorClass() == MPI.ERR_REQUEST && e.getMessage().contains("deadlock"),
                    "deadlock report: " + e.getMessage());
            }
            MPI.Finalize();
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3})
    void programCompletesItsOwnOperations(final int n)
    {
        Job.run(n, Program.class);
    }
}
