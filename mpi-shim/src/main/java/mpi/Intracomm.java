package mpi;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.qsnet.elan.ElanGroup;

/**
 * An intracommunicator: communicator creation (dup, split, create), topologies, scans.
 */
public class Intracomm extends Comm
{
    Intracomm(final int predefined)
    {
        super(predefined);
    }

    Intracomm(final CommState state)
    {
        super(state);
    }

    /**
     * Makes a communicator's state: a context agreed over {@code over} (the parent communicator, or
     * for {@link #createGroup} the new group's own agreement). A communicator of the
     * whole job in world order shares the job's Elanlib group ({@code base->allGroup}), so its
     * barrier, broadcast and reduction are Elanlib's; any other uses the point-to-point algorithms.
     * (Elanlib groups made later, by {@code elan_group}, would need the Elan heaps of their members
     * to be symmetric, which Tports' per-process event allocation does not keep.)
     */
    static CommState make(final CommState over, final int[] vps, final String name) throws MPIException
    {
        final Rank rank = over.rank;
        final int ctx = rank.agreeContext(over);
        if (vps == null)
        {
            return null;
        }
        final ElanGroup elan = Arrays.equals(vps, rank.world.vps) ? rank.base.allGroup() : null;
        return new CommState(rank, ctx, vps, null, elan, name);
    }

    static CommState dupState(final CommState c) throws MPIException
    {
        c.rank.enter();
        final CommState d = c.remote != null ? new CommState(c.rank, Intercomm.agree(c), c.vps, c.remote, null, c.name + " dup")
            : make(c, c.vps.clone(), c.name + " dup");
        d.errhandler = c.errhandler;
        d.topology = c.topology;
        d.dims = c.dims;
        d.periods = c.periods;
        d.graphIndex = c.graphIndex;
        d.graphEdges = c.graphEdges;
        d.distSources = c.distSources;
        d.distSourceWeights = c.distSourceWeights;
        d.distDestinations = c.distDestinations;
        d.distDestWeights = c.distDestWeights;
        return d;
    }

    /**
     * {@code MPI_COMM_DUP}.
     *
     * @return a new communicator with the same group and a new context.
     * @throws MPIException on an error.
     */
    @Override
    public Intracomm dup() throws MPIException
    {
        return call(() -> new Intracomm(dupState(state())));
    }

    @Override
    public Intracomm clone()
    {
        return (Intracomm)super.clone();
    }

    /**
     * {@code MPI_COMM_SPLIT}: one communicator per colour, ranked by key (then by old rank).
     *
     * @param colour the colour (at least 0, or {@link MPI#UNDEFINED} for none).
     * @param key    the ordering key.
     * @return the caller's new communicator (null-valued for {@link MPI#UNDEFINED}: {@link #isNull()}).
     * @throws MPIException on an error.
     */
    public final Intracomm split(final int colour, final int key) throws MPIException
    {
        return call(() ->
        {
            final CommState c = state();
            if (colour < 0 && colour != MPI.UNDEFINED)
            {
                throw new MPIException(MPI.ERR_ARG, "split: colour " + colour + " must be at least 0 or MPI.UNDEFINED");
            }
            c.rank.enter();
            final int[] all = Collectives.allGatherInts(c, new int[] {colour, key});
            if (colour == MPI.UNDEFINED)
            {
                make(c, null, null);
                return new Intracomm((CommState)null);
            }
            final List<int[]> mine = new ArrayList<>();
            for (int i = 0; i < c.size(); i++)
            {
                if (all[2 * i] == colour)
                {
                    mine.add(new int[] {all[2 * i + 1], i});
                }
            }
            mine.sort((a, b) -> a[0] != b[0] ? Integer.compare(a[0], b[0]) : Integer.compare(a[1], b[1]));
            final int[] vps = new int[mine.size()];
            for (int i = 0; i < vps.length; i++)
            {
                vps[i] = c.vps[mine.get(i)[1]];
            }
            final CommState s = make(c, vps, c.name + " split " + colour);
            s.errhandler = c.errhandler;
            return new Intracomm(s);
        });
    }

