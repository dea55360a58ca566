package org.qsnet.fabric.transport;

import static org.qsnet.fabric.QsnetException.require;

import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * What every transport shares: argument checks, per-peer failure and close state, and a poll that
 * visits the peers round-robin, delivering each peer's frames in order and reporting a peer's failure
 * only after every valid frame it sent before has been delivered.
 */
public abstract class AbstractTransport implements Transport
{
    /** This endpoint's partition. */
    protected final int partition;
    /** The partition count. */
    protected final int partitionCount;
    /** The payload limit. */
    protected final int maxPayloadBytes;

    private final AtomicReferenceArray<TransportException> failures;
    private final AtomicReferenceArray<Boolean> closedDelivered;
    private volatile boolean closed;
    private int nextPeer;

    /**
     * Creates the shared state of an endpoint.
     *
     * @param context the validated context.
     */
    protected AbstractTransport(final TransportContext context)
    {
        this.partition = context.partition();
        this.partitionCount = context.partitionCount();
        this.maxPayloadBytes = context.maxPayloadBytes();
        this.failures = new AtomicReferenceArray<>(partitionCount);
        this.closedDelivered = new AtomicReferenceArray<>(partitionCount);
    }

    @Override
    public final int partition()
    {
        return partition;
    }

    @Override
    public final int partitionCount()
    {
        return partitionCount;
    }

    @Override
    public final int maxPayloadBytes()
    {
        return maxPayloadBytes;
    }

    @Override
    public final boolean offer(final int peer, final int type, final long timeNs, final long key, final ByteBuffer payload)
    {
        checkPeer(peer);
        require(FrameDescriptor.isApplicationType(type), "type", type,
            "must be an application type in " + FrameDescriptor.MIN_APPLICATION_TYPE + ".." + FrameDescriptor.MAX_TYPE);
        require(payload != null, "payload", "null", "must be a buffer (empty for no payload)");
        if (payload.remaining() > maxPayloadBytes)
        {
            // the rule's text is built only when it is broken: offer runs once per frame
            require(false, "payload length", payload.remaining(), "must be at most maxPayloadBytes " + maxPayloadBytes);
        }
        checkOpen();
        final TransportException failure = failures.get(peer);
        if (failure != null)
        {
            throw failure;
        }
        if (closeSeen(peer))
        {
            throw new TransportException(peer, "partition " + partition + " cannot send to peer " + peer
                + ": peer " + peer + " closed its transport");
        }
        return doOffer(peer, type, timeNs, key, payload);
    }

    @Override
    public final int poll(final FrameHandler handler, final int frameLimit)
    {
        require(handler != null, "handler", "null", "must be given");
        require(frameLimit >= 1, "frameLimit", frameLimit, "must be at least 1");
        checkOpen();
        beginPoll();
        try
        {
            return pollPeers(handler, frameLimit);
        }
        finally
        {
            endPoll();
        }
    }

    /**
     * Called before a poll visits the peers, on the polling thread: a transport whose polling thread
     * reads its sockets itself (the TCP transport) takes its event loop and reads what is ready here.
     */
    protected void beginPoll()
    {
    }

    /** Called after a poll, also when it throws. */
    protected void endPoll()
    {
    }

    private int pollPeers(final FrameHandler handler, final int frameLimit)
    {
        int delivered = 0;
        for (int k = 0; k < partitionCount && delivered < frameLimit; k++)
        {
            final int peer = nextPeer;
            nextPeer = nextPeer + 1 == partitionCount ? 0 : nextPeer + 1;
            if (peer == partition || closedDelivered.get(peer) != null)
            {
                continue;
            }
            final int got = drain(peer, handler, frameLimit - delivered);
            delivered += got;
            if (got == 0)
            {
                // the failure is read after the peer's path was seen empty, and emptiness is checked
                // again: a frame the peer sent before failing is never overtaken by its failure
                final TransportException failure = failures.get(peer);
                if (failure != null && isDrained(peer))
                {
                    throw failure;
                }
                if (closeSeen(peer) && isDrained(peer))
                {
                    closedDelivered.set(peer, Boolean.TRUE);
                }
            }
        }
        return delivered;
    }

    /**
     * Spins up to about a microsecond while nothing waits, then yields the core; the TCP transport
     * blocks in its event loop instead.
     *
     * @param timeoutNs the longest wait (the spin and the yield are shorter than any useful timeout).
     */
    @Override
    public void awaitFrames(final long timeoutNs)
    {
        org.qsnet.fabric.QsnetException.require(timeoutNs >= 0, "timeoutNs", timeoutNs, "must be at least 0");
        for (int spin = 0; spin < 100; spin++)
        {
            for (int p = 0; p < partitionCount; p++)
            {
                if (p != partition && !isDrained(p))
                {
                    return;
                }
            }
            Thread.onSpinWait();
        }
        Thread.yield();
    }

    @Override
    public final boolean isPeerOpen(final int peer)
    {
        checkPeer(peer);
        return failures.get(peer) == null && closedDelivered.get(peer) == null;
    }

    /**
     * Records a peer's failure (the first one wins) for the consumer to see.
     *
     * @param peer   the peer.
     * @param reason what happened, naming the peer.
     * @return the failure recorded (the earlier one if the peer had already failed).
     */
    protected final TransportException failPeer(final int peer, final TransportException reason)
    {
        failures.compareAndSet(peer, null, reason);
        return failures.get(peer);
    }

    /**
     * The failure recorded for a peer.
     *
     * @param peer the peer.
     * @return the failure, or null.
     */
    protected final TransportException failure(final int peer)
    {
        return failures.get(peer);
    }

    /**
     * Marks this endpoint closed (later offers and polls throw).
     *
     * @return true if this call closed it, false if it was already closed.
     */
    protected final boolean markClosed()
    {
        synchronized (this)
        {
            if (closed)
            {
                return false;
            }
            closed = true;
            return true;
        }
    }

    /**
     * Whether {@link #close()} has been called.
     *
     * @return true once closed.
     */
    protected final boolean isClosed()
    {
        return closed;
    }

    private void checkOpen()
    {
        if (closed)
        {
            throw new TransportException(TransportException.NO_PEER, "transport of partition " + partition + " is closed");
        }
    }

    private void checkPeer(final int peer)
    {
        if (peer < 0 || peer >= partitionCount || peer == partition)
        {
            require(false, "peer", peer, "must be in 0.." + (partitionCount - 1) + " and not this partition " + partition);
        }
    }

    /**
     * Writes one validated frame towards a peer.
     *
     * @param peer    the peer.
     * @param type    an application type.
     * @param timeNs  the first opaque field.
     * @param key     the second opaque field.
     * @param payload the payload (position unchanged on return).
     * @return false if the path is full.
     */
    protected abstract boolean doOffer(int peer, int type, long timeNs, long key, ByteBuffer payload);

    /**
     * Delivers up to {@code limit} waiting frames of one peer, in order.
     *
     * @param peer    the peer.
     * @param handler the handler.
     * @param limit   at least 1.
     * @return the number delivered.
     */
    protected abstract int drain(int peer, FrameHandler handler, int limit);

    /**
     * Whether no frame of the peer waits for delivery.
     *
     * @param peer the peer.
     * @return true if none waits.
     */
    protected abstract boolean isDrained(int peer);

    /**
     * Whether the peer has closed cleanly (no frame will follow those already waiting).
     *
     * @param peer the peer.
     * @return true once its close has been seen.
     */
    protected abstract boolean closeSeen(int peer);
}
