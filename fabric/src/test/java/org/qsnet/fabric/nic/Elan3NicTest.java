package org.qsnet.fabric.nic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.qsnet.fabric.QsnetException;
import org.qsnet.fabric.engine.Kernel;
import org.qsnet.fabric.machine.Machine;
import org.qsnet.fabric.machine.PlatformProfile;
import org.qsnet.fabric.memory.SparseMemory;

class Elan3NicTest
{
    @Test
    void shouldServeThreadProcessorWorkFirstComeFirstServed()
    {
        final PlatformProfile p = PlatformProfile.pentium3He();
        final Machine m = new Machine(new Kernel(), p);
        final Elan3Nic nic = m.nic(3);
        assertEquals(3 * p.threadOpNs(), nic.threadWork(0, 3));
        assertEquals(5 * p.threadOpNs(), nic.threadWork(0, 2), "the second request waits for the first");
        assertEquals(10_000 + p.threadOpNs(), nic.threadWork(10_000, 1));
        assertThrows(QsnetException.class, () -> nic.threadWork(0, -1));
    }

    @Test
    void shouldRefuseASecondAttachToATakenContextAndExhaustedSdram()
    {
        final Machine m = new Machine(new Kernel(), PlatformProfile.pentium3He());
        final Elan3Nic nic = m.nic(0);
        final SparseMemory main = new SparseMemory("main", 1L << 32);
        nic.attach(0x400, new int[] {1, 2, 3, 4}, main, null);
        final QsnetException e = assertThrows(QsnetException.class, () -> nic.attach(0x400, new int[] {1, 2, 3, 4}, main, null));
        assertEquals("context 0x400 on node 0 is already attached", e.getMessage());
        nic.reserveSdram(60L << 20);
        assertTrue(assertThrows(QsnetException.class, () -> nic.reserveSdram(8L << 20)).getMessage()
            .startsWith("SDRAM of node 0 is exhausted"));
    }

    @Test
    void shouldMissTheTlbOnlyForPagesNotAmongTheLastSixteen()
    {
        final Tlb tlb = new Tlb(16);
        for (int page = 0; page < 16; page++)
        {
            assertTrue(!tlb.access(0x400, page));
        }
        for (int page = 0; page < 16; page++)
        {
            assertTrue(tlb.access(0x400, page));
        }
        assertTrue(!tlb.access(0x400, 16), "a 17th page evicts the least recently used");
        assertTrue(!tlb.access(0x400, 0));
        assertTrue(!tlb.access(0x401, 5), "another context's page is another entry");
        assertEquals(16, tlb.hits());
    }
}