    /**
     * {@code MPI_COMM_DUP_WITH_INFO}: {@link #dup()}, then the duplicate's hints set to {@code info}.
     *
     * @param info the hints of the duplicate.
     * @return the duplicate.
     * @throws MPIException on an error.
     */
    @Override
    public Intracomm dupWithInfo(final Info info) throws MPIException
    {
        final Intracomm c = dup();
        c.setInfo(info);
        return c;
    }

    /**
     * {@code MPI_COMM_SPLIT_TYPE} (collective). With {@link Comm#TYPE_SHARED} the new communicators
     * group the processes that can share memory: here every rank is a separate emulated process
     * with its own main memory (even ranks placed on one node), so each rank gets a communicator of
     * itself alone, the same set of processes a shared window ({@link Win#FLAVOR_SHARED}) accepts.
     *
     * @param splitType {@link Comm#TYPE_SHARED}, or {@link MPI#UNDEFINED} for no communicator.
     * @param key       the ordering key.
     * @param info      hints (ignored).
     * @return the caller's new communicator ({@link #isNull()} for {@link MPI#UNDEFINED}).
     * @throws MPIException with {@link MPI#ERR_ARG} for another split type.
     */
    public final Intracomm splitType(final int splitType, final int key, final Info info) throws MPIException
    {
        if (splitType != TYPE_SHARED && splitType != MPI.UNDEFINED)
        {
            throw new MPIException(MPI.ERR_ARG, "splitType: split type " + splitType + " must be Comm.TYPE_SHARED or "
                + "MPI.UNDEFINED");
        }
        return split(splitType == MPI.UNDEFINED ? MPI.UNDEFINED : getRank(), key);
    }

    /**
     * {@code MPI_COMM_CREATE_GROUP}: a communicator of {@code group}, a subgroup of this
     * communicator's, made by the members of {@code group} alone: the other processes of this
     * communicator do not call (or call with a group they are not in, which gives them the null
     * communicator at once). Its ranks follow the group's order, and it has this communicator's
     * error handler, as Open MPI's has.
     *
     * <p>The members agree on the new context among themselves, as {@link #create}, {@link #split}
     * and {@link #dup} agree over the whole parent: the maximum of their next free context ids, by a
     * reduction to the group's rank 0 and a broadcast back. Its messages travel point to point on a
     * context kept for these agreements, tagged {@code tag}, so they never match a receive of this
     * communicator's, nor one of its collectives (blocking or in flight), nor another group's
     * agreement with another tag. Calls with one tag are kept apart by their order: a rank is one
     * thread, so it makes them one after another, and between two processes the messages of
     * successive calls are matched in the order they were sent (Tports' order from one sender).
     *
     * @param group the group: a subgroup of this communicator's group, the same at every member
     *              ({@link MPI#GROUP_EMPTY} for none).
     * @param tag   tells concurrent calls apart: 0..{@link MPI#TAG_UB}, the same at every member.
     * @return the new communicator; at a process outside {@code group}, the null communicator
     *         ({@link #isNull()}), without communicating (a local operation returning
     *         {@code MPI_COMM_NULL}, as Open MPI's manual page and {@code comm_create_group.c} say).
     * @throws MPIException with {@link MPI#ERR_TAG} for a tag outside 0..TAG_UB, {@link MPI#ERR_GROUP}
     *                      for a null or freed group or one holding a process outside this
     *                      communicator (Open MPI's classes).
     */
    public final Intracomm createGroup(final Group group, final int tag) throws MPIException
    {
        return call(() ->
        {
            final CommState c = state();
            // Open MPI checks the tag first, then the group
            CommState.checkTag("createGroup", tag, false);
            if (group == null)
            {
                throw new MPIException(MPI.ERR_GROUP, "createGroup: group is null (MPI.GROUP_EMPTY is the group of no "
                    + "process)");
            }
            group.live("createGroup");
            c.rank.enter();
            if (!subgroupWithMe(c, group, "createGroup"))
            {
                return new Intracomm((CommState)null);
            }
            final CommState s = make(CommState.groupAgreement(c.rank, group.vps, tag), group.vps.clone(), c.name
                + " createGroup " + tag);
            s.errhandler = c.errhandler;
            return new Intracomm(s);
        });
    }

