package mpi;

/**
 * The struct of {@link MPI#SHORT_INT} for {@link MPI#MAXLOC} and {@link MPI#MINLOC}: a short value and an
 * int index (use {@link MPI#shortInt}).
 */
public final class ShortInt extends Struct
{
    private final int valueOffset = addShort();
    private final int indexOffset = addInt();

    ShortInt()
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
        public short getValue()
        {
            return getShort(valueOffset);
        }

        /** @return the index. */
        public int getIndex()
        {
            return getInt(indexOffset);
        }

        /** @param v the value. */
        public void putValue(final short v)
        {
            putShort(valueOffset, v);
        }

        /** @param v the index. */
        public void putIndex(final int v)
        {
            putInt(indexOffset, v);
        }
    }
}
