package org.qsnet.fabric.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.qsnet.fabric.transport.netty.NettyTransport;
import org.qsnet.fabric.transport.shm.ShmTransport;

/**
 * A peer in a second JVM ({@link RemotePeerMain}): frames cross the process boundary both ways, and
 * a peer that is killed, or stopped (SIGSTOP) so that it no longer answers, is reported within the
 * heartbeat timeout, naming it.
 */
@Timeout(value = 40, unit = TimeUnit.SECONDS)
class RemotePeerTest
{
    private static final byte[] KEY = "remote-peer-test-key-0123456789ab".getBytes(StandardCharsets.US_ASCII);
    private static final long TIMEOUT_MS = 1_000;
    private Process child;
    private Transport local;
    private Path directory;

    @AfterEach
    void stop() throws InterruptedException, IOException
    {
        if (child != null)
        {
            child.destroyForcibly();
            child.waitFor(5, TimeUnit.SECONDS);
        }
        if (local != null)
        {
            local.close();
        }
        if (directory != null)
        {
            // a killed peer cannot delete the file it created
            try (var files = Files.list(directory))
            {
                for (final Path f : files.toList())
                {
                    Files.deleteIfExists(f);
                }
            }
            Files.deleteIfExists(directory);
        }
    }

    private static TransportContext context(final long job)
    {
        return new TransportContext().jobId(job).jobKey(KEY).partition(0, 2).maxPayloadBytes(1 << 16)
            .heartbeat(100, TIMEOUT_MS).connectTimeoutMs(15_000);
    }

    private Process launch(final String... args) throws IOException
    {
        final List<String> cmd = org.qsnet.fabric.distributed.ChildJvm.command(false, RemotePeerMain.class.getName(), List.of(args));
        return new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(new File("target/remote-peer.log")).start();
    }

    private void exchangeThenLose(final boolean kill) throws Exception
    {
        final AtomicInteger ready = new AtomicInteger();
        pollUntil(() -> ready.get() == 1, (peer, type, timeNs, key, p) ->
        {
            assertEquals(1, peer);
            assertEquals("READY", StandardCharsets.US_ASCII.decode(p).toString());
            ready.incrementAndGet();
        });
        final AtomicInteger echoed = new AtomicInteger();
        final FrameHandler echo = (peer, type, timeNs, key, p) ->
        {
            assertEquals(echoed.get(), timeNs);
            assertEquals(-timeNs, key);
            assertEquals(timeNs * 100, p.remaining());
            echoed.incrementAndGet();
        };
        for (int i = 0; i < 100; i++)
        {
            // poll while the path is full: the peer echoes as it reads, and blocks when its own
            // path back is full, so a sender that does not drain the echoes can deadlock with it
            while (!local.offer(1, FrameDescriptor.MIN_APPLICATION_TYPE, i, -i, ByteBuffer.allocate(i * 100)))
            {
                local.poll(echo, 16);
            }
        }
        pollUntil(() -> echoed.get() == 100, echo);
        if (kill)
        {
            child.destroyForcibly();
        }
        else
        {
            assertEquals(0, new ProcessBuilder("kill", "-STOP", Long.toString(child.pid())).start().waitFor());
        }
        final long start = System.nanoTime();
        final TransportException e = assertThrows(TransportException.class,
            () -> pollUntil(() -> false, (peer, type, timeNs, key, p) -> { }));
        final long ms = (System.nanoTime() - start) / 1_000_000;
        assertEquals(1, e.peer());
        assertTrue(e.getMessage().contains("peer 1"), e.getMessage());
        assertTrue(ms < 3 * TIMEOUT_MS, "reported after " + ms + " ms: " + e.getMessage());
    }

    private void pollUntil(final java.util.function.BooleanSupplier done, final FrameHandler h) throws InterruptedException
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
        while (!done.getAsBoolean())
        {
            if (local.poll(h, 16) == 0)
            {
                if (System.nanoTime() > deadline)
                {
                    throw new AssertionError("not reached within 15 s");
                }
                Thread.sleep(1);
            }
        }
    }

    @Test
    void shouldTalkToAPeerInAnotherJvmOverTcpAndReportItsDeath() throws Exception
    {
        final NettyTransport t = NettyTransport.open(context(501));
        local = t;
        child = launch("netty", "501", HexFormat.of().formatHex(KEY), t.localAddress().getHostString(),
            Integer.toString(t.localAddress().getPort()));
        t.connect(List.of(t.localAddress(), t.localAddress()));
        exchangeThenLose(true);
    }

    @Test
    void shouldReportAStoppedPeerInAnotherJvmOverTcp() throws Exception
    {
        final NettyTransport t = NettyTransport.open(context(502));
        local = t;
        child = launch("netty", "502", HexFormat.of().formatHex(KEY), t.localAddress().getHostString(),
            Integer.toString(t.localAddress().getPort()));
        t.connect(List.of(t.localAddress(), t.localAddress()));
        exchangeThenLose(false);
    }

    @Test
    void shouldTalkToAPeerInAnotherJvmThroughSharedMemoryAndReportItsDeath() throws Exception
    {
        final Path shm = Path.of("/dev/shm");
        final Path dir = Files.isDirectory(shm) ? Files.createTempDirectory(shm, "qsnet-test") : Files.createTempDirectory("qsnet-test");
        directory = dir;
        final long job = System.nanoTime();
        child = launch("shm", Long.toString(job), HexFormat.of().formatHex(KEY), dir.toString());
        local = ShmTransport.open(context(job), dir);
        exchangeThenLose(true);
    }
}