    /**
     * Checks that every process of {@code group} is a member of {@code c}.
     *
     * @return whether the calling process is in {@code group}.
     * @throws MPIException with {@link MPI#ERR_GROUP} naming the first process that is not.
     */
    private static boolean subgroupWithMe(final CommState c, final Group group, final String what) throws MPIException
    {
        for (final int v : group.vps)
        {
            if (c.rankOf(v) < 0)
            {
                throw new MPIException(MPI.ERR_GROUP, what + ": the group holds VP " + v + ", not a member of " + c);
            }
        }
        return Arrays.stream(group.vps).anyMatch(v -> v == c.rank.base.vp());
    }

    /**
     * {@code MPI_COMM_CREATE}: a communicator of a subgroup (every member of this one calls).
     *
     * @param group a subgroup of this communicator's group.
     * @return the new communicator ({@link #isNull()} for processes outside the group).
     * @throws MPIException on an error.
     */
    public final Intracomm create(final Group group) throws MPIException
    {
        return call(() ->
        {
            final CommState c = state();
            c.rank.enter();
            final boolean member = subgroupWithMe(c, group, "create");
            final CommState s = make(c, member ? group.vps.clone() : null, c.name + " create");
            if (s == null)
            {
                return new Intracomm((CommState)null);
            }
            s.errhandler = c.errhandler;
            return new Intracomm(s);
        });
    }

    /**
     * {@code MPI_SCAN}: inclusive prefix reduction in rank order.
     *
     * @param sendbuf send buffer.
     * @param recvbuf receive buffer.
     * @param count   elements.
     * @param type    their type.
     * @param op      the operator.
     * @throws MPIException on an error.
     */
    public final void scan(final Object sendbuf, final Object recvbuf, final int count, final Datatype type, final Op op)
        throws MPIException
    {
        scan("scan", sendbuf, recvbuf, count, type, op, false, false);
    }

    /**
     * {@code MPI_SCAN} in place.
     *
     * @param buf   the buffer.
     * @param count elements.
     * @param type  their type.
     * @param op    the operator.
     * @throws MPIException on an error.
     */
    public final void scan(final Object buf, final int count, final Datatype type, final Op op) throws MPIException
    {
        scan(buf, buf, count, type, op);
    }

    /**
     * {@code MPI_EXSCAN}: exclusive prefix reduction (rank 0's receive buffer is left as it is).
     *
     * @param sendbuf send buffer.
     * @param recvbuf receive buffer.
     * @param count   elements.
     * @param type    their type.
     * @param op      the operator.
     * @throws MPIException on an error.
     */
    public final void exScan(final Object sendbuf, final Object recvbuf, final int count, final Datatype type,
        final Op op) throws MPIException
    {
        scan("exScan", sendbuf, recvbuf, count, type, op, true, false);
    }

    /**
     * {@code MPI_EXSCAN} in place.
     *
     * @param buf   the buffer.
     * @param count elements.
     * @param type  their type.
     * @param op    the operator.
     * @throws MPIException on an error.
     */
    public final void exScan(final Object buf, final int count, final Datatype type, final Op op) throws MPIException
    {
        exScan(buf, buf, count, type, op);
    }

