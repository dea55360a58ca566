package org.qsnet.fabric.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

import net.openhft.chronicle.bytes.BytesStore;
import org.junit.jupiter.api.Test;

class FrameRingTest
{
    private static final int CAPACITY = 1 << 16;
    private static final int TYPE = FrameDescriptor.MIN_APPLICATION_TYPE;
    private final ByteBuffer memory = ByteBuffer.allocateDirect((int)FrameRing.footprint(CAPACITY));
    private final BytesStore<?, ByteBuffer> store = BytesStore.wrap(memory);
    private final FrameRing producer = new FrameRing(store, memory, 0, CAPACITY, 4096);
    private final FrameRing consumer = new FrameRing(store, memory, 0, CAPACITY, 4096);

    @Test
    void shouldWrapAroundTheEndKeepingOrderAndContent()
    {
        long sent = 0;
        long received = 0;
        final long[] next = {0};
        for (int round = 0; round < 200; round++)
        {
            while (producer.offer(TYPE, sent, 0, ByteBuffer.allocate(1 + (int)(sent * 37 % 4000)).put(0, (byte)sent)))
            {
                sent++;
            }
            received += consumer.read(7, (peer, type, timeNs, key, p) ->
            {
                assertEquals(7, peer);
                assertEquals(next[0], timeNs);
                assertEquals(1 + (int)(timeNs * 37 % 4000), p.remaining());
                assertEquals((byte)timeNs, p.get(p.position()));
                next[0]++;
            }, 3 + round % 40);
        }
        received += consumer.read(7, (peer, type, timeNs, key, p) -> next[0]++, Integer.MAX_VALUE);
        assertEquals(sent, received);
        assertTrue(sent > 10 * CAPACITY / 2000, "the ring wrapped many times: " + sent + " frames");
        assertTrue(consumer.isEmpty());
    }

    @Test
    void shouldRefuseWhenFullUntilTheConsumerFreesSpace()
    {
        int accepted = 0;
        while (producer.offer(TYPE, 0, 0, ByteBuffer.allocate(1000)))
        {
            accepted++;
        }
        assertEquals(CAPACITY / FrameDescriptor.alignedLength(1000), accepted);
        // 520 bytes are left before the end: too few for the frame and the padding that puts it at the start
        assertFalse(producer.offer(TYPE, 0, 0, ByteBuffer.allocate(1000)));
        assertEquals(1, consumer.read(0, (peer, type, timeNs, key, p) -> { }, 1));
        assertTrue(producer.offer(TYPE, 0, 0, ByteBuffer.allocate(1000)));
    }

    private String corrupt(final int offset, final int value)
    {
        producer.offer(TYPE, 1, 2, ByteBuffer.wrap(new byte[] {1, 2, 3, 4}));
        memory.order(ByteOrder.nativeOrder()).putInt(FrameRing.CONTROL_BYTES + offset, value);
        return assertThrows(TransportException.class, () -> consumer.read(3, (peer, type, timeNs, key, p) ->
        {
            throw new AssertionError("a malformed frame was delivered");
        }, 1)).getMessage();
    }

    @Test
    void shouldDetectAChangedPayloadByItsChecksum()
    {
        assertTrue(corrupt(FrameDescriptor.HEADER_LENGTH, 0x01020305).contains("malformed frame from peer 3: checksum"));
    }

    @Test
    void shouldDetectABadLength()
    {
        assertTrue(corrupt(FrameDescriptor.LENGTH_OFFSET, 1 << 20).contains("length 1048576 is outside 32..4128"));
    }

    @Test
    void shouldDetectAnUnknownTypeAndAWrongVersion()
    {
        // version byte 1, type byte 9 (little-endian int at offset 4: version, type, flags)
        assertTrue(corrupt(FrameDescriptor.VERSION_OFFSET, 0x0901).contains("type 9 is unknown"));
    }

    @Test
    void shouldDetectAWrongVersion()
    {
        assertTrue(corrupt(FrameDescriptor.VERSION_OFFSET, TYPE << 8 | 2).contains("version 2 is not the supported version 1"));
    }
}
