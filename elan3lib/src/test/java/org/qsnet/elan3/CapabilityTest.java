package org.qsnet.elan3;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.qsnet.fabric.QsnetException;

class CapabilityTest
{
    private static ElanCapability cap(final int type, final int nodes, final int ppn)
    {
        final ElanCapability c = new ElanCapability();
        c.type = type;
        c.lowNode = 4;
        c.highNode = 4 + nodes - 1;
        c.lowContext = 0x400;
        c.highContext = 0x400 + ppn - 1;
        return c;
    }

    @Test
    void shouldNumberBlockLayoutNodeByNodeAndSkipHoles()
    {
        final ElanCapability c = cap(ElanCapability.ELAN_CAP_TYPE_BLOCK, 3, 2);
        // node 0 and node 2 full, node 1 a hole
        for (final int slot : new int[] {0, 1, 4, 5})
        {
            c.setBit(slot);
        }
        assertEquals(4, c.nvps());
        assertEquals(2, c.maxlocal());
        assertEquals(2, c.nlocal(0));
        assertEquals(0, c.nlocal(1));
        assertEquals(new ElanLocation(0, 1), c.vp2location(1));
        assertEquals(new ElanLocation(2, 0), c.vp2location(2));
        assertEquals(3, c.location2vp(new ElanLocation(2, 1)));
        assertEquals(ElanCapability.ELAN_INVALID_PROCESS, c.location2vp(new ElanLocation(1, 0)));
        assertEquals("VP 4 is outside the capability's 4 VPs", assertThrows(QsnetException.class, () -> c.vp2location(4))
            .getMessage());
    }

    @Test
    void shouldNumberCyclicLayoutAcrossNodes()
    {
        final ElanCapability c = cap(ElanCapability.ELAN_CAP_TYPE_CYCLIC, 8, 2);
        for (int s = 0; s < 16; s++)
        {
            c.setBit(s);
        }
        // "processes 0 and 8 would be allocated to node 0" for 8 nodes
        assertEquals(new ElanLocation(0, 0), c.vp2location(0));
        assertEquals(new ElanLocation(0, 1), c.vp2location(8));
        assertEquals(new ElanLocation(3, 0), c.vp2location(3));
        assertEquals(9, c.location2vp(new ElanLocation(1, 1)));
    }

    @Test
    void shouldRoundTripTheCompactStringForm()
    {
        final int[] key = {1, 2, 3, 4};
        final ElanCapability c = ElanCapability.fromCompactString("N5C2-3-5N4-7R1b", key);
        assertEquals(2, c.lowContext);
        assertEquals(3, c.myContext);
        assertEquals(5, c.highContext);
        assertEquals(16, c.nvps());
        assertEquals("N5C2-3-5N4-7R1b", c.toCompactString(5));
        assertArrayEquals(key, c.userKey);
        assertArrayEquals(new int[] {0}, c.rails());
        assertTrue(c.capabilityString().contains("ctx 2..5 (my 3) nodes 4..7"), c.capabilityString());
        assertThrows(QsnetException.class, () -> ElanCapability.fromCompactString("N5C2-9-5N4-7R1b", key));
        assertTrue(assertThrows(QsnetException.class, () -> ElanCapability.fromCompactString("bogus", key)).getMessage()
            .contains("does not match"));
    }
}
