package mpi;

/**
 * A generalised request ({@code MPI_GREQUEST_START}/{@code MPI_GREQUEST_COMPLETE}): an operation
 * the program carries out itself and completes with {@link #complete()}, which the usual
 * {@link Request} calls then wait for and test. This class is <em>not in the Open MPI Java
 * bindings</em> (they have no generalised requests); it follows the C binding, with Java
 * interfaces for the three callbacks and an {@code Object} for {@code extra_state}.
 *
 * <pre>
 *  start(query, free, cancel, state) ──► active ──► complete() ──► wait/test: query(state, status),
 *                                          │                          then free(state); inactive
 *                                          └──► cancel(): cancel(state, completed?)
 *  free() before completion: free(state) runs when complete() is called
 * </pre>
 *
 * <p>Only the rank's own thread makes MPI calls here (a rank is one simulated process), so a wait
 * on a generalised request that has not been completed can never return: it fails at once with
 * {@link MPI#ERR_REQUEST} naming the deadlock instead of hanging. {@link #test()} and the
 * {@code testAny}/{@code testSome} family return false for it until {@link #complete()}.
 * Completion costs no simulated time beyond the MPI call it is made in.
 */
public final class GRequest extends Request
{
    /** {@code MPI_Grequest_query_function}: fills the status of the completed operation. */
    @FunctionalInterface
    public interface QueryFunction
    {
        /**
         * Sets {@code status} for the completed operation ({@link Status#setElements},
         * {@link Status#setCancelled}).
         *
         * @param extraState the object given to {@link GRequest#start}.
         * @param status     the status the wait or test returns.
         * @throws MPIException to fail the wait or test.
         */
        void query(Object extraState, Status status) throws MPIException;
    }

    /** {@code MPI_Grequest_free_function}: releases the operation's state. */
    @FunctionalInterface
    public interface FreeFunction
    {
        /**
         * Releases {@code extraState}.
         *
         * @param extraState the object given to {@link GRequest#start}.
         * @throws MPIException to fail the call that freed the request.
         */
        void free(Object extraState) throws MPIException;
    }

    /** {@code MPI_Grequest_cancel_function}: cancels the operation if it can. */
    @FunctionalInterface
    public interface CancelFunction
    {
        /**
         * Called by {@link Request#cancel()}.
         *
         * @param extraState the object given to {@link GRequest#start}.
         * @param complete   whether {@link GRequest#complete()} was already called.
         * @throws MPIException to fail the cancel.
         */
        void cancel(Object extraState, boolean complete) throws MPIException;
    }

    private final QueryFunction queryFn;
    private final FreeFunction freeFn;
    private final CancelFunction cancelFn;
    private final Object extraState;
    private boolean completed;
    private boolean released;

    private GRequest(final CommState world, final QueryFunction queryFn, final FreeFunction freeFn,
        final CancelFunction cancelFn, final Object extraState)
    {
        super(world);
        this.queryFn = queryFn;
        this.freeFn = freeFn;
        this.cancelFn = cancelFn;
        this.extraState = extraState;
    }

    /**
     * {@code MPI_GREQUEST_START}: starts a generalised request.
     *
     * @param queryFn    fills the status at completion (required).
     * @param freeFn     releases {@code extraState} (null: nothing to release).
     * @param cancelFn   called by {@link Request#cancel()} (null: cancel does nothing).
     * @param extraState the operation's state, handed to the callbacks.
     * @return the active request.
     * @throws MPIException with {@link MPI#ERR_ARG} without a query function; when MPI is not
     *                      initialized.
     */
    public static GRequest start(final QueryFunction queryFn, final FreeFunction freeFn, final CancelFunction cancelFn,
        final Object extraState) throws MPIException
    {
        final Rank rank = Rank.current();
        rank.enter();
        if (queryFn == null)
        {
            throw new MPIException(MPI.ERR_ARG, "GRequest.start: queryFn must not be null (MPI_Grequest_start needs "
                + "a query function)");
        }
        return new GRequest(rank.world, queryFn, freeFn, cancelFn, extraState);
    }

    /**
     * {@code MPI_GREQUEST_COMPLETE}: tells MPI the operation is complete; a wait returns and a
     * test succeeds from now on.
     *
     * @throws MPIException with {@link MPI#ERR_REQUEST} when already completed.
     */
    public void complete() throws MPIException
    {
        Rank.current().enter();
        if (completed)
        {
            throw new MPIException(MPI.ERR_REQUEST, "GRequest.complete: the request was already completed");
        }
        completed = true;
        if (freed)
        {
            release();
        }
    }

    @Override
    boolean poll() throws MPIException
    {
        if (status != null || failure != null)
        {
            return true;
        }
        if (!completed)
        {
            return false;
        }
        finish();
        return true;
    }

    @Override
    void finish() throws MPIException
    {
        if (status != null)
        {
            return;
        }
        if (!completed)
        {
            throw new MPIException(MPI.ERR_REQUEST, "wait on a generalised request that GRequest.complete() was not "
                + "called for: only this rank's thread can complete it, and it is waiting here (deadlock)");
        }
        final Status s = new Status(MPI.ANY_SOURCE, MPI.ANY_TAG, MPI.SUCCESS, false, 0);
        queryFn.query(extraState, s);
        status = s;
        release();
    }

    @Override
    boolean pending()
    {
        return status == null;
    }

    private void release() throws MPIException
    {
        if (!released)
        {
            released = true;
            if (freeFn != null)
            {
                freeFn.free(extraState);
            }
        }
    }

    /**
     * {@code MPI_REQUEST_FREE}: the request can no longer be waited for; the free function runs now
     * if the operation is complete, else when {@link #complete()} is called.
     *
     * @throws MPIException from the free function.
     */
    @Override
    public void free() throws MPIException
    {
        super.free();
        if (completed)
        {
            release();
        }
    }

    /** {@link Request#cancel()} on a generalised request: the cancel function decides. */
    void cancelled() throws MPIException
    {
        if (cancelFn != null)
        {
            cancelFn.cancel(extraState, completed);
        }
    }

    @Override
    public String toString()
    {
        return "generalised request" + (completed ? " (complete)" : "");
    }
}
