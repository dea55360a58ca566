package org.qsnet.fabric.network;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.qsnet.fabric.QsnetException;

class PartitioningTest
{
    /** Every node has one owner, owners never decrease along the nodes, and firstNode is where each block starts. */
    private static void assertContiguous(final Partitioning p)
    {
        int last = 0;
        for (int n = 0; n < p.nodeCount(); n++)
        {
            final int o = p.ownerOf(n);
            assertTrue(o >= last && o < p.count(), p + ": node " + n + " owner " + o);
            if (o != last)
            {
                assertEquals(o, last + 1, p + ": node " + n + " skips a partition");
                assertEquals(n, p.firstNode(o), p + ": first node of partition " + o);
            }
            last = o;
        }
        assertEquals(p.count() - 1, last, p + ": the last partition holds the last node");
        assertEquals(0, p.firstNode(0));
    }

    @Test
    void shouldSplitTheWholeMachineEvenlyByDefault()
    {
        final Partitioning p = new Partitioning(4, 1, 64);
        assertEquals(new Partitioning(4, 1, 64, 0, 64), p);
        assertEquals(0, p.ownerOf(15));
        assertEquals(1, p.ownerOf(16));
        assertEquals(3, p.ownerOf(63));
        assertEquals(48, p.firstNode(3));
        for (final int count : new int[] {1, 2, 3, 4, 5, 7, 16})
        {
            assertContiguous(new Partitioning(count, 0, 16));
        }
    }

    @Test
    void shouldSplitAJobsNodesSoThatEveryPartitionRunsSomeOfThem()
    {
        // prun -n 2 --jvms 2 on a 16-node machine: nodes 0 and 1, one per partition
        final Partitioning two = Partitioning.around(2, 0, 16, 0, 2);
        assertEquals(0, two.ownerOf(0));
        assertEquals(1, two.ownerOf(1));
        assertEquals(1, two.ownerOf(15));
        assertContiguous(two);
        // -B 5 -N 6 in 3 partitions: nodes 5-6, 7-8, 9-10
        final Partitioning three = Partitioning.around(3, 2, 16, 5, 6);
        assertEquals(0, three.ownerOf(0));
        assertEquals(0, three.ownerOf(6));
        assertEquals(1, three.ownerOf(7));
        assertEquals(1, three.ownerOf(8));
        assertEquals(2, three.ownerOf(9));
        assertEquals(7, three.firstNode(1));
        assertEquals(9, three.firstNode(2));
        assertContiguous(three);
        for (int first = 0; first < 16; first++)
        {
            for (int nodes = 1; first + nodes <= 16; nodes++)
            {
                for (final int count : new int[] {2, 3, 4})
                {
                    final Partitioning p = Partitioning.around(count, 0, 16, first, nodes);
                    assertContiguous(p);
                    if (nodes >= count)
                    {
                        final boolean[] used = new boolean[count];
                        for (int n = first; n < first + nodes; n++)
                        {
                            used[p.ownerOf(n)] = true;
                        }
                        for (int q = 0; q < count; q++)
                        {
                            assertTrue(used[q], p + ": partition " + q + " runs none of nodes " + first + ".." + (first + nodes - 1));
                        }
                    }
                }
            }
        }
    }

    @Test
    void shouldWidenASpanSmallerThanThePartitionCountAndKeepItInTheMachine()
    {
        assertEquals(new Partitioning(4, 0, 16, 12, 4), Partitioning.around(4, 0, 16, 15, 1));
        assertEquals(new Partitioning(2, 1, 16, 0, 16), Partitioning.around(2, 1, 16, -3, 40));
    }

    @Test
    void shouldRefuseASpanOutsideTheMachineNamingIt()
    {
        final QsnetException tooFew = assertThrows(QsnetException.class, () -> new Partitioning(4, 0, 16, 0, 3));
        assertTrue(tooFew.getMessage().contains("spanNodes") && tooFew.getMessage().contains("3"), tooFew.getMessage());
        final QsnetException past = assertThrows(QsnetException.class, () -> new Partitioning(2, 0, 16, 10, 8));
        assertTrue(past.getMessage().contains("spanFirst") && past.getMessage().contains("10"), past.getMessage());
    }
}
