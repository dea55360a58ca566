package org.qsnet.fabric.transport.netty;

import static org.qsnet.fabric.QsnetException.require;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import java.util.zip.CRC32C;

import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.ChannelOutboundBuffer;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.ServerChannel;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.channel.unix.FileDescriptor;
import io.netty.channel.unix.UnixChannel;
import io.netty.util.concurrent.Future;
import org.qsnet.fabric.transport.AbstractTransport;
import org.qsnet.fabric.transport.FrameDescriptor;
import org.qsnet.fabric.transport.FrameHandler;
import org.qsnet.fabric.transport.JobAuthenticator;
import org.qsnet.fabric.transport.TransportContext;
import org.qsnet.fabric.transport.TransportException;

/**
 * The TCP transport: one connection per pair of partitions (the higher partition connects to the
 * lower), every frame validated by {@link FrameDecoder}, peers authenticated with the job key
 * ({@link Connection}); epoll where available, NIO otherwise.
 *
 * <p>Threads: the transport's Netty event loop has no thread of its own ({@link DrivenEventLoop}).
 * The polling thread drives it: {@link #awaitFrames} blocks in {@code epoll_wait} and {@link #poll}
 * reads what is ready, so a frame reaches the handler on the thread that was woken by its bytes, as
 * with a blocking socket read; {@link #offer} writes the frame to the socket on the offering thread.
 * One wake-up per one-way message, as the plain-socket floor. While no thread calls in (the
 * simulation computes), a keeper thread drives the loop, so heartbeats go out, silent peers are
 * noticed and handshakes progress. A thread that finds the loop driven by another hands its frame
 * over as a task and wakes the loop; received frames wait in a per-peer queue touched only by the
 * driving thread, as retained slices of Netty's pooled buffers, released once delivered.
 *
 * <p>Back-pressure: {@link #offer} returns false while the channel's outbound buffer is above its
 * high-water mark; a peer whose queue holds more than {@link #RECEIVE_HIGH_WATER_BYTES} (plus one
 * frame) stops being read until the consumer has drained it below the low-water mark, so a slow
 * consumer pushes back on TCP and no frame is lost.
 *
 * <p>Security: binds to loopback unless given an address; see {@link Connection} for the
 * handshake. A process of another job, a wrong key or a stray client is refused and logged
 * ({@code System.Logger} {@code org.qsnet.fabric.transport.netty.NettyTransport}, WARNING).
 *
 * <p>Use: {@code open} (binds), exchange {@link #localAddress()}es, {@link #connect(List)}, then
 * offer and poll.
 */
public final class NettyTransport extends AbstractTransport
{
    /** Received bytes queued per peer above which its socket is no longer read. */
    public static final long RECEIVE_HIGH_WATER_BYTES = 4L << 20;
    /** Received bytes queued per peer below which reading resumes. */
    public static final long RECEIVE_LOW_WATER_BYTES = 1L << 20;
    /**
     * Payloads from this size on are written before they are summed ({@link #writeDirect}); below it
     * the pass is shorter than the second system call it would need.
     */
    static final int SUM_AFTER_WRITE_BYTES = 256 << 10;
    /** The end of a large payload that waits for the checksum, so that the trailer never goes alone. */
    static final int HELD_BACK_BYTES = 64 << 10;
    /** The longest a keeper leaves an undriven loop alone: heartbeats and accepts wait at most this. */
    private static final long KEEPER_PERIOD_MAX_NS = 10_000_000L;

    private static final System.Logger LOG = System.getLogger(NettyTransport.class.getName());

    private final TransportContext context;
    private final JobAuthenticator authenticator;
    private final DrivenEventLoop loop;
    private final boolean epoll;
    private final Channel server;
    private final Peer[] peers;
    private final CRC32C sendCrc = new CRC32C();
    /** The header of a frame written directly (offering thread, holding the loop). */
    private final ByteBuffer sendHeader = ByteBuffer.allocateDirect(FrameDescriptor.HEADER_LENGTH);
    /** The trailer of a frame written directly. */
    private final ByteBuffer sendTrailer = ByteBuffer.allocateDirect(FrameDescriptor.TRAILER_LENGTH);
    private final ByteBuffer[] sendVector = new ByteBuffer[4];
    private final long handshakeTimeoutMs;
    private final Thread keeper;

