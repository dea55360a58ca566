package org.qsnet.fabric.transport;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.zip.CRC32C;

import net.openhft.chronicle.bytes.BytesStore;

/**
 * A single-producer, single-consumer ring of frames in a Chronicle {@link BytesStore} (native memory
 * for the in-JVM transport, a memory-mapped file for the shared-memory one). The producer publishes
 * with an ordered write of the tail, the consumer frees space with an ordered write of the head; the
 * records are {@link FrameDescriptor} frames in native byte order, aligned to 8 bytes, and every
 * record is validated (length, version, type, checksum) before delivery.
 *
 * <pre>
 *  base +   0  tail (long, producer; bytes ever published)
 *  base +  64  head (long, consumer; bytes ever consumed)
 *  base + 128  producer closed (int, 1 once the producer closed cleanly)
 *  base + 256  data: capacity bytes (a power of two) of records
 *              record = frame header + payload, padded to 8; a record that would cross the end is
 *              preceded by a padding record (length = bytes to the end, version 0, type 0)
 * </pre>
 */
public final class FrameRing
{
    /** Bytes of the control block before the data. */
    public static final int CONTROL_BYTES = 256;
    private static final int TAIL = 0;
    private static final int HEAD = 64;
    private static final int PRODUCER_CLOSED = 128;

    private final BytesStore<?, ?> store;
    private final ByteBuffer view;
    private final ByteBuffer payloadView;
    private final long base;
    private final int data;
    private final int capacity;
    private final int mask;
    private final int maxPayloadBytes;
    private final CRC32C producerCrc = new CRC32C();
    private final CRC32C consumerCrc = new CRC32C();
    private long producerTail;
    private long headCache;
    private long consumerHead;
    private long tailCache;

    /**
     * Creates a view of a ring laid out at {@code base} in a store.
     *
     * @param store           the store (its single-threaded checks disabled by the caller).
     * @param view            a direct buffer over the same memory, index 0 = store offset 0.
     * @param base            the control block's offset.
     * @param capacity        data bytes, a power of two at least twice the largest record.
     * @param maxPayloadBytes the payload limit.
     */
    public FrameRing(final BytesStore<?, ?> store, final ByteBuffer view, final long base, final int capacity,
        final int maxPayloadBytes)
    {
        org.qsnet.fabric.QsnetException.require(Integer.bitCount(capacity) == 1
            && capacity >= 2 * FrameDescriptor.alignedLength(maxPayloadBytes), "ring capacity", capacity,
            "must be a power of two of at least twice the largest frame " + FrameDescriptor.alignedLength(maxPayloadBytes));
        this.store = store;
        this.view = view.duplicate().order(ByteOrder.nativeOrder());
        this.payloadView = view.duplicate();
        this.base = base;
        this.data = Math.toIntExact(base + CONTROL_BYTES);
        this.capacity = capacity;
        this.mask = capacity - 1;
        this.maxPayloadBytes = maxPayloadBytes;
        this.producerTail = store.readVolatileLong(base + TAIL);
        this.headCache = store.readVolatileLong(base + HEAD);
        this.consumerHead = headCache;
        this.tailCache = producerTail;
    }

    /**
     * The ring capacity used for a payload limit: the smallest power of two holding two of the
     * largest frames, at least 64 KiB.
     *
     * @param maxPayloadBytes the payload limit.
     * @return bytes.
     */
    public static int capacityFor(final int maxPayloadBytes)
    {
        final int two = 2 * FrameDescriptor.alignedLength(maxPayloadBytes);
        return Math.max(1 << 16, Integer.highestOneBit(two - 1) << 1);
    }

    /**
     * Bytes a ring of this capacity occupies with its control block.
     *
     * @param capacity data bytes.
     * @return the footprint.
     */
    public static long footprint(final int capacity)
    {
        return CONTROL_BYTES + (long)capacity;
    }

