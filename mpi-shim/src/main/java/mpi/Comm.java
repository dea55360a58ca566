package mpi;

import java.nio.Buffer;

import org.qsnet.fabric.QsnetException;

/**
 * {@code MPI_Comm}: point-to-point communication and the collectives common to intra- and
 * intercommunicators. {@link MPI#COMM_WORLD} and {@link MPI#COMM_SELF} are shared by the ranks of a
 * job (the package is a library package), so their calls act on the calling rank's own
 * communicator. Buffers are Java primitive arrays or NIO buffers (direct or not), also in the
 * non-blocking calls.
 */
public class Comm implements Freeable, Cloneable
{
    /** {@code MPI_COMM_TYPE_SHARED}, the split type of {@code MPI_COMM_SPLIT_TYPE}. */
    public static final int TYPE_SHARED = 0;

    static final int WORLD = 1;
    static final int SELF = 2;

    private final int predefined;
    private CommState fixed;
    /** The request of an {@link #iDup}. */
    Request request;

    Comm(final int predefined)
    {
        this.predefined = predefined;
    }

    Comm(final CommState state)
    {
        this.predefined = 0;
        this.fixed = state;
    }

    /** The calling rank's state of this communicator. */
    final CommState state() throws MPIException
    {
        if (predefined == WORLD)
        {
            return Rank.current().world;
        }
        if (predefined == SELF)
        {
            return Rank.current().self;
        }
        if (fixed == null)
        {
            throw new MPIException(MPI.ERR_COMM, "the communicator is null (MPI_COMM_NULL) or was freed");
        }
        Rank.current();
        return fixed;
    }

    /** A body of an MPI call. */
    @FunctionalInterface
    interface Body<T>
    {
        T run() throws MPIException;
    }

    /** Runs a call under the communicator's error handler. */
    static <T> T guard(final CommState c, final Body<T> body) throws MPIException
    {
        try
        {
            return body.run();
        }
        catch (final MPIException e)
        {
            if (c != null && c.errhandler.fatal)
            {
                throw new QsnetException("MPI error on " + c + " (MPI.ERRORS_ARE_FATAL; error class " + e.getErrorClass()
                    + "): " + e.getMessage(), e);
            }
            throw e;
        }
    }

    final <T> T call(final Body<T> body) throws MPIException
    {
        final CommState c = state();
        return guard(c, body);
    }

    final void run(final Body<?> body) throws MPIException
    {
        call(body);
    }

    // ------------------------------------------------------------------ attributes

    /**
     * {@code MPI_COMM_SIZE}.
     *
     * @return the number of processes (of the local group, for an intercommunicator).
     * @throws MPIException when MPI is not initialized.
     */
    public final int getSize() throws MPIException
    {
        return state().size();
    }

    /**
     * {@code MPI_COMM_RANK}.
     *
     * @return the caller's rank.
     * @throws MPIException when MPI is not initialized.
     */
    public final int getRank() throws MPIException
    {
        return state().myRank;
    }

    /**
     * {@code MPI_COMM_GROUP}.
     *
     * @return the (local) group.
     * @throws MPIException when MPI is not initialized.
     */
    public final Group getGroup() throws MPIException
    {
        final CommState c = state();
        return new Group(c.vps.clone(), c.rank.base.vp());
    }

    /**
     * {@code MPI_COMM_COMPARE}.
     *
     * @param comm1 a communicator.
     * @param comm2 another.
     * @return {@link MPI#IDENT}, {@link MPI#CONGRUENT}, {@link MPI#SIMILAR} or {@link MPI#UNEQUAL}.
     * @throws MPIException when MPI is not initialized.
     */
    public static int compare(final Comm comm1, final Comm comm2) throws MPIException
    {
        final CommState a = comm1.state();
        final CommState b = comm2.state();
        if (a == b)
        {
            return MPI.IDENT;
        }
        final int g = Group.compare(comm1.getGroup(), comm2.getGroup());
        return g == MPI.IDENT ? MPI.CONGRUENT : g;
    }

    /**
     * {@code MPI_COMM_TEST_INTER}.
     *
     * @return whether this is an intercommunicator.
     * @throws MPIException when MPI is not initialized.
     */
    public final boolean isInter() throws MPIException
    {
        return state().remote != null;
    }

    /**
     * {@code MPI_TOPO_TEST}.
     *
     * @return {@link MPI#CART}, {@link MPI#GRAPH} or {@link MPI#UNDEFINED}.
     * @throws MPIException when MPI is not initialized.
     */
    public final int getTopology() throws MPIException
    {
        return state().topology;
    }

    /**
     * {@code MPI_COMM_SET_NAME}.
     *
     * @param name the name.
     * @throws MPIException when MPI is not initialized.
     */
    public final void setName(final String name) throws MPIException
    {
        state().name = name;
    }

    /**
     * {@code MPI_COMM_GET_NAME}.
     *
     * @return the name.
     * @throws MPIException when MPI is not initialized.
     */
    public final String getName() throws MPIException
    {
        return state().name;
    }

    /**
     * {@code MPI_COMM_SET_ERRHANDLER}.
     *
     * @param errhandler {@link MPI#ERRORS_ARE_FATAL} or {@link MPI#ERRORS_RETURN}.
     * @throws MPIException when MPI is not initialized.
     */
    public final void setErrhandler(final Errhandler errhandler) throws MPIException
    {
        state().errhandler = errhandler;
    }

    /**
     * {@code MPI_COMM_GET_ERRHANDLER}.
     *
     * @return the error handler.
     * @throws MPIException when MPI is not initialized.
     */
    public final Errhandler getErrhandler() throws MPIException
    {
        return state().errhandler;
    }

    /**
     * {@code MPI_COMM_CALL_ERRHANDLER}.
     *
     * @param errorCode an error class.
     * @throws MPIException under {@link MPI#ERRORS_RETURN}.
     */
    public final void callErrhandler(final int errorCode) throws MPIException
    {
        run(() ->
        {
            throw new MPIException(errorCode, "callErrhandler(" + errorCode + ")");
        });
    }

    /**
     * {@code MPI_ABORT}: ends the calling rank with the error code (the job fails).
     *
     * @param errorcode the code.
     * @throws MPIException never (the rank ends).
     */
    public final void abort(final int errorcode) throws MPIException
    {
        throw new QsnetException("MPI_Abort(" + state() + ", " + errorcode + ") called by rank " + getRank());
    }

    /**
     * {@code MPI_COMM_DUP_WITH_INFO}: {@link #dup()}, then the duplicate's hints set to {@code info}.
     *
     * @param info the hints of the duplicate.
     * @return the duplicate.
     * @throws MPIException on an error.
     */
    public Comm dupWithInfo(final Info info) throws MPIException
    {
        final Comm c = dup();
        c.setInfo(info);
        return c;
    }

    /**
     * {@code MPI_COMM_DUP}.
     *
     * @return a new communicator with the same group.
     * @throws MPIException on an error.
     */
    public Comm dup() throws MPIException
    {
        return new Comm(Intracomm.dupState(state()));
    }

    @Override
    public Comm clone()
    {
        try
        {
            return dup();
        }
        catch (final MPIException e)
        {
            throw new QsnetException("clone: " + e.getMessage(), e);
        }
    }

    /**
     * {@code MPI_COMM_FREE}.
     *
     * @throws MPIException with {@link MPI#ERR_COMM} for a predefined communicator.
     */
    @Override
    public final void free() throws MPIException
    {
        if (predefined != 0)
        {
            throw new MPIException(MPI.ERR_COMM, "free: " + (predefined == WORLD ? "MPI_COMM_WORLD" : "MPI_COMM_SELF")
                + " is predefined and cannot be freed");
        }
        fixed = null;
    }

    /**
     * {@code MPI_COMM_DISCONNECT} (as {@link #free()}).
     *
     * @throws MPIException for a predefined communicator.
     */
    public final void disconnect() throws MPIException
    {
        free();
    }

    /**
     * @return whether this is a null communicator (not a member of a created communicator, or freed).
     */
    public final boolean isNull()
    {
        return predefined == 0 && fixed == null;
    }

    @Override
    public String toString()
    {
        return predefined == WORLD ? "MPI_COMM_WORLD" : predefined == SELF ? "MPI_COMM_SELF"
            : fixed == null ? "MPI_COMM_NULL" : fixed.name;
    }

    // ------------------------------------------------------------------ point-to-point

    /**
     * {@code MPI_SEND}: a standard send (eager below Tports' inline limit, else the receiver pulls
     * the data once it matches).
     *
     * @param buf   send buffer.
     * @param count elements.
     * @param type  their type.
     * @param dest  destination rank (or {@link MPI#PROC_NULL}).
     * @param tag   tag, 0..{@link MPI#TAG_UB}.
     * @throws MPIException on an error.
     */
    public final void send(final Object buf, final int count, final Datatype type, final int dest, final int tag)
        throws MPIException
    {
        run(() -> state().send("send", buf, 0, count, type, dest, tag, false).block());
    }

    /**
     * {@code MPI_SSEND}: completes only once the receiver has matched the message (Tports TX_SYNC).
     *
     * @param buf   send buffer.
     * @param count elements.
     * @param type  their type.
     * @param dest  destination rank.
     * @param tag   tag.
     * @throws MPIException on an error.
     */
    public final void sSend(final Object buf, final int count, final Datatype type, final int dest, final int tag)
        throws MPIException
    {
        run(() -> state().send("sSend", buf, 0, count, type, dest, tag, true).block());
    }

    /**
     * {@code MPI_RSEND} (as a standard send).
     *
     * @param buf   send buffer.
     * @param count elements.
     * @param type  their type.
     * @param dest  destination rank.
     * @param tag   tag.
     * @throws MPIException on an error.
     */
    public final void rSend(final Object buf, final int count, final Datatype type, final int dest, final int tag)
        throws MPIException
    {
        run(() -> state().send("rSend", buf, 0, count, type, dest, tag, false).block());
    }

    /**
     * {@code MPI_BSEND}: copies the message into the attached buffer ({@link MPI#attachBuffer})
     * and returns; the send completes in the background.
     *
     * @param buf   send buffer.
     * @param count elements.
     * @param type  their type.
     * @param dest  destination rank.
     * @param tag   tag.
     * @throws MPIException with {@link MPI#ERR_BUFFER} when the attached buffer lacks space.
     */
    public final void bSend(final Object buf, final int count, final Datatype type, final int dest, final int tag)
        throws MPIException
    {
        run(() -> bsend("bSend", buf, count, type, dest, tag));
    }

    private Request bsend(final String what, final Object buf, final int count, final Datatype type, final int dest,
        final int tag) throws MPIException
    {
        final CommState c = state();
        final Rank rank = c.rank;
        type.check(what, "buf", buf, count);
        final long bytes = (long)count * type.wireSize + MPI.BSEND_OVERHEAD;
        // progress the earlier buffered sends (a poll each, as MPICH's bsend queue does) and free their space
        for (final Request r : rank.bufferedSends)
        {
            r.poll();
        }
        rank.bufferedSends.removeIf(r -> !r.pending());
        if (rank.attached == null || rank.attachedInUse + bytes > rank.attached.length)
        {
            throw new MPIException(MPI.ERR_BUFFER, what + ": the attached buffer (" + (rank.attached == null ? "none"
                : rank.attached.length + " bytes, " + rank.attachedInUse + " in use") + ") has no room for " + bytes
                + " bytes (MPI.attachBuffer)");
        }
        rank.copy(bytes);
        final Request r = c.send(what, buf, 0, count, type, dest, tag, false);
        rank.attachedInUse += bytes;
        r.onComplete = () -> rank.attachedInUse -= bytes;
        rank.bufferedSends.add(r);
        return Request.completed(c, Status.empty());
    }

    /**
     * {@code MPI_RECV}.
     *
     * @param buf    receive buffer.
     * @param count  elements it holds.
     * @param type   their type.
     * @param source source rank, {@link MPI#ANY_SOURCE} or {@link MPI#PROC_NULL}.
     * @param tag    tag or {@link MPI#ANY_TAG}.
     * @return the status.
     * @throws MPIException on an error ({@link MPI#ERR_TRUNCATE} for a message too long).
     */
    public final Status recv(final Object buf, final int count, final Datatype type, final int source, final int tag)
        throws MPIException
    {
        return call(() -> state().recv("recv", buf, 0, count, type, source, tag).block());
    }

