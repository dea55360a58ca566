package org.qsnet.fabric.network;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.qsnet.fabric.QsnetException;
import org.qsnet.fabric.engine.Kernel;

@Timeout(value = 120, unit = TimeUnit.SECONDS)
class FabricTest
{
    private static final long TURNAROUND = 20;

    private static RecordingEndpoint[] attachAll(final Fabric f)
    {
        final RecordingEndpoint[] eps = new RecordingEndpoint[f.topology().nodeCount()];
        for (int i = 0; i < eps.length; i++)
        {
            eps[i] = new RecordingEndpoint(i, TURNAROUND);
            f.attach(i, eps[i]);
        }
        return eps;
    }

    @ParameterizedTest(name = "{0} -> {1}: {2} links")
    @CsvSource({"0, 1, 2", "0, 5, 4", "0, 63, 6", "17, 22, 4", "42, 3, 6", "9, 9, 2"})
    void shouldDeliverOnePacketWithExactLatencyDerivedFromParameters(final int src, final int dst, final int links)
    {
        final Kernel k = new Kernel();
        final FabricConfig cfg = FabricConfig.elite(3);
        final Fabric f = new Fabric(k, cfg);
        final RecordingEndpoint[] eps = attachAll(f);
        final Packet p = Packet.unicast(src, dst, 320);
        f.port(src).inject(p);
        k.run();

        final long headNs = links * cfg.wireDelayNs() + (links - 1) * cfg.switchDelayNs();
        final long bodyNs = (320 + 58) * 2500 / 1000;
        assertEquals(945, bodyNs);
        assertEquals(headNs, p.headNs());
        assertEquals(headNs + bodyNs, p.tailNs());
        assertEquals(List.of(headNs + bodyNs), eps[dst].arrivalNs);
        assertEquals(headNs + bodyNs + TURNAROUND + headNs, p.ackNs());
        assertEquals(1, eps[src].acked.size());
        assertEquals(links, f.packetHops());
        for (final LinkOutput l : f.links())
        {
            assertEquals(0, l.busyVirtualChannels(), "every channel released by the EOP: " + l);
        }
    }

    @Test
    void shouldMakeSecondPacketWaitForTheCircuitWithOneVirtualChannel()
    {
        final Kernel k = new Kernel();
        final FabricConfig cfg = FabricConfig.elite(2).withVirtualChannels(1);
        final Fabric f = new Fabric(k, cfg);
        attachAll(f);
        final Packet a = Packet.unicast(0, 2, 320);
        final Packet b = Packet.unicast(1, 2, 320);
        f.port(0).inject(a);
        f.port(1).inject(b);
        k.run();
        // both headers reach the leaf at 20 ns; a (origin node 0) is served first
        assertEquals(75, a.headNs());
        assertEquals(1020, a.tailNs());
        assertEquals(1020 + 20 + 75, a.ackNs());
        // the EOP of a releases the leaf's down link one hop after the ack: 1115 + 55
        final long grant = 1115 + 55;
        assertEquals(grant + 55, b.headNs());
        assertEquals(grant + 55 + 945, b.tailNs());
        final LinkOutput hot = f.nodeInLink(2);
        assertEquals(grant - 20, hot.waitNs(), "b waited at the leaf from 20 ns until the grant");
        assertEquals(1, hot.waits());
        assertEquals(grant - 20, f.switchAt(0).downWaitNs());
    }

    @Test
    void shouldServeHighPriorityHeadersFirstUnlessANormalOneHasAged()
    {
        for (final long aging : new long[] {0, 50})
        {
            final Kernel k = new Kernel();
            final Fabric f = new Fabric(k, FabricConfig.elite(1).withVirtualChannels(1).withAgingNs(aging));
            attachAll(f);
            final Packet a = Packet.unicast(0, 2, 320);
            final Packet normal = Packet.unicast(1, 2, 320);
            final Packet high = Packet.unicast(3, 2, 320).priority(1);
            f.port(0).inject(a);
            f.port(1).inject(normal);
            // the high-priority header reaches the switch 80 ns after the normal one
            f.nodeOrigin(3).schedule(80, t -> f.port(3).inject(high));
            k.run();
            if (aging == 0)
            {
                assertTrue(high.tailNs() < normal.tailNs(), "high priority first: " + high.tailNs() + " vs " + normal.tailNs());
            }
            else
            {
                assertTrue(normal.tailNs() < high.tailNs(), "the normal header aged past 50 ns goes first");
            }
            assertEquals(a.ackNs() + 55 + 55 + 945, Math.min(high.tailNs(), normal.tailNs()));
        }
    }

