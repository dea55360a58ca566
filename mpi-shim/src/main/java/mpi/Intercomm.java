package mpi;

/**
 * An intercommunicator: sends and receives name ranks of the remote group; collectives follow
 * MPI-2 (barrier over both groups; rooted collectives with {@link MPI#ROOT} at the root and
 * {@link MPI#PROC_NULL} at the rest of its group; all-to-all style ones exchange between the
 * groups).
 */
public final class Intercomm extends Comm
{
    Intercomm(final CommState state)
    {
        super(state);
    }

    static Intercomm create(final Comm peer, final Comm localComm, final int localLeader, final int remoteLeader,
        final int tag) throws MPIException
    {
        final CommState local = localComm.state();
        // as Open MPI's MPI_Intercomm_create: a leader outside its communicator is MPI_ERR_ARG (not a root)
        if (localLeader < 0 || localLeader >= local.size())
        {
            throw new MPIException(MPI.ERR_ARG, "createIntercomm: localLeader " + localLeader + " is outside " + local + " (0.."
                + (local.size() - 1) + ")");
        }
        if (local.myRank == localLeader)
        {
            final CommState p = peer.state();
            if (remoteLeader < 0 || remoteLeader >= p.size())
            {
                throw new MPIException(MPI.ERR_ARG, "createIntercomm: remoteLeader " + remoteLeader + " is outside the peer "
                    + p + " (0.." + (p.size() - 1) + ")");
            }
        }
        final Rank rank = local.rank;
        rank.enter();
        // the leaders exchange their groups and context proposals over the peer communicator
        int[] remote = null;
        int proposal = Collectives.maxInt(local, rank.nextContext);
        if (local.myRank == localLeader)
        {
            final CommState p = peer.state();
            final int[] mine = new int[local.size() + 1];
            mine[0] = proposal;
            System.arraycopy(local.vps, 0, mine, 1, local.size());
            final Request s = p.sendWire(p.context, MPI.INT.pack(mine, 0, mine.length), remoteLeader, tag, false);
            final Status st = p.probe("createIntercomm", remoteLeader, tag, true);
            final int[] theirs = new int[(int)st.bytes / 4];
            final Request r = p.recvWire(p.context, (int)st.bytes, remoteLeader, tag);
            r.block();
            MPI.INT.unpack(r.received, r.received.length, theirs, 0);
            s.block();
            proposal = Math.max(proposal, theirs[0]);
            remote = java.util.Arrays.copyOfRange(theirs, 1, theirs.length);
        }
        final int[] hdr = new int[] {proposal, remote == null ? 0 : remote.length};
        final byte[] h = Collectives.bcast(local, MPI.INT.pack(hdr, 0, 2), localLeader);
        MPI.INT.unpack(h, 8, hdr, 0);
        final byte[] g = Collectives.bcast(local, local.myRank == localLeader ? MPI.INT.pack(remote, 0, remote.length)
            : new byte[4 * hdr[1]], localLeader);
        final int[] rv = new int[hdr[1]];
        MPI.INT.unpack(g, g.length, rv, 0);
        rank.reserveContexts(hdr[0], 4);
        final CommState s = new CommState(rank, hdr[0], local.vps.clone(), rv, null, local.name + " intercomm");
        s.errhandler = local.errhandler;
        return new Intercomm(s);
    }

    /**
     * A context id agreed by both groups of an intercommunicator: each group's maximum (over the
     * collective context, where a group's own messages never meet the other group's), exchanged by
     * the two rank-0 processes, then broadcast in each group. Four ids are reserved: point-to-point,
     * the collectives between the groups, and the two of each group's own communicator
     * ({@link CommState#localGroup()}).
     */
    static int agree(final CommState c) throws MPIException
    {
        final CommState local = new CommState(c.rank, c.context, c.vps, null, null, c.name + " local");
        int ctx = Collectives.maxInt(local, c.rank.nextContext);
        final int tag = CommState.TAG_MASK - 1;
        if (c.myRank == 0)
        {
            final Request s = c.sendWire(c.context + 1, MPI.INT.pack(new int[] {ctx}, 0, 1), 0, tag, false);
            final Request r = c.recvWire(c.context + 1, 4, 0, tag);
            r.block();
            s.block();
            final int[] t = new int[1];
            MPI.INT.unpack(r.received, 4, t, 0);
            ctx = Math.max(ctx, t[0]);
        }
        final byte[] b = Collectives.bcast(local, MPI.INT.pack(new int[] {ctx}, 0, 1), 0);
        final int[] t = new int[1];
        MPI.INT.unpack(b, 4, t, 0);
        c.rank.reserveContexts(t[0], 4);
        return t[0];
    }

