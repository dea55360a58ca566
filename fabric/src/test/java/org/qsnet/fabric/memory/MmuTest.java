package org.qsnet.fabric.memory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class MmuTest
{
    @Test
    void shouldTranslateMappedPagesWithTheirRightsAndForgetUnmappedOnes()
    {
        final Mmu mmu = new Mmu("context 0x400 on node 0");
        // 3000 scattered pages: the table grows and keeps every entry
        for (int i = 0; i < 3000; i++)
        {
            final long va = (long)i * 7 * SparseMemory.PAGE_SIZE;
            mmu.map(va, i % 2 == 0 ? Mmu.Kind.MAIN : Mmu.Kind.SDRAM, (long)i * SparseMemory.PAGE_SIZE, 1,
                i % 3 == 0 ? Mmu.READ : Mmu.ALL);
        }
        for (int i = 0; i < 3000; i++)
        {
            final long va = (long)i * 7 * SparseMemory.PAGE_SIZE + 12;
            final long t = mmu.translate(va, Mmu.READ, "load");
            assertEquals((long)i * SparseMemory.PAGE_SIZE + 12, Mmu.offset(t));
            assertEquals(i % 2 != 0, Mmu.isSdram(t));
        }
        // unmap every other page: probing clusters must still find the rest
        for (int i = 0; i < 3000; i += 2)
        {
            mmu.unmap((long)i * 7 * SparseMemory.PAGE_SIZE, 1);
        }
        for (int i = 0; i < 3000; i++)
        {
            assertEquals(i % 2 == 1, mmu.isMapped((long)i * 7 * SparseMemory.PAGE_SIZE), "page " + i);
        }
        final MemoryFault e = assertThrows(MemoryFault.class, () -> mmu.translate(3L * 7 * SparseMemory.PAGE_SIZE, Mmu.WRITE,
            "DMA destination"));
        assertTrue(e.getMessage().contains("needs rights write but context 0x400 on node 0 grants read"), e.getMessage());
        assertTrue(mmu.toString().contains("1500 pages mapped"), mmu.toString());
    }
}
