package org.qsnet.fabric.transport;

import org.qsnet.fabric.QsnetException;

/**
 * A transport failure: a peer that sent a malformed frame, failed authentication, died or stopped
 * answering, or a transport used after it was closed. The message names the peer and the reason.
 */
public class TransportException extends QsnetException
{
    private static final long serialVersionUID = 1L;

    /** {@link #peer()} of a failure that concerns no one peer (e.g. a closed transport). */
    public static final int NO_PEER = -1;

    private final int peer;

    /**
     * Creates a failure concerning one peer.
     *
     * @param peer    the peer's partition, or {@link #NO_PEER}.
     * @param message what happened, naming the peer and the reason.
     */
    public TransportException(final int peer, final String message)
    {
        super(message);
        this.peer = peer;
    }

    /**
     * Creates a failure concerning one peer, with a cause.
     *
     * @param peer    the peer's partition, or {@link #NO_PEER}.
     * @param message what happened, naming the peer and the reason.
     * @param cause   the underlying failure.
     */
    public TransportException(final int peer, final String message, final Throwable cause)
    {
        super(message, cause);
        this.peer = peer;
    }

    /**
     * The partition this failure concerns.
     *
     * @return the peer's partition, or {@link #NO_PEER}.
     */
    public int peer()
    {
        return peer;
    }
}
