package mpi;

/**
 * {@code MPI_Message}: a message matched by {@link #mProbe} or {@link #imProbe}, received with
 * {@link #mRecv}. Matching takes the message out of the communicator's matching (MPI 3.1 §3.8.2):
 * the probe posts a Tports receive of exactly that sender and tag, of the message's size, which
 * takes that very message (Tports keeps each sender's messages in order and the probed one is the
 * first of them that matches); no later receive or probe can see it, and {@link #mRecv} completes
 * that receive into the caller's buffer.
 */
public final class Message
{
    private Comm comm;
    private int source = MPI.PROC_NULL;
    /** The receive that holds the matched message (null for {@code MPI_MESSAGE_NO_PROC}). */
    private Request held;

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

    private void hold(final Comm c, final Status s) throws MPIException
    {
        final CommState st = c.state();
        this.held = s.getSource() == MPI.PROC_NULL ? null
            : st.recvWire(st.context, (int)s.bytes, s.getSource(), s.getTag());
        this.comm = c;
        this.source = s.getSource();
    }

    /**
     * {@code MPI_MRECV}.
     *
     * @param buf   receive buffer.
     * @param count elements.
     * @param type  their type.
     * @return the status.
     * @throws MPIException with {@link MPI#ERR_REQUEST} when no message is held, {@link MPI#ERR_TRUNCATE}
     *                      when the message is longer than the buffer.
     */
    public Status mRecv(final Object buf, final int count, final Datatype type) throws MPIException
    {
        if (comm == null)
        {
            throw new MPIException(MPI.ERR_REQUEST, "mRecv: no message was matched (call mProbe first)");
        }
        final Comm c = comm;
        final Request r = take(c, "mRecv", buf, count, type);
        return c.call(r::block);
    }

    /**
     * {@code MPI_IMRECV}.
     *
     * @param buf   receive buffer.
     * @param count elements.
     * @param type  their type.
     * @return the request.
     * @throws MPIException with {@link MPI#ERR_REQUEST} when no message is held; a message longer
     *                      than the buffer fails the request's completion with {@link MPI#ERR_TRUNCATE}.
     */
    public Request imRecv(final Object buf, final int count, final Datatype type) throws MPIException
    {
        if (comm == null)
        {
            throw new MPIException(MPI.ERR_REQUEST, "imRecv: no message was matched (call mProbe first)");
        }
        return take(comm, "imRecv", buf, count, type);
    }

    /** Hands the held receive the caller's buffer; the message becomes {@code MPI_MESSAGE_NULL}. */
    private Request take(final Comm c, final String what, final Object buf, final int count, final Datatype type)
        throws MPIException
    {
        final CommState st = c.state();
        Comm.guard(st, () ->
        {
            type.check(what, "buf", buf, count);
            return null;
        });
        final Request r = held == null ? Request.completed(st, Status.procNull()) : held;
        comm = null;
        held = null;
        source = MPI.PROC_NULL;
        r.buf = buf;
        r.off = 0;
        r.type = type;
        r.limitBytes = (int)Math.min(Integer.MAX_VALUE, (long)count * type.wireSize);
        return r;
    }
}
