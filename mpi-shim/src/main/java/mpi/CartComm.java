package mpi;

import java.util.ArrayList;
import java.util.List;

/**
 * A communicator with a Cartesian topology (row-major rank order).
 */
public final class CartComm extends Intracomm
{
    CartComm(final CommState state)
    {
        super(state);
    }

    /**
     * {@code MPI_DIMS_CREATE}: fills the zero entries of {@code dims} with a balanced factorisation.
     *
     * @param nnodes processes.
     * @param dims   dimensions (non-zero entries are kept).
     * @throws MPIException with {@link MPI#ERR_DIMS} when {@code nnodes} does not divide.
     */
    public static void createDims(final int nnodes, final int[] dims) throws MPIException
    {
        if (nnodes < 1)
        {
            throw new MPIException(MPI.ERR_ARG, "createDims: nnodes " + nnodes + " must be at least 1");
        }
        int rest = nnodes;
        int free = 0;
        for (int i = 0; i < dims.length; i++)
        {
            final int d = dims[i];
            if (d < 0)
            {
                throw new MPIException(MPI.ERR_DIMS, "createDims: dims[" + i + "] " + d
                    + " must be at least 0 (0: to be chosen)");
            }
            if (d > 0)
            {
                if (rest % d != 0)
                {
                    throw new MPIException(MPI.ERR_DIMS, "createDims: " + nnodes + " is not divisible by the given dimensions");
                }
                rest /= d;
            }
            else
            {
                free++;
            }
        }
        final List<Integer> f = new ArrayList<>();
        for (int p = 2; rest > 1; )
        {
            if (rest % p == 0)
            {
                f.add(p);
                rest /= p;
            }
            else
            {
                p++;
            }
        }
        final int[] v = new int[free];
        java.util.Arrays.fill(v, 1);
        for (int i = f.size() - 1; i >= 0; i--)
        {
            int min = 0;
            for (int j = 1; j < free; j++)
            {
                min = v[j] < v[min] ? j : min;
            }
            if (free == 0)
            {
                throw new MPIException(MPI.ERR_DIMS, "createDims: the given dimensions do not multiply to " + nnodes);
            }
            v[min] *= f.get(i);
        }
        java.util.Arrays.sort(v);
        for (int i = 0, k = free - 1; i < dims.length; i++)
        {
            if (dims[i] <= 0)
            {
                dims[i] = v[k--];
            }
        }
    }

    /**
     * {@code MPI_CART_GET}.
     *
     * @return the dimensions, periods and the caller's coordinates.
     * @throws MPIException on an error.
     */
    public CartParms getTopo() throws MPIException
    {
        return call(() ->
        {
            final CommState c = state();
            return new CartParms(c.dims.clone(), c.periods.clone(), coordsOf(c, c.myRank));
        });
    }

    /**
     * {@code MPI_CART_RANK}.
     *
     * @param coords coordinates (periodic dimensions wrap).
     * @return the rank there.
     * @throws MPIException with {@link MPI#ERR_ARG} for a coordinate outside a non-periodic dimension.
     */
    public int getRank(final int[] coords) throws MPIException
    {
        return call(() -> rankOf(state(), coords));
    }

    private static int rankOf(final CommState c, final int[] coords) throws MPIException
    {
        if (coords.length != c.dims.length)
        {
            throw new MPIException(MPI.ERR_ARG, "getRank: " + coords.length + " coordinates given for a grid of "
                + c.dims.length + " dimensions");
        }
        int r = 0;
        for (int i = 0; i < c.dims.length; i++)
        {
            int x = coords[i];
            if (c.periods[i])
            {
                x = Math.floorMod(x, c.dims[i]);
            }
            else if (x < 0 || x >= c.dims[i])
            {
                throw new MPIException(MPI.ERR_ARG, "getRank: coordinate " + x + " is outside dimension " + i + " (0.."
                    + (c.dims[i] - 1) + ")");
            }
            r = r * c.dims[i] + x;
        }
        return r;
    }

    /**
     * {@code MPI_CART_COORDS}.
     *
     * @param rank a rank.
     * @return its coordinates.
     * @throws MPIException with {@link MPI#ERR_RANK} for a rank outside the grid.
     */
    public int[] getCoords(final int rank) throws MPIException
    {
        return call(() -> coordsOf(state(), rank));
    }

