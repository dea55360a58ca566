package org.qsnet.fabric.transport.netty;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantLock;
import java.util.zip.CRC32C;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.unix.FileDescriptor;
import io.netty.channel.unix.UnixChannel;
import org.qsnet.fabric.transport.FrameDescriptor;

/**
 * Writes the frames of one established connection. On epoll a frame is written to the socket by the
 * offering thread itself (header and payload in one {@code writev}, the payload not copied), without
 * handing it to the event loop: that hand-off was one thread wake-up per message. Whatever the
 * kernel does not take at once is copied into a pooled buffer and handed to the channel, and every
 * later frame follows the same way until the channel has written them all, so frames never
 * interleave and back-pressure is the channel's high-water mark, as before. On NIO every frame goes
 * through the channel.
 *
 * <p>Heartbeats and CLOSE come through here too. One lock orders the writers (the offering thread
 * and the event loop) and {@link #shut()}: the connection calls it before it closes the channel, so
 * a descriptor is never written after Netty closed it (and the number might have been reused). The
 * channel runs with half-closure allowed and without auto-close, so Netty itself never closes it
 * without telling the connection first.
 */
final class FrameWriter
{
    private final Channel channel;
    private final FileDescriptor fd;
    private final ReentrantLock lock = new ReentrantLock();
    /** Frames handed to the channel and not yet written by it; direct writes wait until 0. */
    private final AtomicInteger handedOver = new AtomicInteger();
    private final ChannelFutureListener written;
    private final ByteBuffer header = ByteBuffer.allocateDirect(FrameDescriptor.HEADER_LENGTH);
    private final ByteBuffer[] vector = new ByteBuffer[2];
    private final CRC32C crc = new CRC32C();
    private boolean open = true;

    /**
     * @param channel   the established channel.
     * @param onFailure told (on the event loop) when a write fails.
     */
    FrameWriter(final Channel channel, final java.util.function.Consumer<Throwable> onFailure)
    {
        this.channel = channel;
        this.fd = channel instanceof UnixChannel u ? u.fd() : null;
        this.written = (ChannelFuture f) ->
        {
            handedOver.decrementAndGet();
            if (!f.isSuccess())
            {
                onFailure.accept(f.cause());
            }
        };
    }

    /** Whether frames are written by the offering thread (epoll). */
    boolean direct()
    {
        return fd != null;
    }

    /**
     * Writes one frame, or returns false if the path is full or the connection is closing.
     *
     * @throws IOException if the socket refused the write (the connection is broken).
     */
    boolean offer(final int type, final long timeNs, final long key, final ByteBuffer payload) throws IOException
    {
        lock.lock();
        try
        {
            if (!open || !channel.isActive())
            {
                return false;
            }
            if (fd == null || handedOver.get() > 0)
            {
                if (!channel.isWritable())
                {
                    return false;
                }
                hand(Frames.encode(channel.alloc(), crc, type, timeNs, key, payload));
                return true;
            }
            if (!payload.isDirect())
            {
                // a heap payload cannot be given to the kernel: one copy into a pooled buffer
                writeDirect(Frames.encode(channel.alloc(), crc, type, timeNs, key, payload));
                return true;
            }
            final int n = payload.remaining();
            header.clear();
            header.putInt(FrameDescriptor.HEADER_LENGTH + n).put((byte)FrameDescriptor.VERSION).put((byte)type).putShort((short)0)
                .putLong(timeNs).putLong(key).putInt(0).putInt(0).flip();
            header.putInt(FrameDescriptor.CRC_OFFSET, FrameDescriptor.checksum(crc, header, 0, payload));
            final long total = FrameDescriptor.HEADER_LENGTH + (long)n;
            final long sent;
            if (n == 0)
            {
                sent = fd.write(header, 0, FrameDescriptor.HEADER_LENGTH);
            }
            else
            {
                vector[0] = header;
                vector[1] = payload;
                try
                {
                    sent = fd.writev(vector, 0, 2, total);
                }
                finally
                {
                    vector[1] = null;
                }
            }
            if (sent < total)
            {
                // the rest, copied (the caller may reuse its buffer once offer returns)
                final ByteBuf rest = channel.alloc().directBuffer((int)(total - sent));
                if (sent < FrameDescriptor.HEADER_LENGTH)
                {
                    rest.writeBytes(header.duplicate().position((int)sent));
                    rest.writeBytes(payload.duplicate());
                }
                else
                {
                    final ByteBuffer tail = payload.duplicate();
                    tail.position(tail.position() + (int)(sent - FrameDescriptor.HEADER_LENGTH));
                    rest.writeBytes(tail);
                }
                hand(rest);
            }
            return true;
        }
        finally
        {
            lock.unlock();
        }
    }

    /**
     * Writes an empty control frame (HEARTBEAT, CLOSE); any thread.
     *
     * @throws IOException if the socket refused the write.
     */
    void control(final int type) throws IOException
    {
        lock.lock();
        try
        {
            if (!open || !channel.isActive())
            {
                return;
            }
            final ByteBuf frame = Frames.control(channel.alloc(), type, null);
            if (fd == null || handedOver.get() > 0)
            {
                hand(frame);
                return;
            }
            writeDirect(frame);
        }
        finally
        {
            lock.unlock();
        }
    }

    /** Writes an encoded frame to the socket; what is left goes to the channel. Holds the lock. */
    private void writeDirect(final ByteBuf frame) throws IOException
    {
        boolean handed = false;
        try
        {
            final int length = frame.readableBytes();
            final int sent;
            if (frame.hasMemoryAddress())
            {
                sent = fd.writeAddress(frame.memoryAddress(), frame.readerIndex(), frame.writerIndex());
            }
            else
            {
                final ByteBuffer nio = frame.internalNioBuffer(frame.readerIndex(), length);
                sent = fd.write(nio, nio.position(), nio.limit());
            }
            if (sent < length)
            {
                frame.skipBytes(sent);
                handed = true;
                hand(frame);
            }
        }
        finally
        {
            if (!handed)
            {
                frame.release();
            }
        }
    }

    /** Hands a frame (owned by the channel from now on) to the channel. Holds the lock. */
    private void hand(final ByteBuf frame)
    {
        handedOver.incrementAndGet();
        if (channel.eventLoop().inEventLoop())
        {
            // behind the writes the offering thread queued on the event loop: one of them may hold
            // the rest of a frame whose first bytes are already on the wire, and a frame written
            // inline now would land in the middle of it
            try
            {
                channel.eventLoop().execute(() -> channel.writeAndFlush(frame).addListener(written));
            }
            catch (final RejectedExecutionException e)
            {
                // the event loop is shutting down: nothing more is written
                handedOver.decrementAndGet();
                frame.release();
            }
        }
        else
        {
            channel.writeAndFlush(frame).addListener(written);
        }
    }

    /** No direct write after this; called before the channel is closed. */
    void shut()
    {
        lock.lock();
        try
        {
            open = false;
        }
        finally
        {
            lock.unlock();
        }
    }
}