    private Request scan(final String what, final Object sendbuf, final Object recvbuf, final int count,
        final Datatype type, final Op op, final boolean exclusive, final boolean nb) throws MPIException
    {
        return call(() ->
        {
            type.check(what, "sendbuf", sendbuf, count);
            type.check(what, "recvbuf", recvbuf, count);
            op.check(what, type);
            final CommState c = state();
            final ScheduledCollectives.Result done = r ->
            {
                if (r != null)
                {
                    type.unpack(r, r.length, recvbuf, 0);
                }
            };
            if (nb)
            {
                return ScheduledCollectives.scan(c, type.pack(sendbuf, 0, count), count, type, op, exclusive, done)
                    .start();
            }
            done.accept(Collectives.scan(c, type.pack(sendbuf, 0, count), count, type, op, exclusive));
            return null;
        });
    }

    /**
     * {@code MPI_ISCAN}: the chain of the scan as a schedule; returns at once.
     *
     * @param sendbuf send buffer.
     * @param recvbuf receive buffer.
     * @param count   elements.
     * @param type    type.
     * @param op      operator.
     * @return the request.
     * @throws MPIException on an error.
     */
    public final Request iScan(final Object sendbuf, final Object recvbuf, final int count, final Datatype type,
        final Op op) throws MPIException
    {
        return scan("iScan", sendbuf, recvbuf, count, type, op, false, true);
    }

    /**
     * {@code MPI_ISCAN} in place.
     *
     * @param buf   the buffer.
     * @param count elements.
     * @param type  type.
     * @param op    operator.
     * @return the request.
     * @throws MPIException on an error.
     */
    public final Request iScan(final Object buf, final int count, final Datatype type, final Op op) throws MPIException
    {
        return iScan(buf, buf, count, type, op);
    }

    /**
     * {@code MPI_CART_CREATE}: a Cartesian topology (ranks are not reordered).
     *
     * @param dims    processes per dimension.
     * @param periods whether each dimension wraps around.
     * @param reorder ignored (ranks keep their order).
     * @return the new communicator ({@link #isNull()} for processes beyond the grid).
     * @throws MPIException with {@link MPI#ERR_DIMS} when the grid is larger than the communicator.
     */
    public final CartComm createCart(final int[] dims, final boolean[] periods, final boolean reorder)
        throws MPIException
    {
        return call(() ->
        {
            final CommState c = state();
            int n = 1;
            for (final int d : dims)
            {
                if (d <= 0)
                {
                    throw new MPIException(MPI.ERR_DIMS, "createCart: dimension " + d + " must be at least 1");
                }
                n *= d;
            }
            if (n > c.size() || periods.length != dims.length)
            {
                throw new MPIException(MPI.ERR_DIMS, "createCart: a grid of " + n + " processes needs at most " + c.size()
                    + " and one period per dimension");
            }
            final CommState s = make(c, c.myRank < n ? Arrays.copyOf(c.vps, n) : null, c.name + " cart");
            if (s == null)
            {
                return new CartComm((CommState)null);
            }
            s.topology = MPI.CART;
            s.dims = dims.clone();
            s.periods = periods.clone();
            s.errhandler = c.errhandler;
            return new CartComm(s);
        });
    }

    /**
     * {@code MPI_GRAPH_CREATE}.
     *
     * @param index   cumulative neighbour counts.
     * @param edges   the neighbours.
     * @param reorder ignored.
     * @return the new communicator.
     * @throws MPIException with {@link MPI#ERR_ARG} when the graph is larger than the communicator.
     */
    public final GraphComm createGraph(final int[] index, final int[] edges, final boolean reorder) throws MPIException
    {
        return call(() ->
        {
            final CommState c = state();
            final int n = index.length;
            if (n > c.size())
            {
                throw new MPIException(MPI.ERR_ARG, "createGraph: " + n + " nodes exceed the communicator's " + c.size());
            }
            final CommState s = make(c, c.myRank < n ? Arrays.copyOf(c.vps, n) : null, c.name + " graph");
            if (s == null)
            {
                return new GraphComm((CommState)null);
            }
            s.topology = MPI.GRAPH;
            s.graphIndex = index.clone();
            s.graphEdges = edges.clone();
            s.errhandler = c.errhandler;
            return new GraphComm(s);
        });
    }

