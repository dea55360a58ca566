package org.qsnet.bench.jmh;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.qsnet.fabric.transport.FrameDescriptor;
import org.qsnet.fabric.transport.FrameHandler;
import org.qsnet.fabric.transport.Transport;
import org.qsnet.fabric.transport.TransportContext;
import org.qsnet.fabric.transport.netty.NettyTransport;
import org.qsnet.fabric.transport.shm.ShmTransport;

/**
 * Transport ping-pong: host µs per round trip of a message of {@code bytes} bytes between two
 * endpoints of one JVM, each driven by its own thread (the benchmark thread and an echo thread).
 * One-way latency is half the score; ping-pong bandwidth is {@code bytes / (score / 2)}.
 *
 * <p>{@code nio} is the floor the transports are held to: a plain blocking Java NIO
 * {@link SocketChannel} pair on loopback (TCP_NODELAY, a 4-byte length then the bytes, no framing
 * checks). {@code netty} and {@code shm} are the project's transports with everything on: frame
 * header, CRC32C on both sides, validation, authentication done at setup, heartbeats running.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
@State(Scope.Benchmark)
public class TransportBenchmark
{
    private static final byte[] KEY = "transport-benchmark-key-01234567".getBytes(StandardCharsets.US_ASCII);
    private static final int TYPE = FrameDescriptor.MIN_APPLICATION_TYPE;
    private static final long IDLE_NS = 1_000_000;

    /** Which path: {@code nio} (the floor), {@code netty} or {@code shm}. */
    @Param({"nio", "netty", "shm"})
    public String transport;

    /** Message size in bytes. */
    @Param({"8", "64", "1024", "16384", "65536", "1048576"})
    public int bytes;

    /**
     * How a waiting endpoint idles: {@code await} ({@link Transport#awaitFrames}: the TCP transport
     * parks until its event loop wakes it, the rings spin briefly then yield) or {@code spin} (poll
     * in a tight loop, as on a dedicated core). The nio floor always blocks in {@code read}.
     */
    @Param({"await"})
    public String wait;

    private boolean spin;
    private ByteBuffer message;
    private Transport ping;
    private Transport pong;
    private SocketChannel nioPing;
    private final ByteBuffer nioLength = ByteBuffer.allocateDirect(4);
    private ByteBuffer[] nioOut;
    private Thread echo;
    private volatile boolean running;
    private final FrameHandler received = (peer, type, timeNs, key, p) -> got = true;
    private boolean got;

    /**
     * Connects the two endpoints and starts the echo thread.
     *
     * @throws IOException if loopback sockets cannot be opened.
     */
    @Setup(Level.Trial)
    public void setUp() throws IOException
    {
        message = ByteBuffer.allocateDirect(bytes);
        running = true;
        spin = "spin".equals(wait);
        switch (transport)
        {
            case "nio" -> setUpNio();
            case "netty" -> setUpNetty();
            case "shm" -> setUpShm();
            default -> throw new IllegalArgumentException("transport " + transport + " is not nio, netty or shm");
        }
        if (!"nio".equals(transport))
        {
            echo = new Thread(this::echoFrames, "echo");
            echo.start();
        }
    }

    private static TransportContext context(final long job, final int partition)
    {
        return new TransportContext().jobId(job).jobKey(KEY).partition(partition, 2).maxPayloadBytes(1 << 20);
    }

    private void setUpNetty()
    {
        final NettyTransport a = NettyTransport.open(context(1, 0));
        final NettyTransport b = NettyTransport.open(context(1, 1));
        final List<InetSocketAddress> addresses = List.of(a.localAddress(), b.localAddress());
        final CompletableFuture<Void> bc = CompletableFuture.runAsync(() -> b.connect(addresses));
        a.connect(addresses);
        bc.join();
        ping = a;
        pong = b;
    }

    private void setUpShm()
    {
        final long job = System.nanoTime();
        final CompletableFuture<ShmTransport> b = CompletableFuture.supplyAsync(
            () -> ShmTransport.open(context(job, 1), ShmTransport.defaultDirectory()));
        ping = ShmTransport.open(context(job, 0), ShmTransport.defaultDirectory());
        pong = b.join();
    }

    private void setUpNio() throws IOException
    {
        final ServerSocketChannel server = ServerSocketChannel.open();
        server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        nioPing = SocketChannel.open(server.getLocalAddress());
        nioPing.setOption(StandardSocketOptions.TCP_NODELAY, true);
        nioOut = new ByteBuffer[] {nioLength, message};
        final SocketChannel nioPong = server.accept();
        nioPong.setOption(StandardSocketOptions.TCP_NODELAY, true);
        server.close();
        echo = new Thread(() -> echoBytes(nioPong), "echo");
        echo.start();
    }

    private void echoBytes(final SocketChannel ch)
    {
        final ByteBuffer length = ByteBuffer.allocateDirect(4);
        final ByteBuffer body = ByteBuffer.allocateDirect(bytes);
        final ByteBuffer[] out = {length, body};
        try (ch)
        {
            while (running)
            {
                length.clear();
                if (!readFully(ch, length))
                {
                    return;
                }
                body.clear().limit(length.getInt(0));
                readFully(ch, body);
                length.flip();
                body.flip();
                ch.write(out);
                while (body.hasRemaining())
                {
                    ch.write(body);
                }
            }
        }
        catch (final IOException e)
        {
            if (running)
            {
                throw new UncheckedIOException(e);
            }
        }
    }

    private static boolean readFully(final SocketChannel ch, final ByteBuffer b) throws IOException
    {
        while (b.hasRemaining())
        {
            if (ch.read(b) < 0)
            {
                return false;
            }
        }
        return true;
    }

    private void echoFrames()
    {
        // the frame goes back from the delivered view itself (offer copies or writes its bytes
        // before it returns, while the view is valid), as the floor's echo writes back the buffer
        // it read into: no copy the floor does not make
        final FrameHandler back = (peer, type, timeNs, key, p) -> pong.send(peer, type, timeNs, key, p);
        while (running)
        {
            if (pong.poll(back, 16) == 0 && !spin)
            {
                pong.awaitFrames(IDLE_NS);
            }
        }
    }

    /**
     * One round trip: the message out and back.
     *
     * @return a value JMH consumes.
     * @throws IOException on a socket failure (nio).
     */
    @Benchmark
    public int roundTrip() throws IOException
    {
        message.clear();
        if ("nio".equals(transport))
        {
            nioLength.clear().putInt(0, bytes);
            nioPing.write(nioOut);
            while (message.hasRemaining())
            {
                nioPing.write(message);
            }
            nioLength.clear();
            message.clear();
            readFully(nioPing, nioLength);
            readFully(nioPing, message);
            return message.position();
        }
        ping.send(1, TYPE, 0, 0, message);
        got = false;
        int polls = 0;
        while (!got)
        {
            if (ping.poll(received, 1) == 0 && !spin)
            {
                ping.awaitFrames(IDLE_NS);
            }
            polls++;
        }
        return polls;
    }

    /**
     * Stops the echo thread and closes the endpoints.
     *
     * @throws Exception if closing fails.
     */
    @TearDown(Level.Trial)
    public void tearDown() throws Exception
    {
        running = false;
        if (nioPing != null)
        {
            nioPing.close();
        }
        if (echo != null)
        {
            echo.join(5_000);
        }
        if (ping != null)
        {
            ping.close();
            pong.close();
        }
    }
}
