package mpi;

/**
 * The struct of {@link MPI#FLOAT_INT} for {@link MPI#MAXLOC} and {@link MPI#MINLOC}: a float value and an
 * int index (use {@link MPI#floatInt}).
 */
public final class FloatInt extends Struct
{
    private final int valueOffset = addFloat();
    private final int indexOffset = addInt();

    FloatInt()
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
        public float getValue()
        {
            return getFloat(valueOffset);
        }

        /** @return the index. */
        public int getIndex()
        {
            return getInt(indexOffset);
        }

        /** @param v the value. */
        public void putValue(final float v)
        {
            putFloat(valueOffset, v);
        }

        /** @param v the index. */
        public void putIndex(final int v)
        {
            putInt(indexOffset, v);
        }
    }
}
