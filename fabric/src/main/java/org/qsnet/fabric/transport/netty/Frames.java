package org.qsnet.fabric.transport.netty;

import java.nio.ByteBuffer;
import java.util.zip.CRC32C;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import org.qsnet.fabric.transport.FrameDescriptor;

/**
 * Encodes frames into pooled direct buffers, big-endian, with their checksum.
 */
final class Frames
{
    private static final ByteBuffer EMPTY = ByteBuffer.allocate(0);

    private Frames()
    {
    }

    /**
     * Encodes one frame. The payload's position is left unchanged.
     *
     * @return a buffer the caller owns (released by the channel once written).
     */
    static ByteBuf encode(final ByteBufAllocator alloc, final CRC32C crc, final int type, final long timeNs,
        final long key, final ByteBuffer payload)
    {
        final int length = FrameDescriptor.HEADER_LENGTH + payload.remaining();
        final ByteBuf buf = alloc.directBuffer(length, length);
        buf.writeInt(length);
        buf.writeByte(FrameDescriptor.VERSION);
        buf.writeByte(type);
        buf.writeShort(0);
        buf.writeLong(timeNs);
        buf.writeLong(key);
        buf.writeInt(0);
        buf.writeInt(0);
        final int position = payload.position();
        buf.writeBytes(payload);
        payload.position(position);
        final ByteBuffer header = buf.internalNioBuffer(0, FrameDescriptor.HEADER_LENGTH);
        buf.setInt(FrameDescriptor.CRC_OFFSET, FrameDescriptor.checksum(crc, header, header.position(), payload));
        return buf;
    }

    /** Encodes a control frame with a small payload. */
    static ByteBuf control(final ByteBufAllocator alloc, final int type, final byte[] payload)
    {
        return encode(alloc, new CRC32C(), type, 0, 0, payload == null ? EMPTY : ByteBuffer.wrap(payload));
    }
}