    /**
     * {@code MPI_SENDRECV}.
     *
     * @param sendbuf   send buffer.
     * @param sendcount elements to send.
     * @param sendtype  their type.
     * @param dest      destination.
     * @param sendtag   send tag.
     * @param recvbuf   receive buffer.
     * @param recvcount elements it holds.
     * @param recvtype  their type.
     * @param source    source.
     * @param recvtag   receive tag.
     * @return the receive's status.
     * @throws MPIException on an error.
     */
    public final Status sendRecv(final Object sendbuf, final int sendcount, final Datatype sendtype, final int dest,
        final int sendtag, final Object recvbuf, final int recvcount, final Datatype recvtype, final int source,
        final int recvtag) throws MPIException
    {
        return call(() ->
        {
            final Request r = state().recv("sendRecv", recvbuf, 0, recvcount, recvtype, source, recvtag);
            state().send("sendRecv", sendbuf, 0, sendcount, sendtype, dest, sendtag, false).block();
            return r.block();
        });
    }

    /**
     * {@code MPI_SENDRECV_REPLACE}.
     *
     * @param buf     the buffer, sent then overwritten.
     * @param count   elements.
     * @param type    their type.
     * @param dest    destination.
     * @param sendtag send tag.
     * @param source  source.
     * @param recvtag receive tag.
     * @return the receive's status.
     * @throws MPIException on an error.
     */
    public final Status sendRecvReplace(final Object buf, final int count, final Datatype type, final int dest,
        final int sendtag, final int source, final int recvtag) throws MPIException
    {
        return call(() ->
        {
            final CommState c = state();
            final Request s = c.send("sendRecvReplace", buf, 0, count, type, dest, sendtag, false);
            final Request r = c.recv("sendRecvReplace", buf, 0, count, type, source, recvtag);
            final Status st = r.block();
            s.block();
            return st;
        });
    }

    /**
     * {@code MPI_ISEND}.
     *
     * @param buf   send buffer (array or buffer; not to be modified before completion).
     * @param count elements.
     * @param type  their type.
     * @param dest  destination.
     * @param tag   tag.
     * @return the request.
     * @throws MPIException on an error.
     */
    public final Request iSend(final Object buf, final int count, final Datatype type, final int dest, final int tag)
        throws MPIException
    {
        return call(() -> state().send("iSend", buf, 0, count, type, dest, tag, false));
    }

    /**
     * {@code MPI_ISEND} (the bindings' buffer form).
     *
     * @param buf   send buffer.
     * @param count elements.
     * @param type  their type.
     * @param dest  destination.
     * @param tag   tag.
     * @return the request.
     * @throws MPIException on an error.
     */
    public final Request iSend(final Buffer buf, final int count, final Datatype type, final int dest, final int tag)
        throws MPIException
    {
        return iSend((Object)buf, count, type, dest, tag);
    }

    /**
     * {@code MPI_ISSEND}.
     *
     * @param buf   send buffer.
     * @param count elements.
     * @param type  their type.
     * @param dest  destination.
     * @param tag   tag.
     * @return the request.
     * @throws MPIException on an error.
     */
    public final Request iSSend(final Object buf, final int count, final Datatype type, final int dest, final int tag)
        throws MPIException
    {
        return call(() -> state().send("iSSend", buf, 0, count, type, dest, tag, true));
    }

    /**
     * {@code MPI_IRSEND}.
     *
     * @param buf   send buffer.
     * @param count elements.
     * @param type  their type.
     * @param dest  destination.
     * @param tag   tag.
     * @return the request.
     * @throws MPIException on an error.
     */
    public final Request iRSend(final Object buf, final int count, final Datatype type, final int dest, final int tag)
        throws MPIException
    {
        return call(() -> state().send("iRSend", buf, 0, count, type, dest, tag, false));
    }

    /**
     * {@code MPI_IBSEND}.
     *
     * @param buf   send buffer.
     * @param count elements.
     * @param type  their type.
     * @param dest  destination.
     * @param tag   tag.
     * @return the request (complete: the message is in the attached buffer).
     * @throws MPIException on an error.
     */
    public final Request iBSend(final Object buf, final int count, final Datatype type, final int dest, final int tag)
        throws MPIException
    {
        return call(() -> bsend("iBSend", buf, count, type, dest, tag));
    }

    /**
     * {@code MPI_IRECV}.
     *
     * @param buf    receive buffer (array or buffer).
     * @param count  elements.
     * @param type   their type.
     * @param source source or {@link MPI#ANY_SOURCE}.
     * @param tag    tag or {@link MPI#ANY_TAG}.
     * @return the request.
     * @throws MPIException on an error.
     */
    public final Request iRecv(final Object buf, final int count, final Datatype type, final int source, final int tag)
        throws MPIException
    {
        return call(() -> state().recv("iRecv", buf, 0, count, type, source, tag));
    }

    /**
     * {@code MPI_IRECV} (the bindings' buffer form).
     *
     * @param buf    receive buffer.
     * @param count  elements.
     * @param type   their type.
     * @param source source.
     * @param tag    tag.
     * @return the request.
     * @throws MPIException on an error.
     */
    public final Request iRecv(final Buffer buf, final int count, final Datatype type, final int source, final int tag)
        throws MPIException
    {
        return iRecv((Object)buf, count, type, source, tag);
    }

    /**
     * {@code MPI_SEND_INIT}.
     *
     * @param buf   send buffer.
     * @param count elements.
     * @param type  their type.
     * @param dest  destination.
     * @param tag   tag.
     * @return the inactive persistent request.
     * @throws MPIException on an error.
     */
    public final Prequest sendInit(final Object buf, final int count, final Datatype type, final int dest, final int tag)
        throws MPIException
    {
        final CommState c = state();
        persistentArgs(c, "sendInit", buf, count, type, dest, tag, false);
        return new Prequest(c, () -> c.send("sendInit", buf, 0, count, type, dest, tag, false));
    }

    /**
     * {@code MPI_SSEND_INIT}.
     *
     * @param buf   send buffer.
     * @param count elements.
     * @param type  their type.
     * @param dest  destination.
     * @param tag   tag.
     * @return the inactive persistent request.
     * @throws MPIException on an error.
     */
    public final Prequest sSendInit(final Object buf, final int count, final Datatype type, final int dest,
        final int tag) throws MPIException
    {
        final CommState c = state();
        persistentArgs(c, "sSendInit", buf, count, type, dest, tag, false);
        return new Prequest(c, () -> c.send("sSendInit", buf, 0, count, type, dest, tag, true));
    }

    /**
     * {@code MPI_BSEND_INIT}.
     *
     * @param buf   send buffer.
     * @param count elements.
     * @param type  their type.
     * @param dest  destination.
     * @param tag   tag.
     * @return the inactive persistent request.
     * @throws MPIException on an error.
     */
    public final Prequest bSendInit(final Object buf, final int count, final Datatype type, final int dest,
        final int tag) throws MPIException
    {
        final CommState c = state();
        persistentArgs(c, "bSendInit", buf, count, type, dest, tag, false);
        return new Prequest(c, () -> bsend("bSendInit", buf, count, type, dest, tag));
    }

    /**
     * {@code MPI_RSEND_INIT}.
     *
     * @param buf   send buffer.
     * @param count elements.
     * @param type  their type.
     * @param dest  destination.
     * @param tag   tag.
     * @return the inactive persistent request.
     * @throws MPIException on an error.
     */
    public final Prequest rSendInit(final Object buf, final int count, final Datatype type, final int dest,
        final int tag) throws MPIException
    {
        return sendInit(buf, count, type, dest, tag);
    }

    /**
     * {@code MPI_RECV_INIT}.
     *
     * @param buf    receive buffer.
     * @param count  elements.
     * @param type   their type.
     * @param source source.
     * @param tag    tag.
     * @return the inactive persistent request.
     * @throws MPIException on an error.
     */
    public final Prequest recvInit(final Object buf, final int count, final Datatype type, final int source,
        final int tag) throws MPIException
    {
        final CommState c = state();
        persistentArgs(c, "recvInit", buf, count, type, source, tag, true);
        return new Prequest(c, () -> c.recv("recvInit", buf, 0, count, type, source, tag));
    }

    /**
     * A persistent request's arguments are checked when it is created, as {@code MPI_SEND_INIT} and
     * {@code MPI_RECV_INIT} check them (not at its first start).
     */
    private static void persistentArgs(final CommState c, final String what, final Object buf, final int count,
        final Datatype type, final int peer, final int tag, final boolean receive) throws MPIException
    {
        guard(c, () ->
        {
            type.check(what, "buf", buf, count);
            c.checkPeer(what, receive ? "source" : "dest", peer, receive);
            CommState.checkTag(what, tag, receive);
            return null;
        });
    }

    /**
     * {@code MPI_PROBE}: waits for a matching message without receiving it.
     *
     * @param source source or {@link MPI#ANY_SOURCE}.
     * @param tag    tag or {@link MPI#ANY_TAG}.
     * @return its status.
     * @throws MPIException on an error.
     */
    public final Status probe(final int source, final int tag) throws MPIException
    {
        return call(() -> state().probe("probe", source, tag, true));
    }

    /**
     * {@code MPI_IPROBE}.
     *
     * @param source source or {@link MPI#ANY_SOURCE}.
     * @param tag    tag or {@link MPI#ANY_TAG}.
     * @return the status of a matching message, or null when none has arrived.
     * @throws MPIException on an error.
     */
    public final Status iProbe(final int source, final int tag) throws MPIException
    {
        return call(() -> state().probe("iProbe", source, tag, false));
    }

    /**
     * {@code MPI_PACK_SIZE}.
     *
     * @param incount elements.
     * @param type    their type.
     * @return bytes their packed form takes.
     * @throws MPIException on an error.
     */
    public final int packSize(final int incount, final Datatype type) throws MPIException
    {
        type.live("packSize");
        return incount * type.wireSize;
    }

    /**
     * {@code MPI_PACK}.
     *
     * @param inbuf    the data.
     * @param incount  elements.
     * @param type     their type.
     * @param outbuf   the byte buffer packed into.
     * @param position where to start in it.
     * @return the position after the packed data.
     * @throws MPIException on an error.
     */
    public final int pack(final Object inbuf, final int incount, final Datatype type, final byte[] outbuf,
        final int position) throws MPIException
    {
        return call(() ->
        {
            type.check("pack", "inbuf", inbuf, incount);
            final byte[] d = type.pack(inbuf, 0, incount);
            if (position < 0 || position + d.length > outbuf.length)
            {
                throw new MPIException(MPI.ERR_BUFFER, "pack: " + d.length + " bytes at position " + position
                    + " do not fit outbuf of " + outbuf.length);
            }
            System.arraycopy(d, 0, outbuf, position, d.length);
            state().rank.copy(d.length);
            return position + d.length;
        });
    }

    /**
     * {@code MPI_UNPACK}.
     *
     * @param inbuf    the packed bytes.
     * @param position where to start in them.
     * @param outbuf   the buffer unpacked into.
     * @param outcount elements.
     * @param type     their type.
     * @return the position after the data taken.
     * @throws MPIException on an error.
     */
    public final int unpack(final byte[] inbuf, final int position, final Object outbuf, final int outcount,
        final Datatype type) throws MPIException
    {
        return call(() ->
        {
            type.check("unpack", "outbuf", outbuf, outcount);
            final int n = outcount * type.wireSize;
            if (position < 0 || position + n > inbuf.length)
            {
                throw new MPIException(MPI.ERR_TRUNCATE, "unpack: " + n + " bytes at position " + position
                    + " exceed inbuf of " + inbuf.length);
            }
            type.unpack(java.util.Arrays.copyOfRange(inbuf, position, position + n), n, outbuf, 0);
            state().rank.copy(n);
            return position + n;
        });
    }

