package org.qsnet.fabric.transport.netty;

import java.lang.System.Logger.Level;
import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.concurrent.ScheduledFuture;
import org.qsnet.fabric.transport.FrameDescriptor;
import org.qsnet.fabric.transport.JobAuthenticator;

/**
 * One TCP connection between two partitions: the handshake, then the delivery of frames to the
 * peer's queue, heartbeats and the close. Runs on the channel's event loop only.
 *
 * <pre>
 *   connector (higher partition)                 acceptor (lower partition)
 *     HELLO  job id, partition, count, nonce C  ──►  checks job id, partition, count
 *            ◄── CHALLENGE partition, nonce S, proof_S = HMAC(key, 'S' job C-part S-part C S)
 *   checks proof_S
 *     RESPONSE proof_C = HMAC(key, 'C' ...)     ──►  checks proof_C
 *            ◄── ACCEPT                                  established
 *   established
 * </pre>
 */
final class Connection extends ChannelInboundHandlerAdapter
{
    private static final System.Logger LOG = System.getLogger(NettyTransport.class.getName());

    private enum State
    {
        AWAIT_HELLO, AWAIT_CHALLENGE, AWAIT_RESPONSE, AWAIT_ACCEPT, ESTABLISHED, DONE
    }

    private final NettyTransport transport;
    private final boolean connector;
    private final int expectedPeer;
    private final FrameDecoder decoder;
    private State state;
    private int peer = -1;
    private byte[] myNonce;
    private byte[] theirNonce;
    private ScheduledFuture<?> timer;
    private long lastReadNanos;
    /** When the heartbeat timer last ran: a gap much longer than its interval means this side was not scheduled. */
    private long lastTickNanos;
    private boolean closeSent;

    /**
     * @param expectedPeer the partition a connector dials; -1 on the accepting side.
     */
    Connection(final NettyTransport transport, final boolean connector, final int expectedPeer)
    {
        this.transport = transport;
        this.connector = connector;
        this.expectedPeer = expectedPeer;
        this.decoder = new FrameDecoder(this);
        this.state = connector ? State.AWAIT_CHALLENGE : State.AWAIT_HELLO;
    }

    FrameDecoder decoder()
    {
        return decoder;
    }

    @Override
    public void channelActive(final ChannelHandlerContext ctx)
    {
        lastReadNanos = System.nanoTime(); // wall-clock: transport liveness and timeouts, never part of a result
        timer = ctx.executor().schedule(() -> refuse(ctx, "did not authenticate within "
            + transport.handshakeTimeoutMs() + " ms"), transport.handshakeTimeoutMs(), TimeUnit.MILLISECONDS);
        if (connector)
        {
            myNonce = JobAuthenticator.nonce();
            final ByteBuffer hello = ByteBuffer.allocate(16 + JobAuthenticator.NONCE_BYTES);
            hello.putLong(transport.authenticator().jobId()).putInt(transport.partition()).putInt(transport.partitionCount())
                .put(myNonce);
            ctx.writeAndFlush(Frames.control(ctx.alloc(), FrameDescriptor.TYPE_HELLO, hello.array()));
        }
        ctx.fireChannelActive();
    }

    @Override
    public void channelRead(final ChannelHandlerContext ctx, final Object msg)
    {
        final ByteBuf frame = (ByteBuf)msg;
        lastReadNanos = System.nanoTime(); // wall-clock: transport liveness and timeouts, never part of a result
        final int type = frame.getUnsignedByte(FrameDescriptor.TYPE_OFFSET);
        if (state == State.ESTABLISHED && FrameDescriptor.isApplicationType(type))
        {
            transport.deliver(peer, frame, ctx.channel());
            return;
        }
        try
        {
            final byte[] payload = new byte[frame.readableBytes() - FrameDescriptor.HEADER_LENGTH];
            frame.getBytes(FrameDescriptor.HEADER_LENGTH, payload);
            control(ctx, type, ByteBuffer.wrap(payload));
        }
        finally
        {
            frame.release();
        }
    }

    private void control(final ChannelHandlerContext ctx, final int type, final ByteBuffer payload)
    {
        switch (state)
        {
            case AWAIT_HELLO -> hello(ctx, type, payload);
            case AWAIT_CHALLENGE -> challenge(ctx, type, payload);
            case AWAIT_RESPONSE -> response(ctx, type, payload);
            case AWAIT_ACCEPT ->
            {
                if (type != FrameDescriptor.TYPE_ACCEPT || payload.remaining() != 0)
                {
                    refuse(ctx, "sent type " + type + " where ACCEPT was expected");
                    return;
                }
                establish(ctx);
            }
            case ESTABLISHED ->
            {
                if (type == FrameDescriptor.TYPE_HEARTBEAT)
                {
                    return;
                }
                if (type == FrameDescriptor.TYPE_CLOSE)
                {
                    state = State.DONE;
                    transport.peerClosed(peer);
                    ctx.close();
                    return;
                }
                malformed(ctx, "type " + type + " is a handshake frame after the handshake");
            }
            case DONE ->
            {
                // after CLOSE nothing more is read
            }
        }
    }

