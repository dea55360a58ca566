package mpi;

import java.util.Arrays;

import org.qsnet.elan.ElanGroup;
import org.qsnet.fabric.QsnetException;
import org.qsnet.tports.RxEvent;
import org.qsnet.tports.Tport;
import org.qsnet.tports.TxEvent;

/**
 * One communicator as one rank sees it: its context id, the world VPs of its group (and of the
 * remote group of an intercommunicator), the Elanlib group its collectives may use, its error
 * handler and topology.
 *
 * <p>The Tport tag of a message packs the context and the MPI tag:
 * <pre>
 *  31          20 19                 0
 * +--------------+--------------------+
 * | context (12) | MPI tag (20 bits)  |
 * +--------------+--------------------+
 * </pre>
 * Point-to-point traffic uses the communicator's context, its collectives the next one (so they
 * never match a user's receive). {@code ANY_TAG} masks the tag bits out, {@code ANY_SOURCE} the
 * sender; MPI's non-overtaking order is Tports' order of messages from one sender.
 */
final class CommState
{
    static final int TAG_BITS = 20;
    static final int TAG_MASK = (1 << TAG_BITS) - 1;

    final Rank rank;
    final int context;
    final int[] vps;
    final int[] remote;
    final ElanGroup elan;
    final int myRank;
    private final int[] rankOfVp;
    String name;
    Errhandler errhandler;
    int topology = MPI.UNDEFINED;
    int[] dims;
    boolean[] periods;
    int[] graphIndex;
    int[] graphEdges;
    /** A distributed graph's edges into and out of this process (and their weights, null when unweighted). */
    int[] distSources;
    int[] distSourceWeights;
    int[] distDestinations;
    int[] distDestWeights;
    /** {@code MPI_COMM_SET_INFO}'s hints. */
    Info info;
    /** {@code MPI_COMM_SET_ATTR}'s values. */
    final java.util.Map<Integer, Object> attributes = new java.util.HashMap<>();
    /** Collective tags: every collective call takes the next, so successive collectives never mix. */
    private int collSeq;
    /** The one tag of every collective of an agreement's communicator ({@link #groupAgreement}); -1: the sequence. */
    private int fixedCollTag = -1;

    CommState(final Rank rank, final int context, final int[] vps, final int[] remote, final ElanGroup elan,
        final String name)
    {
        this.rank = rank;
        this.context = context;
        this.vps = vps;
        this.remote = remote;
        this.elan = elan;
        this.name = name;
        this.errhandler = MPI.ERRORS_ARE_FATAL;
        int me = -1;
        for (int i = 0; i < vps.length; i++)
        {
            if (vps[i] == rank.base.vp())
            {
                me = i;
            }
        }
        this.myRank = me;
        this.rankOfVp = new int[rank.base.nvp()];
        Arrays.fill(rankOfVp, -1);
        final int[] senders = remote != null ? remote : vps;
        for (int i = 0; i < senders.length; i++)
        {
            rankOfVp[senders[i]] = i;
        }
    }

    int size()
    {
        return vps.length;
    }

    /** Ranks a send or receive may name: the remote group's size for an intercommunicator. */
    int peerCount()
    {
        return remote != null ? remote.length : vps.length;
    }

    int peerVp(final int r)
    {
        return remote != null ? remote[r] : vps[r];
    }

    int rankOf(final int vp)
    {
        return rankOfVp[vp];
    }