    /**
     * {@code MPI_INTERCOMM_CREATE}, on the peer communicator (as in the bindings): joins the local
     * group of {@code localComm} with the group whose leader is {@code remoteLeader} in this
     * communicator.
     *
     * @param localComm    the local intracommunicator.
     * @param localLeader  the local leader's rank in {@code localComm}.
     * @param remoteLeader the remote leader's rank in this (peer) communicator.
     * @param tag          a tag for the leaders' exchange.
     * @return the intercommunicator.
     * @throws MPIException with {@link MPI#ERR_ARG} for a leader outside its communicator (as Open MPI).
     */
    public final Intercomm createIntercomm(final Comm localComm, final int localLeader, final int remoteLeader,
        final int tag) throws MPIException
    {
        return call(() -> Intercomm.create(this, localComm, localLeader, remoteLeader, tag));
    }

    // ------------------------------------------------------------------ collectives
    //
    // Each collective has one helper taking nb: false runs the blocking algorithm (Elanlib's or
    // point-to-point, Collectives) and returns null; true builds the collective's schedule,
    // starts it and returns it as the request (ScheduledCollectives). On an intercommunicator
    // both forms run the intercommunicator schedule (the blocking form waits for it).

    /** Starts a schedule; unless {@code nb}, waits for it. */
    private static Request launch(final Schedule s, final boolean nb) throws MPIException
    {
        s.start();
        if (nb)
        {
            return s;
        }
        s.block();
        return null;
    }

    static void checkRoot(final CommState c, final String what, final int root) throws MPIException
    {
        if (root < 0 || root >= c.size())
        {
            throw new MPIException(MPI.ERR_ROOT, what + ": root " + root + " is outside " + c + " (0.." + (c.size() - 1) + ")");
        }
    }

    /**
     * Checks a rooted collective's root on an intra- or intercommunicator.
     *
     * @return whether this process is the root (on an intercommunicator: it passed {@link MPI#ROOT}).
     */
    static boolean checkedRoot(final CommState c, final String what, final int root) throws MPIException
    {
        if (c.remote != null)
        {
            checkInterRoot(c, what, root);
            return root == MPI.ROOT;
        }
        checkRoot(c, what, root);
        return c.myRank == root;
    }

    /** An intercommunicator's root: {@link MPI#ROOT}, {@link MPI#PROC_NULL}, or a rank of the remote group. */
    static void checkInterRoot(final CommState c, final String what, final int root) throws MPIException
    {
        if (root != MPI.ROOT && root != MPI.PROC_NULL && (root < 0 || root >= c.peerCount()))
        {
            throw new MPIException(MPI.ERR_ROOT, what + ": root " + root + " on intercommunicator " + c + " must be "
                + "MPI.ROOT (at the root), MPI.PROC_NULL (the root's group) or a rank 0.." + (c.peerCount() - 1)
                + " of the remote group");
        }
    }

    /** Whether the caller is on the root's side of an intercommunicator collective (it sends nothing of its own). */
    private static boolean rootSide(final CommState c, final int root)
    {
        return c.remote != null && (root == MPI.ROOT || root == MPI.PROC_NULL);
    }

    private static void intraOnly(final CommState c, final String what) throws MPIException
    {
        if (c.remote != null)
        {
            throw new MPIException(MPI.ERR_COMM, what + ": the in-place form (MPI_IN_PLACE) is not allowed on "
                + "intercommunicator " + c);
        }
    }

    private static int[] uniform(final int n, final int count)
    {
        final int[] a = new int[n];
        java.util.Arrays.fill(a, count);
        return a;
    }

    private static int[] steps(final int n, final int count)
    {
        final int[] a = new int[n];
        for (int i = 0; i < n; i++)
        {
            a[i] = i * count;
        }
        return a;
    }

    /**
     * {@code MPI_BARRIER} (the Elanlib hardware barrier, {@code elan_hgsync}, on communicators of
     * the whole job; on an intercommunicator, every process of both groups).
     *
     * @throws MPIException on an error.
     */
    public final void barrier() throws MPIException
    {
        run(() -> barrier(state(), false));
    }

    /**
     * {@code MPI_IBARRIER}: starts a dissemination barrier (point-to-point, as a schedule) and
     * returns at once; a test or wait, or any MPI call, advances it.
     *
     * @return the request.
     * @throws MPIException on an error.
     */
    public final Request iBarrier() throws MPIException
    {
        return call(() -> barrier(state(), true));
    }

    private static Request barrier(final CommState c, final boolean nb) throws MPIException
    {
        if (c.remote != null)
        {
            return launch(ScheduledCollectives.interBarrier(c), nb);
        }
        if (nb)
        {
            return launch(ScheduledCollectives.barrier(c), true);
        }
        Collectives.barrier(c);
        return null;
    }

    /**
     * {@code MPI_BCAST}. On an intercommunicator the root passes {@link MPI#ROOT}, the other
     * members of its group {@link MPI#PROC_NULL}, and the receiving group the root's rank in the
     * remote group.
     *
     * @param buf   the buffer (sent at root, received elsewhere).
     * @param count elements.
     * @param type  their type.
     * @param root  the root.
     * @throws MPIException on an error.
     */
    public final void bcast(final Object buf, final int count, final Datatype type, final int root) throws MPIException
    {
        run(() -> bcast(state(), buf, count, type, root, false));
    }

    /**
     * {@code MPI_IBCAST}: starts a binomial broadcast (a schedule) and returns at once.
     *
     * @param buf   the buffer (not to be read, or at root written, before completion).
     * @param count elements.
     * @param type  their type.
     * @param root  the root.
     * @return the request.
     * @throws MPIException on an error.
     */
    public final Request iBcast(final Object buf, final int count, final Datatype type, final int root)
        throws MPIException
    {
        return call(() -> bcast(state(), buf, count, type, root, true));
    }

    private static Request bcast(final CommState c, final Object buf, final int count, final Datatype type,
        final int root, final boolean nb) throws MPIException
    {
        final String what = nb ? "iBcast" : "bcast";
        if (c.remote != null)
        {
            checkInterRoot(c, what, root);
            if (root != MPI.PROC_NULL)
            {
                type.check(what, "buf", buf, count);
            }
            final byte[] d = root == MPI.ROOT ? type.pack(buf, 0, count) : new byte[count * type.wireSize];
            return launch(ScheduledCollectives.interBcast(c, d, root, r ->
            {
                if (r != null && root != MPI.ROOT)
                {
                    type.unpack(r, r.length, buf, 0);
                }
            }), nb);
        }
        type.check(what, "buf", buf, count);
        checkRoot(c, what, root);
        final byte[] d = c.myRank == root ? type.pack(buf, 0, count) : new byte[count * type.wireSize];
        final ScheduledCollectives.Result done = r ->
        {
            if (c.myRank != root)
            {
                type.unpack(r, r.length, buf, 0);
            }
        };
        if (nb)
        {
            return launch(ScheduledCollectives.bcast(c, d, root, done), true);
        }
        done.accept(Collectives.bcast(c, d, root));
        return null;
    }

    private static int elems(final Datatype t, final long extents)
    {
        return (int)(extents * t.extentBytes / t.baseSize);
    }

    private static Object checked(final Datatype t, final String what, final String arg, final Object buf, final int count)
        throws MPIException
    {
        t.check(what, arg, buf, count);
        return buf;
    }

    /** The bytes a rank contributes (none on the root's side of an intercommunicator collective). */
    private static byte[] contribution(final CommState c, final int root, final Datatype t, final String what,
        final Object buf, final int count) throws MPIException
    {
        return rootSide(c, root) ? new byte[0] : t.pack(checked(t, what, "sendbuf", buf, count), 0, count);
    }

    /**
     * {@code MPI_GATHER}. On an intercommunicator the root ({@link MPI#ROOT}) receives
     * {@code recvcount} elements from each process of the remote group.
     *
     * @param sendbuf   send buffer.
     * @param sendcount elements sent by each.
     * @param sendtype  their type.
     * @param recvbuf   receive buffer (root).
     * @param recvcount elements received from each.
     * @param recvtype  their type.
     * @param root      the root.
     * @throws MPIException on an error.
     */
    public final void gather(final Object sendbuf, final int sendcount, final Datatype sendtype, final Object recvbuf,
        final int recvcount, final Datatype recvtype, final int root) throws MPIException
    {
        run(() -> gather(state(), "gather", sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, false));
    }

    private static Request gather(final CommState c, final String what, final Object sendbuf, final int sendcount,
        final Datatype sendtype, final Object recvbuf, final int recvcount, final Datatype recvtype, final int root,
        final boolean nb) throws MPIException
    {
        final int n = c.peerCount();
        return gatherv(c, what, contribution(c, root, sendtype, what, sendbuf, sendcount), recvbuf, uniform(n, recvcount),
            steps(n, recvcount), recvtype, root, nb);
    }

    /**
     * {@code MPI_GATHER} in place at the root ({@code MPI_IN_PLACE}): the root's part is already in
     * {@code buf}; the others send theirs from {@code buf}.
     *
     * @param buf   the buffer.
     * @param count elements per process.
     * @param type  their type.
     * @param root  the root.
     * @throws MPIException on an error.
     */
    public final void gather(final Object buf, final int count, final Datatype type, final int root) throws MPIException
    {
        run(() ->
        {
            final CommState c = state();
            intraOnly(c, "gather");
            final int off = c.myRank == root ? elems(type, (long)root * count) : 0;
            type.check("gather", "buf", buf, c.myRank == root ? count * c.size() : count);
            return gatherv(c, "gather", type.pack(buf, off, count), buf, uniform(c.size(), count),
                steps(c.size(), count), type, root, false);
        });
    }

    private static Request gatherv(final CommState c, final String what, final byte[] mine, final Object recvbuf,
        final int[] recvcount, final int[] displs, final Datatype recvtype, final int root, final boolean nb)
        throws MPIException
    {
        final boolean amRoot = checkedRoot(c, what, root);
        final int n = c.peerCount();
        final int[] sizes = new int[n];
        if (amRoot)
        {
            counts(what, recvcount, displs, n);
            for (int i = 0; i < n; i++)
            {
                recvtype.check(what, "recvbuf", recvbuf, displs[i] + recvcount[i]);
                sizes[i] = recvcount[i] * recvtype.wireSize;
            }
        }
        final ScheduledCollectives.Parts done = parts ->
        {
            if (parts != null)
            {
                for (int i = 0; i < n; i++)
                {
                    recvtype.unpack(parts[i], Math.min(parts[i].length, sizes[i]), recvbuf, elems(recvtype, displs[i]));
                }
            }
        };
        if (c.remote != null)
        {
            return launch(ScheduledCollectives.interGather(c, mine, sizes, root, done), nb);
        }
        if (nb)
        {
            return launch(ScheduledCollectives.gather(c, mine, sizes, root, done), true);
        }
        done.accept(Collectives.gather(c, mine, sizes, root));
        return null;
    }

    static void counts(final String what, final int[] counts, final int[] displs, final int n) throws MPIException
    {
        if (counts == null || counts.length < n || displs != null && displs.length < n)
        {
            throw new MPIException(MPI.ERR_ARG, what + ": counts and displacements must have one entry per process (" + n + ")");
        }
        for (int i = 0; i < n; i++)
        {
            if (counts[i] < 0)
            {
                throw new MPIException(MPI.ERR_COUNT, what + ": count " + counts[i] + " for rank " + i + " must be at least 0");
            }
        }
    }

    /**
     * {@code MPI_GATHERV}.
     *
     * @param sendbuf   send buffer.
     * @param sendcount elements sent.
     * @param sendtype  their type.
     * @param recvbuf   receive buffer (root).
     * @param recvcount elements from each rank.
     * @param displs    where each rank's data goes, in extents of {@code recvtype}.
     * @param recvtype  their type.
     * @param root      the root.
     * @throws MPIException on an error.
     */
    public final void gatherv(final Object sendbuf, final int sendcount, final Datatype sendtype, final Object recvbuf,
        final int[] recvcount, final int[] displs, final Datatype recvtype, final int root) throws MPIException
    {
        run(() ->
        {
            final CommState c = state();
            return gatherv(c, "gatherv", contribution(c, root, sendtype, "gatherv", sendbuf, sendcount), recvbuf,
                recvcount, displs, recvtype, root, false);
        });
    }

