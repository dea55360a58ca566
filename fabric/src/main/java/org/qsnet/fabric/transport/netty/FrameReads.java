package org.qsnet.fabric.transport.netty;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.DefaultMaxMessagesRecvByteBufAllocator;

/**
 * Read buffers sized to the frame being received: while a frame is partly read, the channel reads
 * the missing bytes straight into the buffer that will hold the whole frame
 * ({@link FrameDecoder#readBuffer}); between frames it reads up to {@link #READ_BYTES} at once.
 * One instance per channel (it asks that channel's decoder).
 */
final class FrameReads extends DefaultMaxMessagesRecvByteBufAllocator
{
    /** Bytes read at once when no frame is partly received (Netty's own upper default). */
    static final int READ_BYTES = 64 << 10;

    private final FrameDecoder decoder;

    FrameReads(final FrameDecoder decoder)
    {
        super(16);
        this.decoder = decoder;
    }

    @Override
    public ExtendedHandle newHandle()
    {
        return new MaxMessageHandle()
        {
            @Override
            public ByteBuf allocate(final ByteBufAllocator alloc)
            {
                return decoder.readBuffer(alloc, READ_BYTES);
            }

            @Override
            public int guess()
            {
                return READ_BYTES;
            }
        };
    }
}