    /** Per-peer state: the queue is touched by the loop's driver only; the rest is read by any thread. */
    private static final class Peer
    {
        final ArrayDeque<ByteBuf> queue = new ArrayDeque<>(256);
        long queuedBytes;
        boolean paused;
        final CompletableFuture<Void> ready = new CompletableFuture<>();
        final AtomicBoolean claimed = new AtomicBoolean();
        volatile Channel channel;
        volatile Connection connection;
        /** The socket, on epoll: frames are written to it directly when the channel is idle. */
        volatile FileDescriptor fd;
        volatile boolean closeSeen;
    }

    private NettyTransport(final TransportContext context, final InetSocketAddress bind)
    {
        super(context);
        this.context = context;
        this.authenticator = new JobAuthenticator(context.jobId(), context.jobKey());
        this.handshakeTimeoutMs = Math.min(context.connectTimeoutMs(), 5_000);
        this.epoll = Epoll.isAvailable();
        final IoHandlerFactory io = epoll ? EpollIoHandler.newFactory() : NioIoHandler.newFactory();
        this.loop = new DrivenEventLoop(io);
        this.peers = new Peer[partitionCount];
        for (int p = 0; p < partitionCount; p++)
        {
            peers[p] = new Peer();
        }
        final Class<? extends ServerChannel> serverClass = epoll ? EpollServerSocketChannel.class : NioServerSocketChannel.class;
        final ServerBootstrap b = new ServerBootstrap()
            .group(loop)
            .channel(serverClass)
            .childOption(ChannelOption.TCP_NODELAY, true)
            .childOption(ChannelOption.WRITE_BUFFER_WATER_MARK, waterMark())
            .childOption(ChannelOption.ALLOCATOR, PooledByteBufAllocator.DEFAULT)
            .childOption(ChannelOption.SO_SNDBUF, socketBufferBytes())
            .childOption(ChannelOption.SO_RCVBUF, socketBufferBytes())
            .childHandler(initializer(false, -1));
        loop.acquire();
        try
        {
            final ChannelFuture bound = b.bind(bind);
            driveUntil(bound, System.nanoTime() + TimeUnit.SECONDS.toNanos(5)); // wall-clock: transport liveness and timeouts, never part of a result
            if (!bound.isSuccess())
            {
                bound.channel().close();
                loop.runNow();
                loop.destroy();
                throw new TransportException(TransportException.NO_PEER, "partition " + partition + " cannot bind " + bind + ": "
                    + (bound.isDone() ? bound.cause() : "timed out"), bound.cause());
            }
            this.server = bound.channel();
        }
        finally
        {
            loop.release();
        }
        this.keeper = new Thread(this::keep, "qsnet-netty-keeper-" + partition);
        keeper.setDaemon(true);
        keeper.start();
    }