    /**
     * {@code MPI_GATHERV} at a root whose own part is in place.
     *
     * @param recvbuf   receive buffer.
     * @param recvcount elements from each rank.
     * @param displs    displacements.
     * @param recvtype  their type.
     * @param root      the root (the caller).
     * @throws MPIException on an error.
     */
    public final void gatherv(final Object recvbuf, final int[] recvcount, final int[] displs, final Datatype recvtype,
        final int root) throws MPIException
    {
        run(() ->
        {
            final CommState c = state();
            if (c.remote != null)
            {
                // the root's form on an intercommunicator: it contributes nothing
                return gatherv(c, "gatherv", new byte[0], recvbuf, recvcount, displs, recvtype, root, false);
            }
            counts("gatherv", recvcount, displs, c.size());
            recvtype.check("gatherv", "recvbuf", recvbuf, displs[c.myRank] + recvcount[c.myRank]);
            return gatherv(c, "gatherv", recvtype.pack(recvbuf, elems(recvtype, displs[c.myRank]), recvcount[c.myRank]),
                recvbuf, recvcount, displs, recvtype, root, false);
        });
    }

    /**
     * {@code MPI_GATHERV} at a non-root process.
     *
     * @param sendbuf   send buffer.
     * @param sendcount elements sent.
     * @param sendtype  their type.
     * @param root      the root.
     * @throws MPIException on an error.
     */
    public final void gatherv(final Object sendbuf, final int sendcount, final Datatype sendtype, final int root)
        throws MPIException
    {
        run(() ->
        {
            final CommState c = state();
            return gatherv(c, "gatherv", contribution(c, root, sendtype, "gatherv", sendbuf, sendcount), null, null,
                null, null, root, false);
        });
    }

    /**
     * {@code MPI_SCATTER}. On an intercommunicator the root ({@link MPI#ROOT}) sends
     * {@code sendcount} elements to each process of the remote group.
     *
     * @param sendbuf   send buffer (root).
     * @param sendcount elements to each.
     * @param sendtype  their type.
     * @param recvbuf   receive buffer.
     * @param recvcount elements received.
     * @param recvtype  their type.
     * @param root      the root.
     * @throws MPIException on an error.
     */
    public final void scatter(final Object sendbuf, final int sendcount, final Datatype sendtype, final Object recvbuf,
        final int recvcount, final Datatype recvtype, final int root) throws MPIException
    {
        run(() ->
        {
            final CommState c = state();
            final int n = c.peerCount();
            return scatterv(c, "scatter", sendbuf, uniform(n, sendcount), steps(n, sendcount), sendtype, recvbuf, 0,
                recvcount, recvtype, root, false);
        });
    }

    /**
     * {@code MPI_SCATTER} in place at the root: the root's part stays in {@code buf}.
     *
     * @param buf   the buffer (all parts at root, one part elsewhere).
     * @param count elements per process.
     * @param type  their type.
     * @param root  the root.
     * @throws MPIException on an error.
     */
    public final void scatter(final Object buf, final int count, final Datatype type, final int root) throws MPIException
    {
        run(() ->
        {
            final CommState c = state();
            intraOnly(c, "scatter");
            return scatterv(c, "scatter", buf, uniform(c.size(), count), steps(c.size(), count), type, buf,
                c.myRank == root ? elems(type, (long)root * count) : 0, count, type, root, false);
        });
    }

    private static Request scatterv(final CommState c, final String what, final Object sendbuf, final int[] sendcount,
        final int[] displs, final Datatype sendtype, final Object recvbuf, final int recvOff, final int recvcount,
        final Datatype recvtype, final int root, final boolean nb) throws MPIException
    {
        final boolean amRoot = checkedRoot(c, what, root);
        final int n = c.peerCount();
        if (!rootSide(c, root))
        {
            recvtype.check(what, "recvbuf", recvbuf, recvcount);
        }
        byte[][] parts = null;
        if (amRoot)
        {
            counts(what, sendcount, displs, n);
            parts = new byte[n][];
            for (int i = 0; i < n; i++)
            {
                sendtype.check(what, "sendbuf", sendbuf, displs[i] + sendcount[i]);
                parts[i] = sendtype.pack(sendbuf, elems(sendtype, displs[i]), sendcount[i]);
            }
        }
        final int mySize = recvcount * recvtype.wireSize;
        final ScheduledCollectives.Result done = mine ->
        {
            if (mine != null)
            {
                recvtype.unpack(mine, Math.min(mine.length, mySize), recvbuf, recvOff);
            }
        };
        if (c.remote != null)
        {
            return launch(ScheduledCollectives.interScatter(c, parts, mySize, root, done), nb);
        }
        if (nb)
        {
            return launch(ScheduledCollectives.scatter(c, parts, mySize, root, done), true);
        }
        done.accept(Collectives.scatter(c, parts, mySize, root));
        return null;
    }

    /**
     * {@code MPI_SCATTERV}.
     *
     * @param sendbuf   send buffer (root).
     * @param sendcount elements to each rank.
     * @param displs    where each rank's data is, in extents of {@code sendtype}.
     * @param sendtype  their type.
     * @param recvbuf   receive buffer.
     * @param recvcount elements received.
     * @param recvtype  their type.
     * @param root      the root.
     * @throws MPIException on an error.
     */
    public final void scatterv(final Object sendbuf, final int[] sendcount, final int[] displs, final Datatype sendtype,
        final Object recvbuf, final int recvcount, final Datatype recvtype, final int root) throws MPIException
    {
        run(() -> scatterv(state(), "scatterv", sendbuf, sendcount, displs, sendtype, recvbuf, 0, recvcount, recvtype,
            root, false));
    }

    /**
     * {@code MPI_ALLGATHER}. On an intercommunicator each process receives {@code recvcount}
     * elements from every process of the remote group.
     *
     * @param sendbuf   send buffer.
     * @param sendcount elements sent by each.
     * @param sendtype  their type.
     * @param recvbuf   receive buffer.
     * @param recvcount elements from each.
     * @param recvtype  their type.
     * @throws MPIException on an error.
     */
    public final void allGather(final Object sendbuf, final int sendcount, final Datatype sendtype, final Object recvbuf,
        final int recvcount, final Datatype recvtype) throws MPIException
    {
        run(() -> allGather(state(), sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, false));
    }

    private static Request allGather(final CommState c, final Object sendbuf, final int sendcount,
        final Datatype sendtype, final Object recvbuf, final int recvcount, final Datatype recvtype, final boolean nb)
        throws MPIException
    {
        final int n = c.peerCount();
        return allGatherv(c, sendtype.pack(checked(sendtype, "allGather", "sendbuf", sendbuf, sendcount), 0, sendcount),
            recvbuf, uniform(n, recvcount), steps(n, recvcount), recvtype, nb);
    }

    /**
     * {@code MPI_ALLGATHER} in place: each process's part is already at its place in {@code buf}.
     *
     * @param buf   the buffer.
     * @param count elements per process.
     * @param type  their type.
     * @throws MPIException on an error.
     */
    public final void allGather(final Object buf, final int count, final Datatype type) throws MPIException
    {
        run(() ->
        {
            final CommState c = state();
            intraOnly(c, "allGather");
            type.check("allGather", "buf", buf, count * c.size());
            return allGatherv(c, type.pack(buf, elems(type, (long)c.myRank * count), count), buf,
                uniform(c.size(), count), steps(c.size(), count), type, false);
        });
    }

    private static Request allGatherv(final CommState c, final byte[] mine, final Object recvbuf,
        final int[] recvcount, final int[] displs, final Datatype recvtype, final boolean nb) throws MPIException
    {
        final int n = c.peerCount();
        counts("allGatherv", recvcount, displs, n);
        int total = 0;
        final int[] sizes = new int[n];
        for (int i = 0; i < n; i++)
        {
            recvtype.check("allGatherv", "recvbuf", recvbuf, displs[i] + recvcount[i]);
            sizes[i] = recvcount[i] * recvtype.wireSize;
            total += sizes[i];
        }
        final ScheduledCollectives.Parts done = parts ->
        {
            for (int i = 0; i < n; i++)
            {
                recvtype.unpack(parts[i], Math.min(parts[i].length, sizes[i]), recvbuf, elems(recvtype, displs[i]));
            }
        };
        if (c.remote != null)
        {
            final byte[][] same = new byte[n][];
            java.util.Arrays.fill(same, mine);
            return launch(ScheduledCollectives.interAllToAll(c, "allGather", same, sizes, done), nb);
        }
        if (nb)
        {
            return launch(ScheduledCollectives.allGather(c, mine, sizes, done), true);
        }
        // gather to rank 0, then broadcast the concatenation
        final byte[][] parts = Collectives.gather(c, mine, sizes, 0);
        final byte[] all = new byte[total];
        if (parts != null)
        {
            for (int i = 0, p = 0; i < n; p += sizes[i], i++)
            {
                System.arraycopy(parts[i], 0, all, p, Math.min(parts[i].length, sizes[i]));
            }
        }
        final byte[] r = Collectives.bcast(c, all, 0);
        final byte[][] got = new byte[n][];
        for (int i = 0, p = 0; i < n; p += sizes[i], i++)
        {
            got[i] = java.util.Arrays.copyOfRange(r, p, p + sizes[i]);
        }
        done.accept(got);
        return null;
    }

    /**
     * {@code MPI_ALLGATHERV}.
     *
     * @param sendbuf   send buffer.
     * @param sendcount elements sent.
     * @param sendtype  their type.
     * @param recvbuf   receive buffer.
     * @param recvcount elements from each rank.
     * @param displs    displacements, in extents of {@code recvtype}.
     * @param recvtype  their type.
     * @throws MPIException on an error.
     */
    public final void allGatherv(final Object sendbuf, final int sendcount, final Datatype sendtype,
        final Object recvbuf, final int[] recvcount, final int[] displs, final Datatype recvtype) throws MPIException
    {
        run(() -> allGatherv(state(), sendtype.pack(checked(sendtype, "allGatherv", "sendbuf", sendbuf, sendcount), 0,
            sendcount), recvbuf, recvcount, displs, recvtype, false));
    }

    /**
     * {@code MPI_ALLGATHERV} in place.
     *
     * @param recvbuf   the buffer.
     * @param recvcount elements from each rank.
     * @param displs    displacements.
     * @param recvtype  their type.
     * @throws MPIException on an error.
     */
    public final void allGatherv(final Object recvbuf, final int[] recvcount, final int[] displs,
        final Datatype recvtype) throws MPIException
    {
        run(() ->
        {
            final CommState c = state();
            intraOnly(c, "allGatherv");
            counts("allGatherv", recvcount, displs, c.size());
            recvtype.check("allGatherv", "recvbuf", recvbuf, displs[c.myRank] + recvcount[c.myRank]);
            return allGatherv(c, recvtype.pack(recvbuf, elems(recvtype, displs[c.myRank]), recvcount[c.myRank]), recvbuf,
                recvcount, displs, recvtype, false);
        });
    }

    /**
     * {@code MPI_ALLTOALL}. On an intercommunicator part j goes to process j of the remote group.
     *
     * @param sendbuf   send buffer.
     * @param sendcount elements to each.
     * @param sendtype  their type.
     * @param recvbuf   receive buffer.
     * @param recvcount elements from each.
     * @param recvtype  their type.
     * @throws MPIException on an error.
     */
    public final void allToAll(final Object sendbuf, final int sendcount, final Datatype sendtype, final Object recvbuf,
        final int recvcount, final Datatype recvtype) throws MPIException
    {
        run(() -> allToAll(state(), sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, false));
    }

    private static Request allToAll(final CommState c, final Object sendbuf, final int sendcount,
        final Datatype sendtype, final Object recvbuf, final int recvcount, final Datatype recvtype, final boolean nb)
        throws MPIException
    {
        final int n = c.peerCount();
        return allToAllv(c, nb ? "iAllToAll" : "allToAll", sendbuf, uniform(n, sendcount), steps(n, sendcount), sendtype,
            recvbuf, uniform(n, recvcount), steps(n, recvcount), recvtype, nb);
    }

