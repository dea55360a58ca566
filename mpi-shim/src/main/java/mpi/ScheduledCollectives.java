package mpi;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The collective algorithms as {@link Schedule}s, on wire bytes: the non-blocking collectives of
 * intracommunicators (the same algorithms as {@link Collectives}' point-to-point ones, rounds in
 * place of blocking steps, so results are the same and reductions combine in the same order) and
 * every collective of an intercommunicator (MPI-2 semantics). Each builder charges the entry into
 * the MPI call and returns the schedule unstarted.
 *
 * <p>Intercommunicators: the two groups talk through the intercommunicator's collective context;
 * the steps inside one group (a local reduction, broadcast or barrier) run on the group's own
 * communicator ({@link CommState#localGroup()}), whose context the intercommunicator reserved.
 */
final class ScheduledCollectives
{
    private ScheduledCollectives()
    {
    }

    /** A value rounds hand on to later rounds. */
    static final class Slot
    {
        byte[] v;

        Slot(final byte[] v)
        {
            this.v = v;
        }
    }

    /** Takes a collective's result (null where the rank gets none). */
    @FunctionalInterface
    interface Result
    {
        void accept(byte[] r) throws MPIException;
    }

    /** Takes a collective's per-rank parts (null where the rank gets none). */
    @FunctionalInterface
    interface Parts
    {
        void accept(byte[][] parts) throws MPIException;
    }

    // ------------------------------------------------------------------ building blocks

    /** Dissemination barrier among the members of {@code via}. */
    static void appendBarrier(final Schedule s, final CommState via)
    {
        final int n = via.size();
        final int me = via.myRank;
        for (int d = 1; d < n; d <<= 1)
        {
            final int dist = d;
            s.then(x ->
            {
                x.send(via, (me + dist) % n, null);
                x.recv(via, (me - dist + n) % n, 0, null);
            });
        }
    }

    /** Binomial broadcast of {@code buf.v} ({@code len} bytes) from {@code root} of {@code via}. */
    static void appendBcast(final Schedule s, final CommState via, final Slot buf, final int len, final int root)
    {
        final int n = via.size();
        final int me = (via.myRank - root + n) % n;
        int mask = 1;
        int parent = -1;
        while (mask < n)
        {
            if ((me & mask) != 0)
            {
                parent = (me - mask + root) % n;
                break;
            }
            mask <<= 1;
        }
        final List<Integer> children = new ArrayList<>();
        for (mask >>= 1; mask > 0; mask >>= 1)
        {
            if (me + mask < n)
            {
                children.add((me + mask + root) % n);
            }
        }
        if (parent >= 0)
        {
            final int from = parent;
            s.then(x -> x.recv(via, from, len, b -> buf.v = b));
        }
        // one child per round, the largest subtree first, as the blocking broadcast sends: sent
        // at once, the children's gets would share this NIC and delay the subtree that matters most
        for (final int c : children)
        {
            s.then(x -> x.send(via, c, buf.v));
        }
    }

    /**
     * Binomial reduction to rank 0 of {@code via}, children combined in rank order (as
     * {@link Collectives#reduce}): {@code acc.v} holds the rank's operand, and at rank 0 the result.
     */
    static void appendReduceTo0(final Schedule s, final CommState via, final Slot acc, final int count,
        final Datatype t, final Op op)
    {
        final int n = via.size();
        final int me = via.myRank;
        final int len = count * t.wireSize;
        final List<Integer> children = new ArrayList<>();
        int parent = -1;
        for (int mask = 1; mask < n; mask <<= 1)
        {
            if ((me & mask) != 0)
            {
                parent = me - mask;
                break;
            }
            if (me + mask < n)
            {
                children.add(me + mask);
            }
        }
        final byte[][] got = new byte[children.size()][];
        if (!children.isEmpty())
        {
            s.then(x ->
            {
                for (int i = 0; i < got.length; i++)
                {
                    final int k = i;
                    x.recv(via, children.get(i), len, b -> got[k] = b);
                }
            });
        }
        if (!children.isEmpty() || parent >= 0)
        {
            final int up = parent;
            s.then(x ->
            {
                for (final byte[] child : got)
                {
                    op.combine(acc.v, child, count, t);
                    via.rank.copy(len);
                    acc.v = child;
                }
                if (up >= 0)
                {
                    x.send(via, up, acc.v);
                }
            });
        }
    }

    // ------------------------------------------------------------------ intracommunicators (non-blocking)

    static Schedule barrier(final CommState c)
    {
        c.rank.enter();
        final Schedule s = new Schedule(c, "iBarrier");
        appendBarrier(s, c);
        return s;
    }

    static Schedule bcast(final CommState c, final byte[] data, final int root, final Result result)
    {
        c.rank.enter();
        final Schedule s = new Schedule(c, "iBcast");
        final Slot buf = new Slot(data);
        appendBcast(s, c, buf, data.length, root);
        return s.last(() -> result.accept(buf.v));
    }

    /** Reduction to {@code root} (or to everyone when {@code all}). */
    static Schedule reduce(final CommState c, final byte[] data, final int count, final Datatype t, final Op op,
        final int root, final boolean all, final Result result)
    {
        c.rank.enter();
        final Schedule s = new Schedule(c, all ? "iAllReduce" : "iReduce");
        final int me = c.myRank;
        final int len = data.length;
        final Slot acc = new Slot(data.clone());
        appendReduceTo0(s, c, acc, count, t, op);
        if (all)
        {
            appendBcast(s, c, acc, len, 0);
        }
        else if (root != 0)
        {
            s.then(x ->
            {
                if (me == 0)
                {
                    x.send(c, root, acc.v);
                }
                if (me == root)
                {
                    x.recv(c, 0, len, b -> acc.v = b);
                }
            });
        }
        return s.last(() -> result.accept(all || me == root ? acc.v : null));
    }

    /** Reduction to rank 0, then each rank gets its block ({@code sizes[i]} bytes, in rank order). */
    static Schedule reduceScatter(final CommState c, final byte[] data, final int count, final Datatype t, final Op op,
        final int[] sizes, final Result result)
    {
        c.rank.enter();
        final Schedule s = new Schedule(c, "iReduceScatter");
        final int n = c.size();
        final int me = c.myRank;
        final Slot acc = new Slot(data.clone());
        appendReduceTo0(s, c, acc, count, t, op);
        final Slot mine = new Slot(null);
        s.then(x ->
        {
            if (me == 0)
            {
                for (int i = 0, p = 0; i < n; p += sizes[i], i++)
                {
                    final byte[] part = Arrays.copyOfRange(acc.v, p, p + sizes[i]);
                    if (i == 0)
                    {
                        mine.v = part;
                    }
                    else
                    {
                        x.send(c, i, part);
                    }
                }
            }
            else
            {
                x.recv(c, 0, sizes[me], b -> mine.v = b);
            }
        });
        return s.last(() -> result.accept(mine.v));
    }

    /** Linear gather of {@code sizes[i]} bytes from every rank i to root. */
    static Schedule gather(final CommState c, final byte[] mine, final int[] sizes, final int root, final Parts result)
    {
        c.rank.enter();
        final Schedule s = new Schedule(c, "iGather");
        final int n = c.size();
        final byte[][] out = new byte[n][];
        out[root] = mine;
        s.then(x ->
        {
            if (c.myRank != root)
            {
                x.send(c, root, mine);
                return;
            }
            for (int i = 0; i < n; i++)
            {
                final int k = i;
                if (i != root)
                {
                    x.recv(c, i, sizes[i], b -> out[k] = b);
                }
            }
        });
        return s.last(() -> result.accept(c.myRank == root ? out : null));
    }

    /** Linear scatter of {@code parts[i]} (at root) to every rank i. */
    static Schedule scatter(final CommState c, final byte[][] parts, final int mySize, final int root,
        final Result result)
    {
        c.rank.enter();
        final Schedule s = new Schedule(c, "iScatter");
        final Slot mine = new Slot(c.myRank == root ? parts[root] : null);
        s.then(x ->
        {
            if (c.myRank != root)
            {
                x.recv(c, root, mySize, b -> mine.v = b);
                return;
            }
            for (int i = 0; i < c.size(); i++)
            {
                if (i != root)
                {
                    x.send(c, i, parts[i]);
                }
            }
        });
        return s.last(() -> result.accept(mine.v));
    }

    /** Linear all-gather: every rank sends its part to every other (one round). */
    static Schedule allGather(final CommState c, final byte[] mine, final int[] sizes, final Parts result)
    {
        c.rank.enter();
        final Schedule s = new Schedule(c, "iAllGather");
        final int n = c.size();
        final int me = c.myRank;
        final byte[][] out = new byte[n][];
        out[me] = mine;
        s.then(x ->
        {
            for (int k = 1; k < n; k++)
            {
                final int from = (me - k + n) % n;
                x.recv(c, from, sizes[from], b -> out[from] = b);
            }
            for (int k = 1; k < n; k++)
            {
                x.send(c, (me + k) % n, mine);
            }
        });
        return s.last(() -> result.accept(out));
    }

    /** Pairwise all-to-all (one round). */
    static Schedule allToAll(final CommState c, final byte[][] parts, final int[] sizes, final Parts result)
    {
        c.rank.enter();
        final Schedule s = new Schedule(c, "iAllToAll");
        final int n = c.size();
        final int me = c.myRank;
        final byte[][] out = new byte[n][];
        out[me] = parts[me];
        s.then(x ->
        {
            for (int k = 1; k < n; k++)
            {
                final int from = (me - k + n) % n;
                x.recv(c, from, sizes[from], b -> out[from] = b);
            }
            for (int k = 1; k < n; k++)
            {
                final int to = (me + k) % n;
                x.send(c, to, parts[to]);
            }
        });
        return s.last(() -> result.accept(out));
    }

    /** Inclusive (or exclusive) prefix reduction along a chain in rank order (exclusive: null at rank 0). */
    static Schedule scan(final CommState c, final byte[] data, final int count, final Datatype t, final Op op,
        final boolean exclusive, final Result result)
    {
        c.rank.enter();
        final Schedule s = new Schedule(c, exclusive ? "iExScan" : "iScan");
        final int me = c.myRank;
        final Slot before = new Slot(null);
        final Slot acc = new Slot(data.clone());
        if (me > 0)
        {
            s.then(x -> x.recv(c, me - 1, data.length, b -> before.v = b));
        }
        if (me > 0 || me + 1 < c.size())
        {
            s.then(x ->
            {
                if (me > 0)
                {
                    final byte[] y = data.clone();
                    op.combine(before.v, y, count, t);
                    acc.v = y;
                }
                if (me + 1 < c.size())
                {
                    x.send(c, me + 1, acc.v);
                }
            });
        }
        return s.last(() -> result.accept(exclusive ? before.v : acc.v));
    }

    // ------------------------------------------------------------------ intercommunicators

    /** Barrier over both groups: a barrier in each, the leaders' exchange, a broadcast in each. */
    static Schedule interBarrier(final CommState c)
    {
        c.rank.enter();
        final Schedule s = new Schedule(c, "barrier");
        final CommState local = c.localGroup();
        appendBarrier(s, local);
        if (c.myRank == 0)
        {
            s.then(x ->
            {
                x.send(c, 0, null);
                x.recv(c, 0, 0, null);
            });
        }
        appendBcast(s, local, new Slot(new byte[0]), 0, 0);
        return s;
    }

    /**
     * Broadcast from {@code root} of one group to the other: at the root {@code root} is
     * {@link MPI#ROOT}, at its group's other members {@link MPI#PROC_NULL}, in the receiving group
     * the root's rank in the remote group. The root sends to the other group's rank 0, which
     * broadcasts in its group.
     */
    static Schedule interBcast(final CommState c, final byte[] data, final int root, final Result result)
    {
        c.rank.enter();
        final Schedule s = new Schedule(c, "bcast");
        if (root == MPI.PROC_NULL)
        {
            return s.last(() -> result.accept(null));
        }
        if (root == MPI.ROOT)
        {
            s.then(x -> x.send(c, 0, data));
            return s.last(() -> result.accept(null));
        }
        final Slot buf = new Slot(data);
        if (c.myRank == 0)
        {
            s.then(x -> x.recv(c, root, data.length, b -> buf.v = b));
        }
        appendBcast(s, c.localGroup(), buf, data.length, 0);
        return s.last(() -> result.accept(buf.v));
    }

    /**
     * Reduction of the other group's data to {@code root} (roles as in {@link #interBcast}): the
     * contributing group reduces to its rank 0, which sends the result to the root. With
     * {@code all}, each group gets the reduction of the other group's data.
     */
    static Schedule interReduce(final CommState c, final byte[] data, final int count, final Datatype t, final Op op,
        final int root, final boolean all, final Result result)
    {
        c.rank.enter();
        final Schedule s = new Schedule(c, all ? "allReduce" : "reduce");
        final int len = data.length;
        if (!all && root == MPI.PROC_NULL)
        {
            return s.last(() -> result.accept(null));
        }
        final Slot res = new Slot(null);
        if (!all && root == MPI.ROOT)
        {
            s.then(x -> x.recv(c, 0, len, b -> res.v = b));
            return s.last(() -> result.accept(res.v));
        }
        final CommState local = c.localGroup();
        final Slot acc = new Slot(data.clone());
        appendReduceTo0(s, local, acc, count, t, op);
        if (c.myRank == 0)
        {
            s.then(x ->
            {
                x.send(c, all ? 0 : root, acc.v);
                if (all)
                {
                    x.recv(c, 0, len, b -> res.v = b);
                }
            });
        }
        if (all)
        {
            appendBcast(s, local, res, len, 0);
        }
        return s.last(() -> result.accept(all ? res.v : null));
    }

    /** Gather of {@code sizes[i]} bytes from every rank i of the other group to the root ({@link MPI#ROOT}). */
    static Schedule interGather(final CommState c, final byte[] mine, final int[] sizes, final int root,
        final Parts result)
    {
        c.rank.enter();
        final Schedule s = new Schedule(c, "gather");
        final byte[][] out = new byte[c.peerCount()][];
        if (root == MPI.ROOT)
        {
            s.then(x ->
            {
                for (int i = 0; i < out.length; i++)
                {
                    final int k = i;
                    x.recv(c, i, sizes[i], b -> out[k] = b);
                }
            });
        }
        else if (root != MPI.PROC_NULL)
        {
            s.then(x -> x.send(c, root, mine));
        }
        return s.last(() -> result.accept(root == MPI.ROOT ? out : null));
    }

    /** Scatter of {@code parts[i]} from the root ({@link MPI#ROOT}) to rank i of the other group. */
    static Schedule interScatter(final CommState c, final byte[][] parts, final int mySize, final int root,
        final Result result)
    {
        c.rank.enter();
        final Schedule s = new Schedule(c, "scatter");
        final Slot mine = new Slot(null);
        if (root == MPI.ROOT)
        {
            s.then(x ->
            {
                for (int i = 0; i < c.peerCount(); i++)
                {
                    x.send(c, i, parts[i]);
                }
            });
        }
        else if (root != MPI.PROC_NULL)
        {
            s.then(x -> x.recv(c, root, mySize, b -> mine.v = b));
        }
        return s.last(() -> result.accept(mine.v));
    }

    /**
     * All-to-all between the groups: each rank sends {@code parts[j]} to rank j of the other group
     * and receives {@code sizes[j]} bytes from each (the all-gather is the case where every part is
     * the same).
     */
    static Schedule interAllToAll(final CommState c, final String what, final byte[][] parts, final int[] sizes,
        final Parts result)
    {
        c.rank.enter();
        final Schedule s = new Schedule(c, what);
        final int n = c.peerCount();
        final byte[][] out = new byte[n][];
        s.then(x ->
        {
            for (int j = 0; j < n; j++)
            {
                final int k = j;
                x.recv(c, j, sizes[j], b -> out[k] = b);
            }
            for (int j = 0; j < n; j++)
            {
                x.send(c, j, parts[j]);
            }
        });
        return s.last(() -> result.accept(out));
    }

    // ------------------------------------------------------------------ neighbourhood collectives

    /**
     * A neighbourhood exchange (one round): part j goes to destination j, {@code sizes[i]} bytes
     * come from source i; {@link MPI#PROC_NULL} neighbours are skipped (their parts stay null).
     */
    static Schedule neighbours(final CommState c, final String what, final byte[][] parts, final int[] sizes,
        final Parts result) throws MPIException
    {
        c.rank.enter();
        final int[][] nb = c.neighbours();
        final Schedule s = new Schedule(c, what);
        final byte[][] out = new byte[nb[0].length][];
        s.then(x ->
        {
            for (int i = 0; i < nb[0].length; i++)
            {
                final int k = i;
                if (nb[0][i] != MPI.PROC_NULL)
                {
                    x.recv(c, nb[0][i], sizes[i], b -> out[k] = b);
                }
            }
            for (int j = 0; j < nb[1].length; j++)
            {
                if (nb[1][j] != MPI.PROC_NULL)
                {
                    x.send(c, nb[1][j], parts[j]);
                }
            }
        });
        return s.last(() -> result.accept(out));
    }
}