    /**
     * The neighbours of this process in its topology, as the neighbourhood collectives use them:
     * {sources, destinations}. Cartesian: for each dimension the ranks at -1 and +1
     * ({@link MPI#PROC_NULL} off a non-periodic edge), the same list both ways; graph: the
     * process's neighbours both ways; distributed graph: the edges in and out.
     */
    int[][] neighbours() throws MPIException
    {
        if (topology == MPI.CART)
        {
            final int[] coords = new int[dims.length];
            for (int d = dims.length - 1, r = myRank; d >= 0; d--)
            {
                coords[d] = r % dims[d];
                r /= dims[d];
            }
            final int[] list = new int[2 * dims.length];
            for (int d = 0; d < dims.length; d++)
            {
                list[2 * d] = cartRank(coords, d, -1);
                list[2 * d + 1] = cartRank(coords, d, 1);
            }
            return new int[][] {list, list};
        }
        if (topology == MPI.GRAPH)
        {
            final int from = myRank == 0 ? 0 : graphIndex[myRank - 1];
            final int[] list = Arrays.copyOfRange(graphEdges, from, graphIndex[myRank]);
            return new int[][] {list, list};
        }
        if (topology == MPI.DIST_GRAPH)
        {
            return new int[][] {distSources, distDestinations};
        }
        throw new MPIException(MPI.ERR_TOPOLOGY, "neighbourhood collective on " + name + ", which has no topology "
            + "(create it with createCart, createGraph or createDistGraph)");
    }

    private int cartRank(final int[] coords, final int dim, final int step)
    {
        int x = coords[dim] + step;
        if (x < 0 || x >= dims[dim])
        {
            if (!periods[dim])
            {
                return MPI.PROC_NULL;
            }
            x = (x + dims[dim]) % dims[dim];
        }
        int r = 0;
        for (int d = 0; d < dims.length; d++)
        {
            r = r * dims[d] + (d == dim ? x : coords[d]);
        }
        return r;
    }

    private CommState localGroup;

    /**
     * An intercommunicator's own group as a communicator of its own (the steps of a collective
     * inside one group), on the context the intercommunicator reserved after its two.
     */
    CommState localGroup()
    {
        if (localGroup == null)
        {
            localGroup = new CommState(rank, context + 2, vps, null, null, name + " local group");
        }
        return localGroup;
    }

    int nextCollTag()
    {
        if (fixedCollTag >= 0)
        {
            return fixedCollTag;
        }
        collSeq = (collSeq + 1) & TAG_MASK;
        return collSeq;
    }

    /**
     * The communicator over which the members of an {@code MPI_COMM_CREATE_GROUP} agree on a context:
     * the group's processes in its order, whose collectives run on {@link Rank#GROUP_AGREEMENT_CONTEXT}
     * with the call's tag (this state's own point-to-point context, the one below, is never used).
     * One tag serves the whole agreement: its reduction sends from child to parent and its broadcast
     * from parent to child over the same binomial tree, so no two of its messages go the same way
     * between one pair of processes.
     */
    static CommState groupAgreement(final Rank rank, final int[] vps, final int tag)
    {
        final CommState s = new CommState(rank, Rank.GROUP_AGREEMENT_CONTEXT - 1, vps, null, null,
            "MPI_Comm_create_group agreement (tag " + tag + ")");
        s.fixedCollTag = tag;
        return s;
    }

    @Override
    public String toString()
    {
        return name;
    }

    // ------------------------------------------------------------------ checks

    void checkPeer(final String what, final String arg, final int r, final boolean wildcard) throws MPIException
    {
        if (r == MPI.PROC_NULL || wildcard && r == MPI.ANY_SOURCE)
        {
            return;
        }
        if (r < 0 || r >= peerCount())
        {
            throw new MPIException(MPI.ERR_RANK, what + ": " + arg + " " + r + " is outside " + name + " (ranks 0.."
                + (peerCount() - 1) + (wildcard ? ", MPI.ANY_SOURCE" : "") + " or MPI.PROC_NULL)");
        }
    }

    static void checkTag(final String what, final int tag, final boolean wildcard) throws MPIException
    {
        if (wildcard && tag == MPI.ANY_TAG)
        {
            return;
        }
        if (tag < 0 || tag > TAG_MASK)
        {
            throw new MPIException(MPI.ERR_TAG, what + ": tag " + tag + " must be in 0..MPI.TAG_UB (" + TAG_MASK + ")"
                + (wildcard ? " or MPI.ANY_TAG" : ""));
        }
    }

    // ------------------------------------------------------------------ point-to-point