    /**
     * {@code MPI_IEXSCAN}: the chain of the exclusive scan as a schedule; returns at once.
     *
     * @param sendbuf send buffer.
     * @param recvbuf receive buffer.
     * @param count   elements.
     * @param type    type.
     * @param op      operator.
     * @return the request.
     * @throws MPIException on an error.
     */
    public final Request iExScan(final Object sendbuf, final Object recvbuf, final int count, final Datatype type,
        final Op op) throws MPIException
    {
        return scan("iExScan", sendbuf, recvbuf, count, type, op, true, true);
    }

    /**
     * {@code MPI_IEXSCAN} in place.
     *
     * @param buf   the buffer.
     * @param count elements.
     * @param type  type.
     * @param op    operator.
     * @return the request.
     * @throws MPIException on an error.
     */
    public final Request iExScan(final Object buf, final int count, final Datatype type, final Op op)
        throws MPIException
    {
        return iExScan(buf, buf, count, type, op);
    }

    /**
     * {@code MPI_COMM_IDUP}: the duplication completes in the call; {@link #getRequest()} of the
     * new communicator returns a completed request.
     *
     * @return the new communicator.
     * @throws MPIException on an error.
     */
    @Override
    public Intracomm iDup() throws MPIException
    {
        final Intracomm d = dup();
        return withRequest(d, d.state());
    }

    private static void checkRanks(final CommState c, final String what, final String arg, final int[] ranks)
        throws MPIException
    {
        for (final int r : ranks)
        {
            if (r < 0 || r >= c.size())
            {
                throw new MPIException(MPI.ERR_RANK, what + ": " + arg + " holds rank " + r + ", outside " + c + " (0.."
                    + (c.size() - 1) + ")");
            }
        }
    }

    private GraphComm distGraph(final String what, final int[] in, final int[] inWeights, final int[] out,
        final int[] outWeights, final boolean weighted) throws MPIException
    {
        final CommState c = state();
        final CommState s = make(c, c.vps.clone(), c.name + " dist graph");
        s.topology = MPI.DIST_GRAPH;
        s.distSources = in;
        s.distDestinations = out;
        s.distSourceWeights = weighted ? inWeights : null;
        s.distDestWeights = weighted ? outWeights : null;
        s.errhandler = c.errhandler;
        return new GraphComm(s);
    }

    /**
     * {@code MPI_DIST_GRAPH_CREATE_ADJACENT}: a distributed graph topology where each process names
     * the edges into it and out of it (ranks are not reordered).
     *
     * @param sources       processes with an edge to this one.
     * @param sourceWeights their weights.
     * @param destinations  processes this one has an edge to.
     * @param destWeights   their weights.
     * @param info          hints (ignored).
     * @param reorder       ignored.
     * @return the new communicator.
     * @throws MPIException with {@link MPI#ERR_RANK} for a rank outside the communicator.
     */
    public final GraphComm createDistGraphAdjacent(final int[] sources, final int[] sourceWeights,
        final int[] destinations, final int[] destWeights, final Info info, final boolean reorder) throws MPIException
    {
        return call(() ->
        {
            checkRanks(state(), "createDistGraphAdjacent", "sources", sources);
            checkRanks(state(), "createDistGraphAdjacent", "destinations", destinations);
            if (sourceWeights.length != sources.length || destWeights.length != destinations.length)
            {
                throw new MPIException(MPI.ERR_ARG, "createDistGraphAdjacent: one weight per edge is needed");
            }
            return distGraph("createDistGraphAdjacent", sources.clone(), sourceWeights.clone(), destinations.clone(),
                destWeights.clone(), true);
        });
    }

