package org.qsnet.fabric.transport;

import java.nio.ByteBuffer;

/**
 * A transport whose paths are {@link FrameRing}s, one per ordered pair of partitions: the in-JVM and
 * the shared-memory transports. Subclasses create the rings and release them on close.
 */
public abstract class RingTransport extends AbstractTransport
{
    /** Rings this endpoint produces into, indexed by destination (null at this partition). */
    protected final FrameRing[] outgoing;
    /** Rings this endpoint consumes from, indexed by source (null at this partition). */
    protected final FrameRing[] incoming;

    /**
     * Creates the endpoint; the subclass fills the ring arrays before use.
     *
     * @param context the validated context.
     */
    protected RingTransport(final TransportContext context)
    {
        super(context);
        this.outgoing = new FrameRing[context.partitionCount()];
        this.incoming = new FrameRing[context.partitionCount()];
    }

    @Override
    protected boolean doOffer(final int peer, final int type, final long timeNs, final long key, final ByteBuffer payload)
    {
        return outgoing[peer].offer(type, timeNs, key, payload);
    }

    @Override
    protected int drain(final int peer, final FrameHandler handler, final int limit)
    {
        if (failure(peer) != null && incoming[peer].isEmpty())
        {
            return 0;
        }
        try
        {
            return incoming[peer].read(peer, handler, limit);
        }
        catch (final TransportException e)
        {
            throw failPeer(peer, e);
        }
    }

    @Override
    protected boolean isDrained(final int peer)
    {
        return incoming[peer].isEmpty();
    }

    @Override
    protected boolean closeSeen(final int peer)
    {
        return incoming[peer].isProducerClosed();
    }

    /**
     * Marks every outgoing ring closed, after the frames already published.
     */
    protected final void closeOutgoing()
    {
        for (final FrameRing ring : outgoing)
        {
            if (ring != null)
            {
                ring.closeProducer();
            }
        }
    }
}