    private static Request allToAllv(final CommState c, final String what, final Object sendbuf, final int[] sendcount,
        final int[] sdispls, final Datatype sendtype, final Object recvbuf, final int[] recvcount, final int[] rdispls,
        final Datatype recvtype, final boolean nb) throws MPIException
    {
        final int n = c.peerCount();
        counts(what, sendcount, sdispls, n);
        counts(what, recvcount, rdispls, n);
        final byte[][] parts = new byte[n][];
        final int[] sizes = new int[n];
        for (int i = 0; i < n; i++)
        {
            sendtype.check(what, "sendbuf", sendbuf, sdispls[i] + sendcount[i]);
            recvtype.check(what, "recvbuf", recvbuf, rdispls[i] + recvcount[i]);
            parts[i] = sendtype.pack(sendbuf, elems(sendtype, sdispls[i]), sendcount[i]);
            sizes[i] = recvcount[i] * recvtype.wireSize;
        }
        final ScheduledCollectives.Parts done = got ->
        {
            for (int i = 0; i < n; i++)
            {
                recvtype.unpack(got[i], Math.min(got[i].length, sizes[i]), recvbuf, elems(recvtype, rdispls[i]));
            }
        };
        if (c.remote != null)
        {
            return launch(ScheduledCollectives.interAllToAll(c, what, parts, sizes, done), nb);
        }
        if (nb)
        {
            return launch(ScheduledCollectives.allToAll(c, parts, sizes, done), true);
        }
        done.accept(Collectives.allToAll(c, parts, sizes));
        return null;
    }

    /**
     * {@code MPI_ALLTOALLV}.
     *
     * @param sendbuf   send buffer.
     * @param sendcount elements to each rank.
     * @param sdispls   where each rank's data is, in extents of {@code sendtype}.
     * @param sendtype  their type.
     * @param recvbuf   receive buffer.
     * @param recvcount elements from each rank.
     * @param rdispls   where each rank's data goes, in extents of {@code recvtype}.
     * @param recvtype  their type.
     * @throws MPIException on an error.
     */
    public final void allToAllv(final Object sendbuf, final int[] sendcount, final int[] sdispls,
        final Datatype sendtype, final Object recvbuf, final int[] recvcount, final int[] rdispls,
        final Datatype recvtype) throws MPIException
    {
        run(() -> allToAllv(state(), "allToAllv", sendbuf, sendcount, sdispls, sendtype, recvbuf, recvcount, rdispls,
            recvtype, false));
    }

    /**
     * {@code MPI_ALLTOALLW}: as {@link #allToAllv} with a datatype per peer and displacements in
     * <em>bytes</em> (as in C). Each part is packed with its own send type and unpacked with its
     * own receive type; the exchange is the pairwise algorithm of {@link #allToAllv} over Tports
     * (on an intercommunicator, part j goes to process j of the remote group).
     *
     * @param sendBuf   send buffer.
     * @param sendCount elements to each peer.
     * @param sDispls   byte displacement of each peer's data in {@code sendBuf}.
     * @param sendTypes the type of each peer's data.
     * @param recvBuf   receive buffer.
     * @param recvCount elements from each peer.
     * @param rDispls   byte displacement of each peer's data in {@code recvBuf}.
     * @param recvTypes the type of each peer's data.
     * @throws MPIException with {@link MPI#ERR_ARG} for arrays shorter than the group or a
     *                      displacement that is not a whole number of the buffer's elements,
     *                      {@link MPI#ERR_BUFFER}/{@link MPI#ERR_TYPE} for a part that does not fit.
     */
    public final void allToAllw(final Buffer sendBuf, final int[] sendCount, final int[] sDispls,
        final Datatype[] sendTypes, final Buffer recvBuf, final int[] recvCount, final int[] rDispls,
        final Datatype[] recvTypes) throws MPIException
    {
        run(() -> allToAllw(state(), "allToAllw", sendBuf, sendCount, sDispls, sendTypes, recvBuf, recvCount, rDispls,
            recvTypes, false));
    }

    /**
     * {@code MPI_IALLTOALLW}: {@link #allToAllw} as a schedule (one round of sends and receives to
     * and from every peer), progressed by the rank's MPI calls.
     *
     * @param sendBuf   send buffer.
     * @param sendCount elements to each peer.
     * @param sDispls   byte displacements in {@code sendBuf}.
     * @param sendTypes the type of each peer's data.
     * @param recvBuf   receive buffer (written when the request completes).
     * @param recvCount elements from each peer.
     * @param rDispls   byte displacements in {@code recvBuf}.
     * @param recvTypes the type of each peer's data.
     * @return the request.
     * @throws MPIException as {@link #allToAllw}.
     */
    public final Request iAllToAllw(final Buffer sendBuf, final int[] sendCount, final int[] sDispls,
        final Datatype[] sendTypes, final Buffer recvBuf, final int[] recvCount, final int[] rDispls,
        final Datatype[] recvTypes) throws MPIException
    {
        return call(() -> allToAllw(state(), "iAllToAllw", sendBuf, sendCount, sDispls, sendTypes, recvBuf, recvCount,
            rDispls, recvTypes, true));
    }

    private static Request allToAllw(final CommState c, final String what, final Buffer sendbuf, final int[] sendcount,
        final int[] sdispls, final Datatype[] sendtypes, final Buffer recvbuf, final int[] recvcount,
        final int[] rdispls, final Datatype[] recvtypes, final boolean nb) throws MPIException
    {
        final int n = c.peerCount();
        counts(what, sendcount, sdispls, n);
        counts(what, recvcount, rdispls, n);
        if (sendtypes == null || sendtypes.length < n || recvtypes == null || recvtypes.length < n)
        {
            throw new MPIException(MPI.ERR_ARG, what + ": sendTypes and recvTypes must have one entry per process (" + n
                + ")");
        }
        final byte[][] parts = new byte[n][];
        final int[] sizes = new int[n];
        for (int i = 0; i < n; i++)
        {
            if (sendtypes[i] == null || recvtypes[i] == null)
            {
                throw new MPIException(MPI.ERR_TYPE, what + ": the datatype for peer " + i + " is null");
            }
            sendtypes[i].checkAt(what, "sendBuf", sendbuf, sdispls[i], sendcount[i]);
            recvtypes[i].checkAt(what, "recvBuf", recvbuf, rdispls[i], recvcount[i]);
            parts[i] = sendtypes[i].packAt(sendbuf, sdispls[i], sendcount[i]);
            if (!sendtypes[i].basic)
            {
                c.rank.copy(parts[i].length);
            }
            sizes[i] = recvcount[i] * recvtypes[i].wireSize;
        }
        final ScheduledCollectives.Parts done = got ->
        {
            for (int i = 0; i < n; i++)
            {
                final int len = Math.min(got[i].length, sizes[i]);
                recvtypes[i].unpackAt(got[i], len, recvbuf, rdispls[i]);
                if (!recvtypes[i].basic)
                {
                    c.rank.copy(len);
                }
            }
        };
        if (c.remote != null)
        {
            return launch(ScheduledCollectives.interAllToAll(c, what, parts, sizes, done), nb);
        }
        if (nb)
        {
            return launch(ScheduledCollectives.allToAll(c, parts, sizes, done), true);
        }
        done.accept(Collectives.allToAll(c, parts, sizes));
        return null;
    }

    /**
     * {@code MPI_REDUCE} (the Elanlib tree reduction, {@code elan_reduce}, on communicators of the
     * whole job and up to 64 KB; a binomial tree over point-to-point otherwise). On an
     * intercommunicator the remote group's data is reduced to the root ({@link MPI#ROOT}; its
     * group's other members pass {@link MPI#PROC_NULL}).
     *
     * @param sendbuf send buffer.
     * @param recvbuf receive buffer (root).
     * @param count   elements.
     * @param type    their type.
     * @param op      the operator.
     * @param root    the root.
     * @throws MPIException on an error.
     */
    public final void reduce(final Object sendbuf, final Object recvbuf, final int count, final Datatype type,
        final Op op, final int root) throws MPIException
    {
        run(() -> reduce(state(), "reduce", sendbuf, recvbuf, count, type, op, root, false, false));
    }

    private static Request reduce(final CommState c, final String what, final Object sendbuf, final Object recvbuf,
        final int count, final Datatype type, final Op op, final int root, final boolean all, final boolean nb)
        throws MPIException
    {
        final boolean result = all || checkedRoot(c, what, root);
        final boolean contributes = all || !rootSide(c, root);
        if (contributes)
        {
            type.check(what, "sendbuf", sendbuf, count);
        }
        if (result)
        {
            type.check(what, "recvbuf", recvbuf, count);
        }
        op.check(what, type);
        final byte[] d = contributes ? type.pack(sendbuf, 0, count) : new byte[count * type.wireSize];
        final ScheduledCollectives.Result done = r ->
        {
            if (r != null)
            {
                type.unpack(r, r.length, recvbuf, 0);
            }
        };
        if (c.remote != null)
        {
            return launch(ScheduledCollectives.interReduce(c, d, count, type, op, root, all, done), nb);
        }
        if (nb)
        {
            return launch(ScheduledCollectives.reduce(c, d, count, type, op, root, all, done), true);
        }
        done.accept(Collectives.reduce(c, d, count, type, op, root, all));
        return null;
    }

    /**
     * {@code MPI_REDUCE} in place at the root.
     *
     * @param buf   the buffer (operand, and the result at root).
     * @param count elements.
     * @param type  their type.
     * @param op    the operator.
     * @param root  the root.
     * @throws MPIException on an error.
     */
    public final void reduce(final Object buf, final int count, final Datatype type, final Op op, final int root)
        throws MPIException
    {
        reduce(buf, buf, count, type, op, root);
    }

    /**
     * {@code MPI_ALLREDUCE}. On an intercommunicator each group receives the reduction of the
     * other group's data.
     *
     * @param sendbuf send buffer.
     * @param recvbuf receive buffer.
     * @param count   elements.
     * @param type    their type.
     * @param op      the operator.
     * @throws MPIException on an error.
     */
    public final void allReduce(final Object sendbuf, final Object recvbuf, final int count, final Datatype type,
        final Op op) throws MPIException
    {
        run(() -> reduce(state(), "allReduce", sendbuf, recvbuf, count, type, op, 0, true, false));
    }

    /**
     * {@code MPI_ALLREDUCE} in place.
     *
     * @param buf   the buffer.
     * @param count elements.
     * @param type  their type.
     * @param op    the operator.
     * @throws MPIException on an error.
     */
    public final void allReduce(final Object buf, final int count, final Datatype type, final Op op) throws MPIException
    {
        allReduce(buf, buf, count, type, op);
    }

    /**
     * {@code MPI_REDUCE_SCATTER} (intracommunicators: a reduction to rank 0, then a scatter).
     *
     * @param sendbuf    send buffer.
     * @param recvbuf    receive buffer.
     * @param recvcounts elements of the result each rank receives.
     * @param type       their type.
     * @param op         the operator.
     * @throws MPIException on an error ({@link MPI#ERR_COMM} on an intercommunicator).
     */
    public final void reduceScatter(final Object sendbuf, final Object recvbuf, final int[] recvcounts,
        final Datatype type, final Op op) throws MPIException
    {
        run(() -> reduceScatter(state(), "reduceScatter", sendbuf, recvbuf, recvcounts, type, op, false));
    }

    private static Request reduceScatter(final CommState c, final String what, final Object sendbuf,
        final Object recvbuf, final int[] recvcounts, final Datatype type, final Op op, final boolean nb)
        throws MPIException
    {
        if (c.remote != null)
        {
            throw new MPIException(MPI.ERR_COMM, what + " on intercommunicator " + c + " is not supported (merge() it "
                + "into an intracommunicator first)");
        }
        final int n = c.size();
        counts(what, recvcounts, null, n);
        int total = 0;
        final int[] displs = new int[n];
        final int[] sizes = new int[n];
        for (int i = 0; i < n; i++)
        {
            displs[i] = total;
            total += recvcounts[i];
            sizes[i] = recvcounts[i] * type.wireSize;
        }
        type.check(what, "sendbuf", sendbuf, total);
        op.check(what, type);
        type.check(what, "recvbuf", recvbuf, recvcounts[c.myRank]);
        final ScheduledCollectives.Result done = mine -> type.unpack(mine, mine.length, recvbuf, 0);
        if (nb)
        {
            return launch(ScheduledCollectives.reduceScatter(c, type.pack(sendbuf, 0, total), total, type, op, sizes,
                done), true);
        }
        final byte[] r = Collectives.reduce(c, type.pack(sendbuf, 0, total), total, type, op, 0, false);
        final byte[][] parts = new byte[n][];
        if (c.myRank == 0)
        {
            for (int i = 0; i < n; i++)
            {
                parts[i] = java.util.Arrays.copyOfRange(r, displs[i] * type.wireSize,
                    (displs[i] + recvcounts[i]) * type.wireSize);
            }
        }
        done.accept(Collectives.scatter(c, parts, sizes[c.myRank], 0));
        return null;
    }

