package mpi;

/**
 * A persistent request ({@code MPI_SEND_INIT}, {@code MPI_RECV_INIT}, ...): {@link #start()}
 * starts the operation again with the same arguments; wait or test completes each round.
 */
public final class Prequest extends Request
{
    /** Starts one round of the operation. */
    @FunctionalInterface
    interface Starter
    {
        Request start() throws MPIException;
    }

    private final Starter starter;
    /** Started and its completion not yet reported by a wait or test (MPI's "active"). */
    private boolean active;

    Prequest(final CommState comm, final Starter starter)
    {
        super(comm);
        this.starter = starter;
    }

    /**
     * {@code MPI_START}.
     *
     * @throws MPIException with {@link MPI#ERR_REQUEST} when the previous round is still active.
     */
    public void start() throws MPIException
    {
        if (pending())
        {
            throw new MPIException(MPI.ERR_REQUEST, "start: the persistent request is still active (wait for it first)");
        }
        final Request r = Comm.guard(comm, starter::start);
        tx = r.tx;
        rx = r.rx;
        staged = r.staged;
        stagedLen = r.stagedLen;
        buf = r.buf;
        off = r.off;
        type = r.type;
        status = r.status;
        failure = null;
        consumed = false;
        active = true;
    }

    @Override
    boolean inactivePersistent()
    {
        return !active;
    }

    /** An inactive request was cancelled: it completes (cancelled) at its next wait or test. */
    void cancelledWhileInactive()
    {
        active = true;
    }

    @Override
    void reported()
    {
        active = false;
    }

    /**
     * {@code MPI_STARTALL}.
     *
     * @param requests persistent requests.
     * @throws MPIException when one cannot start.
     */
    public static void startAll(final Prequest[] requests) throws MPIException
    {
        for (final Prequest p : requests)
        {
            p.start();
        }
    }
}
