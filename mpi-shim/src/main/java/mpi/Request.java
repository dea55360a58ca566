package mpi;

import org.qsnet.tports.ReceiveTruncated;
import org.qsnet.tports.Tport;

/**
 * {@code MPI_Request}: a non-blocking operation (send, receive, or a non-blocking collective).
 * Completing it ({@link #waitFor()}, {@link #test()}, ...) makes it inactive.
 */
public class Request implements Freeable
{
    final CommState comm;
    org.qsnet.tports.TxEvent tx;
    org.qsnet.tports.RxEvent rx;
    long staged;
    int stagedLen;
    /** A receive's destination (null: a collective's internal receive, whose bytes stay in {@link #received}). */
    Object buf;
    int off;
    Datatype type;
    byte[] received;
    /**
     * The bytes the receive's buffer holds when the Tports receive was posted larger (a message a
     * matched probe holds, received into the caller's buffer later); -1: the posted length.
     */
    int limitBytes = -1;
    /** Set once complete. */
    Status status;
    MPIException failure;
    /** Runs at completion (buffered sends give their space back; collectives unpack their result). */
    Runnable onComplete;
    boolean freed;

    Request(final CommState comm)
    {
        this.comm = comm;
    }

    static Request completed(final CommState comm, final Status s)
    {
        final Request r = new Request(comm);
        r.status = s;
        return r;
    }

    /** Whether the operation has completed; charges one poll of its event. */
    boolean poll() throws MPIException
    {
        if (status != null || failure != null)
        {
            return true;
        }
        if (tx != null ? tx.txDone() : rx == null || rx.rxDone())
        {
            finish();
            return true;
        }
        return false;
    }

    /** Blocks until the operation completes and returns its status (throws its failure). */
    Status block() throws MPIException
    {
        if (status == null && failure == null)
        {
            final org.qsnet.elan.ElanEvent op = tx != null ? tx : rx;
            if (op != null && !comm.rank.schedules.isEmpty())
            {
                // the progress rule: collectives in flight advance while this rank blocks here
                comm.rank.awaitProgressing(op, this);
            }
            finish();
        }
        if (failure != null)
        {
            final MPIException f = failure;
            failure = null;
            status = status == null ? Status.empty() : status;
            throw f;
        }
        return status;
    }

    /** Parks until the operation completes (its failure is kept for the wait or test that completes the request). */
    final void awaitCompletion()
    {
        if (status == null && failure == null)
        {
            try
            {
                finish();
            }
            catch (final MPIException e)
            {
                failure = e;
            }
        }
    }

    /** Completes the operation (blocking until it can); overridden by generalised requests. */
    void finish() throws MPIException
    {
        final Rank rank = comm.rank;
        if (tx != null)
        {
            final var t = tx;
            tx = null;
            try
            {
                CommState.finish(t);
            }
            finally
            {
                rank.unstage(staged, stagedLen);
            }
            status = Status.empty();
        }
        else if (rx != null)
        {
            final var r = rx;
            rx = null;
            final Tport.RxResult res;
            try
            {
                res = r.rxWait();
            }
            catch (final ReceiveTruncated e)
            {
                // the message matched this receive and was refused: the status names its sender and tag
                // (as Open MPI's does); no data was delivered, so the count is 0
                rank.unstage(staged, stagedLen);
                status = new Status(comm.rankOf(e.sender()), e.tag() & CommState.TAG_MASK, MPI.ERR_TRUNCATE, false, 0);
                failure = new MPIException(MPI.ERR_TRUNCATE, "receive on " + comm + ": message of " + e.size()
                    + " bytes from rank " + status.getSource() + " (tag " + status.getTag() + ") does not fit the receive "
                    + "buffer of " + stagedLen + " bytes (MPI_ERR_TRUNCATE)");
                return;
            }
            final byte[] data = rank.read(staged, res.size());
            rank.unstage(staged, stagedLen);
            if (limitBytes >= 0 && res.size() > limitBytes)
            {
                status = new Status(comm.rankOf(res.sender()), res.tag() & CommState.TAG_MASK, MPI.ERR_TRUNCATE, false,
                    limitBytes);
                failure = new MPIException(MPI.ERR_TRUNCATE, "receive on " + comm + ": message of " + res.size()
                    + " bytes from rank " + status.getSource() + " (tag " + status.getTag() + ") does not fit the receive buffer of "
                    + limitBytes + " bytes (MPI_ERR_TRUNCATE)");
                return;
            }
            status = new Status(comm.rankOf(res.sender()), res.tag() & CommState.TAG_MASK, MPI.SUCCESS, false, res.size());
            if (buf != null)
            {
                type.unpack(data, data.length, buf, off);
                if (!type.basic)
                {
                    rank.copy(data.length);
                }
            }
            else
            {
                received = data;
            }
        }
        else if (status == null)
        {
            status = Status.empty();
        }
        if (onComplete != null)
        {
            final Runnable c = onComplete;
            onComplete = null;
            c.run();
        }
    }

