package org.qsnet.fabric.memory;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.qsnet.fabric.QsnetException;
import org.qsnet.fabric.engine.Kernel;

class SparseMemoryTest
{
    @Test
    void shouldReadZeroFromUntouchedPagesAndBackOnlyWrittenOnes()
    {
        try (SparseMemory m = new SparseMemory("main of vp 0", 1L << 32))
        {
            assertEquals(0, m.getLong(0xC808000L));
            assertEquals(0, m.pagesTouched());
            m.putInt(0xC808000L, 0xdeadbeef);
            m.putLong(8192 * 3 - 4, 0x0102030405060708L);
            assertEquals(0xdeadbeef, m.getInt(0xC808000L));
            assertEquals(0x0102030405060708L, m.getLong(8192 * 3 - 4), "a word straddling two pages");
            assertEquals(3, m.pagesTouched());
            final byte[] data = new byte[20_000];
            for (int i = 0; i < data.length; i++)
            {
                data[i] = (byte)(i * 7);
            }
            m.write(100_000, data, 0, data.length);
            final byte[] back = new byte[data.length];
            m.read(100_000, back, 0, back.length);
            assertArrayEquals(data, back);
            m.zero(100_010, 10);
            assertEquals(0, m.getByte(100_015));
            assertEquals(data[21], m.getByte(100_021));
        }
    }

    @Test
    void shouldRejectAccessOutsideTheSpan()
    {
        try (SparseMemory m = new SparseMemory("SDRAM of node 1", 64L << 20))
        {
            final QsnetException e = assertThrows(QsnetException.class, () -> m.putInt((64L << 20) - 2, 1));
            assertTrue(e.getMessage().contains("is outside SDRAM of node 1"), e.getMessage());
        }
    }

    @Test
    void shouldBeUsableFromSimulatedProcessesOnTheirOwnThreads()
    {
        try (SparseMemory m = new SparseMemory("shared", 1 << 20))
        {
            final Kernel k = new Kernel();
            for (int i = 0; i < 4; i++)
            {
                final int id = i;
                k.spawn(100 + i, "p" + i, self ->
                {
                    self.advance(10 * id);
                    m.putInt(4L * id, id + 1);
                });
            }
            k.run().throwIfFailed();
            for (int i = 0; i < 4; i++)
            {
                assertEquals(i + 1, m.getInt(4L * i));
            }
        }
    }
}
