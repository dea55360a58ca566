package org.qsnet.fabric.transport.netty;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.DefaultMaxMessagesRecvByteBufAllocator;

/**
 * Read buffers sized to the frame being received: while a frame is partly read, the channel reads
 * the missing bytes straight into the buffer that will hold the whole frame
 * ({@link FrameDecoder#readBuffer}); between frames it reads {@link #MIN_READ_BYTES} to
 * {@link #READ_BYTES} at once, doubling after a read that filled its buffer and halving after one
 * that used less than a quarter. One instance per channel (it asks that channel's decoder).
 */
final class FrameReads extends DefaultMaxMessagesRecvByteBufAllocator
{
    /** The largest read between frames: what a large frame's first read may have to move once. */
    static final int READ_BYTES = 64 << 10;
    /** The smallest read between frames. */
    static final int MIN_READ_BYTES = 2 << 10;

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
            private int size = MIN_READ_BYTES;

            @Override
            public ByteBuf allocate(final ByteBufAllocator alloc)
            {
                return decoder.readBuffer(alloc, size);
            }

            @Override
            public int guess()
            {
                return size;
            }

            @Override
            public void lastBytesRead(final int bytes)
            {
                super.lastBytesRead(bytes);
                if (bytes > 0 && bytes == attemptedBytesRead())
                {
                    size = Math.min(READ_BYTES, size << 1);
                }
                else if (bytes > 0 && bytes < size >> 2)
                {
                    size = Math.max(MIN_READ_BYTES, size >> 1);
                }
            }
        };
    }
}
