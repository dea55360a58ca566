package org.qsnet.fabric.transport.netty;

import static org.qsnet.fabric.QsnetException.require;

import java.lang.System.Logger.Level;
import java.lang.invoke.VarHandle;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.zip.CRC32C;

import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.AdaptiveRecvByteBufAllocator;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
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
import org.jctools.queues.SpscUnboundedArrayQueue;
import org.qsnet.fabric.transport.AbstractTransport;
import org.qsnet.fabric.transport.FrameDescriptor;
import org.qsnet.fabric.transport.FrameHandler;
import org.qsnet.fabric.transport.JobAuthenticator;
import org.qsnet.fabric.transport.TransportContext;
import org.qsnet.fabric.transport.TransportException;

/**
 * The TCP transport: one connection per pair of partitions (the higher partition connects to the
 * lower), on one Netty event loop thread (epoll where available, NIO otherwise). Every frame is
 * validated by {@link FrameDecoder}; peers authenticate with the job key ({@link Connection});
 * received frames go from the event loop to the polling thread through a JCTools SPSC queue per peer,
 * as retained slices of Netty's pooled buffers, released once delivered.
 *
 * <p>Back-pressure: {@link #offer} returns false while the channel's outbound buffer is above its
 * high-water mark; a peer whose queue holds more than {@link #RECEIVE_HIGH_WATER_BYTES} (plus one
 * frame) stops reading its socket until the consumer has drained it below the low-water mark, so a
 * slow consumer pushes back on TCP and no frame is lost.
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

    private static final System.Logger LOG = System.getLogger(NettyTransport.class.getName());

    private final TransportContext context;
    private final JobAuthenticator authenticator;
    private final EventLoopGroup group;
    private final boolean epoll;
    private final Channel server;
    private final Peer[] peers;
    private final CRC32C sendCrc = new CRC32C();
    private final long handshakeTimeoutMs;
    private volatile Thread waiter;

    /** Per-peer state: written by the event loop, read by the offering and polling threads. */
    private static final class Peer
    {
        final SpscUnboundedArrayQueue<ByteBuf> queue = new SpscUnboundedArrayQueue<>(256);
        final AtomicLong queuedBytes = new AtomicLong();
        final AtomicBoolean paused = new AtomicBoolean();
        final CompletableFuture<Void> ready = new CompletableFuture<>();
        final AtomicBoolean claimed = new AtomicBoolean();
        volatile Channel channel;
        volatile Connection connection;
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
        this.group = new MultiThreadIoEventLoopGroup(1, io);
        this.peers = new Peer[partitionCount];
        for (int p = 0; p < partitionCount; p++)
        {
            peers[p] = new Peer();
        }
        final Class<? extends ServerChannel> serverClass = epoll ? EpollServerSocketChannel.class : NioServerSocketChannel.class;
        final ServerBootstrap b = new ServerBootstrap()
            .group(group)
            .channel(serverClass)
            .childOption(ChannelOption.TCP_NODELAY, true)
            .childOption(ChannelOption.WRITE_BUFFER_WATER_MARK, waterMark())
            .childOption(ChannelOption.ALLOCATOR, PooledByteBufAllocator.DEFAULT)
            .childOption(ChannelOption.SO_SNDBUF, socketBufferBytes())
            .childOption(ChannelOption.SO_RCVBUF, socketBufferBytes())
            .childOption(ChannelOption.RECVBUF_ALLOCATOR, receiveSizes())
            .childHandler(initializer(false, -1));
        try
        {
            this.server = b.bind(bind).sync().channel();
        }
        catch (final Exception e)
        {
            group.shutdownGracefully(0, 0, TimeUnit.MILLISECONDS);
            throw new TransportException(TransportException.NO_PEER, "partition " + partition + " cannot bind " + bind + ": " + e, e);
        }
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
            try
            {
                peers[p].ready.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS); // wall-clock: transport liveness and timeouts, never part of a result
            }
            catch (final TimeoutException e)
            {
                throw new TransportException(p, "partition " + partition + ": peer " + p + " did not connect and authenticate within "
                    + context.connectTimeoutMs() + " ms" + (p < partition ? " (dialling " + addresses.get(p) + ")" : ""));
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

    private void dial(final int peer, final InetSocketAddress address, final long deadline)
    {
        final Bootstrap b = new Bootstrap()
            .group(group)
            .channel(epoll ? EpollSocketChannel.class : NioSocketChannel.class)
            .option(ChannelOption.TCP_NODELAY, true)
            .option(ChannelOption.WRITE_BUFFER_WATER_MARK, waterMark())
            .option(ChannelOption.ALLOCATOR, PooledByteBufAllocator.DEFAULT)
            .option(ChannelOption.SO_SNDBUF, socketBufferBytes())
            .option(ChannelOption.SO_RCVBUF, socketBufferBytes())
            .option(ChannelOption.RECVBUF_ALLOCATOR, receiveSizes())
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
            group.schedule(() -> dial(peer, address, deadline), 50, TimeUnit.MILLISECONDS);
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
                ch.pipeline().addLast(c.decoder(), c);
            }
        };
    }

    private int socketBufferBytes()
    {
        // four of the largest frames, 256 KiB to 4 MiB: a 1 MiB frame crosses in one or two reads
        // instead of a dozen wake-ups of each event loop (on loopback, 4 MiB halved the median 1 MiB
        // round trip against the default buffers), while small-frame jobs keep the kernel's share of
        // the buffering small, so back-pressure reaches the sender soon
        final long four = 4L * (FrameDescriptor.HEADER_LENGTH + maxPayloadBytes);
        return (int)Math.max(256 << 10, Math.min(4 << 20, four));
    }

    private static AdaptiveRecvByteBufAllocator receiveSizes()
    {
        // reads grow up to 1 MiB when large frames stream, instead of Netty's 64 KiB default
        return new AdaptiveRecvByteBufAllocator(512, 16 << 10, 1 << 20);
    }

    private WriteBufferWaterMark waterMark()
    {
        final int high = Math.max(1 << 20, 2 * (FrameDescriptor.HEADER_LENGTH + maxPayloadBytes));
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
        if (!ch.isActive() || !ch.isWritable())
        {
            return false;
        }
        ch.writeAndFlush(Frames.encode(ch.alloc(), sendCrc, type, timeNs, key, payload), ch.voidPromise());
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
        if (p.queuedBytes.addAndGet(-length) < RECEIVE_LOW_WATER_BYTES && p.paused.compareAndSet(true, false))
        {
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

    /** Event loop: a valid application frame from an established peer. */
    void deliver(final int peer, final ByteBuf frame, final Channel ch)
    {
        final Peer p = peers[peer];
        if (isClosed())
        {
            frame.release();
            return;
        }
        p.queue.offer(frame);
        wake();
        if (p.queuedBytes.addAndGet(frame.readableBytes()) > RECEIVE_HIGH_WATER_BYTES && p.paused.compareAndSet(false, true))
        {
            ch.config().setAutoRead(false);
            // the consumer may have drained the queue between the add and the pause: check again
            if (p.queuedBytes.get() < RECEIVE_LOW_WATER_BYTES && p.paused.compareAndSet(true, false))
            {
                ch.config().setAutoRead(true);
            }
        }
    }

    private void wake()
    {
        // the queue's release store must not pass the read of the waiter (the waiter writes itself,
        // then reads the queues): a full fence on both sides, so one of them sees the other
        VarHandle.fullFence();
        final Thread w = waiter;
        if (w != null)
        {
            LockSupport.unpark(w);
        }
    }

    /**
     * Parks the polling thread until the event loop queues a frame or a peer fails or closes, or the
     * timeout passes.
     *
     * @param timeoutNs the longest wait.
     */
    @Override
    public void awaitFrames(final long timeoutNs)
    {
        require(timeoutNs >= 0, "timeoutNs", timeoutNs, "must be at least 0");
        waiter = Thread.currentThread();
        VarHandle.fullFence();
        try
        {
            for (int p = 0; p < partitionCount; p++)
            {
                if (p != partition && (!peers[p].queue.isEmpty() || peers[p].closeSeen || failure(p) != null))
                {
                    return;
                }
            }
            LockSupport.parkNanos(this, timeoutNs);
        }
        finally
        {
            waiter = null;
        }
    }

    /** Event loop: the acceptor checks that a partition is not connected twice. */
    boolean claim(final int peer)
    {
        return peers[peer].claimed.compareAndSet(false, true);
    }

    /** Event loop: the handshake with a peer completed. */
    void established(final int peer, final Channel ch, final Connection connection)
    {
        final Peer p = peers[peer];
        p.channel = ch;
        p.connection = connection;
        p.ready.complete(null);
        LOG.log(Level.DEBUG, () -> "partition " + partition + " connected to peer " + peer + " at " + ch.remoteAddress());
    }

    /** Event loop: a dialled peer refused us or could not be reached. */
    void connectFailed(final int peer, final String message)
    {
        peers[peer].ready.completeExceptionally(new TransportException(peer, message));
    }

    /** Event loop: an established peer failed. */
    void peerFailed(final int peer, final String message)
    {
        failPeer(peer, new TransportException(peer, "partition " + partition + ": " + message));
        wake();
    }

    /** Event loop: an established peer closed cleanly. */
    void peerClosed(final int peer)
    {
        peers[peer].closeSeen = true;
        wake();
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
        // CLOSE goes after every frame already written; each peer closes the connection when it
        // reads it, so nothing is reset while unread
        for (final Peer p : peers)
        {
            final Channel ch = p.channel;
            final Connection c = p.connection;
            if (ch != null && c != null && ch.isActive())
            {
                ch.eventLoop().execute(() -> c.sendClose(ch.pipeline().context(c)));
            }
        }
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(2); // wall-clock: transport liveness and timeouts, never part of a result
        for (final Peer p : peers)
        {
            final Channel ch = p.channel;
            if (ch != null)
            {
                ch.closeFuture().awaitUninterruptibly(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS); // wall-clock: transport liveness and timeouts, never part of a result
            }
        }
        server.close().awaitUninterruptibly(1, TimeUnit.SECONDS);
        group.shutdownGracefully(0, 0, TimeUnit.MILLISECONDS).awaitUninterruptibly(5, TimeUnit.SECONDS);
        for (final Peer p : peers)
        {
            ByteBuf frame;
            while ((frame = p.queue.poll()) != null)
            {
                frame.release();
            }
        }
    }
}
