package org.qsnet.fabric.transport.netty;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.qsnet.fabric.transport.FrameDescriptor;
import org.qsnet.fabric.transport.TransportContext;
import org.qsnet.fabric.transport.TransportException;

/**
 * What only the TCP transport can meet: malformed frames, wrong keys, other jobs and stray clients,
 * each refused with a logged reason; with Netty's leak detector at paranoid level.
 */
@ExtendWith(NettyLeakCheck.class)
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class NettyTransportTest
{
    private static final long JOB = 77;
    private static final byte[] KEY = "netty-test-job-key-0123456789abc".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] OTHER_KEY = "another-job-key-0123456789abcdef".getBytes(StandardCharsets.US_ASCII);

    private final List<String> log = new ArrayList<>();
    private final Logger logger = Logger.getLogger(NettyTransport.class.getName());
    private final Handler handler = new Handler()
    {
        @Override
        public void publish(final LogRecord record)
        {
            synchronized (log)
            {
                log.add(record.getMessage());
            }
        }

        @Override
        public void flush()
        {
        }

        @Override
        public void close()
        {
        }
    };
    private final List<AutoCloseable> open = new ArrayList<>();

    @BeforeEach
    void captureLog()
    {
        logger.addHandler(handler);
    }

    @AfterEach
    void release() throws Exception
    {
        for (final AutoCloseable c : open)
        {
            c.close();
        }
        logger.removeHandler(handler);
    }

    private static TransportContext context(final int partition, final byte[] key)
    {
        return new TransportContext().jobId(JOB).jobKey(key).partition(partition, 2).maxPayloadBytes(4096)
            .heartbeat(100, 1_000).connectTimeoutMs(1_000);
    }

    private NettyTransport acceptor()
    {
        final NettyTransport t = NettyTransport.open(context(0, KEY));
        open.add(t);
        return t;
    }

    private RawPeer raw(final NettyTransport t) throws IOException
    {
        final RawPeer r = new RawPeer(t.localAddress());
        open.add(0, r);
        return r;
    }

    private String logged(final String... parts) throws InterruptedException
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (System.nanoTime() < deadline)
        {
            synchronized (log)
            {
                for (final String line : log)
                {
                    boolean all = true;
                    for (final String p : parts)
                    {
                        all &= line.contains(p);
                    }
                    if (all)
                    {
                        return line;
                    }
                }
            }
            Thread.sleep(10);
        }
        throw new AssertionError("no log line containing " + List.of(parts) + " in " + log);
    }

    /** An acceptor connected to a raw peer that authenticated as partition 1. */
    private RawPeer connectedRawPeer(final NettyTransport a) throws Exception
    {
        final CompletableFuture<Void> connected = CompletableFuture.runAsync(() -> a.connect(List.of(a.localAddress(), a.localAddress())));
        final RawPeer r = raw(a);
        assertTrue(r.handshake(JOB, KEY, 1, 2), "the raw peer with the job's key is accepted");
        connected.get(5, TimeUnit.SECONDS);
        return r;
    }

    @Test
    void shouldBindToLoopbackByDefault()
    {
        assertTrue(acceptor().localAddress().getAddress().isLoopbackAddress());
    }

    @ParameterizedTest
    @ValueSource(strings = {"payload", "trailer", "header", "length", "wrongLength", "type", "version"})
    void shouldCloseTheConnectionAndFailClearlyOnAMalformedFrame(final String defect) throws Exception
    {
        final NettyTransport a = acceptor();
        final RawPeer r = connectedRawPeer(a);
        r.write(RawPeer.frame(FrameDescriptor.MIN_APPLICATION_TYPE, 1, 2, new byte[] {1, 2, 3}));
        final ByteBuffer bad = RawPeer.frame(FrameDescriptor.MIN_APPLICATION_TYPE, 3, 4, new byte[] {5, 6, 7});
        final String reason;
        switch (defect)
        {
            case "payload" ->
            {
                bad.put(FrameDescriptor.HEADER_LENGTH + 1, (byte)9); // payload changed after the checksum
                reason = "does not match the frame's";
            }
            case "trailer" ->
            {
                bad.put(bad.limit() - 1, (byte)(bad.get(bad.limit() - 1) ^ 1));
                reason = "does not match the frame's";
            }
            case "header" ->
            {
                bad.put(FrameDescriptor.KEY_OFFSET + 7, (byte)5); // key changed after the header's checksum
                reason = "header checksum";
            }
            case "length" ->
            {
                bad.putInt(0, 1 << 30);
                reason = "length 1073741824 is outside 36..4132";
            }
            case "wrongLength" ->
            {
                // within the limits: the header's checksum catches it at once, the receiver does not
                // wait for 64 more bytes that would never come
                bad.putInt(0, bad.getInt(0) + 64);
                reason = "header checksum";
            }
            case "type" ->
            {
                bad.put(FrameDescriptor.TYPE_OFFSET, (byte)9);
                reason = "type 9 is unknown";
            }
            default ->
            {
                bad.put(FrameDescriptor.VERSION_OFFSET, (byte)7);
                reason = "version 7 is not the supported version 2";
            }
        }
        r.write(bad);
        final AtomicInteger delivered = new AtomicInteger();
        final TransportException e = assertThrows(TransportException.class, () ->
        {
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
            while (System.nanoTime() < deadline)
            {
                a.poll((peer, type, timeNs, key, p) ->
                {
                    assertEquals(1, timeNs, "only the valid frame is delivered");
                    assertEquals(3, p.remaining());
                    delivered.incrementAndGet();
                }, 10);
            }
        });
        assertEquals(1, delivered.get(), "the valid frame before the malformed one is delivered first");
        assertEquals(1, e.peer());
        assertTrue(e.getMessage().contains("malformed frame from peer 1") && e.getMessage().contains(reason), e.getMessage());
        logged("closes its connection to peer 1", reason);
        assertTrue(r.closedByPeer(), "the connection is closed");
        assertFalse(a.isPeerOpen(1));
        assertThrows(TransportException.class, () -> a.offer(1, FrameDescriptor.MIN_APPLICATION_TYPE, 0, 0, ByteBuffer.allocate(0)));
    }

    @Test
    void shouldRefuseAClientWithAWrongKey() throws Exception
    {
        final NettyTransport a = acceptor();
        final RawPeer r = raw(a);
        assertFalse(r.handshake(JOB, OTHER_KEY, 1, 2));
        logged("refused connection from", "proof of the job key does not match");
        assertTrue(r.closedByPeer());
    }

    @Test
    void shouldRefuseAProcessOfAnotherJob() throws Exception
    {
        final NettyTransport a = acceptor();
        final RawPeer r = raw(a);
        assertFalse(r.handshake(JOB + 1, KEY, 1, 2));
        logged("refused connection from", "job id 78 is not this job's 77");
        assertTrue(r.closedByPeer());
    }

    @Test
    void shouldRefuseAStrayClientWritingGarbage() throws Exception
    {
        final NettyTransport a = acceptor();
        final RawPeer r = raw(a);
        r.write(ByteBuffer.wrap("GET / HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII)));
        logged("refused connection from", "malformed frame: length");
        assertTrue(r.closedByPeer());
    }

    @Test
    void shouldRefuseASilentClientAfterTheHandshakeTimeout() throws Exception
    {
        final NettyTransport a = acceptor();
        final RawPeer r = raw(a);
        assertTrue(r.closedByPeer());
        logged("refused connection from", "did not authenticate within 1000 ms");
    }

    @Test
    void shouldFailToConnectToAPeerWithAnotherKeyNamingIt()
    {
        final NettyTransport a = acceptor();
        final NettyTransport b = NettyTransport.open(context(1, OTHER_KEY));
        open.add(b);
        final List<InetSocketAddress> addresses = List.of(a.localAddress(), b.localAddress());
        final TransportException e = assertThrows(TransportException.class, () -> b.connect(addresses));
        assertEquals(0, e.peer());
        assertTrue(e.getMessage().contains("refused peer 0") && e.getMessage().contains("proof of the job key"), e.getMessage());
    }

    @Test
    void shouldReportAPeerThatStopsAnsweringWithinTheHeartbeatTimeout() throws Exception
    {
        final NettyTransport a = acceptor();
        // taken before the handshake: the acceptor's last read is later, so the report cannot come
        // sooner than the timeout after this
        final long start = System.nanoTime();
        final RawPeer r = connectedRawPeer(a);
        // the raw peer answers nothing more (it does not send heartbeats)
        final TransportException e = assertThrows(TransportException.class, () ->
        {
            while (System.nanoTime() - start < TimeUnit.SECONDS.toNanos(5))
            {
                a.poll((peer, type, timeNs, key, p) -> { }, 1);
                Thread.sleep(5);
            }
        });
        final long ms = (System.nanoTime() - start) / 1_000_000;
        assertTrue(ms >= 1_000 && ms < 3_500, "reported after " + ms + " ms, heartbeat timeout 1000 ms");
        assertEquals(1, e.peer());
        assertTrue(e.getMessage().contains("peer 1 stopped answering"), e.getMessage());
        assertTrue(r.closedByPeer());
    }

    @Test
    void shouldNotMistakeASlowConsumerForADeadPeer() throws Exception
    {
        // a 3 s heartbeat timeout here: with 1 s, one CI run on the loaded 2-core machine saw a false
        // "stopped answering" as the consumer resumed (cause not established; see the issue 12 note)
        final NettyTransport[] t = pair(c -> c.heartbeat(300, 3_000));
        final NettyTransport a = t[0];
        final NettyTransport b = t[1];
        final int frames = 4_000;
        final AtomicInteger refused = new AtomicInteger();
        final Thread sender = new Thread(() ->
        {
            final ByteBuffer p = ByteBuffer.allocate(4096);
            for (int i = 0; i < frames; i++)
            {
                while (!b.offer(0, FrameDescriptor.MIN_APPLICATION_TYPE, i, 0, p))
                {
                    refused.incrementAndGet();
                    LockSupport.parkNanos(100_000);
                }
            }
        });
        sender.start();
        // nobody polls for twice the heartbeat timeout: the acceptor stops reading, the socket fills
        Thread.sleep(6_000);
        assertTrue(refused.get() > 0, "the sender was held back");
        final AtomicInteger got = new AtomicInteger();
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
        while (got.get() < frames && System.nanoTime() < deadline)
        {
            if (a.poll((peer, type, timeNs, key, p) -> assertEquals(got.getAndIncrement(), timeNs), 64) == 0)
            {
                a.awaitFrames(1_000_000);
            }
        }
        assertEquals(frames, got.get());
        assertTrue(a.isPeerOpen(1) && b.isPeerOpen(0), "no heartbeat failure on either side");
        sender.join(5_000);
    }

    @Test
    void shouldUseEpollOnLinux()
    {
        final boolean linux = System.getProperty("os.name").toLowerCase(java.util.Locale.ROOT).contains("linux");
        assertEquals(linux && "amd64".equals(System.getProperty("os.arch")), acceptor().isEpoll());
    }


    /** Two connected endpoints with the given payload limit and heartbeat. */
    private NettyTransport[] pair(final int maxPayloadBytes, final long heartbeatIntervalMs) throws Exception
    {
        return pair(c -> c.maxPayloadBytes(maxPayloadBytes).heartbeat(heartbeatIntervalMs, 3_000).connectTimeoutMs(10_000));
    }

    /** Two connected endpoints of the job, each context set up by {@code config}. */
    private NettyTransport[] pair(final java.util.function.UnaryOperator<TransportContext> config) throws Exception
    {
        final NettyTransport a = NettyTransport.open(config.apply(context(0, KEY)));
        open.add(a);
        final NettyTransport b = NettyTransport.open(config.apply(context(1, KEY)));
        open.add(b);
        final List<InetSocketAddress> addresses = List.of(a.localAddress(), b.localAddress());
        final CompletableFuture<Void> bc = CompletableFuture.runAsync(() -> b.connect(addresses));
        a.connect(addresses);
        bc.get(10, TimeUnit.SECONDS);
        return new NettyTransport[] {a, b};
    }

    @Test
    void shouldDeliverDirectAndHeapPayloadsIntactThroughPartialWritesAndFrameSizedReads() throws Exception
    {
        // direct payloads go to the socket from the offering thread without a copy; a consumer that
        // starts late makes the kernel take only part of some frames, whose rest is copied and left
        // to the channel; the sender overwrites its two buffers as soon as each send returns, so a
        // rest that was not copied arrives corrupted. Payloads up to 1 MiB arrive in reads sized to
        // their frame. Heartbeats every 10 ms queue behind partly written frames.
        final int max = 1 << 20;
        final NettyTransport[] t = pair(max, 10);
        final NettyTransport a = t[0];
        final NettyTransport b = t[1];
        final int[] sizes = {0, 1, 7, 1000, 65_536, 300_001, max};
        final int frames = 350;
        final AtomicReference<Throwable> senderFailed = new AtomicReference<>();
        final Thread sender = new Thread(() ->
        {
            try
            {
                final ByteBuffer direct = ByteBuffer.allocateDirect(max + 2);
                final ByteBuffer heap = ByteBuffer.allocate(max + 2);
                for (int i = 0; i < frames; i++)
                {
                    final int n = sizes[i % sizes.length];
                    final int skip = i % 3;
                    final ByteBuffer buffer = i % 2 == 0 ? direct : heap;
                    buffer.clear();
                    for (int k = 0; k < n + skip; k++)
                    {
                        buffer.put(k, (byte)(k < skip ? 0x5a : i * 7 + k - skip));
                    }
                    buffer.limit(n + skip).position(skip);
                    b.send(0, FrameDescriptor.MIN_APPLICATION_TYPE + i % 3, i, -i, buffer);
                    assertEquals(skip, buffer.position(), "the payload's position is left as it was");
                    assertEquals(n + skip, buffer.limit());
                    // scribbled over at once: the transport must not read it after send returned
                    for (int k = 0; k < n + skip; k++)
                    {
                        buffer.put(k, (byte)0xee);
                    }
                }
            }
            catch (final Throwable e)
            {
                senderFailed.set(e);
            }
        });
        sender.start();
        Thread.sleep(300);
        final AtomicInteger got = new AtomicInteger();
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (got.get() < frames && System.nanoTime() < deadline)
        {
            if (a.poll((peer, type, timeNs, key, p) ->
            {
                final int i = got.getAndIncrement();
                assertEquals(1, peer);
                assertEquals(FrameDescriptor.MIN_APPLICATION_TYPE + i % 3, type);
                assertEquals(i, timeNs);
                assertEquals(-i, key);
                assertEquals(sizes[i % sizes.length], p.remaining());
                for (int k = 0; k < p.remaining(); k++)
                {
                    if (p.get(p.position() + k) != (byte)(i * 7 + k))
                    {
                        throw new AssertionError("frame " + i + " byte " + k + " differs");
                    }
                }
            }, 8) == 0)
            {
                a.awaitFrames(1_000_000);
            }
        }
        sender.join(5_000);
        assertEquals(null, senderFailed.get());
        assertEquals(frames, got.get());
        assertTrue(a.isPeerOpen(1) && b.isPeerOpen(0));
    }

    @Test
    void shouldDeliverLargeDirectFramesIntactWhenTheKernelTakesOnlyPartOfEitherWrite() throws Exception
    {
        // a large direct payload goes in two writes around the checksum pass (all but its last 64 KiB,
        // then the rest and the trailer). Nobody reads while such frames are offered, so the kernel's
        // buffers fill and one frame's first or second write is cut short: what it did not take
        // (header, payload, trailer) is copied and queued, and the frames after it queue behind it.
        // Then everything is read and compared; each round cuts a frame of another size elsewhere.
        final int max = 1 << 20;
        final NettyTransport[] t = pair(max, 250);
        final NettyTransport a = t[0];
        final NettyTransport b = t[1];
        final ByteBuffer direct = ByteBuffer.allocateDirect(max);
        final int span = max - NettyTransport.SUM_AFTER_WRITE_BYTES;
        final java.util.function.IntUnaryOperator size = i -> max - (int)((i * 48_611L) % span);
        final AtomicInteger got = new AtomicInteger();
        int sent = 0;
        for (int round = 0; round < 6; round++)
        {
            while (true)
            {
                final int n = size.applyAsInt(sent);
                direct.clear();
                for (int k = 0; k < n; k += 8)
                {
                    direct.putLong(k, sent * 1_000_003L + k);
                }
                direct.limit(n);
                // the sender polls too, as a partition does: it takes its loop from the keeper, so
                // its frames go to the socket from this thread (directly) while the channel is idle
                b.poll((peer, type, timeNs, key, p) -> { }, 1);
                if (!b.offer(0, FrameDescriptor.MIN_APPLICATION_TYPE, sent, 0, direct))
                {
                    break;
                }
                sent++;
                direct.clear();
                for (int k = 0; k < max; k += 8)
                {
                    direct.putLong(k, -1); // the transport must not read the payload after offer returned
                }
            }
            assertTrue(sent > 2 * round + 2, "the kernel took more than one frame before it pushed back");
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (got.get() < sent && System.nanoTime() < deadline)
            {
                if (a.poll((peer, type, timeNs, key, p) ->
                {
                    final int i = got.getAndIncrement();
                    assertEquals(i, timeNs, "frames arrive in order");
                    final int n = size.applyAsInt(i);
                    assertEquals(n, p.remaining());
                    for (int k = 0; k + 8 <= n; k += 8)
                    {
                        if (p.getLong(p.position() + k) != i * 1_000_003L + k)
                        {
                            throw new AssertionError("frame " + i + " (" + n + " bytes) differs at byte " + k);
                        }
                    }
                }, 8) == 0)
                {
                    a.awaitFrames(1_000_000);
                }
            }
            assertEquals(sent, got.get(), "round " + round);
        }
        assertTrue(a.isPeerOpen(1) && b.isPeerOpen(0));
    }

    @Test
    void shouldKeepOrderWhenAnotherThreadOffersWhileThePollingThreadWaitsInTheLoop() throws Exception
    {
        // the polling thread of a waits in the event loop most of the time, so the offering thread's
        // frames alternate between the socket (loop free) and a task handed to the waiting thread
        // (loop taken): they must still leave in the order offered
        final NettyTransport[] t = pair(4096, 100);
        final NettyTransport a = t[0];
        final NettyTransport b = t[1];
        final int frames = 20_000;
        final java.util.concurrent.atomic.AtomicBoolean stop = new java.util.concurrent.atomic.AtomicBoolean();
        final Thread poller = new Thread(() ->
        {
            long spins = 0;
            while (!stop.get())
            {
                if (a.poll((peer, type, timeNs, key, p) -> { }, 16) == 0)
                {
                    // alternately a short wait in the loop and a spin through it
                    a.awaitFrames((spins++ & 1) == 0 ? 0 : 100_000);
                }
            }
        });
        poller.start();
        final AtomicReference<Throwable> senderFailed = new AtomicReference<>();
        final Thread sender = new Thread(() ->
        {
            try
            {
                final ByteBuffer p = ByteBuffer.allocateDirect(64);
                for (int i = 0; i < frames; i++)
                {
                    p.clear().putInt(0, i);
                    a.send(1, FrameDescriptor.MIN_APPLICATION_TYPE, i, 0, p);
                    if ((i & 1023) == 0)
                    {
                        LockSupport.parkNanos(50_000);
                    }
                }
            }
            catch (final Throwable e)
            {
                senderFailed.set(e);
            }
        });
        sender.start();
        final AtomicInteger got = new AtomicInteger();
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (got.get() < frames && System.nanoTime() < deadline)
        {
            if (b.poll((peer, type, timeNs, key, p) ->
            {
                final int i = got.getAndIncrement();
                assertEquals(i, timeNs, "frames in the order offered");
                assertEquals(i, p.getInt(p.position()));
            }, 64) == 0)
            {
                b.awaitFrames(1_000_000);
            }
        }
        sender.join(5_000);
        stop.set(true);
        poller.join(5_000);
        assertEquals(null, senderFailed.get());
        assertEquals(frames, got.get());
    }

    @Test
    void shouldKeepHeartbeatsGoingWhileNoThreadCallsIn() throws Exception
    {
        // nobody polls or offers for five heartbeat timeouts: the keepers drive both loops, so
        // neither side takes the other for dead, and a frame still goes through afterwards
        final NettyTransport[] t = pair(c -> c.heartbeat(20, 200));
        final NettyTransport a = t[0];
        final NettyTransport b = t[1];
        Thread.sleep(1_000);
        b.send(0, FrameDescriptor.MIN_APPLICATION_TYPE, 42, 0, ByteBuffer.allocate(3));
        final AtomicInteger got = new AtomicInteger();
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (got.get() == 0 && System.nanoTime() < deadline)
        {
            if (a.poll((peer, type, timeNs, key, p) -> got.set((int)timeNs), 1) == 0)
            {
                a.awaitFrames(1_000_000);
            }
        }
        assertEquals(42, got.get());
        assertTrue(a.isPeerOpen(1) && b.isPeerOpen(0), "no heartbeat failure on either side");
    }
}
