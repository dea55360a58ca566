package mpi;

/**
 * {@code MPI_Message}: a message matched by {@link #mProbe} or {@link #imProbe}, received with
 * {@link #mRecv}. Tports keeps each sender's messages in order, so the next receive naming the
 * probed sender and tag gets exactly the probed message (a rank's calls do not interleave).
 */
public final class Message
{
    private Comm comm;
    private int source = MPI.PROC_NULL;
    private int tag;

    /**
     * A null message ({@code MPI_MESSAGE_NULL}).
     */
    public Message()
    {
    }

    /**
     * @return whether no message is held.
     */
    public boolean isNull()
    {
        return comm == null;
    }

    /**
     * Whether this is {@code MPI_MESSAGE_NO_PROC}: the message a probe of {@link MPI#PROC_NULL}
     * matches (receiving it completes at once with an empty status).
     *
     * @return true after {@link #mProbe}/{@link #imProbe} of {@link MPI#PROC_NULL}.
     */
    public boolean isNoProc()
    {
        return comm != null && source == MPI.PROC_NULL;
    }

    /**
     * {@code MPI_MPROBE}.
     *
     * @param source source or {@link MPI#ANY_SOURCE}.
     * @param tag    tag or {@link MPI#ANY_TAG}.
     * @param comm   the communicator.
     * @return the message's status.
     * @throws MPIException on an error.
     */
    public Status mProbe(final int source, final int tag, final Comm comm) throws MPIException
    {
        final Status s = comm.probe(source, tag);
        hold(comm, s);
        return s;
    }

    /**
     * {@code MPI_IMPROBE}.
     *
     * @param source source or {@link MPI#ANY_SOURCE}.
     * @param tag    tag or {@link MPI#ANY_TAG}.
     * @param comm   the communicator.
     * @return the message's status, or null when none has arrived.
     * @throws MPIException on an error.
     */
    public Status imProbe(final int source, final int tag, final Comm comm) throws MPIException
    {
        final Status s = comm.iProbe(source, tag);
        if (s != null)
        {
            hold(comm, s);
        }
        return s;
    }

    private void hold(final Comm c, final Status s)
    {
        this.comm = c;
        this.source = s.getSource();
        this.tag = s.getTag();
    }

    /**
     * {@code MPI_MRECV}.
     *
     * @param buf   receive buffer.
     * @param count elements.
     * @param type  their type.
     * @return the status.
     * @throws MPIException with {@link MPI#ERR_REQUEST} when no message is held.
     */
    public Status mRecv(final Object buf, final int count, final Datatype type) throws MPIException
    {
        if (comm == null)
        {
            throw new MPIException(MPI.ERR_REQUEST, "mRecv: no message was matched (call mProbe first)");
        }
        final Comm c = comm;
        comm = null;
        return c.recv(buf, count, type, source, tag);
    }

    /**
     * {@code MPI_IMRECV}.
     *
     * @param buf   receive buffer.
     * @param count elements.
     * @param type  their type.
     * @return the request.
     * @throws MPIException with {@link MPI#ERR_REQUEST} when no message is held.
     */
    public Request imRecv(final Object buf, final int count, final Datatype type) throws MPIException
    {
        if (comm == null)
        {
            throw new MPIException(MPI.ERR_REQUEST, "imRecv: no message was matched (call mProbe first)");
        }
        final Comm c = comm;
        comm = null;
        return c.iRecv(buf, count, type, source, tag);
    }
}