    @Test
    void shouldUseSecondVirtualChannelAsEscapePathAndSerialiseBodies()
    {
        final Kernel k = new Kernel();
        final Fabric f = new Fabric(k, FabricConfig.elite(2));
        attachAll(f);
        final Packet a = Packet.unicast(0, 2, 320);
        final Packet b = Packet.unicast(1, 2, 320);
        final Packet c = Packet.unicast(3, 2, 320);
        f.port(0).inject(a);
        f.port(1).inject(b);
        f.port(3).inject(c);
        k.run();
        assertEquals(1020, a.tailNs());
        // b holds the second channel at once; its body follows a's on the shared link, after the
        // 10 ns packet gap
        assertEquals(75, b.headNs());
        assertEquals(1020 + 10 + 945, b.tailNs());
        // c waits for the first circuit to close: a's ack at 1115, EOP at the leaf at 1170
        assertEquals(1170 + 55, c.headNs());
        assertEquals(1975 + 10 + 945, c.tailNs());
        assertEquals(1170 - 20, f.nodeInLink(2).waitNs());
    }

    @Test
    void shouldLetABodyUseTheGapBeforeABodyReservedLaterOnTheSameLink()
    {
        final Kernel k = new Kernel();
        final Fabric f = new Fabric(k, FabricConfig.elite(1));
        attachAll(f);
        final Packet y = Packet.unicast(0, 1, 320);
        final Packet x = Packet.unicast(0, 3, 320);
        final Packet z = Packet.unicast(2, 3, 320);
        f.port(0).inject(y);
        f.port(0).inject(x);
        f.port(2).inject(z);
        k.run();
        assertEquals(1020, y.tailNs());
        // x shares node 0's link with y: its body waits for y's and the 10 ns gap, and is reserved
        // on node 3's link for [1030, 1985) while that link is idle before
        assertEquals(1030 + 945, x.tailNs());
        // z's body and gap, [75, 1030), fit in node 3's link before x's reservation
        assertEquals(75, z.headNs());
        assertEquals(1020, z.tailNs());
    }

    @Test
    void shouldEndABodysReservationWhenItsCircuitReleasesTheChannel()
    {
        // a gap after each body (1 us) longer than an acknowledgement's way back, so that a body's
        // reservation of node 1's link, [start, tail + 1000), still runs when its circuit releases
        // the link. z takes channel 0 and streams at 75; y, sent 10 ns later, takes channel 1 and
        // waits for z's reservation: [2020, 2965 + 1000). Both circuits are released by 3200, when x
        // is sent; x takes channel 0 and streams as soon as its header arrives, at 3275: y's
        // released reservation on channel 1 holds nothing (else x would wait until 3965)
        final FabricConfig e = FabricConfig.elite(1);
        final FabricConfig config = new FabricConfig(e.k(), e.dim(), e.linkPsPerByte(), e.wireDelayNs(),
            e.switchDelayNs(), e.virtualChannels(), e.maxPayloadBytes(), e.packetOverheadBytes(), 1000,
            e.ackTurnaroundNs(), e.adaptiveAscent(), e.agingNs(), e.crcErrorRate(), e.seed(), e.analyticTiming());
        final Kernel k = new Kernel();
        final Fabric f = new Fabric(k, config);
        attachAll(f);
        final Packet z = Packet.unicast(0, 1, 320);
        final Packet y = Packet.unicast(3, 1, 320);
        final Packet x = Packet.unicast(2, 1, 320);
        f.port(0).inject(z);
        f.nodeOrigin(3).schedule(10, t -> f.port(3).inject(y));
        f.nodeOrigin(2).schedule(3200, t -> f.port(2).inject(x));
        k.run();
        assertEquals(1020, z.tailNs());
        assertEquals(2020 + 945, y.tailNs());
        assertTrue(y.ackNs() + 55 < 3200, "y's circuit is released before x is sent: ack at " + y.ackNs());
        assertEquals(3275, x.headNs());
        assertEquals(3275 + 945, x.tailNs());
    }

