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

    @Test
    void shouldKeepLoadedEntriesOfThePagesAnUnmapLeavesAndForgetThoseOfARemap()
    {
        final Mmu mmu = new Mmu("context 0x400 on node 0");
        final long page = SparseMemory.PAGE_SIZE;
        mmu.map(0, Mmu.Kind.MAIN, 0, 100 * page, Mmu.ALL);
        for (int p = 0; p < 100; p++)
        {
            assertTrue(mmu.loadForNic(p * page + 5), "first touch of page " + p);
        }
        for (int p = 0; p < 100; p++)
        {
            assertTrue(!mmu.loadForNic(p * page), "page " + p + " is loaded");
        }
        // a hole in the middle: the pages on either side keep their entries and their translation
        mmu.unmap(40 * page, 20 * page);
        assertTrue(!mmu.isMapped(40 * page) && !mmu.isMapped(59 * page + 8191));
        assertTrue(mmu.isMapped(39 * page + 8191) && mmu.isMapped(60 * page));
        assertEquals(65 * page + 3, Mmu.offset(mmu.translate(65 * page + 3, Mmu.READ, "load")));
        assertTrue(!mmu.loadForNic(39 * page) && !mmu.loadForNic(60 * page), "kept pages stay loaded");
        // mapping the hole again (onto other memory) starts with no entries loaded
        mmu.map(40 * page, Mmu.Kind.MAIN, 1000 * page, 20 * page, Mmu.READ);
        assertEquals(1000 * page + 9, Mmu.offset(mmu.translate(40 * page + 9, Mmu.READ, "load")));
        assertTrue(mmu.loadForNic(45 * page), "a page of the new mapping faults once");
        assertTrue(!mmu.loadForNic(45 * page));
        // SDRAM is loaded from the start; an overlapping map replaces the old pages
        mmu.map(90 * page, Mmu.Kind.SDRAM, 0, 20 * page, Mmu.ALL);
        assertEquals(Mmu.Kind.SDRAM, mmu.kindOf(95 * page));
        assertEquals(Mmu.Kind.MAIN, mmu.kindOf(89 * page));
        assertTrue(!mmu.loadForNic(95 * page));
        assertTrue(mmu.toString().contains("110 pages mapped"), mmu.toString());
        assertTrue(!mmu.loadForNic(-1) && !mmu.loadForNic(200 * page), "unmapped or out of range");
    }
}
