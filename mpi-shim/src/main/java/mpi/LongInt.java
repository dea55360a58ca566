package mpi;

/**
 * The struct of {@link MPI#LONG_INT} for {@link MPI#MAXLOC} and {@link MPI#MINLOC}: a long value and an
 * int index (use {@link MPI#longInt}).
 */
public final class LongInt extends Struct
{
    private final int valueOffset = addLong();
    private final int indexOffset = addInt();

    LongInt()
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
        public long getValue()
        {
            return getLong(valueOffset);
        }

        /** @return the index. */
        public int getIndex()
        {
            return getInt(indexOffset);
        }

        /** @param v the value. */
        public void putValue(final long v)
        {
            putLong(valueOffset, v);
        }

        /** @param v the index. */
        public void putIndex(final int v)
        {
            putInt(indexOffset, v);
        }
    }
}
