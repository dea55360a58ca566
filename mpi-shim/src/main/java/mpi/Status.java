package mpi;

/**
 * {@code MPI_Status}: the source, tag, error and size of a received (or probed) message.
 */
public final class Status
{
    final int source;
    final int tag;
    final int error;
    final boolean cancelled;
    final long bytes;
    int index = -1;

    Status(final int source, final int tag, final int error, final boolean cancelled, final long bytes)
    {
        this.source = source;
        this.tag = tag;
        this.error = error;
        this.cancelled = cancelled;
        this.bytes = bytes;
    }

    /** The status of a call that did nothing ({@code MPI_PROC_NULL} or an inactive request). */
    static Status empty()
    {
        return new Status(MPI.PROC_NULL, MPI.ANY_TAG, MPI.SUCCESS, false, 0);
    }

    /**
     * {@code MPI_GET_COUNT}.
     *
     * @param datatype the type the message was received with.
     * @return the number of elements of that type, or {@link MPI#UNDEFINED} when the message is not
     * a whole number of them.
     * @throws MPIException when the type was freed.
     */
    public int getCount(final Datatype datatype) throws MPIException
    {
        datatype.live("getCount");
        if (datatype.wireSize == 0)
        {
            return bytes == 0 ? 0 : MPI.UNDEFINED;
        }
        return bytes % datatype.wireSize == 0 ? (int)(bytes / datatype.wireSize) : MPI.UNDEFINED;
    }

    /**
     * {@code MPI_GET_ELEMENTS}.
     *
     * @param datatype the type the message was received with.
     * @return the number of basic elements received.
     * @throws MPIException when the type was freed.
     */
    public int getElements(final Datatype datatype) throws MPIException
    {
        datatype.live("getElements");
        if (datatype.wireSize == 0)
        {
            return 0;
        }
        long n = bytes / datatype.wireSize * datatype.kinds.length;
        long rest = bytes % datatype.wireSize;
        for (int e = 0; e < datatype.kinds.length && rest >= Datatype.sizeOf(datatype.kinds[e]); e++)
        {
            rest -= Datatype.sizeOf(datatype.kinds[e]);
            n++;
        }
        return (int)n;
    }

    /**
     * {@code MPI_TEST_CANCELLED}.
     *
     * @return whether the operation was cancelled.
     * @throws MPIException never here.
     */
    public boolean isCancelled() throws MPIException
    {
        return cancelled;
    }

    /**
     * @return {@code MPI_SOURCE}: the sender's rank in the communicator.
     */
    public int getSource()
    {
        return source;
    }

    /**
     * @return {@code MPI_TAG}.
     */
    public int getTag()
    {
        return tag;
    }

    /**
     * @return {@code MPI_ERROR}.
     */
    public int getError()
    {
        return error;
    }

    /**
     * @return the index of the request in the array given to a {@code waitAny}/{@code testAny}
     * style call, or -1.
     */
    public int getIndex()
    {
        return index;
    }

    @Override
    public String toString()
    {
        return "Status[source " + source + ", tag " + tag + ", " + bytes + " bytes" + (cancelled ? ", cancelled" : "") + "]";
    }
}
