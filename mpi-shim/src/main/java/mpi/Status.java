package mpi;

/**
 * {@code MPI_Status}: the source, tag, error and size of a received (or probed) message.
 */
public final class Status
{
    final int source;
    final int tag;
    final int error;
    boolean cancelled;
    long bytes;
    int index = -1;

    Status(final int source, final int tag, final int error, final boolean cancelled, final long bytes)
    {
        this.source = source;
        this.tag = tag;
        this.error = error;
        this.cancelled = cancelled;
        this.bytes = bytes;
    }

    /**
     * MPI's empty status (what a wait on a null or inactive request returns): source
     * {@link MPI#ANY_SOURCE}, tag {@link MPI#ANY_TAG}, count 0.
     */
    static Status empty()
    {
        return new Status(MPI.ANY_SOURCE, MPI.ANY_TAG, MPI.SUCCESS, false, 0);
    }

    /** The status of a receive or probe from {@link MPI#PROC_NULL}: that source, tag {@link MPI#ANY_TAG}, count 0. */
    static Status procNull()
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
     * @return the number of basic elements received (a complex number is one element).
     * @throws MPIException when the type was freed, {@link MPI#ERR_COUNT} when the number does not
     *                      fit an {@code int} (use {@link #getElementsX}).
     */
    public int getElements(final Datatype datatype) throws MPIException
    {
        final long n = elements("getElements", datatype);
        if (n > Integer.MAX_VALUE)
        {
            throw new MPIException(MPI.ERR_COUNT, "getElements: " + n + " elements do not fit an int (use getElementsX)");
        }
        return (int)n;
    }

    /**
     * {@code MPI_GET_ELEMENTS_X}: as {@link #getElements}, as a {@link Count}.
     *
     * @param datatype the type the message was received with.
     * @return the number of basic elements received.
     * @throws MPIException when the type was freed.
     */
    public Count getElementsX(final Datatype datatype) throws MPIException
    {
        return new Count(elements("getElementsX", datatype));
    }

    /** Basic elements of {@code t} per element of it (a complex number counts once). */
    private static int perElement(final Datatype t)
    {
        return t.complex ? t.kinds.length / 2 : t.kinds.length;
    }

    /** Bytes of basic element {@code e} of {@code t} (a complex number's two parts together). */
    private static int sizeOfElement(final Datatype t, final int e)
    {
        return t.complex ? 2 * Datatype.sizeOf(t.kinds[2 * e]) : Datatype.sizeOf(t.kinds[e]);
    }

    private long elements(final String what, final Datatype datatype) throws MPIException
    {
        datatype.live(what);
        if (datatype.wireSize == 0)
        {
            return 0;
        }
        long n = bytes / datatype.wireSize * perElement(datatype);
        long rest = bytes % datatype.wireSize;
        for (int e = 0; e < perElement(datatype) && rest >= sizeOfElement(datatype, e); e++)
        {
            rest -= sizeOfElement(datatype, e);
            n++;
        }
        return n;
    }

    /**
     * {@code MPI_STATUS_SET_ELEMENTS}: makes this status say that {@code count} basic elements of
     * {@code datatype} were received, so {@link #getElements} gives {@code count} and
     * {@link #getCount} the whole elements of {@code datatype} they make (for a generalised
     * request's query function, {@link GRequest}).
     *
     * @param datatype the type.
     * @param count    basic elements, at least 0.
     * @throws MPIException with {@link MPI#ERR_COUNT} for a negative count.
     */
    public void setElements(final Datatype datatype, final int count) throws MPIException
    {
        setElementsX(datatype, new Count(count));
    }

    /**
     * {@code MPI_STATUS_SET_ELEMENTS_X}: as {@link #setElements} with a {@link Count}.
     *
     * @param datatype the type.
     * @param count    basic elements, at least 0.
     * @throws MPIException with {@link MPI#ERR_COUNT} for a negative count.
     */
    public void setElementsX(final Datatype datatype, final Count count) throws MPIException
    {
        datatype.live("setElementsX");
        final long n = count.getCount();
        if (n < 0)
        {
            throw new MPIException(MPI.ERR_COUNT, "setElements: count " + n + " must be at least 0");
        }
        final int per = perElement(datatype);
        if (per == 0)
        {
            bytes = 0;
            return;
        }
        long b = n / per * datatype.wireSize;
        for (int e = 0; e < n % per; e++)
        {
            b += sizeOfElement(datatype, e);
        }
        bytes = b;
    }

    /**
     * {@code MPI_STATUS_SET_CANCELLED}: sets what {@link #isCancelled} returns.
     *
     * @param flag whether the operation counts as cancelled.
     * @throws MPIException never here.
     */
    public void setCancelled(final boolean flag) throws MPIException
    {
        cancelled = flag;
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
