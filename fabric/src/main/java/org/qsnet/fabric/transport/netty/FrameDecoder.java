package org.qsnet.fabric.transport.netty;

import java.util.List;
import java.util.zip.CRC32C;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import org.qsnet.fabric.transport.FrameDescriptor;

/**
 * Splits the byte stream into TCP frames (version {@link FrameDescriptor#WIRE_VERSION}) and validates
 * each one (length limits, version, known type, zero flags and reserved, the header's checksum as soon
 * as the header is in, the trailer's checksum of header and payload once the frame is) before passing
 * it on as a retained slice of its header and payload (the trailer is not passed on). The first
 * malformed frame is reported to the {@link Connection}, which closes the channel; nothing after it
 * is decoded.
 */
final class FrameDecoder extends ByteToMessageDecoder
{
    /** Payload limit before the peer has authenticated: enough for the handshake, no more. */
    static final int HANDSHAKE_MAX_PAYLOAD = 128;

    private final Connection connection;
    private final CRC32C crc = new CRC32C();
    private int maxPayloadBytes = HANDSHAKE_MAX_PAYLOAD;
    private boolean broken;
    /**
     * Bytes of the frame at the reader index already in {@link #crc}: 0 (header not checked yet), or
     * 32 (the header checked; {@link #crc} holds its first 24 bytes) and more.
     */
    private int summedBytes;

    /** The buffer the channel reads into now, when it is a slice of the frame being received. */
    private ByteBuf target;
    /** A frame-sized buffer holding the waiting bytes, which becomes the cumulation once read into. */
    private ByteBuf replacement;

    FrameDecoder(final Connection connection)
    {
        this.connection = connection;
        setCumulator(this::cumulate);
    }

    /**
     * The buffer for the channel's next read ({@link FrameReads}): while a frame is partly received,
     * a slice of a buffer that holds the whole frame, exactly as long as the bytes still missing, so
     * the socket's bytes land in place (no copy per read, and no read runs into the next frame); the
     * bytes already waiting are moved once, if their buffer cannot hold the frame. Otherwise a new
     * buffer of {@code size} bytes.
     */
    ByteBuf readBuffer(final ByteBufAllocator alloc, final int size)
    {
        target = null;
        final ByteBuf waitingBytes = internalBuffer();
        final int waiting = waitingBytes.readableBytes();
        if (broken || waiting < 4)
        {
            return alloc.ioBuffer(size);
        }
        final int length = waitingBytes.getInt(waitingBytes.readerIndex() + FrameDescriptor.LENGTH_OFFSET);
        final int missing = length - waiting;
        if (!FrameDescriptor.isWireLengthValid(length, maxPayloadBytes) || missing <= 0)
        {
            // malformed or complete: decode() deals with it
            return alloc.ioBuffer(size);
        }
        final ByteBuf dest;
        if (replacement != null)
        {
            // made for this frame by an earlier call whose read brought nothing
            dest = replacement;
        }
        else if (waitingBytes.writableBytes() >= missing && waitingBytes.isContiguous() && !waitingBytes.isReadOnly())
        {
            // past the writer index: frames already delivered from this buffer are not touched
            dest = waitingBytes;
        }
        else
        {
            replacement = alloc.directBuffer(length, length);
            replacement.writeBytes(waitingBytes, waitingBytes.readerIndex(), waiting);
            dest = replacement;
        }
        target = dest.retainedSlice(dest.writerIndex(), missing);
        target.clear();
        return target;
    }

    @Override
    protected void handlerRemoved0(final ChannelHandlerContext ctx)
    {
        target = null;
        if (replacement != null)
        {
            replacement.release();
            replacement = null;
        }
    }

    /**
     * Appends a read to the bytes waiting: a read into the frame's own buffer ({@link #readBuffer})
     * only moves the writer index; a read that starts on a frame boundary is used as it is (frames
     * are sliced out of it, no copy); otherwise the bytes are appended as Netty's MERGE_CUMULATOR does.
     */
    private ByteBuf cumulate(final ByteBufAllocator alloc, final ByteBuf cumulation, final ByteBuf in)
    {
        if (in == target)
        {
            target = null;
            ByteBuf dest = cumulation;
            if (replacement != null)
            {
                cumulation.release();
                dest = replacement;
                replacement = null;
            }
            dest.writerIndex(dest.writerIndex() + in.readableBytes());
            in.release();
            return dest;
        }
        if (!cumulation.isReadable() && in.isContiguous())
        {
            cumulation.release();
            return in;
        }
        try
        {
            final int waiting = cumulation.readableBytes();
            final int needed = waiting + in.readableBytes();
            // as Netty's MERGE_CUMULATOR: a buffer shared with delivered slices, or read-only, or
            // too small, is replaced; the replacement holds the whole frame when its length is known
            if (cumulation.writableBytes() < in.readableBytes() || cumulation.refCnt() > 1 || cumulation.isReadOnly())
            {
                int size = needed;
                if (waiting >= 4)
                {
                    final int frame = cumulation.getInt(cumulation.readerIndex());
                    if (frame > needed && FrameDescriptor.isWireLengthValid(frame, maxPayloadBytes))
                    {
                        size = frame;
                    }
                }
                final ByteBuf bigger = alloc.directBuffer(Math.max(size, 1024));
                bigger.writeBytes(cumulation, cumulation.readerIndex(), waiting);
                cumulation.release();
                bigger.writeBytes(in);
                return bigger;
            }
            cumulation.writeBytes(in);
            return cumulation;
        }
        finally
        {
            in.release();
        }
    }