    /**
     * {@code MPI_COMM_DUP}.
     *
     * @return a new intercommunicator with the same groups.
     * @throws MPIException on an error.
     */
    @Override
    public Intercomm dup() throws MPIException
    {
        return call(() -> new Intercomm(Intracomm.dupState(state())));
    }

    @Override
    public Intercomm clone()
    {
        return (Intercomm)super.clone();
    }

    /**
     * {@code MPI_COMM_REMOTE_SIZE}.
     *
     * @return the size of the remote group.
     * @throws MPIException on an error.
     */
    public int getRemoteSize() throws MPIException
    {
        return state().remote.length;
    }

    /**
     * {@code MPI_COMM_REMOTE_GROUP}.
     *
     * @return the remote group.
     * @throws MPIException on an error.
     */
    public Group getRemoteGroup() throws MPIException
    {
        final CommState c = state();
        return new Group(c.remote.clone(), c.rank.base.vp());
    }

    /**
     * {@code MPI_INTERCOMM_MERGE}.
     *
     * @param high whether this group's ranks come after the other's (the groups must choose differently,
     *             or the group holding world VP 0 comes first when both choose the same).
     * @return the merged intracommunicator.
     * @throws MPIException on an error.
     */
    public Intracomm merge(final boolean high) throws MPIException
    {
        return call(() ->
        {
            final CommState c = state();
            c.rank.enter();
            // the groups learn each other's choice: rank 0 of each side exchanges with the other side's rank 0
            final int mine = high ? 1 : 0;
            int theirs = mine;
            final int tag = CommState.TAG_MASK;
            if (c.myRank == 0)
            {
                final Request s = c.sendWire(c.context + 1, MPI.INT.pack(new int[] {mine}, 0, 1), 0, tag, false);
                final Request r = c.recvWire(c.context + 1, 4, 0, tag);
                r.block();
                s.block();
                final int[] t = new int[1];
                MPI.INT.unpack(r.received, 4, t, 0);
                theirs = t[0];
            }
            final CommState local = new CommState(c.rank, c.context, c.vps, null, null, c.name + " local");
            final byte[] b = Collectives.bcast(local, MPI.INT.pack(new int[] {theirs}, 0, 1), 0);
            final int[] t = new int[1];
            MPI.INT.unpack(b, 4, t, 0);
            theirs = t[0];
            final boolean first = mine != theirs ? mine == 0 : java.util.Arrays.stream(c.vps).min().getAsInt()
                < java.util.Arrays.stream(c.remote).min().getAsInt();
            final int[] vps = new int[c.vps.length + c.remote.length];
            System.arraycopy(first ? c.vps : c.remote, 0, vps, 0, first ? c.vps.length : c.remote.length);
            System.arraycopy(first ? c.remote : c.vps, 0, vps, first ? c.vps.length : c.remote.length,
                first ? c.remote.length : c.vps.length);
            // a context for the merged communicator, agreed across both sides through the leaders
            final int ctx = agree(c);
            final CommState m = new CommState(c.rank, ctx, vps, null, null, c.name + " merged");
            m.errhandler = c.errhandler;
            return new Intracomm(m);
        });
    }

    /**
     * {@code MPI_COMM_IDUP} (complete in the call; see {@link Comm#iDup()}).
     *
     * @return the copy.
     * @throws MPIException on an error.
     */
    @Override
    public Intercomm iDup() throws MPIException
    {
        final Intercomm d = dup();
        return withRequest(d, d.state());
    }

    /**
     * {@code MPI_COMM_GET_PARENT}: the intercommunicator to the processes that spawned this job;
     * jobs here are never spawned (see {@link Intracomm#spawn}), so it is always the null
     * communicator ({@link #isNull()} is true), as MPI specifies for a job started by the launcher.
     *
     * @return the null intercommunicator.
     * @throws MPIException when MPI is not initialized.
     */
    public static Intercomm getParent() throws MPIException
    {
        Rank.current();
        return new Intercomm(null);
    }
}