    /**
     * {@code MPI_REDUCE_SCATTER} in place.
     *
     * @param buf    the buffer.
     * @param counts elements of the result each rank receives.
     * @param type   their type.
     * @param op     the operator.
     * @throws MPIException on an error.
     */
    public final void reduceScatter(final Object buf, final int[] counts, final Datatype type, final Op op)
        throws MPIException
    {
        reduceScatter(buf, buf, counts, type, op);
    }

    /**
     * {@code MPI_REDUCE_SCATTER_BLOCK}.
     *
     * @param sendbuf   send buffer.
     * @param recvbuf   receive buffer.
     * @param recvcount elements each rank receives.
     * @param type      their type.
     * @param op        the operator.
     * @throws MPIException on an error.
     */
    public final void reduceScatterBlock(final Object sendbuf, final Object recvbuf, final int recvcount,
        final Datatype type, final Op op) throws MPIException
    {
        run(() -> reduceScatter(state(), "reduceScatterBlock", sendbuf, recvbuf, uniform(state().size(), recvcount),
            type, op, false));
    }

    /**
     * {@code MPI_REDUCE_SCATTER_BLOCK} in place.
     *
     * @param buf   the buffer.
     * @param count elements each rank receives.
     * @param type  their type.
     * @param op    the operator.
     * @throws MPIException on an error.
     */
    public final void reduceScatterBlock(final Object buf, final int count, final Datatype type, final Op op)
        throws MPIException
    {
        reduceScatterBlock(buf, buf, count, type, op);
    }

    /**
     * {@code MPI_REDUCE_LOCAL}: {@code inOutBuf = inBuf op inOutBuf}.
     *
     * @param inBuf    the first operand.
     * @param inOutBuf the second operand and the result.
     * @param count    elements.
     * @param type     their type.
     * @param op       the operator.
     * @throws MPIException on an error.
     */
    public static void reduceLocal(final Object inBuf, final Object inOutBuf, final int count, final Datatype type,
        final Op op) throws MPIException
    {
        type.check("reduceLocal", "inBuf", inBuf, count);
        type.check("reduceLocal", "inOutBuf", inOutBuf, count);
        op.check("reduceLocal", type);
        final byte[] b = type.pack(inOutBuf, 0, count);
        op.combine(type.pack(inBuf, 0, count), b, count, type);
        type.unpack(b, b.length, inOutBuf, 0);
    }

    // ------------------------------------------------------------------ non-blocking collectives
    //
    // Each starts the collective's schedule (ScheduledCollectives) and returns it as the request:
    // round 0's sends and receives are under way when the call returns; a test or wait on the
    // request, or any MPI call on the rank, advances the later rounds. Send buffers are packed at
    // the call; receive buffers are written when the request completes.

    /**
     * {@code MPI_IGATHER}.
     *
     * @param sendbuf   send buffer.
     * @param sendcount elements.
     * @param sendtype  type.
     * @param recvbuf   receive buffer.
     * @param recvcount elements from each.
     * @param recvtype  type.
     * @param root      root.
     * @return the request.
     * @throws MPIException on an error.
     */
    public final Request iGather(final Object sendbuf, final int sendcount, final Datatype sendtype,
        final Object recvbuf, final int recvcount, final Datatype recvtype, final int root) throws MPIException
    {
        return call(() -> gather(state(), "iGather", sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root,
            true));
    }

    /**
     * {@code MPI_ISCATTER}.
     *
     * @param sendbuf   send buffer.
     * @param sendcount elements to each.
     * @param sendtype  type.
     * @param recvbuf   receive buffer.
     * @param recvcount elements.
     * @param recvtype  type.
     * @param root      root.
     * @return the request.
     * @throws MPIException on an error.
     */
    public final Request iScatter(final Object sendbuf, final int sendcount, final Datatype sendtype,
        final Object recvbuf, final int recvcount, final Datatype recvtype, final int root) throws MPIException
    {
        return call(() ->
        {
            final CommState c = state();
            final int n = c.peerCount();
            return scatterv(c, "iScatter", sendbuf, uniform(n, sendcount), steps(n, sendcount), sendtype, recvbuf, 0,
                recvcount, recvtype, root, true);
        });
    }

    /**
     * {@code MPI_IALLGATHER}.
     *
     * @param sendbuf   send buffer.
     * @param sendcount elements.
     * @param sendtype  type.
     * @param recvbuf   receive buffer.
     * @param recvcount elements from each.
     * @param recvtype  type.
     * @return the request.
     * @throws MPIException on an error.
     */
    public final Request iAllGather(final Object sendbuf, final int sendcount, final Datatype sendtype,
        final Object recvbuf, final int recvcount, final Datatype recvtype) throws MPIException
    {
        return call(() -> allGather(state(), sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, true));
    }

    /**
     * {@code MPI_IALLTOALL}.
     *
     * @param sendbuf   send buffer.
     * @param sendcount elements to each.
     * @param sendtype  type.
     * @param recvbuf   receive buffer.
     * @param recvcount elements from each.
     * @param recvtype  type.
     * @return the request.
     * @throws MPIException on an error.
     */
    public final Request iAllToAll(final Object sendbuf, final int sendcount, final Datatype sendtype,
        final Object recvbuf, final int recvcount, final Datatype recvtype) throws MPIException
    {
        return call(() -> allToAll(state(), sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, true));
    }

    /**
     * {@code MPI_IREDUCE}: a binomial reduction as a schedule (children combined in rank order).
     *
     * @param sendbuf send buffer.
     * @param recvbuf receive buffer.
     * @param count   elements.
     * @param type    type.
     * @param op      operator.
     * @param root    root.
     * @return the request.
     * @throws MPIException on an error.
     */
    public final Request iReduce(final Object sendbuf, final Object recvbuf, final int count, final Datatype type,
        final Op op, final int root) throws MPIException
    {
        return call(() -> reduce(state(), "iReduce", sendbuf, recvbuf, count, type, op, root, false, true));
    }

    /**
     * {@code MPI_IALLREDUCE}: a binomial reduction to rank 0 then a binomial broadcast, as a schedule.
     *
     * @param sendbuf send buffer.
     * @param recvbuf receive buffer.
     * @param count   elements.
     * @param type    type.
     * @param op      operator.
     * @return the request.
     * @throws MPIException on an error.
     */
    public final Request iAllReduce(final Object sendbuf, final Object recvbuf, final int count, final Datatype type,
        final Op op) throws MPIException
    {
        return call(() -> reduce(state(), "iAllReduce", sendbuf, recvbuf, count, type, op, 0, true, true));
    }

    /**
     * {@code MPI_IALLREDUCE} in place.
     *
     * @param buf   the buffer.
     * @param count elements.
     * @param type  type.
     * @param op    operator.
     * @return the request.
     * @throws MPIException on an error.
     */
    public final Request iAllReduce(final Object buf, final int count, final Datatype type, final Op op)
        throws MPIException
    {
        return iAllReduce(buf, buf, count, type, op);
    }

    /**
     * {@code MPI_IGATHERV}.
     *
     * @param sendbuf   send buffer.
     * @param sendcount elements.
     * @param sendtype  type.
     * @param recvbuf   receive buffer.
     * @param recvcount elements from each rank.
     * @param displs    displacements.
     * @param recvtype  type.
     * @param root      root.
     * @return the request.
     * @throws MPIException on an error.
     */
    public final Request iGatherv(final Object sendbuf, final int sendcount, final Datatype sendtype,
        final Object recvbuf, final int[] recvcount, final int[] displs, final Datatype recvtype, final int root)
        throws MPIException
    {
        return call(() ->
        {
            final CommState c = state();
            return gatherv(c, "iGatherv", contribution(c, root, sendtype, "iGatherv", sendbuf, sendcount), recvbuf,
                recvcount, displs, recvtype, root, true);
        });
    }

    /**
     * {@code MPI_ISCATTERV}.
     *
     * @param sendbuf   send buffer.
     * @param sendcount elements to each rank.
     * @param displs    displacements.
     * @param sendtype  type.
     * @param recvbuf   receive buffer.
     * @param recvcount elements.
     * @param recvtype  type.
     * @param root      root.
     * @return the request.
     * @throws MPIException on an error.
     */
    public final Request iScatterv(final Object sendbuf, final int[] sendcount, final int[] displs,
        final Datatype sendtype, final Object recvbuf, final int recvcount, final Datatype recvtype, final int root)
        throws MPIException
    {
        return call(() -> scatterv(state(), "iScatterv", sendbuf, sendcount, displs, sendtype, recvbuf, 0, recvcount,
            recvtype, root, true));
    }

    /**
     * {@code MPI_IALLGATHERV}.
     *
     * @param sendbuf   send buffer.
     * @param sendcount elements.
     * @param sendtype  type.
     * @param recvbuf   receive buffer.
     * @param recvcount elements from each rank.
     * @param displs    displacements.
     * @param recvtype  type.
     * @return the request.
     * @throws MPIException on an error.
     */
    public final Request iAllGatherv(final Object sendbuf, final int sendcount, final Datatype sendtype,
        final Object recvbuf, final int[] recvcount, final int[] displs, final Datatype recvtype) throws MPIException
    {
        return call(() -> allGatherv(state(), sendtype.pack(checked(sendtype, "iAllGatherv", "sendbuf", sendbuf,
            sendcount), 0, sendcount), recvbuf, recvcount, displs, recvtype, true));
    }

    /**
     * {@code MPI_IALLTOALLV}.
     *
     * @param sendbuf   send buffer.
     * @param sendcount elements to each rank.
     * @param sdispls   send displacements.
     * @param sendtype  type.
     * @param recvbuf   receive buffer.
     * @param recvcount elements from each rank.
     * @param rdispls   receive displacements.
     * @param recvtype  type.
     * @return the request.
     * @throws MPIException on an error.
     */
    public final Request iAllToAllv(final Object sendbuf, final int[] sendcount, final int[] sdispls,
        final Datatype sendtype, final Object recvbuf, final int[] recvcount, final int[] rdispls,
        final Datatype recvtype) throws MPIException
    {
        return call(() -> allToAllv(state(), "iAllToAllv", sendbuf, sendcount, sdispls, sendtype, recvbuf, recvcount,
            rdispls, recvtype, true));
    }

    /**
     * {@code MPI_IREDUCE_SCATTER}.
     *
     * @param sendbuf    send buffer.
     * @param recvbuf    receive buffer.
     * @param recvcounts elements each rank receives.
     * @param type       type.
     * @param op         operator.
     * @return the request.
     * @throws MPIException on an error.
     */
    public final Request iReduceScatter(final Object sendbuf, final Object recvbuf, final int[] recvcounts,
        final Datatype type, final Op op) throws MPIException
    {
        return call(() -> reduceScatter(state(), "iReduceScatter", sendbuf, recvbuf, recvcounts, type, op, true));
    }

    /**
     * {@code MPI_IREDUCE_SCATTER_BLOCK}.
     *
     * @param sendbuf   send buffer.
     * @param recvbuf   receive buffer.
     * @param recvcount elements each rank receives.
     * @param type      type.
     * @param op        operator.
     * @return the request.
     * @throws MPIException on an error.
     */
    public final Request iReduceScatterBlock(final Object sendbuf, final Object recvbuf, final int recvcount,
        final Datatype type, final Op op) throws MPIException
    {
        return call(() -> reduceScatter(state(), "iReduceScatterBlock", sendbuf, recvbuf,
            uniform(state().size(), recvcount), type, op, true));
    }

    // ------------------------------------------------------------------ more of the bindings' API

