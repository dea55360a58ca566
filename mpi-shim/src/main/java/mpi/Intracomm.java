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
     * Makes a communicator's state: a context agreed over {@code parent}. A communicator of the
     * whole job in world order shares the job's Elanlib group ({@code base->allGroup}), so its
     * barrier, broadcast and reduction are Elanlib's; any other uses the point-to-point algorithms.
     * (Elanlib groups made later, by {@code elan_group}, would need the Elan heaps of their members
     * to be symmetric, which Tports' per-process event allocation does not keep.)
     */
    static CommState make(final CommState parent, final int[] vps, final String name) throws MPIException
    {
        final Rank rank = parent.rank;
        final int ctx = rank.agreeContext(parent);
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
            for (final int v : group.vps)
            {
                if (c.rankOf(v) < 0)
                {
                    throw new MPIException(MPI.ERR_GROUP, "create: the group holds VP " + v + ", not a member of " + c);
                }
            }
            final boolean member = Arrays.stream(group.vps).anyMatch(v -> v == c.rank.base.vp());
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
}
