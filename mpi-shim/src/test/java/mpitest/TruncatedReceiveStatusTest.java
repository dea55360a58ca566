package mpitest;

import static mpitest.Job.check;

import java.util.Map;
import java.util.concurrent.TimeUnit;

import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;
import mpi.Status;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.qsnet.elan3.Prun;
import org.qsnet.fabric.machine.PlatformProfile;

/**
 * The status of a receive whose message was longer than its buffer, as a program written from the
 * Open MPI Java bindings' documentation reads it: {@code Request.getStatus()}
 * ({@code MPI_Request_get_status}) of a completed {@code iRecv} from {@code ANY_SOURCE}/{@code ANY_TAG}
 * gives the sender's rank and the message's tag with {@code MPI_ERR_TRUNCATE} in {@code getError()}, as
 * Open MPI's does, and the wait that completes it fails with {@code MPI_ERR_TRUNCATE} naming them.
 * Small (inline) and large messages, through the NIC (one rank per node) and through shared memory
 * (ranks on one node), on {@code COMM_WORLD} and on a communicator whose ranks are not the world's.
 * Before the fix the status said {@code ANY_SOURCE} and {@code ANY_TAG}.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class TruncatedReceiveStatusTest
{
    public static final class Program
    {
        static int rank;

        static void ok(final boolean b, final String what)
        {
            check(b, "rank " + rank + ": " + what);
        }

        /** Polls {@code getStatus()} (which leaves the request active) until the receive has completed. */
        static Status completedStatus(final Request r) throws MPIException
        {
            for (int i = 0; i < 10_000_000; i++)
            {
                final Status s = r.getStatus();
                if (s != null)
                {
                    return s;
                }
            }
            throw new AssertionError("rank " + rank + ": the receive never completed");
        }

        /** A receive into {@code room} ints from any source with any tag, of a message from {@code from} with {@code tag}. */
        static void expectTruncated(final Intracomm comm, final int room, final int from, final int tag) throws MPIException
        {
            final Request r = comm.iRecv(new int[room], room, MPI.INT, MPI.ANY_SOURCE, MPI.ANY_TAG);
            final Status s = completedStatus(r);
            final String where = "iRecv into " + room + " ints on " + comm.getName() + " of a longer message from rank " + from
                + " tag " + tag + ": status " + s + " error " + s.getError();
            ok(s.getSource() == from, where + ": getSource() " + s.getSource());
            ok(s.getTag() == tag, where + ": getTag() " + s.getTag());
            ok(s.getError() == MPI.ERR_TRUNCATE, where + ": getError() " + s.getError());
            try
            {
                r.waitFor();
                ok(false, where + ": waitFor succeeded");
            }
            catch (final MPIException e)
            {
                ok(e.getErrorClass() == MPI.ERR_TRUNCATE, where + ": waitFor's class " + e.getErrorClass());
                ok(e.getMessage().contains("rank " + from) && e.getMessage().contains("tag " + tag), where
                    + ": the error does not name the sender and tag: " + e.getMessage());
            }
            ok(r.isNull(), where + ": the request is not REQUEST_NULL after its wait");
        }

        public static void main(final String[] args) throws MPIException
        {
            MPI.Init(args);
            final Intracomm world = MPI.COMM_WORLD;
            world.setErrhandler(MPI.ERRORS_RETURN);
            rank = world.getRank();
            final int[] big = new int[50_000];
            // 1. a small message from rank 2 (rank 1 sends nothing yet)
            if (rank == 2)
            {
                world.send(new int[] {1, 2, 3, 4, 5, 6, 7, 8}, 8, MPI.INT, 0, 7);
            }
            else if (rank == 0)
            {
                expectTruncated(world, 2, 2, 7);
            }
            world.barrier();
            // 2. a large (rendezvous) one from rank 1
            if (rank == 1)
            {
                world.send(big, big.length, MPI.INT, 0, 9);
            }
            else if (rank == 0)
            {
                expectTruncated(world, 100, 1, 9);
            }
            world.barrier();
            // 3. a blocking recv: its error names the sender and tag too
            if (rank == 2)
            {
                world.send(new int[] {1, 2, 3}, 3, MPI.INT, 0, 11);
            }
            else if (rank == 0)
            {
                try
                {
                    world.recv(new int[1], 1, MPI.INT, MPI.ANY_SOURCE, MPI.ANY_TAG);
                    ok(false, "recv of 3 ints into 1 succeeded");
                }
                catch (final MPIException e)
                {
                    ok(e.getErrorClass() == MPI.ERR_TRUNCATE && e.getMessage().contains("rank 2")
                        && e.getMessage().contains("tag 11"), "recv truncation: " + e.getErrorClass() + " " + e.getMessage());
                }
            }
            world.barrier();
            // 4. a communicator in reverse order: world rank 2 is its rank 0, world rank 0 its rank 2
            final Intracomm rev = world.split(0, -rank);
            rev.setName("reversed");
            if (rank == 2)
            {
                rev.send(new int[] {4, 4, 4, 4}, 4, MPI.INT, 2, 21);
            }
            else if (rank == 0)
            {
                expectTruncated(rev, 3, 0, 21);
            }
            // 5. the pair still works: a message that fits, from the same sender
            if (rank == 2)
            {
                world.send(new int[] {42}, 1, MPI.INT, 0, 5);
            }
            else if (rank == 0)
            {
                final int[] one = new int[1];
                final Status s = world.iRecv(one, 1, MPI.INT, MPI.ANY_SOURCE, MPI.ANY_TAG).waitStatus();
                ok(one[0] == 42 && s.getSource() == 2 && s.getTag() == 5 && s.getError() == MPI.SUCCESS,
                    "the message after the truncations: " + one[0] + " " + s);
            }
            MPI.Finalize();
        }
    }

    @ParameterizedTest(name = "{0} ranks on {1} nodes")
    @CsvSource({"3, 3", "3, 1"})
    void shouldNameTheSenderAndTagInTheStatusOfATruncatedReceive(final int n, final int nodes)
    {
        Prun.run(PlatformProfile.pentium3He(), new Prun.Options(n, nodes, false, 0, Map.of()), Program.class).throwIfFailed();
    }
}