    /**
     * {@code MPI_DIST_GRAPH_CREATE_ADJACENT} with {@code MPI_UNWEIGHTED}.
     *
     * @param sources      processes with an edge to this one.
     * @param destinations processes this one has an edge to.
     * @param info         hints (ignored).
     * @param reorder      ignored.
     * @return the new communicator.
     * @throws MPIException with {@link MPI#ERR_RANK} for a rank outside the communicator.
     */
    public final GraphComm createDistGraphAdjacent(final int[] sources, final int[] destinations, final Info info,
        final boolean reorder) throws MPIException
    {
        return call(() ->
        {
            checkRanks(state(), "createDistGraphAdjacent", "sources", sources);
            checkRanks(state(), "createDistGraphAdjacent", "destinations", destinations);
            return distGraph("createDistGraphAdjacent", sources.clone(), null, destinations.clone(), null, false);
        });
    }

    /**
     * {@code MPI_DIST_GRAPH_CREATE}: a distributed graph topology where any process may name any
     * edges; every process then learns the edges into and out of it (the edge lists of all
     * processes are gathered and broadcast). In-edges and out-edges are listed in the order of the
     * process that named them, then the order it named them in.
     *
     * @param sources      source nodes this process names edges for.
     * @param degrees      edges per source node.
     * @param destinations the edges' destinations, source by source.
     * @param weights      the edges' weights.
     * @param info         hints (ignored).
     * @param reorder      ignored.
     * @return the new communicator.
     * @throws MPIException with {@link MPI#ERR_RANK} for a rank outside the communicator,
     *                      {@link MPI#ERR_ARG} for inconsistent arrays.
     */
    public final GraphComm createDistGraph(final int[] sources, final int[] degrees, final int[] destinations,
        final int[] weights, final Info info, final boolean reorder) throws MPIException
    {
        return call(() -> distGraphGlobal(sources, degrees, destinations, weights));
    }

    /**
     * {@code MPI_DIST_GRAPH_CREATE} with {@code MPI_UNWEIGHTED}.
     *
     * @param sources      source nodes this process names edges for.
     * @param degrees      edges per source node.
     * @param destinations the edges' destinations, source by source.
     * @param info         hints (ignored).
     * @param reorder      ignored.
     * @return the new communicator.
     * @throws MPIException on an error.
     */
    public final GraphComm createDistGraph(final int[] sources, final int[] degrees, final int[] destinations,
        final Info info, final boolean reorder) throws MPIException
    {
        return call(() -> distGraphGlobal(sources, degrees, destinations, null));
    }

    private GraphComm distGraphGlobal(final int[] sources, final int[] degrees, final int[] destinations,
        final int[] weights) throws MPIException
    {
        final CommState c = state();
        final String what = "createDistGraph";
        checkRanks(c, what, "sources", sources);
        checkRanks(c, what, "destinations", destinations);
        int edges = 0;
        if (degrees.length < sources.length)
        {
            throw new MPIException(MPI.ERR_ARG, what + ": one degree per source is needed");
        }
        for (int i = 0; i < sources.length; i++)
        {
            edges += degrees[i];
        }
        if (edges > destinations.length || weights != null && weights.length < edges)
        {
            throw new MPIException(MPI.ERR_ARG, what + ": the degrees name " + edges + " edges; destinations (and "
                + "weights) must hold as many");
        }
        c.rank.enter();
        final int[] mine = new int[3 * edges];
        for (int i = 0, k = 0; i < sources.length; i++)
        {
            for (int d = 0; d < degrees[i]; d++, k++)
            {
                mine[3 * k] = sources[i];
                mine[3 * k + 1] = destinations[k];
                mine[3 * k + 2] = weights == null ? 1 : weights[k];
            }
        }
        // every process's edge list, in rank order, everywhere: the sizes, a gather, a broadcast
        final int n = c.size();
        final int[] lens = Collectives.allGatherInts(c, new int[] {mine.length});
        final int[] sizes = new int[n];
        int total = 0;
        for (int i = 0; i < n; i++)
        {
            sizes[i] = 4 * lens[i];
            total += sizes[i];
        }
        final byte[][] parts = Collectives.gather(c, MPI.INT.pack(mine, 0, mine.length), sizes, 0);
        final byte[] all = new byte[total];
        if (parts != null)
        {
            for (int i = 0, p = 0; i < n; p += sizes[i], i++)
            {
                System.arraycopy(parts[i], 0, all, p, sizes[i]);
            }
        }
        final int[] every = new int[total / 4];
        final byte[] got = Collectives.bcast(c, all, 0);
        MPI.INT.unpack(got, got.length, every, 0);
        final List<Integer> in = new ArrayList<>();
        final List<Integer> inW = new ArrayList<>();
        final List<Integer> out = new ArrayList<>();
        final List<Integer> outW = new ArrayList<>();
        for (int e = 0; e + 2 < every.length; e += 3)
        {
            if (every[e + 1] == c.myRank)
            {
                in.add(every[e]);
                inW.add(every[e + 2]);
            }
            if (every[e] == c.myRank)
            {
                out.add(every[e + 1]);
                outW.add(every[e + 2]);
            }
        }
        return distGraph(what, ints(in), ints(inW), ints(out), ints(outW), weights != null);
    }