    private void hello(final ChannelHandlerContext ctx, final int type, final ByteBuffer p)
    {
        if (type != FrameDescriptor.TYPE_HELLO || p.remaining() != 16 + JobAuthenticator.NONCE_BYTES)
        {
            refuse(ctx, "sent type " + type + " (" + p.remaining() + " bytes) where HELLO was expected");
            return;
        }
        final long jobId = p.getLong();
        final int from = p.getInt();
        final int count = p.getInt();
        if (jobId != transport.authenticator().jobId())
        {
            refuse(ctx, "job id " + jobId + " is not this job's " + transport.authenticator().jobId());
            return;
        }
        if (count != transport.partitionCount() || from <= transport.partition() || from >= count)
        {
            refuse(ctx, "partition " + from + " of " + count + " cannot connect to partition "
                + transport.partition() + " of " + transport.partitionCount()
                + " (only higher partitions of the same count connect)");
            return;
        }
        peer = from;
        theirNonce = new byte[JobAuthenticator.NONCE_BYTES];
        p.get(theirNonce);
        myNonce = JobAuthenticator.nonce();
        final byte[] proof = transport.authenticator().proof(JobAuthenticator.ROLE_ACCEPTOR, peer, transport.partition(),
            theirNonce, myNonce);
        final ByteBuffer c = ByteBuffer.allocate(4 + JobAuthenticator.NONCE_BYTES + JobAuthenticator.PROOF_BYTES);
        c.putInt(transport.partition()).put(myNonce).put(proof);
        state = State.AWAIT_RESPONSE;
        ctx.writeAndFlush(Frames.control(ctx.alloc(), FrameDescriptor.TYPE_CHALLENGE, c.array()));
    }

    private void challenge(final ChannelHandlerContext ctx, final int type, final ByteBuffer p)
    {
        if (type != FrameDescriptor.TYPE_CHALLENGE || p.remaining() != 4 + JobAuthenticator.NONCE_BYTES + JobAuthenticator.PROOF_BYTES)
        {
            refuse(ctx, "sent type " + type + " (" + p.remaining() + " bytes) where CHALLENGE was expected");
            return;
        }
        final int from = p.getInt();
        if (from != expectedPeer)
        {
            refuse(ctx, "answered as partition " + from + ", expected " + expectedPeer);
            return;
        }
        peer = from;
        theirNonce = new byte[JobAuthenticator.NONCE_BYTES];
        p.get(theirNonce);
        final byte[] proof = new byte[JobAuthenticator.PROOF_BYTES];
        p.get(proof);
        final byte[] expected = transport.authenticator().proof(JobAuthenticator.ROLE_ACCEPTOR, transport.partition(), peer,
            myNonce, theirNonce);
        if (!JobAuthenticator.matches(expected, proof))
        {
            refuse(ctx, "its proof of the job key does not match (another job, or a wrong key)");
            return;
        }
        final byte[] mine = transport.authenticator().proof(JobAuthenticator.ROLE_CONNECTOR, transport.partition(), peer,
            myNonce, theirNonce);
        state = State.AWAIT_ACCEPT;
        ctx.writeAndFlush(Frames.control(ctx.alloc(), FrameDescriptor.TYPE_RESPONSE, mine));
    }

    private void response(final ChannelHandlerContext ctx, final int type, final ByteBuffer p)
    {
        if (type != FrameDescriptor.TYPE_RESPONSE || p.remaining() != JobAuthenticator.PROOF_BYTES)
        {
            refuse(ctx, "sent type " + type + " (" + p.remaining() + " bytes) where RESPONSE was expected");
            return;
        }
        final byte[] proof = new byte[JobAuthenticator.PROOF_BYTES];
        p.get(proof);
        final byte[] expected = transport.authenticator().proof(JobAuthenticator.ROLE_CONNECTOR, peer, transport.partition(),
            theirNonce, myNonce);
        if (!JobAuthenticator.matches(expected, proof))
        {
            refuse(ctx, "its proof of the job key does not match (another job, or a wrong key)");
            return;
        }
        if (!transport.claim(peer))
        {
            refuse(ctx, "partition " + peer + " is already connected");
            return;
        }
        ctx.writeAndFlush(Frames.control(ctx.alloc(), FrameDescriptor.TYPE_ACCEPT, null));
        establish(ctx);
    }

