package mpi;

/**
 * The struct of {@link MPI#INT2} for {@link MPI#MAXLOC} and {@link MPI#MINLOC}: a int value and an
 * int index (use {@link MPI#int2}).
 */
public final class Int2 extends Struct
{
    private final int valueOffset = addInt();
    private final int indexOffset = addInt();

    Int2()
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
        public int getValue()
        {
            return getInt(valueOffset);
        }

        /** @return the index. */
        public int getIndex()
        {
            return getInt(indexOffset);
        }

        /** @param v the value. */
        public void putValue(final int v)
        {
            putInt(valueOffset, v);
        }

        /** @param v the index. */
        public void putIndex(final int v)
        {
            putInt(indexOffset, v);
        }
    }
}
