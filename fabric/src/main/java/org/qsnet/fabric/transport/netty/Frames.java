package org.qsnet.fabric.transport.netty;

import java.nio.ByteBuffer;
import java.util.zip.CRC32C;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import org.qsnet.fabric.transport.FrameDescriptor;

/**
 * Encodes TCP frames (version {@link FrameDescriptor#WIRE_VERSION}) into pooled direct buffers,
 * big-endian: the header with its own checksum, the payload, the trailer with the frame's checksum.
 */
final class Frames
{
    private static final ByteBuffer EMPTY = ByteBuffer.allocate(0);

    private Frames()
    {
    }

    /**
     * Writes a frame's header into {@code header} (from its position, which is left unchanged) and
     * starts the frame's checksum: on return {@code crc} holds the header's first 24 bytes, whose
     * checksum the header carries at {@link FrameDescriptor#CRC_OFFSET}; the caller adds the payload
     * for the trailer.
     */
    static void header(final ByteBuffer header, final CRC32C crc, final int type, final long timeNs, final long key,
        final int payloadBytes)
    {
        final int at = header.position();
        header.putInt(at + FrameDescriptor.LENGTH_OFFSET, FrameDescriptor.WIRE_OVERHEAD + payloadBytes)
            .put(at + FrameDescriptor.VERSION_OFFSET, (byte)FrameDescriptor.WIRE_VERSION)
            .put(at + FrameDescriptor.TYPE_OFFSET, (byte)type)
            .putShort(at + FrameDescriptor.FLAGS_OFFSET, (short)0)
            .putLong(at + FrameDescriptor.TIME_OFFSET, timeNs)
            .putLong(at + FrameDescriptor.KEY_OFFSET, key)
            .putInt(at + FrameDescriptor.RESERVED_OFFSET, 0);
        crc.reset();
        final int limit = header.limit();
        header.limit(at + FrameDescriptor.CRC_COVERED_HEADER);
        crc.update(header);
        header.limit(limit).position(at);
        header.putInt(at + FrameDescriptor.CRC_OFFSET, (int)crc.getValue());
    }

    /**
     * Encodes one frame. The payload's position is left unchanged.
     *
     * @return a buffer the caller owns (released by the channel once written).
     */
    static ByteBuf encode(final ByteBufAllocator alloc, final CRC32C crc, final int type, final long timeNs,
        final long key, final ByteBuffer payload)
    {
        final int n = payload.remaining();
        final int length = FrameDescriptor.WIRE_OVERHEAD + n;
        final ByteBuf buf = alloc.directBuffer(length, length);
        buf.writerIndex(FrameDescriptor.HEADER_LENGTH);
        header(buf.internalNioBuffer(0, FrameDescriptor.HEADER_LENGTH), crc, type, timeNs, key, n);
        final int position = payload.position();
        crc.update(payload);
        payload.position(position);
        buf.writeBytes(payload);
        payload.position(position);
        buf.writeInt((int)crc.getValue());
        return buf;
    }

    /** Encodes a control frame with a small payload. */
    static ByteBuf control(final ByteBufAllocator alloc, final int type, final byte[] payload)
    {
        return encode(alloc, new CRC32C(), type, 0, 0, payload == null ? EMPTY : ByteBuffer.wrap(payload));
    }
}