    /** Whether the request is active (started and not yet completed by a wait or test). */
    boolean pending()
    {
        return tx != null || rx != null;
    }

    /**
     * {@code MPI_REQUEST_FREE}: the operation goes on; the request can no longer be waited for.
     *
     * @throws MPIException never here.
     */
    @Override
    public void free() throws MPIException
    {
        freed = true;
    }

    /**
     * {@code MPI_CANCEL}: marks the operation for cancellation; a wait or test then completes the
     * request, and {@link Status#isCancelled()} says whether it was cancelled.
     * <ul>
     * <li>A receive (or a started persistent receive) that no message has matched yet is withdrawn
     * from the NIC's posted receives ({@code Tport.rxCancel}): its buffer is untouched, its status
     * says cancelled, and a later matching message goes to the next matching receive. A receive a
     * message has already matched completes normally (not cancelled).</li>
     * <li>A send is never cancelled here: once started, its envelope (and, below 288 B, its data) is
     * already in the receiver's input queue, and Tports has no way to withdraw it. The send
     * completes normally and {@link Status#isCancelled()} says false, which MPI allows (a cancel
     * may fail for a message that cannot be withdrawn).</li>
     * <li>An inactive persistent request is marked cancelled.</li>
     * <li>Non-blocking collectives cannot be cancelled (MPI forbids it): the call does nothing.</li>
     * </ul>
     *
     * @throws MPIException when MPI is not initialized.
     */
    public final void cancel() throws MPIException
    {
        if (isNull())
        {
            return;
        }
        final Rank rank = Rank.current();
        rank.enter();
        if (this instanceof GRequest g)
        {
            g.cancelled();
            return;
        }
        if (rx != null && status == null)
        {
            if (rank.tport.rxCancel(rx))
            {
                final var r = rx;
                rx = null;
                r.rxWait();
                rank.unstage(staged, stagedLen);
                status = new Status(MPI.ANY_SOURCE, MPI.ANY_TAG, MPI.SUCCESS, true, 0);
            }
            return;
        }
        if (!pending() && status == null && this instanceof Prequest p)
        {
            status = new Status(MPI.ANY_SOURCE, MPI.ANY_TAG, MPI.SUCCESS, true, 0);
            // the next wait or test reports the cancellation (then the request is inactive again)
            p.cancelledWhileInactive();
        }
    }

    @Override
    public String toString()
    {
        return (tx != null ? "MPI send [" + tx + "]" : rx != null ? "MPI receive [" + rx + "]" : "MPI request")
            + (comm == null ? "" : " on " + comm);
    }

    /**
     * @return whether this is {@link MPI#REQUEST_NULL} or a freed request.
     */
    public final boolean isNull()
    {
        return comm == null || freed || completed;
    }

    /**
     * {@code MPI_WAIT}.
     *
     * @return the status.
     * @throws MPIException on an error (under {@link MPI#ERRORS_RETURN}).
     */
    public final Status waitStatus() throws MPIException
    {
        if (isNull() || inactivePersistent())
        {
            // MPI: a wait on a null or inactive request returns an empty status at once
            return Status.empty();
        }
        try
        {
            return Comm.guard(comm, () -> block());
        }
        finally
        {
            reported();
        }
    }