    @Test
    void shouldSpreadAdaptiveAscentOverUpLinksWhereDeterministicAscentCollides()
    {
        for (final boolean adaptive : new boolean[] {true, false})
        {
            final Kernel k = new Kernel();
            final Fabric f = new Fabric(k, FabricConfig.elite(2).withAdaptiveAscent(adaptive));
            attachAll(f);
            // three nodes of leaf 0 to destinations whose low digit is 0: destination-digit ascent
            // sends all three through up link 0
            f.port(0).inject(Packet.unicast(0, 4, 320));
            f.port(1).inject(Packet.unicast(1, 8, 320));
            f.port(2).inject(Packet.unicast(2, 12, 320));
            k.run();
            final EliteSwitch leaf = f.switchAt(0);
            int used = 0;
            long waits = 0;
            for (int j = 0; j < 4; j++)
            {
                used += leaf.up(j).packets() > 0 ? 1 : 0;
                waits += leaf.up(j).waits();
            }
            if (adaptive)
            {
                assertEquals(3, used, "adaptive ascent takes three different up links");
                assertEquals(0, waits);
            }
            else
            {
                assertEquals(1, used, "deterministic ascent takes up link 0 for all");
                assertEquals(3, leaf.up(0).packets());
                assertEquals(1, waits, "the third header waits: two virtual channels only");
            }
        }
    }

    @Test
    void shouldKeepHotSpotAggregateBandwidthFlatAsSendersGrow()
    {
        final double[] rates = new double[4];
        final int[] senders = {1, 3, 7, 15};
        for (int s = 0; s < senders.length; s++)
        {
            final Kernel k = new Kernel();
            final Fabric f = new Fabric(k, FabricConfig.elite(2));
            attachAll(f);
            final int perSender = 1200 / senders[s];
            for (int i = 1; i <= senders[s]; i++)
            {
                for (int j = 0; j < perSender; j++)
                {
                    f.port(i).inject(Packet.unicast(i, 0, 320));
                }
            }
            k.run();
            final LinkOutput hot = f.nodeInLink(0);
            rates[s] = f.deliveredPayloadBytes() * 1e3 / k.nowNs(); // MB/s
            assertEquals((long)perSender * senders[s], hot.packets());
        }
        final double peak = FabricConfig.elite(2).peakPayloadBytesPerSecond() / 1e6;
        for (int s = 0; s < rates.length; s++)
        {
            assertTrue(rates[s] > 0.97 * peak && rates[s] <= peak, "hot spot with " + senders[s] + " senders: "
                + rates[s] + " MB/s, peak " + peak);
        }
        assertTrue(Math.abs(rates[3] - rates[0]) / rates[0] < 0.02, "flat: " + java.util.Arrays.toString(rates));
    }

    @Test
    void shouldCompleteBroadcastOnlyWhenEveryRecipientHasIt()
    {
        final Kernel k = new Kernel();
        final Fabric f = new Fabric(k, FabricConfig.elite(3));
        final RecordingEndpoint[] eps = attachAll(f);
        final Packet all = Packet.broadcast(5, 0, 63, 64);
        f.port(5).inject(all);
        k.run();
        long lastArrival = 0;
        for (int i = 0; i < 64; i++)
        {
            assertEquals(1, eps[i].arrived.size(), "node " + i);
            lastArrival = Math.max(lastArrival, eps[i].arrivalNs.get(0));
        }
        assertEquals(1, eps[5].acked.size());
        // six links down to every leaf: header 6 x 20 + 5 x 35, body 122 B
        assertEquals(6 * 20 + 5 * 35, all.headNs());
        assertEquals(all.headNs() + (64 + 58) * 5 / 2, all.tailNs());
        assertEquals(all.tailNs() + TURNAROUND + 6 * 20 + 5 * 35, all.ackNs());
        assertTrue(all.ackNs() > lastArrival);
        for (final LinkOutput l : f.links())
        {
            assertEquals(0, l.busyVirtualChannels(), l.name());
        }
    }

    @Test
    void shouldBroadcastToContiguousRangeOnly()
    {
        final Kernel k = new Kernel();
        final Fabric f = new Fabric(k, FabricConfig.elite(3));
        final RecordingEndpoint[] eps = attachAll(f);
        f.port(40).inject(Packet.broadcast(40, 13, 22, 0));
        f.port(7).inject(Packet.unicast(7, 15, 320));
        k.run();
        for (int i = 0; i < 64; i++)
        {
            final int expected = (i >= 13 && i <= 22 ? 1 : 0) + (i == 15 ? 1 : 0);
            assertEquals(expected, eps[i].arrived.size(), "node " + i);
        }
    }

    @Test
    void shouldReturnNonWriteBlockResultInTheAck()
    {
        final Kernel k = new Kernel();
        final Fabric f = new Fabric(k, FabricConfig.elite(2));
        final RecordingEndpoint[] eps = attachAll(f);
        final List<Packet> ops = new ArrayList<>();
        for (int i = 1; i <= 4; i++)
        {
            final Packet p = Packet.nonWriteBlock(i, 0, 8).attach((long)i);
            ops.add(p);
            f.port(i).inject(p);
        }
        k.run();
        assertEquals(10, eps[0].atomicCell);
        // each fetch-and-add returns the sum of the operands applied before it, in arrival order
        long before = 0;
        for (final Packet p : eps[0].arrived)
        {
            assertEquals(before, p.ackValue(), "old value returned to node " + p.source());
            before += (Long)p.attachment();
        }
        assertEquals(4, ops.stream().map(Packet::ackValue).distinct().count());
    }