    /**
     * {@code MPI_IBSEND} (the bindings' name).
     *
     * @param buf   send buffer.
     * @param count elements.
     * @param type  their type.
     * @param dest  destination.
     * @param tag   tag.
     * @return the request (complete: the message is in the attached buffer).
     * @throws MPIException on an error.
     */
    public final Request ibSend(final Buffer buf, final int count, final Datatype type, final int dest, final int tag)
        throws MPIException
    {
        return iBSend(buf, count, type, dest, tag);
    }

    /**
     * {@code MPI_ISSEND} (the bindings' name).
     *
     * @param buf   send buffer.
     * @param count elements.
     * @param type  their type.
     * @param dest  destination.
     * @param tag   tag.
     * @return the request.
     * @throws MPIException on an error.
     */
    public final Request isSend(final Buffer buf, final int count, final Datatype type, final int dest, final int tag)
        throws MPIException
    {
        return iSSend(buf, count, type, dest, tag);
    }

    /**
     * {@code MPI_IRSEND} (the bindings' name).
     *
     * @param buf   send buffer.
     * @param count elements.
     * @param type  their type.
     * @param dest  destination.
     * @param tag   tag.
     * @return the request.
     * @throws MPIException on an error.
     */
    public final Request irSend(final Buffer buf, final int count, final Datatype type, final int dest, final int tag)
        throws MPIException
    {
        return iRSend(buf, count, type, dest, tag);
    }

    /** Sets the request an {@link #iDup} returns through {@link #getRequest()}. */
    static <C extends Comm> C withRequest(final C c, final CommState of)
    {
        c.request = Request.completed(of, Status.empty());
        return c;
    }

    /**
     * {@code MPI_COMM_IDUP}: duplicates the communicator; here the duplication completes in the
     * call (it is a collective agreement on a context id), and {@link #getRequest()} of the new
     * communicator returns a completed request.
     *
     * @return the new communicator.
     * @throws MPIException on an error.
     */
    public Comm iDup() throws MPIException
    {
        final Comm d = dup();
        return withRequest(d, d.state());
    }

    /**
     * The request of a communicator made by {@link #iDup}.
     *
     * @return the request, or null when the communicator was not made by {@code iDup}.
     */
    public final Request getRequest()
    {
        return request;
    }

    /**
     * {@code MPI_COMM_SET_INFO}: keeps the hints (none changes this implementation's behaviour).
     *
     * @param info the hints.
     * @throws MPIException on an error.
     */
    public final void setInfo(final Info info) throws MPIException
    {
        state().info = info.dup();
    }

    /**
     * {@code MPI_COMM_GET_INFO}.
     *
     * @return a copy of the hints set (empty if none).
     * @throws MPIException on an error.
     */
    public final Info getInfo() throws MPIException
    {
        final CommState c = state();
        return c.info == null ? new Info() : c.info.dup();
    }

    /**
     * {@code MPI_COMM_CREATE_KEYVAL}.
     *
     * @return a new attribute key (of the calling rank).
     * @throws MPIException when MPI is not initialized.
     */
    public static int createKeyval() throws MPIException
    {
        return Rank.current().nextKeyval++;
    }

    /**
     * {@code MPI_COMM_FREE_KEYVAL}.
     *
     * @param keyval the key.
     * @throws MPIException with {@link MPI#ERR_KEYVAL} for a key never created.
     */
    public static void freeKeyval(final int keyval) throws MPIException
    {
        if (keyval < Rank.FIRST_KEYVAL || keyval >= Rank.current().nextKeyval)
        {
            throw new MPIException(MPI.ERR_KEYVAL, "freeKeyval: " + keyval + " is not a key from createKeyval");
        }
    }

    /**
     * {@code MPI_COMM_SET_ATTR}.
     *
     * @param keyval a key from {@link #createKeyval()}.
     * @param value  the value.
     * @throws MPIException with {@link MPI#ERR_KEYVAL} for a predefined or unknown key.
     */
    public final void setAttr(final int keyval, final Object value) throws MPIException
    {
        run(() ->
        {
            final CommState c = state();
            if (keyval < Rank.FIRST_KEYVAL || keyval >= c.rank.nextKeyval)
            {
                throw new MPIException(MPI.ERR_KEYVAL, "setAttr: " + keyval + " is not a key from createKeyval");
            }
            c.attributes.put(keyval, value);
            return null;
        });
    }

    /**
     * {@code MPI_COMM_GET_ATTR}: a user attribute, or a predefined one: {@link MPI#TAG_UB}
     * (Integer), {@link MPI#HOST} ({@link MPI#PROC_NULL}), {@link MPI#IO} (the caller's rank),
     * {@link MPI#WTIME_IS_GLOBAL} (Boolean true: every rank reads the one simulated clock),
     * {@link MPI#UNIVERSE_SIZE} (the job's size), {@link MPI#LASTUSEDCODE}; {@link MPI#APPNUM} is unset.
     *
     * @param keyval the key.
     * @return the value, or null when unset.
     * @throws MPIException on an error.
     */
    public final Object getAttr(final int keyval) throws MPIException
    {
        final CommState c = state();
        return switch (keyval)
        {
            case MPI.TAG_UB -> CommState.TAG_MASK;
            case MPI.HOST -> MPI.PROC_NULL;
            case MPI.IO -> c.myRank;
            case MPI.WTIME_IS_GLOBAL -> Boolean.TRUE;
            case MPI.UNIVERSE_SIZE -> c.rank.base.nvp();
            case MPI.LASTUSEDCODE -> MPI.ERR_LASTCODE;
            default -> c.attributes.get(keyval);
        };
    }

    /**
     * {@code MPI_COMM_DELETE_ATTR}.
     *
     * @param keyval the key.
     * @throws MPIException on an error.
     */
    public final void deleteAttr(final int keyval) throws MPIException
    {
        state().attributes.remove(keyval);
    }

    // ------------------------------------------------------------------ neighbourhood collectives

    private static Request neighbourExchange(final CommState c, final String what, final byte[][] parts,
        final Object recvbuf, final int[] recvcount, final int[] rdispls, final Datatype recvtype, final boolean nb)
        throws MPIException
    {
        final int[][] nbr = c.neighbours();
        final int n = nbr[0].length;
        counts(what, recvcount, rdispls, n);
        final int[] sizes = new int[n];
        for (int i = 0; i < n; i++)
        {
            recvtype.check(what, "recvbuf", recvbuf, rdispls[i] + recvcount[i]);
            sizes[i] = recvcount[i] * recvtype.wireSize;
        }
        return launch(ScheduledCollectives.neighbours(c, what, parts, sizes, got ->
        {
            for (int i = 0; i < n; i++)
            {
                if (got[i] != null)
                {
                    recvtype.unpack(got[i], Math.min(got[i].length, sizes[i]), recvbuf, elems(recvtype, rdispls[i]));
                }
            }
        }), nb);
    }

    private static Request neighbourGather(final CommState c, final String what, final Object sendbuf,
        final int sendcount, final Datatype sendtype, final Object recvbuf, final int[] recvcount, final int[] displs,
        final Datatype recvtype, final boolean nb) throws MPIException
    {
        final byte[] mine = sendtype.pack(checked(sendtype, what, "sendbuf", sendbuf, sendcount), 0, sendcount);
        final byte[][] parts = new byte[c.neighbours()[1].length][];
        java.util.Arrays.fill(parts, mine);
        return neighbourExchange(c, what, parts, recvbuf, recvcount, displs, recvtype, nb);
    }

    private static Request neighbourAllToAll(final CommState c, final String what, final Object sendbuf,
        final int[] sendcount, final int[] sdispls, final Datatype sendtype, final Object recvbuf, final int[] recvcount,
        final int[] rdispls, final Datatype recvtype, final boolean nb) throws MPIException
    {
        final int m = c.neighbours()[1].length;
        counts(what, sendcount, sdispls, m);
        final byte[][] parts = new byte[m][];
        for (int j = 0; j < m; j++)
        {
            sendtype.check(what, "sendbuf", sendbuf, sdispls[j] + sendcount[j]);
            parts[j] = sendtype.pack(sendbuf, elems(sendtype, sdispls[j]), sendcount[j]);
        }
        return neighbourExchange(c, what, parts, recvbuf, recvcount, rdispls, recvtype, nb);
    }

    /**
     * {@code MPI_NEIGHBOR_ALLGATHER}: sends the buffer to every neighbour and receives
     * {@code recvcount} elements from each, in the topology's neighbour order (Cartesian: -1 then
     * +1 of each dimension; {@link MPI#PROC_NULL} neighbours leave their block untouched).
     *
     * @param sendbuf   send buffer.
     * @param sendcount elements sent.
     * @param sendtype  their type.
     * @param recvbuf   receive buffer.
     * @param recvcount elements from each neighbour.
     * @param recvtype  their type.
     * @throws MPIException with {@link MPI#ERR_TOPOLOGY} on a communicator without topology.
     */
    public final void neighborAllGather(final Object sendbuf, final int sendcount, final Datatype sendtype,
        final Object recvbuf, final int recvcount, final Datatype recvtype) throws MPIException
    {
        run(() ->
        {
            final CommState c = state();
            final int n = c.neighbours()[0].length;
            return neighbourGather(c, "neighborAllGather", sendbuf, sendcount, sendtype, recvbuf, uniform(n, recvcount),
                steps(n, recvcount), recvtype, false);
        });
    }

    /**
     * {@code MPI_INEIGHBOR_ALLGATHER}.
     *
     * @param sendbuf   send buffer.
     * @param sendcount elements sent.
     * @param sendtype  their type.
     * @param recvbuf   receive buffer.
     * @param recvcount elements from each neighbour.
     * @param recvtype  their type.
     * @return the request.
     * @throws MPIException on an error.
     */
    public final Request iNeighborAllGather(final Object sendbuf, final int sendcount, final Datatype sendtype,
        final Object recvbuf, final int recvcount, final Datatype recvtype) throws MPIException
    {
        return call(() ->
        {
            final CommState c = state();
            final int n = c.neighbours()[0].length;
            return neighbourGather(c, "iNeighborAllGather", sendbuf, sendcount, sendtype, recvbuf,
                uniform(n, recvcount), steps(n, recvcount), recvtype, true);
        });
    }

    /**
     * {@code MPI_NEIGHBOR_ALLGATHERV}.
     *
     * @param sendbuf   send buffer.
     * @param sendcount elements sent.
     * @param sendtype  their type.
     * @param recvbuf   receive buffer.
     * @param recvcount elements from each neighbour.
     * @param displs    where each neighbour's block goes.
     * @param recvtype  their type.
     * @throws MPIException on an error.
     */
    public final void neighborAllGatherv(final Object sendbuf, final int sendcount, final Datatype sendtype,
        final Object recvbuf, final int[] recvcount, final int[] displs, final Datatype recvtype) throws MPIException
    {
        run(() -> neighbourGather(state(), "neighborAllGatherv", sendbuf, sendcount, sendtype, recvbuf, recvcount,
            displs, recvtype, false));
    }

    /**
     * {@code MPI_INEIGHBOR_ALLGATHERV}.
     *
     * @param sendbuf   send buffer.
     * @param sendcount elements sent.
     * @param sendtype  their type.
     * @param recvbuf   receive buffer.
     * @param recvcount elements from each neighbour.
     * @param displs    where each neighbour's block goes.
     * @param recvtype  their type.
     * @return the request.
     * @throws MPIException on an error.
     */
    public final Request iNeighborAllGatherv(final Object sendbuf, final int sendcount, final Datatype sendtype,
        final Object recvbuf, final int[] recvcount, final int[] displs, final Datatype recvtype) throws MPIException
    {
        return call(() -> neighbourGather(state(), "iNeighborAllGatherv", sendbuf, sendcount, sendtype, recvbuf,
            recvcount, displs, recvtype, true));
    }