    private static int[] coordsOf(final CommState c, final int rank) throws MPIException
    {
        c.checkPeer("getCoords", "rank", rank, false);
        final int[] x = new int[c.dims.length];
        int r = rank;
        for (int i = c.dims.length - 1; i >= 0; i--)
        {
            x[i] = r % c.dims[i];
            r /= c.dims[i];
        }
        return x;
    }

    /**
     * {@code MPI_CART_SHIFT}.
     *
     * @param direction the dimension.
     * @param disp      the displacement.
     * @return the source and destination ranks ({@link MPI#PROC_NULL} off a non-periodic edge).
     * @throws MPIException with {@link MPI#ERR_DIMS} for a bad direction.
     */
    public ShiftParms shift(final int direction, final int disp) throws MPIException
    {
        return call(() ->
        {
            final CommState c = state();
            if (direction < 0 || direction >= c.dims.length)
            {
                throw new MPIException(MPI.ERR_DIMS, "shift: direction " + direction + " must be in 0.." + (c.dims.length - 1));
            }
            final int[] me = coordsOf(c, c.myRank);
            return new ShiftParms(at(c, me, direction, -disp), at(c, me, direction, disp));
        });
    }

    private static int at(final CommState c, final int[] me, final int dim, final int d) throws MPIException
    {
        final int[] x = me.clone();
        x[dim] += d;
        if (!c.periods[dim] && (x[dim] < 0 || x[dim] >= c.dims[dim]))
        {
            return MPI.PROC_NULL;
        }
        return rankOf(c, x);
    }

    /**
     * {@code MPI_CART_SUB}: the sub-grids keeping the dimensions marked true.
     *
     * @param remainDims which dimensions remain.
     * @return the caller's sub-grid communicator.
     * @throws MPIException with {@link MPI#ERR_ARG} when {@code remainDims} has not one entry per dimension.
     */
    public CartComm sub(final boolean[] remainDims) throws MPIException
    {
        return call(() ->
        {
            final CommState c = state();
            if (remainDims.length != c.dims.length)
            {
                throw new MPIException(MPI.ERR_ARG, "sub: remainDims has " + remainDims.length + " entries for a grid of "
                    + c.dims.length + " dimensions");
            }
            final int[] me = coordsOf(c, c.myRank);
            int colour = 0;
            int key = 0;
            final List<Integer> d = new ArrayList<>();
            final List<Boolean> p = new ArrayList<>();
            for (int i = 0; i < c.dims.length; i++)
            {
                if (remainDims[i])
                {
                    key = key * c.dims[i] + me[i];
                    d.add(c.dims[i]);
                    p.add(c.periods[i]);
                }
                else
                {
                    colour = colour * c.dims[i] + me[i];
                }
            }
            final Intracomm s = split(colour, key);
            final CommState st = s.state();
            st.topology = MPI.CART;
            st.dims = d.stream().mapToInt(Integer::intValue).toArray();
            st.periods = new boolean[p.size()];
            for (int i = 0; i < p.size(); i++)
            {
                st.periods[i] = p.get(i);
            }
            return new CartComm(st);
        });
    }

    /**
     * {@code MPI_COMM_DUP}: a Cartesian communicator with the same grid.
     *
     * @return the copy.
     * @throws MPIException on an error.
     */
    @Override
    public CartComm dup() throws MPIException
    {
        return call(() -> new CartComm(dupState(state())));
    }

    @Override
    public CartComm clone()
    {
        return (CartComm)super.clone();
    }

    /**
     * {@code MPI_COMM_IDUP} (complete in the call; see {@link Comm#iDup()}).
     *
     * @return the copy.
     * @throws MPIException on an error.
     */
    @Override
    public CartComm iDup() throws MPIException
    {
        final CartComm d = dup();
        return withRequest(d, d.state());
    }

    /**
     * {@code MPI_CART_MAP}: the rank this process would have in the grid (no reordering: its own
     * rank, or {@link MPI#UNDEFINED} beyond the grid).
     *
     * @param dims    processes per dimension.
     * @param periods periodicity per dimension.
     * @return the rank, or {@link MPI#UNDEFINED}.
     * @throws MPIException on an error.
     */
    public int map(final int[] dims, final boolean[] periods) throws MPIException
    {
        long n = 1;
        for (final int d : dims)
        {
            n *= d;
        }
        final int r = state().myRank;
        return r < n ? r : MPI.UNDEFINED;
    }
}