    @Test
    void shouldRetransmitCorruptedPacketsWithoutLossOrDuplication()
    {
        final Kernel k = new Kernel();
        final Fabric f = new Fabric(k, FabricConfig.elite(3).withCrcErrorRate(0.2).withSeed(11));
        final RecordingEndpoint[] eps = attachAll(f);
        final SplittableRandom rnd = new SplittableRandom(3);
        final Map<Integer, Long> sentChecksum = new HashMap<>();
        int sent = 0;
        for (int src = 0; src < 64; src++)
        {
            for (int j = 0; j < 20; j++)
            {
                final int dst = rnd.nextInt(64);
                final long data = rnd.nextLong();
                f.port(src).inject(Packet.unicast(src, dst, 320).attach(data));
                sentChecksum.merge(dst, data, Long::sum);
                sent++;
            }
        }
        k.run();
        int received = 0;
        int retries = 0;
        for (int dst = 0; dst < 64; dst++)
        {
            long sum = 0;
            for (final Packet p : eps[dst].arrived)
            {
                sum += (Long)p.attachment();
                retries += p.retries();
            }
            received += eps[dst].arrived.size();
            assertEquals(sentChecksum.getOrDefault(dst, 0L), sum, "checksum at node " + dst);
        }
        assertEquals(sent, received, "no loss, no duplicate");
        assertTrue(f.crcErrors() > 100, "errors injected: " + f.crcErrors());
        assertEquals(f.crcErrors(), retries);
    }

    @Test
    void shouldRejectInvalidConfigurationWithClearMessages()
    {
        assertEquals("dim 7 must be in 1..6",
            assertThrows(QsnetException.class, () -> FabricConfig.elite(7)).getMessage());
        assertEquals("k 1 must be in 2..8",
            assertThrows(QsnetException.class, () -> FabricConfig.elite(2).withK(1)).getMessage());
        assertEquals("crcErrorRate 1.5 must be in [0, 1)",
            assertThrows(QsnetException.class, () -> FabricConfig.elite(2).withCrcErrorRate(1.5)).getMessage());
        assertEquals("k^dim 262144 must be at most 65536 nodes",
            assertThrows(QsnetException.class, () -> new Topology(8, 6)).getMessage());
        final Kernel k = new Kernel();
        final Fabric f = new Fabric(k, FabricConfig.elite(1));
        assertEquals("destination 4 is outside the nodes 0..3",
            assertThrows(QsnetException.class, () -> f.port(0).inject(Packet.unicast(0, 4, 1))).getMessage());
        assertEquals("payloadBytes 321 must be at most 320 per packet",
            assertThrows(QsnetException.class, () -> f.port(0).inject(Packet.unicast(0, 1, 321))).getMessage());
        assertEquals("packet source 1 must be the injecting node 0",
            assertThrows(QsnetException.class, () -> f.port(0).inject(Packet.unicast(1, 2, 1))).getMessage());
    }

    @Test
    void shouldNumberTheTreeAsTheLiterature()
    {
        final Topology t = new Topology(4, 3);
        assertEquals(64, t.nodeCount());
        assertEquals(48, t.switchCount());
        assertEquals(3, t.ncaLevel(0, 63));
        assertEquals(2, t.ncaLevel(0, 15));
        assertEquals(1, t.ncaLevel(4, 7));
        assertEquals(32, t.subtreeFirstNode(t.switchId(2, 9)));
        final Fabric f = new Fabric(new Kernel(), FabricConfig.elite(3));
        assertEquals(List.of("up*", "up*", "down3", "down3", "down3"), f.routeTags(0, 63));
        assertEquals(List.of("down1"), f.routeTags(4, 5));
        // every level-1 up link leads to a level-2 switch whose down link comes back to it
        for (int s = 0; s < 16; s++)
        {
            final EliteSwitch leaf = f.switchAt(s);
            for (int j = 0; j < 4; j++)
            {
                final EliteSwitch upper = leaf.up(j).toSwitch;
                assertEquals(2, upper.level());
                assertEquals(leaf, upper.down(t.digit(leaf.word(), 0)).toSwitch);
            }
        }
    }
}