    /**
     * {@code MPI_NEIGHBOR_ALLTOALL}: block j of the send buffer goes to neighbour j, block i of
     * the receive buffer comes from neighbour i.
     *
     * @param sendbuf   send buffer.
     * @param sendcount elements to each neighbour.
     * @param sendtype  their type.
     * @param recvbuf   receive buffer.
     * @param recvcount elements from each neighbour.
     * @param recvtype  their type.
     * @throws MPIException on an error.
     */
    public final void neighborAllToAll(final Object sendbuf, final int sendcount, final Datatype sendtype,
        final Object recvbuf, final int recvcount, final Datatype recvtype) throws MPIException
    {
        run(() ->
        {
            final CommState c = state();
            final int[][] nbr = c.neighbours();
            return neighbourAllToAll(c, "neighborAllToAll", sendbuf, uniform(nbr[1].length, sendcount),
                steps(nbr[1].length, sendcount), sendtype, recvbuf, uniform(nbr[0].length, recvcount),
                steps(nbr[0].length, recvcount), recvtype, false);
        });
    }

    /**
     * {@code MPI_INEIGHBOR_ALLTOALL}.
     *
     * @param sendbuf   send buffer.
     * @param sendcount elements to each neighbour.
     * @param sendtype  their type.
     * @param recvbuf   receive buffer.
     * @param recvcount elements from each neighbour.
     * @param recvtype  their type.
     * @return the request.
     * @throws MPIException on an error.
     */
    public final Request iNeighborAllToAll(final Object sendbuf, final int sendcount, final Datatype sendtype,
        final Object recvbuf, final int recvcount, final Datatype recvtype) throws MPIException
    {
        return call(() ->
        {
            final CommState c = state();
            final int[][] nbr = c.neighbours();
            return neighbourAllToAll(c, "iNeighborAllToAll", sendbuf, uniform(nbr[1].length, sendcount),
                steps(nbr[1].length, sendcount), sendtype, recvbuf, uniform(nbr[0].length, recvcount),
                steps(nbr[0].length, recvcount), recvtype, true);
        });
    }

    /**
     * {@code MPI_NEIGHBOR_ALLTOALLV}.
     *
     * @param sendbuf   send buffer.
     * @param sendcount elements to each neighbour.
     * @param sdispls   where each neighbour's block is.
     * @param sendtype  their type.
     * @param recvbuf   receive buffer.
     * @param recvcount elements from each neighbour.
     * @param rdispls   where each neighbour's block goes.
     * @param recvtype  their type.
     * @throws MPIException on an error.
     */
    public final void neighborAllToAllv(final Object sendbuf, final int[] sendcount, final int[] sdispls,
        final Datatype sendtype, final Object recvbuf, final int[] recvcount, final int[] rdispls,
        final Datatype recvtype) throws MPIException
    {
        run(() -> neighbourAllToAll(state(), "neighborAllToAllv", sendbuf, sendcount, sdispls, sendtype, recvbuf,
            recvcount, rdispls, recvtype, false));
    }

    /**
     * {@code MPI_INEIGHBOR_ALLTOALLV}.
     *
     * @param sendbuf   send buffer.
     * @param sendcount elements to each neighbour.
     * @param sdispls   where each neighbour's block is.
     * @param sendtype  their type.
     * @param recvbuf   receive buffer.
     * @param recvcount elements from each neighbour.
     * @param rdispls   where each neighbour's block goes.
     * @param recvtype  their type.
     * @return the request.
     * @throws MPIException on an error.
     */
    public final Request iNeighborAllToAllv(final Object sendbuf, final int[] sendcount, final int[] sdispls,
        final Datatype sendtype, final Object recvbuf, final int[] recvcount, final int[] rdispls,
        final Datatype recvtype) throws MPIException
    {
        return call(() -> neighbourAllToAll(state(), "iNeighborAllToAllv", sendbuf, sendcount, sdispls, sendtype,
            recvbuf, recvcount, rdispls, recvtype, true));
    }

    // ------------------------------------------------------------------ in-place forms

    /**
     * {@code MPI_SCATTERV} in place at the root: the root keeps its own part in {@code sendbuf}.
     *
     * @param sendbuf   send buffer.
     * @param sendcount elements to each rank.
     * @param displs    displacements.
     * @param sendtype  their type.
     * @param root      the root (the caller).
     * @throws MPIException on an error.
     */
    public final void scatterv(final Object sendbuf, final int[] sendcount, final int[] displs, final Datatype sendtype,
        final int root) throws MPIException
    {
        run(() -> scattervInPlaceRoot(state(), "scatterv", sendbuf, sendcount, displs, sendtype, root, false));
    }

    /**
     * {@code MPI_SCATTERV} at a non-root process (the form that goes with the in-place root).
     *
     * @param recvbuf   receive buffer.
     * @param recvcount elements received.
     * @param recvtype  their type.
     * @param root      the root.
     * @throws MPIException on an error.
     */
    public final void scatterv(final Object recvbuf, final int recvcount, final Datatype recvtype, final int root)
        throws MPIException
    {
        run(() -> scatterv(state(), "scatterv", null, null, null, recvtype, recvbuf, 0, recvcount, recvtype, root,
            false));
    }

    private static Request scattervInPlaceRoot(final CommState c, final String what, final Object sendbuf,
        final int[] sendcount, final int[] displs, final Datatype sendtype, final int root, final boolean nb)
        throws MPIException
    {
        intraOnly(c, what);
        counts(what, sendcount, displs, c.size());
        // the root "receives" its own part onto itself: unpacking it where it already is changes nothing
        return scatterv(c, what, sendbuf, sendcount, displs, sendtype, sendbuf, elems(sendtype, displs[c.myRank]),
            sendcount[c.myRank], sendtype, root, nb);
    }

    /**
     * {@code MPI_IGATHER} in place (the root's part is already in {@code buf}).
     *
     * @param buf   the buffer.
     * @param count elements per process.
     * @param type  their type.
     * @param root  the root.
     * @return the request.
     * @throws MPIException on an error.
     */
    public final Request iGather(final Object buf, final int count, final Datatype type, final int root)
        throws MPIException
    {
        return call(() ->
        {
            final CommState c = state();
            intraOnly(c, "iGather");
            final int off = c.myRank == root ? elems(type, (long)root * count) : 0;
            type.check("iGather", "buf", buf, c.myRank == root ? count * c.size() : count);
            return gatherv(c, "iGather", type.pack(buf, off, count), buf, uniform(c.size(), count),
                steps(c.size(), count), type, root, true);
        });
    }

    /**
     * {@code MPI_IGATHERV} at a root whose own part is in place.
     *
     * @param recvbuf   receive buffer.
     * @param recvcount elements from each rank.
     * @param displs    displacements.
     * @param recvtype  their type.
     * @param root      the root (the caller).
     * @return the request.
     * @throws MPIException on an error.
     */
    public final Request iGatherv(final Object recvbuf, final int[] recvcount, final int[] displs,
        final Datatype recvtype, final int root) throws MPIException
    {
        return call(() ->
        {
            final CommState c = state();
            intraOnly(c, "iGatherv");
            counts("iGatherv", recvcount, displs, c.size());
            recvtype.check("iGatherv", "recvbuf", recvbuf, displs[c.myRank] + recvcount[c.myRank]);
            return gatherv(c, "iGatherv", recvtype.pack(recvbuf, elems(recvtype, displs[c.myRank]),
                recvcount[c.myRank]), recvbuf, recvcount, displs, recvtype, root, true);
        });
    }

    /**
     * {@code MPI_IGATHERV} at a non-root process.
     *
     * @param sendbuf   send buffer.
     * @param sendcount elements sent.
     * @param sendtype  their type.
     * @param root      the root.
     * @return the request.
     * @throws MPIException on an error.
     */
    public final Request iGatherv(final Object sendbuf, final int sendcount, final Datatype sendtype, final int root)
        throws MPIException
    {
        return call(() ->
        {
            final CommState c = state();
            return gatherv(c, "iGatherv", contribution(c, root, sendtype, "iGatherv", sendbuf, sendcount), null, null,
                null, null, root, true);
        });
    }

    /**
     * {@code MPI_ISCATTER} in place at the root.
     *
     * @param buf   the buffer (all parts at root, one part elsewhere).
     * @param count elements per process.
     * @param type  their type.
     * @param root  the root.
     * @return the request.
     * @throws MPIException on an error.
     */
    public final Request iScatter(final Object buf, final int count, final Datatype type, final int root)
        throws MPIException
    {
        return call(() ->
        {
            final CommState c = state();
            intraOnly(c, "iScatter");
            return scatterv(c, "iScatter", buf, uniform(c.size(), count), steps(c.size(), count), type, buf,
                c.myRank == root ? elems(type, (long)root * count) : 0, count, type, root, true);
        });
    }

    /**
     * {@code MPI_ISCATTERV} in place at the root.
     *
     * @param sendbuf   send buffer.
     * @param sendcount elements to each rank.
     * @param displs    displacements.
     * @param sendtype  their type.
     * @param root      the root (the caller).
     * @return the request.
     * @throws MPIException on an error.
     */
    public final Request iScatterv(final Object sendbuf, final int[] sendcount, final int[] displs,
        final Datatype sendtype, final int root) throws MPIException
    {
        return call(() -> scattervInPlaceRoot(state(), "iScatterv", sendbuf, sendcount, displs, sendtype, root, true));
    }

    /**
     * {@code MPI_ISCATTERV} at a non-root process.
     *
     * @param recvbuf   receive buffer.
     * @param recvcount elements received.
     * @param recvtype  their type.
     * @param root      the root.
     * @return the request.
     * @throws MPIException on an error.
     */
    public final Request iScatterv(final Object recvbuf, final int recvcount, final Datatype recvtype, final int root)
        throws MPIException
    {
        return call(() -> scatterv(state(), "iScatterv", null, null, null, recvtype, recvbuf, 0, recvcount, recvtype,
            root, true));
    }

    /**
     * {@code MPI_IALLGATHER} in place.
     *
     * @param buf   the buffer.
     * @param count elements per process.
     * @param type  their type.
     * @return the request.
     * @throws MPIException on an error.
     */
    public final Request iAllGather(final Object buf, final int count, final Datatype type) throws MPIException
    {
        return call(() ->
        {
            final CommState c = state();
            intraOnly(c, "iAllGather");
            type.check("iAllGather", "buf", buf, count * c.size());
            return allGatherv(c, type.pack(buf, elems(type, (long)c.myRank * count), count), buf,
                uniform(c.size(), count), steps(c.size(), count), type, true);
        });
    }

    /**
     * {@code MPI_IALLGATHERV} in place.
     *
     * @param buf    the buffer.
     * @param count  elements from each rank.
     * @param displs displacements.
     * @param type   their type.
     * @return the request.
     * @throws MPIException on an error.
     */
    public final Request iAllGatherv(final Object buf, final int[] count, final int[] displs, final Datatype type)
        throws MPIException
    {
        return call(() ->
        {
            final CommState c = state();
            intraOnly(c, "iAllGatherv");
            counts("iAllGatherv", count, displs, c.size());
            type.check("iAllGatherv", "buf", buf, displs[c.myRank] + count[c.myRank]);
            return allGatherv(c, type.pack(buf, elems(type, displs[c.myRank]), count[c.myRank]), buf, count, displs,
                type, true);
        });
    }

    /**
     * {@code MPI_IREDUCE} in place at the root.
     *
     * @param buf   the buffer.
     * @param count elements.
     * @param type  their type.
     * @param op    the operator.
     * @param root  the root.
     * @return the request.
     * @throws MPIException on an error.
     */
    public final Request iReduce(final Object buf, final int count, final Datatype type, final Op op, final int root)
        throws MPIException
    {
        return iReduce(buf, buf, count, type, op, root);
    }

    /**
     * {@code MPI_IREDUCE_SCATTER} in place.
     *
     * @param buf    the buffer.
     * @param counts elements each rank receives.
     * @param type   their type.
     * @param op     the operator.
     * @return the request.
     * @throws MPIException on an error.
     */
    public final Request iReduceScatter(final Object buf, final int[] counts, final Datatype type, final Op op)
        throws MPIException
    {
        return iReduceScatter(buf, buf, counts, type, op);
    }

    /**
     * {@code MPI_IREDUCE_SCATTER_BLOCK} in place.
     *
     * @param buf   the buffer.
     * @param count elements each rank receives.
     * @param type  their type.
     * @param op    the operator.
     * @return the request.
     * @throws MPIException on an error.
     */
    public final Request iReduceScatterBlock(final Object buf, final int count, final Datatype type, final Op op)
        throws MPIException
    {
        return iReduceScatterBlock(buf, buf, count, type, op);
    }
}
