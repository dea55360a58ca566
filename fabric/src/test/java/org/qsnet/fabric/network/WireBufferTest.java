package org.qsnet.fabric.network;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;
import org.qsnet.fabric.QsnetException;

/**
 * The partitions' wire buffer writes little-endian fields that a {@link ByteBuffer} reads back
 * unchanged, across growth from its smallest size; fields filled in afterwards may only rewrite
 * bytes already written.
 */
class WireBufferTest
{
    @Test
    void shouldReadBackEveryFieldInOrderAcrossGrowth()
    {
        final SplittableRandom random = new SplittableRandom(3);
        final WireBuffer out = new WireBuffer(1);
        final long[] values = new long[5_000];
        final int[] kinds = new int[values.length];
        for (int i = 0; i < values.length; i++)
        {
            kinds[i] = random.nextInt(5);
            values[i] = random.nextLong();
            switch (kinds[i])
            {
                case 0 -> out.putByte((int)values[i]);
                case 1 -> out.putInt((int)values[i]);
                case 2 -> out.putLong(values[i]);
                case 3 -> out.putBytes(bytes(values[i]));
                default -> out.putString(i % 7 == 0 ? null : "é" + values[i]);
            }
        }
        final ByteBuffer in = out.flip();
        assertEquals(ByteOrder.LITTLE_ENDIAN, in.order());
        assertEquals(0, in.position());
        assertEquals(out.position(), in.limit());
        for (int i = 0; i < values.length; i++)
        {
            switch (kinds[i])
            {
                case 0 -> assertEquals((byte)values[i], in.get());
                case 1 -> assertEquals((int)values[i], in.getInt());
                case 2 -> assertEquals(values[i], in.getLong());
                case 3 -> assertArrayEquals(bytes(values[i]), WireBuffer.getBytes(in));
                default -> assertEquals(i % 7 == 0 ? null : "é" + values[i], WireBuffer.getString(in));
            }
        }
        assertTrue(!in.hasRemaining());
    }

    @Test
    void shouldRewriteOnlyWhatWasWrittenAndAppendBuffers()
    {
        final WireBuffer out = new WireBuffer(16);
        out.putByte(0).putInt(0).putLong(-1);
        out.putByteAt(0, (byte)9);
        out.putIntAt(1, 0x01020304);
        final ByteBuffer src = ByteBuffer.wrap(new byte[] {5, 6, 7});
        out.put(src);
        assertEquals(3, src.position());
        final ByteBuffer in = out.flip();
        assertEquals(9, in.get());
        assertEquals(0x01020304, in.getInt());
        assertEquals(-1L, in.getLong());
        assertEquals(5, in.get());
        assertEquals(16, out.position());

        final QsnetException past = assertThrows(QsnetException.class, () -> out.putIntAt(13, 1));
        assertTrue(past.getMessage().contains("index 13 must be in 0..12"), past.getMessage());
        assertThrows(QsnetException.class, () -> out.putByteAt(-1, (byte)1));
        final QsnetException truncate = assertThrows(QsnetException.class, () -> out.truncate(17));
        assertTrue(truncate.getMessage().contains("truncate index 17 must be in 0..16"), truncate.getMessage());

        out.truncate(5);
        assertEquals(5, out.position());
        out.clear();
        assertEquals(0, out.flip().remaining());
        assertNull(WireBuffer.getBytes(new WireBuffer(4).putBytes(null).flip()));
    }

    private static byte[] bytes(final long seed)
    {
        final byte[] b = new byte[(int)(seed >>> 58)];
        new SplittableRandom(seed).nextBytes(b);
        return b;
    }
}
