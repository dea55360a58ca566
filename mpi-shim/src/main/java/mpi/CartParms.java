package mpi;

/**
 * The result of {@link CartComm#getTopo()}: dimensions, periods and coordinates.
 */
public final class CartParms
{
    private final int[] dims;
    private final boolean[] periods;
    private final int[] coords;

    CartParms(final int[] dims, final boolean[] periods, final int[] coords)
    {
        this.dims = dims;
        this.periods = periods;
        this.coords = coords;
    }

    /** @return the number of dimensions. */
    public int getDimCount()
    {
        return dims.length;
    }

    /** @param i a dimension @return processes along it. */
    public int getDim(final int i)
    {
        return dims[i];
    }

    /** @param i a dimension @return whether it wraps around. */
    public boolean getPeriod(final int i)
    {
        return periods[i];
    }

    /** @param i a dimension @return the caller's coordinate along it. */
    public int getCoord(final int i)
    {
        return coords[i];
    }
}
