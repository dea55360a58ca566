package mpi;

/**
 * The struct of {@link MPI#DOUBLE_INT} for {@link MPI#MAXLOC} and {@link MPI#MINLOC}: a double value and an
 * int index (use {@link MPI#doubleInt}).
 */
public final class DoubleInt extends Struct
{
    private final int valueOffset = addDouble();
    private final int indexOffset = addInt();

    DoubleInt()
    {
    }

    @Override
    protected Data newData()
    {
        return new Data();
    }

    /**
     * One element: its value and index.
     */
    public final class Data extends Struct.Data
    {
        /** @return the value. */
        public double getValue()
        {
            return getDouble(valueOffset);
        }

        /** @return the index. */
        public int getIndex()
        {
            return getInt(indexOffset);
        }

        /** @param v the value. */
        public void putValue(final double v)
        {
            putDouble(valueOffset, v);
        }

        /** @param v the index. */
        public void putIndex(final int v)
        {
            putInt(indexOffset, v);
        }
    }
}