    /**
     * {@code MPI_WAIT} without a status.
     *
     * @throws MPIException on an error.
     */
    public final void waitFor() throws MPIException
    {
        waitStatus();
    }

    /**
     * {@code MPI_TEST}.
     *
     * @return the status if complete, else null.
     * @throws MPIException on an error.
     */
    public final Status testStatus() throws MPIException
    {
        if (isNull() || inactivePersistent())
        {
            return Status.empty();
        }
        final boolean[] done = {false};
        try
        {
            return Comm.guard(comm, () ->
            {
                if (!poll())
                {
                    return null;
                }
                done[0] = true;
                return block();
            });
        }
        finally
        {
            if (done[0])
            {
                reported();
            }
        }
    }

    /**
     * {@code MPI_REQUEST_GET_STATUS}: as {@link #testStatus()} but the request stays active (a
     * later wait or test still completes it; a failure is reported there).
     *
     * @return the status if complete, else null.
     * @throws MPIException on an error.
     */
    public final Status getStatus() throws MPIException
    {
        if (isNull() || inactivePersistent())
        {
            return Status.empty();
        }
        return Comm.guard(comm, () -> poll() ? status : null);
    }

    /**
     * {@code MPI_TEST}.
     *
     * @return whether the operation has completed.
     * @throws MPIException on an error.
     */
    public final boolean test() throws MPIException
    {
        return testStatus() != null;
    }

    // ------------------------------------------------------------------ arrays of requests

    /** Null, freed, or a persistent request not started since its last completion was reported: ignored by the array calls. */
    private static boolean inactive(final Request r)
    {
        return r == null || r.isNull() || r.inactivePersistent();
    }

    /** Whether this is a persistent request with no operation started since its last completion was reported. */
    boolean inactivePersistent()
    {
        return false;
    }

    /**
     * A wait or test has reported this request's completion: the request is deallocated and
     * becomes {@link MPI#REQUEST_NULL} ({@link #isNull()}; the Java binding replaces its handle by
     * the null handle). A persistent request becomes inactive instead.
     */
    void reported()
    {
        completed = true;
    }

    /** A non-persistent request whose completion a wait or test reported: MPI_REQUEST_NULL from then on. */
    private boolean completed;

    /**
     * {@code MPI_WAITANY}.
     *
     * @param requests the requests.
     * @return the status of the one that completed (its index in {@link Status#getIndex()}), or an
     * empty status with index {@link MPI#UNDEFINED} when none is active.
     * @throws MPIException on an error.
     */
    public static Status waitAnyStatus(final Request[] requests) throws MPIException
    {
        while (true)
        {
            int active = 0;
            int last = -1;
            for (int i = 0; i < requests.length; i++)
            {
                if (!inactive(requests[i]) && !requests[i].consumed)
                {
                    active++;
                    last = i;
                }
            }
            if (active == 1)
            {
                // one left: block on it (a blocked rank is what deadlock detection sees; a spin is not)
                final Status s = requests[last].waitStatus();
                requests[last].consumed = true;
                s.index = last;
                return s;
            }
            boolean any = false;
            for (int i = 0; i < requests.length; i++)
            {
                final Request r = requests[i];
                if (inactive(r) || r.consumed)
                {
                    continue;
                }
                any = true;
                if (r.poll())
                {
                    final Status s = r.waitStatus();
                    r.consumed = true;
                    s.index = i;
                    return s;
                }
            }
            if (!any)
            {
                final Status s = Status.empty();
                s.index = MPI.UNDEFINED;
                return s;
            }
            parkOnAny(requests);
        }
    }