    private static int[] ints(final List<Integer> l)
    {
        return l.stream().mapToInt(Integer::intValue).toArray();
    }

    private static MPIException noSpawn(final String call)
    {
        return new MPIException(MPI.ERR_SPAWN, call + ": dynamic process management is not supported: a job's "
            + "processes are fixed when ./mpirun (Prun) starts it, as on the QsNet machine, where RMS allocated a "
            + "job's nodes and capability at launch");
    }

    private static MPIException noPorts(final String call)
    {
        return new MPIException(MPI.ERR_UNSUPPORTED_OPERATION, call + ": connecting separately started MPI jobs "
            + "(ports, name publishing) is not supported: a job's processes are fixed at launch");
    }

    /**
     * {@code MPI_COMM_SPAWN}: not supported.
     *
     * @param command  program to start.
     * @param argv     its arguments.
     * @param maxprocs processes to start.
     * @param info     hints.
     * @param root     the rank whose arguments count.
     * @param errcodes one code per process.
     * @return never.
     * @throws MPIException always, with {@link MPI#ERR_SPAWN}.
     */
    public final Intercomm spawn(final String command, final String[] argv, final int maxprocs, final Info info,
        final int root, final int[] errcodes) throws MPIException
    {
        throw noSpawn("MPI_COMM_SPAWN of " + command);
    }

    /**
     * {@code MPI_COMM_SPAWN_MULTIPLE}: not supported.
     *
     * @param commands programs to start.
     * @param argv     their arguments.
     * @param maxprocs processes per program.
     * @param info     hints.
     * @param root     the rank whose arguments count.
     * @param errcodes one code per process.
     * @return never.
     * @throws MPIException always, with {@link MPI#ERR_SPAWN}.
     */
    public final Intercomm spawnMultiple(final String[] commands, final String[][] argv, final int[] maxprocs,
        final Info[] info, final int root, final int[] errcodes) throws MPIException
    {
        throw noSpawn("MPI_COMM_SPAWN_MULTIPLE");
    }

    /**
     * {@code MPI_OPEN_PORT}: not supported.
     *
     * @return never.
     * @throws MPIException always, with {@link MPI#ERR_UNSUPPORTED_OPERATION}.
     */
    public static String openPort() throws MPIException
    {
        throw noPorts("MPI_OPEN_PORT");
    }

    /**
     * {@code MPI_OPEN_PORT}: not supported.
     *
     * @param info hints.
     * @return never.
     * @throws MPIException always, with {@link MPI#ERR_UNSUPPORTED_OPERATION}.
     */
    public static String openPort(final Info info) throws MPIException
    {
        throw noPorts("MPI_OPEN_PORT");
    }

    /**
     * {@code MPI_CLOSE_PORT}: not supported.
     *
     * @param name the port.
     * @throws MPIException always, with {@link MPI#ERR_UNSUPPORTED_OPERATION}.
     */
    public static void closePort(final String name) throws MPIException
    {
        throw noPorts("MPI_CLOSE_PORT");
    }