    /**
     * Producer: appends a frame.
     *
     * @param type    the type.
     * @param timeNs  the first opaque field.
     * @param key     the second opaque field.
     * @param payload the payload (position unchanged).
     * @return false if the ring has no room.
     */
    public boolean offer(final int type, final long timeNs, final long key, final ByteBuffer payload)
    {
        final int length = payload.remaining();
        final int record = FrameDescriptor.alignedLength(length);
        int index = (int)(producerTail & mask);
        final int toEnd = capacity - index;
        final int needed = record > toEnd ? record + toEnd : record;
        if (needed > capacity - (producerTail - headCache))
        {
            headCache = store.readVolatileLong(base + HEAD);
            if (needed > capacity - (producerTail - headCache))
            {
                return false;
            }
        }
        long tail = producerTail;
        if (record > toEnd)
        {
            final int at = data + index;
            view.putInt(at + FrameDescriptor.LENGTH_OFFSET, toEnd);
            view.putInt(at + FrameDescriptor.VERSION_OFFSET, 0);
            tail += toEnd;
            index = 0;
        }
        final int at = data + index;
        view.putInt(at + FrameDescriptor.LENGTH_OFFSET, FrameDescriptor.HEADER_LENGTH + length);
        view.put(at + FrameDescriptor.VERSION_OFFSET, (byte)FrameDescriptor.VERSION);
        view.put(at + FrameDescriptor.TYPE_OFFSET, (byte)type);
        view.putShort(at + FrameDescriptor.FLAGS_OFFSET, (short)0);
        view.putLong(at + FrameDescriptor.TIME_OFFSET, timeNs);
        view.putLong(at + FrameDescriptor.KEY_OFFSET, key);
        view.putInt(at + FrameDescriptor.RESERVED_OFFSET, 0);
        view.put(at + FrameDescriptor.HEADER_LENGTH, payload, payload.position(), length);
        view.putInt(at + FrameDescriptor.CRC_OFFSET, FrameDescriptor.checksum(producerCrc, view, at, length));
        producerTail = tail + record;
        store.writeOrderedLong(base + TAIL, producerTail);
        return true;
    }

    /**
     * Producer: marks the ring closed after the frames already published.
     */
    public void closeProducer()
    {
        store.writeOrderedInt(base + PRODUCER_CLOSED, 1);
    }

    /**
     * Whether the producer closed the ring cleanly.
     *
     * @return true once closed.
     */
    public boolean isProducerClosed()
    {
        return store.readVolatileInt(base + PRODUCER_CLOSED) == 1;
    }

    /**
     * Consumer: whether no record waits.
     *
     * @return true if the ring is empty.
     */
    public boolean isEmpty()
    {
        return consumerHead == store.readVolatileLong(base + TAIL);
    }

    /**
     * Consumer: validates and delivers up to {@code limit} frames in order.
     *
     * @param peer    the producer's partition (passed to the handler, named in failures).
     * @param handler the handler.
     * @param limit   the most frames to deliver.
     * @return the number delivered.
     * @throws TransportException if a record is malformed (nothing of it is delivered).
     */
    public int read(final int peer, final FrameHandler handler, final int limit)
    {
        long head = consumerHead;
        if (head == tailCache)
        {
            tailCache = store.readVolatileLong(base + TAIL);
            if (head == tailCache)
            {
                return 0;
            }
        }
        int count = 0;
        try
        {
            while (count < limit && head < tailCache)
            {
                final int index = (int)(head & mask);
                final int at = data + index;
                final int length = view.getInt(at + FrameDescriptor.LENGTH_OFFSET);
                final int version = view.get(at + FrameDescriptor.VERSION_OFFSET);
                final int type = view.get(at + FrameDescriptor.TYPE_OFFSET) & 0xff;
                if (version == 0 && type == FrameDescriptor.TYPE_PADDING)
                {
                    if (length != capacity - index)
                    {
                        throw corrupt(peer, "padding length " + length + " is not the " + (capacity - index) + " bytes to the end");
                    }
                    head += length;
                    continue;
                }
                final String reason = FrameDescriptor.checkHeader(length, version, type,
                    view.getShort(at + FrameDescriptor.FLAGS_OFFSET), view.getInt(at + FrameDescriptor.RESERVED_OFFSET),
                    maxPayloadBytes);
                if (reason != null)
                {
                    throw corrupt(peer, reason);
                }
                if (!FrameDescriptor.isApplicationType(type))
                {
                    throw corrupt(peer, "type " + type + " is a control type, not allowed in a ring");
                }
                final int record = (length + 7) & ~7;
                if (record > capacity - index || record > tailCache - head)
                {
                    throw corrupt(peer, "length " + length + " runs past the published data");
                }
                final int payloadBytes = length - FrameDescriptor.HEADER_LENGTH;
                final int crc = FrameDescriptor.checksum(consumerCrc, view, at, payloadBytes);
                if (crc != view.getInt(at + FrameDescriptor.CRC_OFFSET))
                {
                    throw corrupt(peer, "checksum " + Integer.toHexString(view.getInt(at + FrameDescriptor.CRC_OFFSET))
                        + " does not match the frame's " + Integer.toHexString(crc));
                }
                payloadView.limit(at + length).position(at + FrameDescriptor.HEADER_LENGTH);
                final long timeNs = view.getLong(at + FrameDescriptor.TIME_OFFSET);
                final long key = view.getLong(at + FrameDescriptor.KEY_OFFSET);
                head += record;
                count++;
                handler.onFrame(peer, type, timeNs, key, payloadView);
            }
        }
        finally
        {
            if (head != consumerHead)
            {
                consumerHead = head;
                store.writeOrderedLong(base + HEAD, head);
            }
        }
        return count;
    }

    private static TransportException corrupt(final int peer, final String reason)
    {
        return new TransportException(peer, "malformed frame from peer " + peer + ": " + reason);
    }
}
