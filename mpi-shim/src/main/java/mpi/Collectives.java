package mpi;

import org.qsnet.elan.ElanBase;

/**
 * The collective algorithms, on wire bytes. Barrier, broadcast and reduction use the Elanlib
 * collectives when the communicator has an Elanlib group (one made by every process of the job)
 * and the data fits the collective buffer; everything else runs standard algorithms over
 * point-to-point on the communicator's collective context: binomial trees (broadcast, reduction,
 * in rank order so that non-commutative operators are right), linear gather and scatter,
 * pairwise all-to-all, a chain for scans, dissemination for the barrier. The non-blocking
 * collectives and those of intercommunicators are in {@link ScheduledCollectives}.
 */
final class Collectives
{
    private Collectives()
    {
    }

    private static int cc(final CommState c)
    {
        return c.context + 1;
    }

    /**
     * Collectives here are those of intracommunicators; an intercommunicator's run as schedules
     * ({@link ScheduledCollectives}) and never reach this class.
     */
    private static void intra(final CommState c) throws MPIException
    {
        if (c.remote != null)
        {
            throw new MPIException(MPI.ERR_INTERN, "internal: blocking intracommunicator algorithm called on "
                + "intercommunicator " + c);
        }
    }

    static void send(final CommState c, final byte[] data, final int dest, final int tag) throws MPIException
    {
        c.sendWire(cc(c), data, dest, tag, false).block();
    }

    static byte[] recv(final CommState c, final int source, final int tag, final int max) throws MPIException
    {
        final Request r = c.recvWire(cc(c), max, source, tag);
        r.block();
        return r.received;
    }

    static void barrier(final CommState c) throws MPIException
    {
        intra(c);
        c.rank.enter();
        if (c.elan != null)
        {
            c.rank.base.hgsync(c.elan);
            return;
        }
        final int n = c.size();
        final int tag = c.nextCollTag();
        for (int d = 1; d < n; d <<= 1)
        {
            final Request s = c.sendWire(cc(c), new byte[0], (c.myRank + d) % n, tag, false);
            recv(c, (c.myRank - d + n) % n, tag, 0);
            s.block();
        }
    }

    /** Broadcasts {@code data} (meaningful at root; its length is known everywhere). */
    static byte[] bcast(final CommState c, final byte[] data, final int root) throws MPIException
    {
        intra(c);
        c.rank.enter();
        final int len = data.length;
        if (c.elan != null && len <= Rank.COLL_BYTES)
        {
            if (c.myRank == root)
            {
                c.rank.write(c.rank.collBuf, data, len);
            }
            c.rank.base.bcast(c.elan, c.rank.collBuf, len, root);
            return c.myRank == root ? data : c.rank.read(c.rank.collBuf, len);
        }
        final int n = c.size();
        final int tag = c.nextCollTag();
        final int me = (c.myRank - root + n) % n;
        byte[] buf = data;
        int mask = 1;
        while (mask < n)
        {
            if ((me & mask) != 0)
            {
                buf = recv(c, (me - mask + root) % n, tag, len);
                break;
            }
            mask <<= 1;
        }
        mask >>= 1;
        while (mask > 0)
        {
            if (me + mask < n)
            {
                send(c, buf, (me + mask + root) % n, tag);
            }
            mask >>= 1;
        }
        return buf;
    }

    /** Reduces everyone's {@code data} ({@code count} elements of {@code t}) with {@code op}; the result at root (null elsewhere), or everywhere when {@code all}. */
    static byte[] reduce(final CommState c, final byte[] data, final int count, final Datatype t, final Op op,
        final int root, final boolean all) throws MPIException
    {
        intra(c);
        c.rank.enter();
        final int len = data.length;
        if (c.elan != null && len <= Rank.COLL_BYTES && len > 0)
        {
            final long src = c.rank.stage(len);
            c.rank.write(src, data, len);
            final MPIException[] failed = new MPIException[1];
            c.rank.base.reduce(c.elan, src, c.rank.collBuf, count, t.wireSize, (in, inout, n, size) ->
            {
                try
                {
                    op.combine(in, inout, n, t);
                }
                catch (final MPIException e)
                {
                    failed[0] = e;
                }
            }, root, (op.isCommutative() ? ElanBase.ELAN_REDUCE_COMMUTE : 0) | (all ? ElanBase.ELAN_RESULT_ALL : 0));
            c.rank.unstage(src, len);
            if (failed[0] != null)
            {
                throw failed[0];
            }
            return all || c.myRank == root ? c.rank.read(c.rank.collBuf, len) : null;
        }
        // binomial tree rooted at 0, children combined in rank order: acc(self..) = acc op child(range after)
        final int n = c.size();
        final int tag = c.nextCollTag();
        final int me = c.myRank;
        byte[] acc = data.clone();
        for (int mask = 1; mask < n; mask <<= 1)
        {
            if ((me & mask) != 0)
            {
                send(c, acc, me - mask, tag);
                break;
            }
            if (me + mask < n)
            {
                final byte[] child = recv(c, me + mask, tag, len);
                op.combine(acc, child, count, t);
                c.rank.copy(len);
                acc = child;
            }
        }
        if (all)
        {
            return bcast(c, me == 0 ? acc : new byte[len], 0);
        }
        if (root != 0)
        {
            if (me == 0)
            {
                send(c, acc, root, tag);
            }
            if (me == root)
            {
                acc = recv(c, 0, tag, len);
            }
        }
        return me == root ? acc : null;
    }

