package mpi;

/**
 * {@code MPI_Count}: a count that may exceed an {@code int} (the bindings' {@code Count}, returned
 * by {@link Status#getElementsX} and taken by {@link Status#setElementsX}). A mutable holder of a
 * {@code long}, ordered by its value.
 */
public final class Count implements Comparable<Object>
{
    private long count;

    /**
     * Makes a count.
     *
     * @param count the value.
     */
    public Count(final long count)
    {
        this.count = count;
    }

    /**
     * Gets the value.
     *
     * @return the value.
     */
    public long getCount()
    {
        return count;
    }

    /**
     * Sets the value.
     *
     * @param count the new value.
     */
    public void setCount(final long count)
    {
        this.count = count;
    }

    /**
     * Whether {@code obj} is a {@code Count} of the same value.
     *
     * @param obj the other object.
     * @return true for a count of the same value.
     */
    @Override
    public boolean equals(final Object obj)
    {
        return obj instanceof Count c && c.count == count;
    }

    @Override
    public int hashCode()
    {
        return Long.hashCode(count);
    }

    /**
     * Compares values; anything that is not a {@code Count} orders before this one (as the
     * bindings do).
     *
     * @param obj the other count.
     * @return negative, zero or positive as this value is less than, equal to or greater than
     * {@code obj}'s; -1 when {@code obj} is not a {@code Count}.
     */
    @Override
    public int compareTo(final Object obj)
    {
        return obj instanceof Count c ? Long.compare(count, c.count) : -1;
    }

    @Override
    public String toString()
    {
        return Long.toString(count);
    }
}