    /**
     * None of {@code requests} has completed in a pass: parks until an operation of one of them, or
     * of a collective in flight at this rank, completes (a deadlock report then names them all).
     * When one of them has no NIC event to wait on (a generalised request, which another thread
     * completes), returns at once and the caller polls again, as a progress engine spins.
     */
    private static void parkOnAny(final Request[] requests)
    {
        final java.util.List<org.qsnet.elan.ElanEvent> ops = new java.util.ArrayList<>();
        Rank rank = null;
        for (final Request r : requests)
        {
            if (inactive(r) || r.consumed)
            {
                continue;
            }
            rank = r.comm.rank;
            if (r.tx != null)
            {
                ops.add(r.tx);
            }
            else if (r.rx != null)
            {
                ops.add(r.rx);
            }
            else if (!(r instanceof Schedule))
            {
                // a schedule's operations come with the rank's collectives below
                return;
            }
        }
        if (rank != null)
        {
            // the progress rule: collectives in flight advance (an operation of theirs that
            // completed would otherwise end every park at once)
            rank.progressSchedules();
            rank.parkOnAny(ops, "MPI_Waitany over " + requests.length + " requests");
        }
    }

    boolean consumed;

    /**
     * {@code MPI_WAITANY}.
     *
     * @param requests the requests.
     * @return the index of the one that completed, or {@link MPI#UNDEFINED}.
     * @throws MPIException on an error.
     */
    public static int waitAny(final Request[] requests) throws MPIException
    {
        return waitAnyStatus(requests).getIndex();
    }

    /**
     * {@code MPI_TESTANY}.
     *
     * @param requests the requests.
     * @return the status of one that has completed (its index in {@link Status#getIndex()}), null
     * when none has yet, or an empty status with index {@link MPI#UNDEFINED} when none is active.
     * @throws MPIException on an error.
     */
    public static Status testAnyStatus(final Request[] requests) throws MPIException
    {
        boolean any = false;
        for (int i = 0; i < requests.length; i++)
        {
            final Request r = requests[i];
            if (inactive(r) || r.consumed)
            {
                continue;
            }
            any = true;
            if (r.poll())
            {
                final Status s = r.waitStatus();
                r.consumed = true;
                s.index = i;
                return s;
            }
        }
        if (!any)
        {
            // MPI_TESTANY with no active request: flag true, index UNDEFINED, an empty status
            final Status s = Status.empty();
            s.index = MPI.UNDEFINED;
            return s;
        }
        return null;
    }

    /**
     * {@code MPI_TESTANY}.
     *
     * @param requests the requests.
     * @return the index of one that has completed, or {@link MPI#UNDEFINED}.
     * @throws MPIException on an error.
     */
    public static int testAny(final Request[] requests) throws MPIException
    {
        final Status s = testAnyStatus(requests);
        return s == null ? MPI.UNDEFINED : s.getIndex();
    }

    /**
     * {@code MPI_WAITALL}.
     *
     * @param requests the requests.
     * @return their statuses.
     * @throws MPIException with {@link MPI#ERR_IN_STATUS} when a request failed (the others complete).
     */
    public static Status[] waitAllStatus(final Request[] requests) throws MPIException
    {
        final Status[] s = new Status[requests.length];
        MPIException failed = null;
        int failedAt = -1;
        for (int i = 0; i < requests.length; i++)
        {
            // every request completes, whatever another's outcome (MPI 3.1 §3.7.5)
            try
            {
                s[i] = inactive(requests[i]) ? Status.empty() : requests[i].waitStatus();
            }
            catch (final MPIException e)
            {
                s[i] = new Status(MPI.ANY_SOURCE, MPI.ANY_TAG, e.getErrorClass(), false, 0);
                if (failed == null)
                {
                    failed = e;
                    failedAt = i;
                }
            }
            s[i].index = i;
        }
        if (failed != null)
        {
            throw new MPIException(MPI.ERR_IN_STATUS, "waitAll: request " + failedAt + " failed (error class "
                + failed.getErrorClass() + "): " + failed.getMessage() + "; every other request completed (MPI_ERR_IN_STATUS)");
        }
        return s;
    }

    /**
     * {@code MPI_WAITALL}.
     *
     * @param requests the requests.
     * @throws MPIException with {@link MPI#ERR_IN_STATUS} when a request failed (the others complete).
     */
    public static void waitAll(final Request[] requests) throws MPIException
    {
        waitAllStatus(requests);
    }