    /** Gathers {@code sizes[i]} bytes from every rank i to root, concatenated in rank order (null elsewhere). */
    static byte[][] gather(final CommState c, final byte[] mine, final int[] sizes, final int root) throws MPIException
    {
        intra(c);
        c.rank.enter();
        final int tag = c.nextCollTag();
        if (c.myRank != root)
        {
            send(c, mine, root, tag);
            return null;
        }
        final int n = c.size();
        final Request[] r = new Request[n];
        for (int i = 0; i < n; i++)
        {
            if (i != root)
            {
                r[i] = c.recvWire(cc(c), sizes[i], i, tag);
            }
        }
        final byte[][] out = new byte[n][];
        for (int i = 0; i < n; i++)
        {
            if (i == root)
            {
                out[i] = mine;
            }
            else
            {
                r[i].block();
                out[i] = r[i].received;
            }
        }
        return out;
    }

    /** Scatters {@code parts[i]} (at root) to rank i; returns this rank's part of {@code mySize} bytes. */
    static byte[] scatter(final CommState c, final byte[][] parts, final int mySize, final int root) throws MPIException
    {
        intra(c);
        c.rank.enter();
        final int tag = c.nextCollTag();
        if (c.myRank != root)
        {
            return recv(c, root, tag, mySize);
        }
        final int n = c.size();
        final Request[] r = new Request[n];
        for (int i = 0; i < n; i++)
        {
            if (i != root)
            {
                r[i] = c.sendWire(cc(c), parts[i], i, tag, false);
            }
        }
        for (int i = 0; i < n; i++)
        {
            if (i != root)
            {
                r[i].block();
            }
        }
        return parts[root];
    }

    /** Every rank sends {@code parts[j]} to rank j and receives {@code sizes[j]} bytes from each. */
    static byte[][] allToAll(final CommState c, final byte[][] parts, final int[] sizes) throws MPIException
    {
        intra(c);
        c.rank.enter();
        final int tag = c.nextCollTag();
        final int n = c.size();
        final Request[] rr = new Request[n];
        final Request[] sr = new Request[n];
        for (int k = 1; k < n; k++)
        {
            final int from = (c.myRank - k + n) % n;
            rr[from] = c.recvWire(cc(c), sizes[from], from, tag);
        }
        for (int k = 1; k < n; k++)
        {
            final int to = (c.myRank + k) % n;
            sr[to] = c.sendWire(cc(c), parts[to], to, tag, false);
        }
        final byte[][] out = new byte[n][];
        out[c.myRank] = parts[c.myRank];
        for (int j = 0; j < n; j++)
        {
            if (j != c.myRank)
            {
                rr[j].block();
                out[j] = rr[j].received;
                sr[j].block();
            }
        }
        return out;
    }

    /** Inclusive (or exclusive) prefix reduction along a chain in rank order; exclusive gives null at rank 0. */
    static byte[] scan(final CommState c, final byte[] data, final int count, final Datatype t, final Op op,
        final boolean exclusive) throws MPIException
    {
        intra(c);
        c.rank.enter();
        final int tag = c.nextCollTag();
        final int me = c.myRank;
        byte[] before = null;
        byte[] acc = data.clone();
        if (me > 0)
        {
            before = recv(c, me - 1, tag, data.length);
            final byte[] x = data.clone();
            op.combine(before, x, count, t);
            acc = x;
        }
        if (me + 1 < c.size())
        {
            send(c, acc, me + 1, tag);
        }
        return exclusive ? before : acc;
    }

    /** The maximum of an int over the communicator (for context agreement). */
    static int maxInt(final CommState c, final int v) throws MPIException
    {
        final byte[] b = MPI.INT.pack(new int[] {v}, 0, 1);
        final byte[] r = reduce(c, b, 1, MPI.INT, MPI.MAX, 0, true);
        final int[] out = new int[1];
        MPI.INT.unpack(r, 4, out, 0);
        return out[0];
    }

    /** Gathers one int from everyone to everyone. */
    static int[] allGatherInts(final CommState c, final int[] mine) throws MPIException
    {
        final int n = c.size();
        final int[] sizes = new int[n];
        java.util.Arrays.fill(sizes, 4 * mine.length);
        final byte[][] parts = gather(c, MPI.INT.pack(mine, 0, mine.length), sizes, 0);
        final byte[] all = new byte[4 * mine.length * n];
        if (c.myRank == 0)
        {
            for (int i = 0; i < n; i++)
            {
                System.arraycopy(parts[i], 0, all, i * 4 * mine.length, 4 * mine.length);
            }
        }
        final byte[] r = bcast(c, all, 0);
        final int[] out = new int[mine.length * n];
        MPI.INT.unpack(r, r.length, out, 0);
        return out;
    }
}