    private void establish(final ChannelHandlerContext ctx)
    {
        state = State.ESTABLISHED;
        timer.cancel(false);
        decoder.maxPayloadBytes(transport.maxPayloadBytes());
        final long interval = transport.heartbeatIntervalMs();
        final long timeoutNs = transport.heartbeatTimeoutMs() * 1_000_000L;
        timer = ctx.executor().scheduleAtFixedRate(() ->
        {
            if (state != State.ESTABLISHED || closeSent)
            {
                return;
            }
            final long tick = System.nanoTime(); // wall-clock: transport liveness and timeouts, never part of a result
            if (lastTickNanos != 0 && tick - lastTickNanos > 2 * interval * 1_000_000L)
            {
                // this side's event loop did not run for a while (a starved CPU, a GC pause): the
                // silence it measured is its own, not the peer's; judge from now on
                lastReadNanos = tick;
            }
            lastTickNanos = tick;
            if (!ctx.channel().config().isAutoRead())
            {
                // this side stopped reading (a slow consumer): the peer's frames wait in the socket
                lastReadNanos = tick;
            }
            final long silentNs = System.nanoTime() - lastReadNanos; // wall-clock: transport liveness and timeouts, never part of a result
            if (silentNs > timeoutNs)
            {
                fail(ctx, "peer " + peer + " stopped answering: no frame or heartbeat for " + silentNs / 1_000_000
                    + " ms (timeout " + transport.heartbeatTimeoutMs() + " ms)");
                return;
            }
            ctx.writeAndFlush(Frames.control(ctx.alloc(), FrameDescriptor.TYPE_HEARTBEAT, null), ctx.voidPromise());
        }, interval, interval, TimeUnit.MILLISECONDS);
        transport.established(peer, ctx.channel(), this);
    }

    /** Sends CLOSE after everything written before; runs on the event loop. */
    void sendClose(final ChannelHandlerContext ctx)
    {
        if (!closeSent && ctx.channel().isActive())
        {
            closeSent = true;
            ctx.writeAndFlush(Frames.control(ctx.alloc(), FrameDescriptor.TYPE_CLOSE, null), ctx.voidPromise());
        }
    }

    /** Called by the decoder for an invalid frame. */
    void malformed(final ChannelHandlerContext ctx, final String reason)
    {
        if (state == State.ESTABLISHED)
        {
            fail(ctx, "malformed frame from peer " + peer + ": " + reason);
        }
        else
        {
            refuse(ctx, "malformed frame: " + reason);
        }
    }

    private void fail(final ChannelHandlerContext ctx, final String message)
    {
        if (state == State.DONE)
        {
            return;
        }
        state = State.DONE;
        LOG.log(Level.WARNING, "partition " + transport.partition() + " closes its connection to peer " + peer
            + " (" + ctx.channel().remoteAddress() + "): " + message);
        transport.peerFailed(peer, message);
        ctx.close();
    }

    private void refuse(final ChannelHandlerContext ctx, final String why)
    {
        if (state == State.DONE || state == State.ESTABLISHED)
        {
            return;
        }
        state = State.DONE;
        final String who = connector ? "peer " + expectedPeer + " at " + ctx.channel().remoteAddress()
            : "connection from " + ctx.channel().remoteAddress();
        final String message = "partition " + transport.partition() + " refused " + who + ": " + why;
        LOG.log(Level.WARNING, message);
        if (connector)
        {
            transport.connectFailed(expectedPeer, message);
        }
        ctx.close();
    }

    @Override
    public void channelInactive(final ChannelHandlerContext ctx)
    {
        if (timer != null)
        {
            timer.cancel(false);
        }
        switch (state)
        {
            case ESTABLISHED ->
            {
                if (transport.closing())
                {
                    state = State.DONE;
                }
                else
                {
                    fail(ctx, "connection to peer " + peer + " lost: closed without a CLOSE frame (process died or network failed)");
                }
            }
            case DONE ->
            {
            }
            default -> refuse(ctx, "the connection closed during authentication (another job, a wrong key, or a stray client)");
        }
        ctx.fireChannelInactive();
    }

    @Override
    public void exceptionCaught(final ChannelHandlerContext ctx, final Throwable cause)
    {
        if (state == State.ESTABLISHED)
        {
            fail(ctx, "connection to peer " + peer + " failed: " + cause);
        }
        else
        {
            refuse(ctx, "connection failed: " + cause);
        }
    }
}