    void maxPayloadBytes(final int maxPayloadBytes)
    {
        this.maxPayloadBytes = maxPayloadBytes;
    }

    @Override
    protected void decode(final ChannelHandlerContext ctx, final ByteBuf in, final List<Object> out)
    {
        while (!broken && in.readableBytes() >= 8)
        {
            final int r = in.readerIndex();
            final int length = in.getInt(r + FrameDescriptor.LENGTH_OFFSET);
            final int version = in.getUnsignedByte(r + FrameDescriptor.VERSION_OFFSET);
            final int type = in.getUnsignedByte(r + FrameDescriptor.TYPE_OFFSET);
            final int flags = in.getShort(r + FrameDescriptor.FLAGS_OFFSET);
            // the first 8 bytes are checked at once: garbage is refused without waiting for its "length"
            String reason = FrameDescriptor.checkWireHeader(length, version, type, flags, 0, maxPayloadBytes);
            if (reason == null && summedBytes == 0 && in.readableBytes() >= FrameDescriptor.HEADER_LENGTH)
            {
                reason = checkHeader(in, r, length, version, type, flags);
            }
            final int payloadEnd = length - FrameDescriptor.TRAILER_LENGTH;
            if (reason == null && in.readableBytes() < length)
            {
                // the checksum follows the bytes as they come, while they are in cache and while
                // the rest of the frame is still on its way
                if (summedBytes > 0)
                {
                    sum(in, r, Math.min(in.readableBytes(), payloadEnd));
                }
                return;
            }
            if (reason == null)
            {
                sum(in, r, payloadEnd);
                final int expected = (int)crc.getValue();
                final int carried = in.getInt(r + payloadEnd);
                if (expected != carried)
                {
                    reason = "checksum " + Integer.toHexString(carried) + " does not match the frame's "
                        + Integer.toHexString(expected) + " (type " + type + ", length " + length + ")";
                }
            }
            summedBytes = 0;
            if (reason != null)
            {
                broken = true;
                in.skipBytes(in.readableBytes());
                // reported after the valid frames decoded before it have been passed on
                final String why = reason;
                ctx.executor().execute(() -> connection.malformed(ctx, why));
                return;
            }
            out.add(in.retainedSlice(r, payloadEnd));
            in.skipBytes(length);
        }
        if (broken)
        {
            in.skipBytes(in.readableBytes());
        }
    }

    /**
     * Checks a whole header (reserved word and the header's own checksum) and starts the frame's
     * checksum with it.
     *
     * @return null if valid, else the reason.
     */
    private String checkHeader(final ByteBuf in, final int r, final int length, final int version, final int type,
        final int flags)
    {
        final String reason = FrameDescriptor.checkWireHeader(length, version, type, flags,
            in.getInt(r + FrameDescriptor.RESERVED_OFFSET), maxPayloadBytes);
        if (reason != null)
        {
            return reason;
        }
        crc.reset();
        update(in, r, FrameDescriptor.CRC_COVERED_HEADER);
        final int expected = (int)crc.getValue();
        final int carried = in.getInt(r + FrameDescriptor.CRC_OFFSET);
        if (expected != carried)
        {
            return "header checksum " + Integer.toHexString(carried) + " does not match the header's "
                + Integer.toHexString(expected) + " (type " + type + ", length " + length + ")";
        }
        summedBytes = FrameDescriptor.HEADER_LENGTH;
        return null;
    }

    /**
     * Adds the frame's payload bytes up to {@code upTo} (from its start at {@code r}) to the running
     * checksum, which holds the header's first 24 bytes ({@link #checkHeader}) and the payload up to
     * {@link #summedBytes}.
     */
    private void sum(final ByteBuf in, final int r, final int upTo)
    {
        if (upTo > summedBytes)
        {
            update(in, r + summedBytes, upTo - summedBytes);
            summedBytes = upTo;
        }
    }

    private void update(final ByteBuf in, final int index, final int length)
    {
        crc.update(in.nioBufferCount() == 1 ? in.internalNioBuffer(index, length) : in.nioBuffer(index, length));
    }
}
