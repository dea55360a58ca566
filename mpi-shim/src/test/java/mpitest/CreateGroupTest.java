package mpitest;

import static mpitest.Job.check;

import java.util.Arrays;
import java.util.concurrent.TimeUnit;

import mpi.Comm;
import mpi.Group;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;
import mpi.Status;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.qsnet.fabric.machine.PlatformProfile;

/**
 * {@code Intracomm.createGroup} ({@code MPI_Comm_create_group}) as a program written from the Open MPI
 * Java bindings' documentation uses it: called by the members of the group only, it gives a
 * communicator whose ranks follow the group's order; a process not in the group gets the null
 * communicator at once (Open MPI's {@code comm_create_group.c} returns {@code MPI_COMM_NULL} without
 * communicating). Each scenario's ranks check what they see and throw when it differs (which fails
 * the job):
 * <ul>
 * <li>{@code disjoint}: two disjoint groups in orders that are not the world's create their
 * communicators at once with the same tag; sizes, ranks, groups, a reduction, a broadcast and a ring
 * on each; the other group's call gives the null communicator; then the whole world in reverse order
 * with another tag, its messages kept apart from the first communicators'; the world's collectives
 * and point-to-point after, with no stray message left on it;</li>
 * <li>{@code overlap}: three overlapping groups with different tags, which the ranks call in
 * different orders (a group's messages arrive at a rank still agreeing on another); messages on two
 * of them between the same pair, received in the other order;</li>
 * <li>{@code nbc}: a group made while a non-blocking broadcast and reduction of the world are in flight
 * (tags 1 to 6: the numbers the world's collectives take for their own messages), at every rank and at
 * the even ranks only;</li>
 * <li>{@code errors}: a null group, a freed group, tags -1 and TAG_UB + 1, a group holding a process
 * outside the communicator, each refused with the class Open MPI gives and a message naming the value;
 * {@code GROUP_EMPTY}; the new communicator inherits {@code ERRORS_RETURN}.</li>
 * </ul>
 * Before createGroup was implemented, every scenario failed at its first call
 * ({@code MPI_ERR_UNSUPPORTED_OPERATION}).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class CreateGroupTest
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
                case "disjoint" -> disjoint();
                case "overlap" -> overlap();
                case "nbc" -> nbc();
                case "errors" -> errors();
                default -> throw new IllegalArgumentException(args[0]);
            }
            MPI.Finalize();
        }

        static void ok(final boolean b, final String what)
        {
            check(b, "rank " + rank + ": " + what);
        }

        static int indexOf(final int[] a, final int v)
        {
            for (int i = 0; i < a.length; i++)
            {
                if (a[i] == v)
                {
                    return i;
                }
            }
            return -1;
        }

        /** Checks size, rank and group of {@code c}, made from {@code members} (world ranks in group order), and that it works. */
        static void works(final Intracomm c, final int[] members, final String what) throws MPIException
        {
            final int me = indexOf(members, rank);
            final int n = members.length;
            ok(c != null && !c.isNull(), what + ": the null communicator at a member");
            ok(c.getSize() == n && c.getRank() == me, what + ": size " + c.getSize() + " rank " + c.getRank() + ", expected " + n
                + " and " + me);
            ok(Group.compare(c.getGroup(), world.getGroup().incl(members)) == MPI.IDENT, what + ": its group is not the one given");
            final int[] sum = {rank};
            c.allReduce(sum, 1, MPI.INT, MPI.SUM);
            ok(sum[0] == Arrays.stream(members).sum(), what + ": allReduce of world ranks " + sum[0]);
            final int[] b = {me == 0 ? 1000 + rank : -1};
            c.bcast(b, 1, MPI.INT, 0);
            ok(b[0] == 1000 + members[0], what + ": bcast from its rank 0 " + b[0]);
            // a ring: the world rank of the previous member arrives, with its rank in c as the source
            final int[] got = {-1};
            final Request r = c.iRecv(got, 1, MPI.INT, MPI.ANY_SOURCE, MPI.ANY_TAG);
            c.send(new int[] {rank}, 1, MPI.INT, (me + 1) % n, 3);
            final Status s = r.waitStatus();
            ok(got[0] == members[(me + n - 1) % n] && s.getSource() == (me + n - 1) % n && s.getTag() == 3, what + ": ring got "
                + got[0] + " " + s);
        }

        /** The world's collectives and point-to-point work, and no message is left on it. */
        static void worldStillWorks() throws MPIException
        {
            final int[] v = {rank + 1};
            world.allReduce(v, 1, MPI.INT, MPI.MAX);
            ok(v[0] == size, "world allReduce after createGroup " + v[0]);
            final int[] got = {-1};
            final Request r = world.iRecv(got, 1, MPI.INT, MPI.ANY_SOURCE, MPI.ANY_TAG);
            world.send(new int[] {rank}, 1, MPI.INT, (rank + 1) % size, 0);
            final Status s = r.waitStatus();
            ok(got[0] == (rank + size - 1) % size && s.getSource() == got[0] && s.getTag() == 0, "world ring " + got[0] + " " + s);
            world.barrier();
            ok(world.iProbe(MPI.ANY_SOURCE, MPI.ANY_TAG) == null, "a message is left on COMM_WORLD");
        }

        /** 6 ranks. */
        static void disjoint() throws MPIException
        {
            final int[] a = {4, 0, 2};
            final int[] b = {5, 1, 3};
            final int[] mine = rank % 2 == 0 ? a : b;
            final int[] other = rank % 2 == 0 ? b : a;
            final Group g = world.getGroup();
            final Intracomm c = world.createGroup(g.incl(mine), 7);
            works(c, mine, "createGroup(" + Arrays.toString(mine) + ", 7)");
            final Intracomm none = world.createGroup(g.incl(other), 7);
            ok(none != null && none.isNull(), "createGroup of a group without this rank is not the null communicator");
            // the whole world in reverse order, with another tag
            final int[] rev = {5, 4, 3, 2, 1, 0};
            final Intracomm all = world.createGroup(g.incl(rev), 8);
            works(all, rev, "createGroup(" + Arrays.toString(rev) + ", 8)");
            // the same pair, the same tag, on c and on all: each message arrives on its own communicator
            final int peer = (indexOf(mine, rank) + 1) % 3;
            final int from = (indexOf(mine, rank) + 2) % 3;
            c.send(new int[] {100 + rank}, 1, MPI.INT, peer, 1);
            all.send(new int[] {200 + rank}, 1, MPI.INT, indexOf(rev, mine[peer]), 1);
            final int[] x = new int[1];
            all.recv(x, 1, MPI.INT, indexOf(rev, mine[from]), 1);
            ok(x[0] == 200 + mine[from], "the message on createGroup(rev) is " + x[0]);
            c.recv(x, 1, MPI.INT, from, 1);
            ok(x[0] == 100 + mine[from], "the message on createGroup(mine) is " + x[0]);
            worldStillWorks();
        }

        /** 4 ranks: A = {0, 1, 2} tag 1, B = {3, 1, 2} tag 2, C = {3, 0} tag 3. */
        static void overlap() throws MPIException
        {
            final int[] a = {0, 1, 2};
            final int[] b = {3, 1, 2};
            final int[] cc = {3, 0};
            final Group g = world.getGroup();
            Intracomm ca = null;
            Intracomm cb = null;
            Intracomm ccomm = null;
            // ranks 1 and 2 call A then B; rank 0 A then C; rank 3 C then B: the B messages of 1 and 2 reach
            // rank 3 while it still agrees on C with rank 0
            switch (rank)
            {
                case 0 ->
                {
                    ca = world.createGroup(g.incl(a), 1);
                    ccomm = world.createGroup(g.incl(cc), 3);
                }
                case 1, 2 ->
                {
                    ca = world.createGroup(g.incl(a), 1);
                    cb = world.createGroup(g.incl(b), 2);
                }
                default ->
                {
                    ccomm = world.createGroup(g.incl(cc), 3);
                    cb = world.createGroup(g.incl(b), 2);
                }
            }
            if (ca != null)
            {
                works(ca, a, "A");
            }
            if (ccomm != null)
            {
                works(ccomm, cc, "C");
            }
            if (cb != null)
            {
                works(cb, b, "B");
            }
            // ranks 1 and 2 share A and B: 1 sends on B then A (same tag), 2 receives on A then B
            if (rank == 1)
            {
                cb.send(new int[] {22}, 1, MPI.INT, 2, 4);
                ca.send(new int[] {11}, 1, MPI.INT, 2, 4);
            }
            else if (rank == 2)
            {
                final int[] x = new int[1];
                ca.recv(x, 1, MPI.INT, 1, 4);
                ok(x[0] == 11, "the message on A is " + x[0]);
                cb.recv(x, 1, MPI.INT, 1, 4);
                ok(x[0] == 22, "the message on B is " + x[0]);
            }
            worldStillWorks();
        }

        /** 4 or 5 ranks. */
        static void nbc() throws MPIException
        {
            final Group g = world.getGroup();
            final int[] rev = new int[size];
            for (int i = 0; i < size; i++)
            {
                rev[i] = size - 1 - i;
            }
            final int[] evens = new int[(size + 1) / 2];
            for (int i = 0; i < evens.length; i++)
            {
                evens[evens.length - 1 - i] = 2 * i;
            }
            for (int tag = 1; tag <= 6; tag++)
            {
                final int[] b = new int[64];
                if (rank == size - 1)
                {
                    Arrays.fill(b, tag);
                }
                final Request rb = world.iBcast(b, b.length, MPI.INT, size - 1);
                final int[] sum = {rank};
                final Request rs = world.iAllReduce(sum, 1, MPI.INT, MPI.SUM);
                final int[] members = tag % 2 == 1 ? rev : evens;
                if (indexOf(members, rank) >= 0)
                {
                    final Intracomm c = world.createGroup(g.incl(members), tag);
                    works(c, members, "createGroup(" + Arrays.toString(members) + ", " + tag + ") with world collectives in flight");
                    c.free();
                }
                rb.waitFor();
                rs.waitFor();
                final int t = tag;
                ok(Arrays.stream(b).allMatch(x -> x == t), "iBcast " + tag + " delivered " + Arrays.toString(Arrays.copyOf(b, 4)));
                ok(sum[0] == size * (size - 1) / 2, "iAllReduce " + tag + " gave " + sum[0]);
            }
            worldStillWorks();
        }

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
            ok(false, what + " succeeded");
        }

        /** 3 ranks. */
        static void errors() throws MPIException
        {
            world.setErrhandler(MPI.ERRORS_RETURN);
            final Group g = world.getGroup();
            returns("createGroup of a null group", MPI.ERR_GROUP, () -> world.createGroup(null, 0), "group");
            final Group freed = g.incl(new int[] {0, 1});
            freed.free();
            returns("createGroup of a freed group", MPI.ERR_GROUP, () -> world.createGroup(freed, 0), "freed");
            returns("createGroup with tag -1", MPI.ERR_TAG, () -> world.createGroup(g, -1), "-1");
            returns("createGroup with tag TAG_UB + 1", MPI.ERR_TAG, () -> world.createGroup(g, MPI.TAG_UB + 1),
                Integer.toString(MPI.TAG_UB + 1));
            // ranks 0 and 1 in a communicator of their own, asked for a group holding rank 2 too
            final Intracomm pair = world.split(rank < 2 ? 0 : MPI.UNDEFINED, rank);
            if (rank < 2)
            {
                pair.setErrhandler(MPI.ERRORS_RETURN);
                returns("createGroup on a pair of a group of 3", MPI.ERR_GROUP, () -> pair.createGroup(g, 0), "not a member");
            }
            final Intracomm empty = world.createGroup(MPI.GROUP_EMPTY, 0);
            ok(empty.isNull(), "createGroup(GROUP_EMPTY) is not the null communicator");
            // the new communicator has its parent's error handler: a bad rank returns an error, not the end of the job
            final Intracomm c = world.createGroup(g, MPI.TAG_UB);
            returns("send to rank 99 on the new communicator", MPI.ERR_RANK, () -> c.send(new int[1], 1, MPI.INT, 99, 0), "99");
            works(c, new int[] {0, 1, 2}, "createGroup(world group, TAG_UB)");
            worldStillWorks();
        }
    }

    @ParameterizedTest(name = "{0}: {1} ranks on {2} nodes")
    @CsvSource({"disjoint, 6, 6", "disjoint, 6, 2", "overlap, 4, 4", "overlap, 4, 1", "nbc, 4, 4", "nbc, 5, 2", "errors, 3, 3",
        "errors, 3, 1"})
    void shouldCreateACommunicatorOfTheGroupsMembersOnly(final String scenario, final int n, final int nodes)
    {
        Job.assertPasses(PlatformProfile.pentium3He(), n, nodes, Program.class, scenario);
    }

    /** The same with link CRC errors: the agreement's messages are retried like any other. */
    @Test
    void shouldCreateGroupsWithLinkErrors()
    {
        final PlatformProfile p = PlatformProfile.pentium3He();
        Job.assertPasses(p.withFabric(p.fabric().withCrcErrorRate(0.1)), 6, 6, Program.class, "disjoint");
    }
}