    /** Starts a send of wire bytes on context {@code ctx}. */
    Request sendWire(final int ctx, final byte[] data, final int dest, final int tag, final boolean sync)
    {
        final Request r = new Request(this);
        if (dest == MPI.PROC_NULL)
        {
            r.status = Status.empty();
            return r;
        }
        r.stagedLen = data.length;
        r.staged = rank.stage(data.length);
        rank.write(r.staged, data, data.length);
        r.tx = rank.tport.txStart(sync ? Tport.TX_SYNC : 0, peerVp(dest), rank.base.vp(), (ctx << TAG_BITS) | tag,
            r.staged, data.length);
        return r;
    }

    /** Posts a receive of at most {@code maxBytes} on context {@code ctx}; the request unpacks on completion. */
    Request recvWire(final int ctx, final int maxBytes, final int source, final int tag)
    {
        final Request r = new Request(this);
        if (source == MPI.PROC_NULL)
        {
            r.status = Status.procNull();
            r.received = new byte[0];
            return r;
        }
        r.stagedLen = maxBytes;
        r.staged = rank.stage(maxBytes);
        final int sm = source == MPI.ANY_SOURCE ? 0 : -1;
        final int ss = source == MPI.ANY_SOURCE ? 0 : peerVp(source);
        final int tm = tag == MPI.ANY_TAG ? ~TAG_MASK : -1;
        r.rx = rank.tport.rxStart(0, sm, ss, tm, (ctx << TAG_BITS) | (tag == MPI.ANY_TAG ? 0 : tag), r.staged, maxBytes);
        return r;
    }

    Request send(final String what, final Object buf, final int off, final int count, final Datatype type,
        final int dest, final int tag, final boolean sync) throws MPIException
    {
        type.check(what, "buf", buf, count);
        checkPeer(what, "dest", dest, false);
        checkTag(what, tag, false);
        rank.enter();
        if (dest != MPI.PROC_NULL)
        {
            rank.deviceSend();
        }
        final byte[] data = type.pack(buf, off, count);
        if (!type.basic)
        {
            rank.copy(data.length);
        }
        return sendWire(context, data, dest, tag, sync);
    }

    Request recv(final String what, final Object buf, final int off, final int count, final Datatype type,
        final int source, final int tag) throws MPIException
    {
        type.check(what, "buf", buf, count);
        checkPeer(what, "source", source, true);
        checkTag(what, tag, true);
        rank.enter();
        final Request r = recvWire(context, count * type.wireSize, source, tag);
        r.buf = buf;
        r.off = off;
        r.type = type;
        return r;
    }

    /** {@code MPI_Probe}/{@code MPI_Iprobe}: the status of a matching message, or null (non-blocking, none yet). */
    Status probe(final String what, final int source, final int tag, final boolean block) throws MPIException
    {
        checkPeer(what, "source", source, true);
        checkTag(what, tag, true);
        rank.enter();
        if (source == MPI.PROC_NULL)
        {
            return Status.procNull();
        }
        final int sm = source == MPI.ANY_SOURCE ? 0 : -1;
        final int ss = source == MPI.ANY_SOURCE ? 0 : peerVp(source);
        final int tm = tag == MPI.ANY_TAG ? ~TAG_MASK : -1;
        final int ts = (context << TAG_BITS) | (tag == MPI.ANY_TAG ? 0 : tag);
        final Tport.RxResult res;
        if (block)
        {
            final RxEvent rx = rank.tport.rxStart(Tport.RX_PROBE, sm, ss, tm, ts, 0, 0);
            if (!rank.schedules.isEmpty())
            {
                rank.awaitProgressing(rx, what + " on " + this);
            }
            res = rx.rxWait();
        }
        else
        {
            res = rank.tport.rxPoll(sm, ss, tm, ts);
        }
        return res == null ? null : new Status(rankOf(res.sender()), res.tag() & TAG_MASK, MPI.SUCCESS, false, res.size());
    }

    /** Completes a Tports send (blocking). */
    static void finish(final TxEvent tx) throws MPIException
    {
        try
        {
            tx.txWait();
        }
        catch (final QsnetException e)
        {
            throw new MPIException(MPI.ERR_OTHER, "send failed: " + e.getMessage());
        }
    }
}