    /**
     * Opens an endpoint listening on loopback, on a free port.
     *
     * @param context the context (job id, key, partition, limits, heartbeat, connect timeout).
     * @return the endpoint, not yet connected.
     */
    public static NettyTransport open(final TransportContext context)
    {
        return open(context, new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
    }

    /**
     * Opens an endpoint listening on an explicit address (e.g. a cluster interface).
     *
     * @param context the context.
     * @param bind    the address to listen on; port 0 for a free port.
     * @return the endpoint, not yet connected.
     */
    public static NettyTransport open(final TransportContext context, final InetSocketAddress bind)
    {
        context.validate();
        require(bind != null, "bind", "null", "must be an address (loopback by default)");
        return new NettyTransport(context, bind);
    }

    /**
     * The address this endpoint listens on, to give to the other partitions.
     *
     * @return the bound address.
     */
    public InetSocketAddress localAddress()
    {
        return (InetSocketAddress)server.localAddress();
    }

    /**
     * Whether the native epoll transport is used (else NIO).
     *
     * @return true on epoll.
     */
    public boolean isEpoll()
    {
        return epoll;
    }

    /** Drives the loop (held by the caller) until the future completes or the deadline passes. */
    private void driveUntil(final Future<?> future, final long deadline)
    {
        while (!future.isDone())
        {
            final long left = deadline - System.nanoTime(); // wall-clock: transport liveness and timeouts, never part of a result
            if (left <= 0)
            {
                return;
            }
            loop.run(Math.min(left, KEEPER_PERIOD_MAX_NS));
        }
    }

    /**
     * The keeper: drives the loop whenever nobody else has for a period (a tenth of the heartbeat
     * interval, at most 10 ms), blocking in it for I/O until a caller wants it back.
     */
    private void keep()
    {
        final long periodNs = Math.min(KEEPER_PERIOD_MAX_NS, context.heartbeatIntervalMs() * 100_000L);
        long seen = loop.drives();
        while (!isClosed())
        {
            if (loop.drives() == seen && !loop.isWanted() && loop.tryAcquire())
            {
                try
                {
                    if (!isClosed())
                    {
                        loop.run(periodNs);
                    }
                }
                finally
                {
                    loop.release();
                }
                seen = loop.drives();
                continue;
            }
            seen = loop.drives();
            LockSupport.parkNanos(this, periodNs);
        }
    }

    /**
     * Connects to every peer and waits until all are authenticated: this partition dials every lower
     * partition (retrying while its port is closed) and accepts every higher one.
     *
     * @param addresses each partition's listening address, indexed by partition (this partition's
     *                  entry is ignored).
     * @throws TransportException naming the peer that was refused or did not connect in time.
     */
    public void connect(final List<InetSocketAddress> addresses)
    {
        require(addresses != null && addresses.size() == partitionCount, "addresses size",
            addresses == null ? "null" : addresses.size(), "must be the partition count " + partitionCount);
        final long deadline = System.nanoTime() + context.connectTimeoutMs() * 1_000_000L; // wall-clock: transport liveness and timeouts, never part of a result
        loop.acquire();
        try
        {
            for (int p = 0; p < partition; p++)
            {
                dial(p, addresses.get(p), deadline);
            }
            for (int p = 0; p < partitionCount; p++)
            {
                if (p == partition)
                {
                    continue;
                }
                final CompletableFuture<Void> ready = peers[p].ready;
                while (!ready.isDone() && deadline - System.nanoTime() > 0) // wall-clock: transport liveness and timeouts, never part of a result
                {
                    loop.run(Math.min(deadline - System.nanoTime(), KEEPER_PERIOD_MAX_NS)); // wall-clock: as above
                }
                if (!ready.isDone())
                {
                    throw new TransportException(p, "partition " + partition + ": peer " + p + " did not connect and authenticate within "
                        + context.connectTimeoutMs() + " ms" + (p < partition ? " (dialling " + addresses.get(p) + ")" : ""));
                }
                try
                {
                    ready.get();
                }
                catch (final ExecutionException e)
                {
                    throw e.getCause() instanceof TransportException t ? t
                        : new TransportException(p, "partition " + partition + ": peer " + p + " failed: " + e.getCause(), e.getCause());
                }
                catch (final InterruptedException e)
                {
                    Thread.currentThread().interrupt();
                    throw new TransportException(p, "partition " + partition + " interrupted while connecting to peer " + p);
                }
            }
        }
        finally
        {
            loop.release();
        }
    }

    private void dial(final int peer, final InetSocketAddress address, final long deadline)
    {
        final Bootstrap b = new Bootstrap()
            .group(loop)
            .channel(epoll ? EpollSocketChannel.class : NioSocketChannel.class)
            .option(ChannelOption.TCP_NODELAY, true)
            .option(ChannelOption.WRITE_BUFFER_WATER_MARK, waterMark())
            .option(ChannelOption.ALLOCATOR, PooledByteBufAllocator.DEFAULT)
            .option(ChannelOption.SO_SNDBUF, socketBufferBytes())
            .option(ChannelOption.SO_RCVBUF, socketBufferBytes())
            .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int)Math.min(5_000, context.connectTimeoutMs()))
            .handler(initializer(true, peer));
        b.connect(address).addListener((ChannelFuture f) ->
        {
            if (f.isSuccess() || peers[peer].ready.isDone() || isClosed())
            {
                return;
            }
            if (System.nanoTime() - deadline > 0) // wall-clock: transport liveness and timeouts, never part of a result
            {
                connectFailed(peer, "partition " + partition + " could not connect to peer " + peer + " at " + address
                    + " within " + context.connectTimeoutMs() + " ms: " + f.cause());
                return;
            }
            // the peer may not listen yet: try again shortly
            loop.schedule(() -> dial(peer, address, deadline), 50, TimeUnit.MILLISECONDS);
        });
    }

    private ChannelInitializer<SocketChannel> initializer(final boolean connector, final int peer)
    {
        return new ChannelInitializer<>()
        {
            @Override
            protected void initChannel(final SocketChannel ch)
            {
                final Connection c = new Connection(NettyTransport.this, connector, peer);
                ch.config().setRecvByteBufAllocator(new FrameReads(c.decoder()));
                ch.pipeline().addLast(c.decoder(), c);
            }
        };
    }

    private int socketBufferBytes()
    {
        // four of the largest frames, 256 KiB to 4 MiB: a 1 MiB frame is taken by the kernel in one
        // writev and crosses in few reads (on loopback, 4 MiB halved the median 1 MiB round trip
        // against the default buffers, with the earlier event-loop thread), while small-frame jobs
        // keep the kernel's share of the buffering small, so back-pressure reaches the sender soon
        final long four = 4L * (FrameDescriptor.WIRE_OVERHEAD + maxPayloadBytes);
        return (int)Math.max(256 << 10, Math.min(4 << 20, four));
    }

    private WriteBufferWaterMark waterMark()
    {
        final int high = Math.max(1 << 20, 2 * (FrameDescriptor.WIRE_OVERHEAD + maxPayloadBytes));
        return new WriteBufferWaterMark(high / 2, high);
    }

    @Override
    protected boolean doOffer(final int peer, final int type, final long timeNs, final long key, final ByteBuffer payload)
    {
        final Channel ch = peers[peer].channel;
        if (ch == null)
        {
            throw new TransportException(peer, "partition " + partition + " is not connected to peer " + peer + ": call connect first");
        }
        if (!loop.tryAcquire())
        {
            // another thread drives the loop (the polling thread, blocked for I/O): the write is
            // handed to it as a task, which wakes it
            if (!ch.isActive() || !ch.isWritable())
            {
                return false;
            }
            ch.writeAndFlush(Frames.encode(ch.alloc(), sendCrc, type, timeNs, key, payload), ch.voidPromise());
            return true;
        }
        try
        {
            // frames this thread handed over while another drove go first
            loop.runTasks();
            if (!ch.isActive())
            {
                return false;
            }
            final Peer p = peers[peer];
            final ChannelOutboundBuffer out = ch.unsafe().outboundBuffer();
            if (p.fd != null && payload.isDirect() && out != null && out.totalPendingWriteBytes() == 0)
            {
                return writeDirect(p.fd, ch, type, timeNs, key, payload);
            }
            if (!ch.isWritable())
            {
                // the socket was full: flush what it takes now, then look again
                loop.runNow();
                if (!ch.isActive() || !ch.isWritable())
                {
                    return false;
                }
            }
            ch.writeAndFlush(Frames.encode(ch.alloc(), sendCrc, type, timeNs, key, payload), ch.voidPromise());
            return true;
        }
        finally
        {
            loop.release();
        }
    }

    /**
     * Writes a frame to an idle epoll socket on the offering thread, which holds the loop; the payload
     * is not copied. A small frame is summed first and goes in one {@code writev} (header, payload,
     * trailer). A large one ({@link #SUM_AFTER_WRITE_BYTES} and more) goes as header and payload but
     * its last {@link #HELD_BACK_BYTES}, then the sender sums the payload while the receiver already
     * reads (and sums) those bytes, then the rest and the trailer go in a second {@code writev}: the
     * checksum pass is off the critical path, and the trailer never travels alone. What the kernel
     * does not take at once is copied into a pooled buffer and left to the channel, which writes it
     * when the socket drains (and every later frame queues behind it, since the channel is no longer
     * idle).
     */
    private boolean writeDirect(final FileDescriptor fd, final Channel ch, final int type, final long timeNs, final long key,
        final ByteBuffer payload)
    {
        final int n = payload.remaining();
        final ByteBuffer h = sendHeader.clear();
        Frames.header(h, sendCrc, type, timeNs, key, n);
        final ByteBuffer t = sendTrailer.clear();
        final ByteBuffer body = payload.duplicate();
        final ByteBuffer[] v = sendVector;
        try
        {
            if (n < SUM_AFTER_WRITE_BYTES)
            {
                sendCrc.update(body);
                body.position(payload.position());
                t.putInt(0, (int)sendCrc.getValue());
                int count = 0;
                v[count++] = h;
                if (n > 0)
                {
                    v[count++] = body;
                }
                v[count++] = t;
                leaveRest(ch, writev(fd, v, count, FrameDescriptor.WIRE_OVERHEAD + (long)n), v, count);
                return true;
            }
            final int split = payload.limit() - HELD_BACK_BYTES;
            final ByteBuffer head = body.duplicate().limit(split);
            final ByteBuffer tail = body.duplicate().position(split);
            v[0] = h;
            v[1] = head;
            final long first = writev(fd, v, 2, FrameDescriptor.HEADER_LENGTH + (long)(split - payload.position()));
            sendCrc.update(body);
            t.putInt(0, (int)sendCrc.getValue());
            if (first < FrameDescriptor.HEADER_LENGTH + (long)(split - payload.position()))
            {
                v[2] = tail;
                v[3] = t;
                leaveRest(ch, first, v, 4);
                return true;
            }
            v[0] = tail;
            v[1] = t;
            leaveRest(ch, writev(fd, v, 2, HELD_BACK_BYTES + FrameDescriptor.TRAILER_LENGTH), v, 2);
            return true;
        }
        catch (final IOException e)
        {
            // the connection is broken: the channel fails the peer and closes
            ch.pipeline().fireExceptionCaught(e);
            return false;
        }
        finally
        {
            Arrays.fill(v, null);
        }
    }

    private static long writev(final FileDescriptor fd, final ByteBuffer[] parts, final int count, final long total)
        throws IOException
    {
        return Math.max(0, fd.writev(parts, 0, count, total));
    }

    /**
     * Copies what the kernel did not take of {@code parts} (the first {@code sent} bytes of their
     * concatenation went out) into one pooled buffer and leaves it to the channel.
     */
    private static void leaveRest(final Channel ch, final long sent, final ByteBuffer[] parts, final int count)
    {
        long skip = sent;
        int rest = 0;
        for (int i = 0; i < count; i++)
        {
            rest += parts[i].remaining();
        }
        if (skip >= rest)
        {
            return;
        }
        final ByteBuf buf = ch.alloc().directBuffer((int)(rest - skip));
        for (int i = 0; i < count; i++)
        {
            final ByteBuffer part = parts[i].duplicate();
            final int dropped = (int)Math.min(skip, part.remaining());
            part.position(part.position() + dropped);
            skip -= dropped;
            buf.writeBytes(part);
        }
        ch.writeAndFlush(buf, ch.voidPromise());
    }

    /** Takes the loop for the poll and reads what is ready when no frame waits already. */
    @Override
    protected void beginPoll()
    {
        loop.acquire();
        if (nothingWaits())
        {
            loop.runNow();
        }
    }

    @Override
    protected void endPoll()
    {
        loop.release();
    }

    private boolean nothingWaits()
    {
        for (int p = 0; p < partitionCount; p++)
        {
            if (!peers[p].queue.isEmpty())
            {
                return false;
            }
        }
        return true;
    }

    @Override
    protected int drain(final int peer, final FrameHandler handler, final int limit)
    {
        final Peer p = peers[peer];
        int count = 0;
        ByteBuf frame;
        while (count < limit && (frame = p.queue.poll()) != null)
        {
            final int length = frame.readableBytes();
            try
            {
                count++;
                handler.onFrame(peer, frame.getUnsignedByte(FrameDescriptor.TYPE_OFFSET), frame.getLong(FrameDescriptor.TIME_OFFSET),
                    frame.getLong(FrameDescriptor.KEY_OFFSET),
                    frame.nioBuffer(FrameDescriptor.HEADER_LENGTH, length - FrameDescriptor.HEADER_LENGTH));
            }
            finally
            {
                frame.release();
                consumed(p, length);
            }
        }
        return count;
    }

    private void consumed(final Peer p, final int length)
    {
        p.queuedBytes -= length;
        if (p.paused && p.queuedBytes < RECEIVE_LOW_WATER_BYTES)
        {
            p.paused = false;
            final Channel ch = p.channel;
            if (ch != null)
            {
                ch.config().setAutoRead(true);
            }
        }
    }

    @Override
    protected boolean isDrained(final int peer)
    {
        return peers[peer].queue.isEmpty();
    }

    @Override
    protected boolean closeSeen(final int peer)
    {
        return peers[peer].closeSeen;
    }

    /** Loop: a valid application frame from an established peer. */
    void deliver(final int peer, final ByteBuf frame, final Channel ch)
    {
        if (isClosed())
        {
            frame.release();
            return;
        }
        final Peer p = peers[peer];
        p.queue.add(frame);
        p.queuedBytes += frame.readableBytes();
        if (!p.paused && p.queuedBytes > RECEIVE_HIGH_WATER_BYTES)
        {
            p.paused = true;
            ch.config().setAutoRead(false);
        }
    }

    /**
     * How long {@link #awaitFrames} polls the sockets without blocking before it blocks in
     * {@code epoll_wait} ({@code -Dqsnet.tcpSpinUs}, default 20; 0: block at once). A partition
     * waits for its peers' window frames about every window; a thread woken from {@code epoll_wait}
     * costs a scheduler wake-up on top of the bytes' own path, which a short poll saves when the
     * frame comes soon ({@code prun --coordinator} on loopback: a 20,000-round-trip ping-pong in
     * 12.9 s against 54 s, README "Transport performance"), at the price of that much CPU when it
     * does not.
     */
    static final long SPIN_NS = Math.max(0, Long.getLong("qsnet.tcpSpinUs", 20)) * 1000;

    /**
     * Blocks the polling thread in the event loop until a frame arrives, a peer fails or closes, or
     * the timeout passes; the frames read wait for the next {@link #poll}. It first polls the
     * sockets without blocking for up to {@link #SPIN_NS}, then blocks in a native call
     * ({@code epoll_wait}): a virtual thread would hold its carrier meanwhile, so poll from a
     * platform thread (the partition drivers do).
     *
     * @param timeoutNs the longest wait.
     */
    @Override
    public void awaitFrames(final long timeoutNs)
    {
        require(timeoutNs >= 0, "timeoutNs", timeoutNs, "must be at least 0");
        loop.acquire();
        try
        {
            if (anyPeerReady() || isClosed())
            {
                return;
            }
            if (timeoutNs == 0)
            {
                loop.runNow();
                return;
            }
            final long spinNs = Math.min(timeoutNs, SPIN_NS);
            if (spinNs > 0)
            {
                final long until = System.nanoTime() + spinNs; // wall-clock: how long to poll before blocking, never part of a result
                do
                {
                    loop.runNow();
                    if (anyPeerReady() || isClosed())
                    {
                        return;
                    }
                    Thread.onSpinWait();
                }
                while (System.nanoTime() - until < 0); // wall-clock: as above
            }
            if (timeoutNs > spinNs)
            {
                loop.run(timeoutNs - spinNs);
            }
        }
        finally
        {
            loop.release();
        }
    }

    /** Whether a peer has a frame waiting, closed or failed: {@link #poll} has something to say. */
    private boolean anyPeerReady()
    {
        for (int p = 0; p < partitionCount; p++)
        {
            if (p != partition && (!peers[p].queue.isEmpty() || peers[p].closeSeen || failure(p) != null))
            {
                return true;
            }
        }
        return false;
    }

    /** Loop: the acceptor checks that a partition is not connected twice. */
    boolean claim(final int peer)
    {
        return peers[peer].claimed.compareAndSet(false, true);
    }

    /** Loop: the handshake with a peer completed. */
    void established(final int peer, final Channel ch, final Connection connection)
    {
        final Peer p = peers[peer];
        p.channel = ch;
        p.connection = connection;
        p.fd = ch instanceof UnixChannel u ? u.fd() : null;
        p.ready.complete(null);
        LOG.log(Level.DEBUG, () -> "partition " + partition + " connected to peer " + peer + " at " + ch.remoteAddress());
    }

    /** Loop: a dialled peer refused us or could not be reached. */
    void connectFailed(final int peer, final String message)
    {
        peers[peer].ready.completeExceptionally(new TransportException(peer, message));
    }

    /** Loop: an established peer failed. */
    void peerFailed(final int peer, final String message)
    {
        failPeer(peer, new TransportException(peer, "partition " + partition + ": " + message));
    }

    /** Loop: an established peer closed cleanly. */
    void peerClosed(final int peer)
    {
        peers[peer].closeSeen = true;
    }

    boolean closing()
    {
        return isClosed();
    }

    JobAuthenticator authenticator()
    {
        return authenticator;
    }

    long handshakeTimeoutMs()
    {
        return handshakeTimeoutMs;
    }

    long heartbeatIntervalMs()
    {
        return context.heartbeatIntervalMs();
    }

    long heartbeatTimeoutMs()
    {
        return context.heartbeatTimeoutMs();
    }

    @Override
    public void close()
    {
        if (!markClosed())
        {
            return;
        }
        LockSupport.unpark(keeper);
        loop.acquire();
        try
        {
            // CLOSE goes after every frame already written; each peer closes the connection when it
            // reads it, so nothing is reset while unread
            loop.runTasks();
            for (final Peer p : peers)
            {
                final Channel ch = p.channel;
                final Connection c = p.connection;
                if (ch != null && c != null && ch.isActive())
                {
                    c.sendClose(ch.pipeline().context(c));
                }
            }
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(2); // wall-clock: transport liveness and timeouts, never part of a result
            for (final Peer p : peers)
            {
                final Channel ch = p.channel;
                if (ch != null)
                {
                    driveUntil(ch.closeFuture(), deadline);
                    if (ch.isOpen())
                    {
                        ch.close();
                    }
                }
            }
            final long serverDeadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(1); // wall-clock: as above
            driveUntil(server.close(), serverDeadline);
            // channels still open (handshakes in progress) are closed with the loop
            loop.runNow();
            loop.destroy();
            for (final Peer p : peers)
            {
                ByteBuf frame;
                while ((frame = p.queue.poll()) != null)
                {
                    frame.release();
                }
            }
        }
        finally
        {
            loop.release();
        }
        try
        {
            keeper.join(1_000);
        }
        catch (final InterruptedException e)
        {
            Thread.currentThread().interrupt();
        }
    }
}