    /**
     * {@code MPI_COMM_ACCEPT}: not supported.
     *
     * @param port the port.
     * @param root the root.
     * @return never.
     * @throws MPIException always, with {@link MPI#ERR_UNSUPPORTED_OPERATION}.
     */
    public final Intercomm accept(final String port, final int root) throws MPIException
    {
        throw noPorts("MPI_COMM_ACCEPT");
    }

    /**
     * {@code MPI_COMM_ACCEPT}: not supported.
     *
     * @param port the port.
     * @param info hints.
     * @param root the root.
     * @return never.
     * @throws MPIException always, with {@link MPI#ERR_UNSUPPORTED_OPERATION}.
     */
    public final Intercomm accept(final String port, final Info info, final int root) throws MPIException
    {
        throw noPorts("MPI_COMM_ACCEPT");
    }

    /**
     * {@code MPI_COMM_CONNECT}: not supported.
     *
     * @param port the port.
     * @param root the root.
     * @return never.
     * @throws MPIException always, with {@link MPI#ERR_UNSUPPORTED_OPERATION}.
     */
    public final Intercomm connect(final String port, final int root) throws MPIException
    {
        throw noPorts("MPI_COMM_CONNECT");
    }

    /**
     * {@code MPI_COMM_CONNECT}: not supported.
     *
     * @param port the port.
     * @param info hints.
     * @param root the root.
     * @return never.
     * @throws MPIException always, with {@link MPI#ERR_UNSUPPORTED_OPERATION}.
     */
    public final Intercomm connect(final String port, final Info info, final int root) throws MPIException
    {
        throw noPorts("MPI_COMM_CONNECT");
    }

    /**
     * {@code MPI_PUBLISH_NAME}: not supported.
     *
     * @param service the service.
     * @param port    the port.
     * @throws MPIException always, with {@link MPI#ERR_UNSUPPORTED_OPERATION}.
     */
    public static void publishName(final String service, final String port) throws MPIException
    {
        throw noPorts("MPI_PUBLISH_NAME");
    }

    /**
     * {@code MPI_PUBLISH_NAME}: not supported.
     *
     * @param service the service.
     * @param info    hints.
     * @param port    the port.
     * @throws MPIException always, with {@link MPI#ERR_UNSUPPORTED_OPERATION}.
     */
    public static void publishName(final String service, final Info info, final String port) throws MPIException
    {
        throw noPorts("MPI_PUBLISH_NAME");
    }

    /**
     * {@code MPI_UNPUBLISH_NAME}: not supported.
     *
     * @param service the service.
     * @param port    the port.
     * @throws MPIException always, with {@link MPI#ERR_UNSUPPORTED_OPERATION}.
     */
    public static void unpublishName(final String service, final String port) throws MPIException
    {
        throw noPorts("MPI_UNPUBLISH_NAME");
    }

    /**
     * {@code MPI_UNPUBLISH_NAME}: not supported.
     *
     * @param service the service.
     * @param info    hints.
     * @param port    the port.
     * @throws MPIException always, with {@link MPI#ERR_UNSUPPORTED_OPERATION}.
     */
    public static void unpublishName(final String service, final Info info, final String port) throws MPIException
    {
        throw noPorts("MPI_UNPUBLISH_NAME");
    }

    /**
     * {@code MPI_LOOKUP_NAME}: not supported.
     *
     * @param service the service.
     * @return never.
     * @throws MPIException always, with {@link MPI#ERR_UNSUPPORTED_OPERATION}.
     */
    public static String lookupName(final String service) throws MPIException
    {
        throw noPorts("MPI_LOOKUP_NAME");
    }

    /**
     * {@code MPI_LOOKUP_NAME}: not supported.
     *
     * @param service the service.
     * @param info    hints.
     * @return never.
     * @throws MPIException always, with {@link MPI#ERR_UNSUPPORTED_OPERATION}.
     */
    public static String lookupName(final String service, final Info info) throws MPIException
    {
        throw noPorts("MPI_LOOKUP_NAME");
    }
}