    /**
     * {@code MPI_TESTALL}.
     *
     * @param requests the requests.
     * @return their statuses if all have completed, else null.
     * @throws MPIException on an error.
     */
    public static Status[] testAllStatus(final Request[] requests) throws MPIException
    {
        boolean all = true;
        for (final Request r : requests)
        {
            all &= inactive(r) || r.poll();
        }
        return all ? waitAllStatus(requests) : null;
    }

    /**
     * {@code MPI_TESTALL}.
     *
     * @param requests the requests.
     * @return whether all have completed.
     * @throws MPIException on an error.
     */
    public static boolean testAll(final Request[] requests) throws MPIException
    {
        return testAllStatus(requests) != null;
    }

    /**
     * {@code MPI_WAITSOME}.
     *
     * @param requests the requests.
     * @return the statuses of those that completed (at least one), or null when none is active.
     * @throws MPIException with {@link MPI#ERR_IN_STATUS} when a request failed (the others complete).
     */
    public static Status[] waitSomeStatus(final Request[] requests) throws MPIException
    {
        final Status first;
        try
        {
            first = waitAnyStatus(requests);
        }
        catch (final MPIException e)
        {
            // the first to complete failed: the others that have completed complete too (MPI 3.1 §3.7.5)
            try
            {
                testSomeStatus(requests);
            }
            catch (final MPIException ignored)
            {
                // reported through the first failure
            }
            throw inStatus("waitSome", e);
        }
        if (first.getIndex() == MPI.UNDEFINED)
        {
            return null;
        }
        final Status[] rest = testSomeStatus(requests);
        final Status[] all = new Status[1 + rest.length];
        all[0] = first;
        System.arraycopy(rest, 0, all, 1, rest.length);
        return all;
    }

    /**
     * {@code MPI_WAITSOME}.
     *
     * @param requests the requests.
     * @return the indices of those that completed, or null when none is active.
     * @throws MPIException with {@link MPI#ERR_IN_STATUS} when a request failed (the others complete).
     */
    public static int[] waitSome(final Request[] requests) throws MPIException
    {
        return indices(waitSomeStatus(requests));
    }

    /**
     * {@code MPI_TESTSOME}.
     *
     * @param requests the requests.
     * @return the statuses of those that have completed (possibly none).
     * @throws MPIException with {@link MPI#ERR_IN_STATUS} when a request failed (the others complete).
     */
    public static Status[] testSomeStatus(final Request[] requests) throws MPIException
    {
        final java.util.List<Status> done = new java.util.ArrayList<>();
        MPIException failed = null;
        for (int i = 0; i < requests.length; i++)
        {
            final Request r = requests[i];
            if (!inactive(r) && !r.consumed && r.poll())
            {
                // every request that has completed is reported, whatever another's outcome
                try
                {
                    final Status s = r.waitStatus();
                    r.consumed = true;
                    s.index = i;
                    done.add(s);
                }
                catch (final MPIException e)
                {
                    r.consumed = true;
                    failed = failed == null ? e : failed;
                }
            }
        }
        if (failed != null)
        {
            throw inStatus("testSome", failed);
        }
        return done.toArray(new Status[0]);
    }

    /**
     * {@code MPI_TESTSOME}.
     *
     * @param requests the requests.
     * @return the indices of those that have completed.
     * @throws MPIException with {@link MPI#ERR_IN_STATUS} when a request failed (the others complete).
     */
    public static int[] testSome(final Request[] requests) throws MPIException
    {
        return indices(testSomeStatus(requests));
    }

    /** MPI_ERR_IN_STATUS for a call over several requests one of which failed with {@code e}. */
    private static MPIException inStatus(final String what, final MPIException e)
    {
        return e.getErrorClass() == MPI.ERR_IN_STATUS ? e : new MPIException(MPI.ERR_IN_STATUS, what + ": a request failed (error class "
            + e.getErrorClass() + "): " + e.getMessage() + "; every other completed request completed (MPI_ERR_IN_STATUS)");
    }

    private static int[] indices(final Status[] s)
    {
        if (s == null)
        {
            return null;
        }
        final int[] r = new int[s.length];
        for (int i = 0; i < s.length; i++)
        {
            r[i] = s[i].getIndex();
        }
        return r;
    }
}
