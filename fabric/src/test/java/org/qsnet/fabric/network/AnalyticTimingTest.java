package org.qsnet.fabric.network;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.qsnet.fabric.engine.Kernel;

/**
 * {@code --timing analytic}: a packet's times from the formula, equal to the wormhole model's for
 * a packet alone in the network, and blind to contention.
 */
class AnalyticTimingTest
{
    private static final class Run
    {
        final Kernel kernel = new Kernel();
        final Fabric fabric;
        final RecordingEndpoint[] ends;

        Run(final FabricConfig config)
        {
            fabric = new Fabric(kernel, config);
            ends = new RecordingEndpoint[fabric.topology().nodeCount()];
            for (int i = 0; i < ends.length; i++)
            {
                ends[i] = new RecordingEndpoint(i, 30);
                fabric.attach(i, ends[i]);
            }
        }
    }

    @Test
    void shouldGiveALonePacketTheWormholeModelsTimes()
    {
        for (final int[] pair : new int[][] {{0, 1}, {0, 5}, {3, 60}})
        {
            final Packet[] p = new Packet[2];
            int i = 0;
            for (final boolean analytic : new boolean[] {false, true})
            {
                final Run r = new Run(FabricConfig.elite(3).withAnalyticTiming(analytic));
                p[i] = Packet.unicast(pair[0], pair[1], 320);
                r.fabric.port(pair[0]).inject(p[i]);
                r.kernel.run();
                i++;
            }
            assertEquals(p[0].headNs(), p[1].headNs(), "head " + pair[0] + " -> " + pair[1]);
            assertEquals(p[0].tailNs(), p[1].tailNs(), "tail " + pair[0] + " -> " + pair[1]);
            assertEquals(p[0].ackNs(), p[1].ackNs(), "ack " + pair[0] + " -> " + pair[1]);
        }
    }

    @Test
    void shouldFollowTheFormulaAndSerialiseOnlyTheSourceLink()
    {
        final FabricConfig c = FabricConfig.elite(3).withAnalyticTiming(true);
        final Run r = new Run(c);
        // 0 -> 63 crosses 6 links; two packets from node 0 share its link, a third from node 1 does not
        final Packet a = Packet.unicast(0, 63, 320);
        final Packet b = Packet.unicast(0, 63, 320);
        final Packet x = Packet.unicast(1, 63, 320);
        r.fabric.port(0).inject(a);
        r.fabric.port(0).inject(b);
        r.fabric.port(1).inject(x);
        r.kernel.run();
        final long body = c.serializationNs(320 + c.packetOverheadBytes());
        final long path = 6 * c.wireDelayNs() + 5 * c.switchDelayNs();
        assertEquals(path, a.headNs());
        assertEquals(path + body, a.tailNs());
        assertEquals(path + body + 30 + path, a.ackNs());
        assertEquals(body + c.packetGapNs() + path, b.headNs(), "the second packet waits for node 0's link");
        assertEquals(path, x.headNs(), "node 1's packet meets no contention, even on node 63's link");
    }

    @Test
    void shouldIgnoreContentionAtAHotSpotWhereTheWormholeModelQueues()
    {
        final long[] lastAck = new long[2];
        int i = 0;
        for (final boolean analytic : new boolean[] {false, true})
        {
            final Run r = new Run(FabricConfig.elite(2).withAnalyticTiming(analytic));
            for (int n = 1; n < 16; n++)
            {
                r.fabric.port(n).inject(Packet.unicast(n, 0, 320));
            }
            r.kernel.run();
            for (final Packet p : r.ends[0].arrived)
            {
                lastAck[i] = Math.max(lastAck[i], p.ackNs());
            }
            assertEquals(15, r.ends[0].arrived.size());
            i++;
        }
        assertTrue(lastAck[1] * 5 < lastAck[0], "15 packets into one link: exact " + lastAck[0] + " ns, analytic "
            + lastAck[1] + " ns");
    }
}
