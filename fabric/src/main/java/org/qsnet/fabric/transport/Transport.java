package org.qsnet.fabric.transport;

import java.nio.ByteBuffer;

/**
 * Moves frames between the partitions {@code 0..partitionCount-1} of one job: the SPI the
 * distributed kernel uses, implemented in-JVM, over TCP (Netty) and through same-host shared memory.
 *
 * <p>A frame is a type, two opaque {@code long}s (by convention a simulated time and an ordering
 * key) and up to {@link #maxPayloadBytes()} payload bytes. Frames from one peer are delivered in the
 * order that peer offered them (per-peer FIFO); frames of different peers are not ordered. Delivery
 * is poll-based: nothing calls back into simulation code from a foreign thread.
 *
 * <p>Threads: one thread offers and one thread polls (they may be the same thread). Control frames
 * such as a window barrier are ordinary frames of an application type.
 *
 * <p>Life cycle and failures:
 * <pre>
 *   open/connect ──► frames ──► close()           (CLOSE sent after every frame offered before it)
 *                       │
 *                       └─► a peer fails: malformed frame, refused authentication, lost connection,
 *                           no heartbeat for heartbeatTimeoutMs ──► poll/offer throw
 *                           TransportException naming the peer and the reason (after delivering
 *                           every valid frame that peer sent before the failure)
 * </pre>
 * A peer that closes cleanly is not a failure: {@link #isPeerOpen(int)} turns false once its last
 * frame has been delivered, and offering to it then throws.
 */
public interface Transport extends AutoCloseable
{
    /**
     * This endpoint's partition.
     *
     * @return the partition id, in {@code 0..partitionCount()-1}.
     */
    int partition();

    /**
     * The number of partitions of the job.
     *
     * @return the partition count, at least 1.
     */
    int partitionCount();

    /**
     * The largest payload a frame may carry; larger frames are malformed.
     *
     * @return the limit in bytes.
     */
    int maxPayloadBytes();

    /**
     * Offers one frame to a peer without blocking. The payload's bytes between its position and
     * limit are copied; its position is left unchanged.
     *
     * @param peer    the destination partition, not this one.
     * @param type    the frame type, in {@link FrameDescriptor#MIN_APPLICATION_TYPE}..{@link FrameDescriptor#MAX_TYPE}.
     * @param timeNs  the first opaque field.
     * @param key     the second opaque field.
     * @param payload the payload, at most {@link #maxPayloadBytes()} bytes remaining.
     * @return true if the frame was accepted; false if the path to the peer is full (back-pressure:
     *         poll, then offer again).
     * @throws TransportException if the peer failed or closed, or this transport is closed.
     * @throws org.qsnet.fabric.QsnetException if an argument breaks its rule.
     */
    boolean offer(int peer, int type, long timeNs, long key, ByteBuffer payload);

    /**
     * Delivers waiting frames to the handler, on the calling thread.
     *
     * @param handler    receives each frame.
     * @param frameLimit the most frames to deliver in this call, at least 1.
     * @return the number of frames delivered, 0 if none was waiting.
     * @throws TransportException if a peer failed and all of its valid frames have been delivered,
     *         or this transport is closed.
     */
    int poll(FrameHandler handler, int frameLimit);

    /**
     * The idle step of a polling loop: returns when a frame may be waiting, a peer's state may have
     * changed, or after at most {@code timeoutNs}. It may return early and delivers nothing: call
     * {@link #poll} next. The TCP transport blocks the thread in its event loop ({@code epoll_wait})
     * until bytes arrive and reads them on it (one wake-up, as a blocking socket read); the ring
     * transports spin briefly, then yield the core.
     *
     * @param timeoutNs the longest wait, at least 0.
     */
    void awaitFrames(long timeoutNs);

    /**
     * Whether a peer is still open: neither closed cleanly (with its last frame delivered) nor failed.
     *
     * @param peer the partition.
     * @return false once the peer's close has been seen and its frames delivered, or it failed.
     */
    boolean isPeerOpen(int peer);

    /**
     * Closes this endpoint: a CLOSE frame goes to every open peer after the frames already offered
     * to it, then resources are released. Idempotent.
     */
    @Override
    void close();

    /** How long {@link #send} waits for a full path to accept a frame before it gives up (wall clock). */
    long SEND_STALL_NS = 10_000_000_000L;

    /**
     * Offers a frame until it is accepted, spinning then yielding while the path is full. A path
     * that accepts nothing for {@link #SEND_STALL_NS} (10 s) fails the call instead of waiting
     * forever: the peer is alive (heartbeats report a dead one) but does not poll, typically
     * because it is itself blocked sending to this endpoint, which does not poll either. Poll
     * while offering when both sides may send at once.
     *
     * @param peer    the destination partition.
     * @param type    the frame type.
     * @param timeNs  the first opaque field.
     * @param key     the second opaque field.
     * @param payload the payload.
     * @throws TransportException if the peer failed or closed, or this transport is closed.
     */
    default void send(final int peer, final int type, final long timeNs, final long key, final ByteBuffer payload)
    {
        int idle = 0;
        long since = 0;
        while (!offer(peer, type, timeNs, key, payload))
        {
            if (++idle < 100)
            {
                Thread.onSpinWait();
                continue;
            }
            Thread.yield();
            if ((idle & 1023) == 0)
            {
                final long now = System.nanoTime(); // wall-clock: transport liveness, never part of a result
                if (since == 0)
                {
                    since = now;
                }
                else if (now - since > SEND_STALL_NS)
                {
                    throw new TransportException(peer, "peer " + peer + " accepted no frame for "
                        + SEND_STALL_NS / 1_000_000_000L + " s: its path is full and it does not poll (is it blocked "
                        + "sending to this endpoint, which does not poll either?)");
                }
            }
        }
    }
}
