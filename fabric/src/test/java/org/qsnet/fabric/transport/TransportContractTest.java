package org.qsnet.fabric.transport;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.qsnet.fabric.QsnetException;

/**
 * The contract every {@link Transport} keeps (JCTools' QueueSanityTest style): one subclass per
 * implementation creates the endpoints of a job.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
public abstract class TransportContractTest
{
    /** The test job's key. */
    protected static final byte[] KEY = "contract-test-job-key-0123456789".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    private static final int TYPE = FrameDescriptor.MIN_APPLICATION_TYPE;

    private final List<Transport> open = new ArrayList<>();

    /**
     * Creates every endpoint of a job, connected.
     *
     * @param context the job's context (partition count, limits); its partition is ignored.
     * @return the endpoints, indexed by partition.
     */
    protected abstract List<Transport> createJob(TransportContext context);

    /**
     * A context for a job of {@code n} partitions.
     *
     * @param n the partition count.
     * @param maxPayloadBytes the payload limit.
     * @return the context.
     */
    protected static TransportContext context(final int n, final int maxPayloadBytes)
    {
        return new TransportContext().jobId(4242).jobKey(KEY).partition(0, n).maxPayloadBytes(maxPayloadBytes)
            .heartbeat(100, 2_000).connectTimeoutMs(10_000);
    }

    private List<Transport> job(final int n, final int maxPayloadBytes)
    {
        final List<Transport> t = createJob(context(n, maxPayloadBytes));
        open.addAll(t);
        for (int p = 0; p < n; p++)
        {
            assertEquals(p, t.get(p).partition());
            assertEquals(n, t.get(p).partitionCount());
        }
        return t;
    }

    @AfterEach
    void closeAll()
    {
        open.forEach(Transport::close);
        open.clear();
    }

    /**
     * Polls until a condition holds, failing after 20 s.
     *
     * @param t       the endpoint.
     * @param handler the handler.
     * @param done    the condition.
     */
    protected static void pollUntil(final Transport t, final FrameHandler handler, final BooleanSupplier done)
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (!done.getAsBoolean())
        {
            if (t.poll(handler, 64) == 0)
            {
                if (System.nanoTime() > deadline)
                {
                    throw new AssertionError("condition not reached within 20 s");
                }
                Thread.yield();
            }
        }
    }

    private static ByteBuffer payload(final long seq, final int length)
    {
        final ByteBuffer b = ByteBuffer.allocate(length);
        for (int i = 0; i < length; i++)
        {
            b.put(i, (byte)(seq * 31 + i));
        }
        return b;
    }

    private static void checkPayload(final long seq, final ByteBuffer p, final int length)
    {
        assertEquals(length, p.remaining(), "payload length of frame " + seq);
        for (int i = 0; i < length; i++)
        {
            if (p.get(p.position() + i) != (byte)(seq * 31 + i))
            {
                throw new AssertionError("payload byte " + i + " of frame " + seq);
            }
        }
    }

    @Test
    void shouldDeliverFramesOfOnePeerInOrderWithTheirFields()
    {
        final List<Transport> t = job(2, 4096);
        final int frames = 5_000;
        final AtomicLong next = new AtomicLong();
        final Thread sender = new Thread(() ->
        {
            for (long s = 0; s < frames; s++)
            {
                t.get(0).send(1, TYPE + (int)(s % 7), s * 1000, ~s, payload(s, (int)(s % 97)));
            }
        });
        sender.start();
        pollUntil(t.get(1), (peer, type, timeNs, key, p) ->
        {
            final long s = next.getAndIncrement();
            assertEquals(0, peer);
            assertEquals(TYPE + (int)(s % 7), type);
            assertEquals(s * 1000, timeNs);
            assertEquals(~s, key);
            checkPayload(s, p, (int)(s % 97));
        }, () -> next.get() == frames);
        assertEquals(0, t.get(1).poll((a, b, c, d, e) -> { throw new AssertionError("extra frame"); }, 10));
    }

    @Test
    void shouldKeepEachPeersOrderWithManyPeers()
    {
        final int n = 5;
        final int frames = 400;
        final List<Transport> t = job(n, 256);
        final long[] next = new long[n];
        final List<Thread> senders = new ArrayList<>();
        for (int p = 1; p < n; p++)
        {
            final Transport from = t.get(p);
            final Thread s = new Thread(() ->
            {
                for (long i = 0; i < frames; i++)
                {
                    from.send(0, TYPE, i, from.partition(), payload(i, 8 + (int)(i % 100)));
                }
            });
            senders.add(s);
            s.start();
        }
        final AtomicInteger total = new AtomicInteger();
        pollUntil(t.get(0), (peer, type, timeNs, key, p) ->
        {
            assertEquals(peer, key);
            assertEquals(next[peer], timeNs, "frame order from peer " + peer);
            checkPayload(timeNs, p, 8 + (int)(timeNs % 100));
            next[peer]++;
            total.incrementAndGet();
        }, () -> total.get() == (n - 1) * frames);
        // and back: partition 0 to every other
        for (int p = 1; p < n; p++)
        {
            t.get(0).send(p, TYPE, p, 0, payload(p, 16));
        }
        for (int p = 1; p < n; p++)
        {
            final AtomicInteger got = new AtomicInteger();
            final int me = p;
            pollUntil(t.get(p), (peer, type, timeNs, key, b) ->
            {
                assertEquals(0, peer);
                assertEquals(me, timeNs);
                checkPayload(me, b, 16);
                got.incrementAndGet();
            }, () -> got.get() == 1);
        }
    }

    @Test
    void shouldCarryLargeFrames()
    {
        final int mb = 1 << 20;
        final List<Transport> t = job(2, mb);
        final byte[][] sent = new byte[6][];
        final SplittableRandom random = new SplittableRandom(12);
        for (int i = 0; i < sent.length; i++)
        {
            sent[i] = new byte[i == 0 ? mb : mb - i * 1000];
            for (int j = 0; j < sent[i].length; j++)
            {
                sent[i][j] = (byte)random.nextInt();
            }
        }
        final Thread sender = new Thread(() ->
        {
            for (final byte[] b : sent)
            {
                t.get(0).send(1, TYPE, b.length, 0, ByteBuffer.wrap(b));
            }
        });
        sender.start();
        final AtomicInteger got = new AtomicInteger();
        pollUntil(t.get(1), (peer, type, timeNs, key, p) ->
        {
            final byte[] b = new byte[p.remaining()];
            p.get(b);
            assertArrayEquals(sent[got.getAndIncrement()], b);
        }, () -> got.get() == sent.length);
        final ByteBuffer tooBig = ByteBuffer.allocate(mb + 1);
        final QsnetException e = assertThrows(QsnetException.class, () -> t.get(0).offer(1, TYPE, 0, 0, tooBig));
        assertTrue(e.getMessage().contains("maxPayloadBytes"), e.getMessage());
    }

    @Test
    void shouldPushBackOnASlowConsumerWithoutLosingFrames() throws InterruptedException
    {
        final List<Transport> t = job(2, 64 << 10);
        final int frames = 1_000;
        final int size = 16 << 10;
        final AtomicInteger refused = new AtomicInteger();
        final AtomicReference<Throwable> senderFailure = new AtomicReference<>();
        final Thread sender = new Thread(() ->
        {
            try
            {
                for (long s = 0; s < frames; s++)
                {
                    final ByteBuffer b = payload(s, size);
                    while (!t.get(0).offer(1, TYPE, s, 0, b))
                    {
                        refused.incrementAndGet();
                        Thread.yield();
                    }
                }
            }
            catch (final Throwable e)
            {
                senderFailure.set(e);
            }
        });
        sender.start();
        // nobody polls for a while: the paths fill up and the sender is refused
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (refused.get() == 0 && System.nanoTime() < deadline)
        {
            Thread.sleep(5);
        }
        assertTrue(refused.get() > 0, "the sender was never refused while nobody polled (" + frames * size + " bytes offered)");
        final AtomicLong next = new AtomicLong();
        pollUntil(t.get(1), (peer, type, timeNs, key, p) ->
        {
            final long s = next.getAndIncrement();
            assertEquals(s, timeNs, "frame order");
            checkPayload(s, p, size);
            if (s % 50 == 0)
            {
                Thread.onSpinWait();
            }
        }, () -> next.get() == frames);
        sender.join(10_000);
        assertEquals(null, senderFailure.get());
    }

    @Test
    void shouldDeliverEverythingBeforeAPeersCloseAndThenRefuseIt()
    {
        final List<Transport> t = job(3, 1024);
        for (int i = 0; i < 10; i++)
        {
            t.get(0).send(1, TYPE, i, 0, payload(i, 100));
        }
        t.get(0).close();
        t.get(0).close(); // idempotent
        assertThrows(TransportException.class, () -> t.get(0).offer(1, TYPE, 0, 0, ByteBuffer.allocate(0)));
        assertThrows(TransportException.class, () -> t.get(0).poll((a, b, c, d, e) -> { }, 1));
        final AtomicLong next = new AtomicLong();
        pollUntil(t.get(1), (peer, type, timeNs, key, p) ->
        {
            assertEquals(next.getAndIncrement(), timeNs);
            checkPayload(timeNs, p, 100);
        }, () -> !t.get(1).isPeerOpen(0));
        assertEquals(10, next.get());
        final TransportException e = assertThrows(TransportException.class,
            () -> t.get(1).offer(0, TYPE, 0, 0, ByteBuffer.allocate(1)));
        assertEquals(0, e.peer());
        assertTrue(e.getMessage().contains("peer 0 closed"), e.getMessage());
        // the others still talk
        assertTrue(t.get(1).isPeerOpen(2));
        t.get(2).send(1, TYPE, 77, 0, ByteBuffer.allocate(0));
        final AtomicInteger got = new AtomicInteger();
        pollUntil(t.get(1), (peer, type, timeNs, key, p) ->
        {
            assertEquals(2, peer);
            assertEquals(77, timeNs);
            got.incrementAndGet();
        }, () -> got.get() == 1);
    }

    @Test
    void shouldRejectMisuseNamingTheArgument()
    {
        final List<Transport> t = job(2, 64);
        final ByteBuffer empty = ByteBuffer.allocate(0);
        assertTrue(assertThrows(QsnetException.class, () -> t.get(0).offer(0, TYPE, 0, 0, empty)).getMessage().contains("peer 0"));
        assertTrue(assertThrows(QsnetException.class, () -> t.get(0).offer(2, TYPE, 0, 0, empty)).getMessage().contains("peer 2"));
        assertTrue(assertThrows(QsnetException.class, () -> t.get(0).offer(1, FrameDescriptor.TYPE_CLOSE, 0, 0, empty))
            .getMessage().contains("type 6"));
        assertTrue(assertThrows(QsnetException.class, () -> t.get(0).poll((a, b, c, d, e) -> { }, 0))
            .getMessage().contains("frameLimit 0"));
        assertFalse(t.get(0).poll((a, b, c, d, e) -> { }, 1) > 0);
    }
}
