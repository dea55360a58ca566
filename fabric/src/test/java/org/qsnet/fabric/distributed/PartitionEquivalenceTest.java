package org.qsnet.fabric.distributed;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.qsnet.fabric.engine.Kernel;
import org.qsnet.fabric.engine.Origin;
import org.qsnet.fabric.network.Fabric;
import org.qsnet.fabric.network.FabricConfig;
import org.qsnet.fabric.network.FabricPort;
import org.qsnet.fabric.network.Packet;
import org.qsnet.fabric.network.PacketCodec;
import org.qsnet.fabric.network.PacketEndpoint;
import org.qsnet.fabric.network.Partitioning;
import org.qsnet.fabric.network.WireBuffer;
import org.qsnet.fabric.transport.TransportContext;
import org.qsnet.fabric.transport.local.LocalTransport;

/**
 * The same network workload run in one kernel and in 2 and 4 partitions (threads joined by the
 * in-JVM transport) must give the same result, event for event: every node's digest of what it
 * received and when, every acknowledgement's time and value, the network's counters, and the
 * digest of every event key.
 */
class PartitionEquivalenceTest
{
    private static final long END_NS = 60_000;

    /** What a run produced, for comparison. */
    record Outcome(long[] nodeDigest, long[] nodeArrivals, long[] nodeAcks, long traceSum, long tracedEvents,
        long delivered, long crcErrors, long switchHops, long nodeHops, long lastEventNs, long[] linkBusy)
    {
    }

    @Test
    @Timeout(120)
    void shouldGiveTheSameRunInOneTwoAndFourPartitionsUnderUniformTrafficAndBroadcasts()
    {
        final FabricConfig config = FabricConfig.elite(3);
        final Outcome one = runSingle(config);
        assertTrue(one.delivered() > 2_000, "the workload delivers packets: " + one.delivered());
        for (final int p : new int[] {2, 4})
        {
            assertSame(one, runPartitioned(config, p), p);
        }
    }

    @Test
    @Timeout(120)
    void shouldGiveTheSameRunInPartitionsWithCrcErrorsAndRetries()
    {
        final FabricConfig config = FabricConfig.elite(3).withCrcErrorRate(0.02).withSeed(7);
        final Outcome one = runSingle(config);
        assertTrue(one.crcErrors() > 10, "CRC errors happened: " + one.crcErrors());
        assertSame(one, runPartitioned(config, 2), 2);
        assertSame(one, runPartitioned(config, 4), 4);
    }

    @Test
    @Timeout(120)
    void shouldGiveTheSameRunWhenTheBlocksAreUneven()
    {
        // a job's nodes 5..13 split in three (prun --jvms does so): blocks of 8, 3 and 53 nodes,
        // boundaries inside subtrees; exact and analytic timing
        final FabricConfig config = FabricConfig.elite(3);
        assertSame(runSingle(config), runPartitioned(config, 3, 5, 9), 3);
        final FabricConfig analytic = FabricConfig.elite(3).withAnalyticTiming(true);
        assertSame(runSingle(analytic), runPartitioned(analytic, 3, 5, 9), 3);
    }

    @Test
    @Timeout(120)
    void shouldGiveTheSameRunOnATwoLevelTreeInEightPartitions()
    {
        final FabricConfig config = FabricConfig.elite(2);
        assertSame(runSingle(config), runPartitioned(config, 8), 8);
    }

    @Test
    @Timeout(120)
    void shouldGiveTheSameRunInPartitionsWithAnalyticTiming()
    {
        // analytic timing replicates no network: a unicast's tail runs only in its destination's
        // partition, a broadcast's everywhere; the counters are summed over the partitions
        final FabricConfig config = FabricConfig.elite(3).withAnalyticTiming(true);
        final Outcome one = runSingle(config);
        assertTrue(one.delivered() > 2_000, "the workload delivers packets: " + one.delivered());
        assertTrue(one.switchHops() == 0 && one.nodeHops() > 2_000, "analytic: node link hops only " + one);
        for (final int p : new int[] {2, 4})
        {
            assertSame(one, runPartitioned(config, p), p);
        }
    }

    @Test
    @Timeout(120)
    void shouldGiveTheSameRunInPartitionsWithAnalyticTimingAndCrcErrors()
    {
        final FabricConfig config = FabricConfig.elite(3).withAnalyticTiming(true).withCrcErrorRate(0.02).withSeed(11);
        final Outcome one = runSingle(config);
        assertTrue(one.crcErrors() > 10, "CRC errors happened: " + one.crcErrors());
        assertSame(one, runPartitioned(config, 2), 2);
        assertSame(one, runPartitioned(config, 4), 4);
        final FabricConfig small = FabricConfig.elite(2).withAnalyticTiming(true).withCrcErrorRate(0.05).withSeed(3);
        assertSame(runSingle(small), runPartitioned(small, 8), 8);
    }

    static void assertSame(final Outcome one, final Outcome many, final int partitions)
    {
        final String in = " (1 partition against " + partitions + ")";
        assertArrayEquals(one.nodeArrivals(), many.nodeArrivals(), "arrivals per node" + in);
        assertArrayEquals(one.nodeAcks(), many.nodeAcks(), "acknowledgements per node" + in);
        assertArrayEquals(one.nodeDigest(), many.nodeDigest(), "digest per node" + in);
        assertEquals(one.delivered(), many.delivered(), "packets delivered" + in);
        assertEquals(one.crcErrors(), many.crcErrors(), "CRC errors" + in);
        assertEquals(one.switchHops(), many.switchHops(), "switch hops" + in);
        assertEquals(one.nodeHops(), many.nodeHops(), "node link hops" + in);
        assertArrayEquals(one.linkBusy(), many.linkBusy(), "busy time per link" + in);
        assertEquals(one.lastEventNs(), many.lastEventNs(), "time of the last event" + in);
        assertEquals(one.tracedEvents(), many.tracedEvents(), "events" + in);
        assertEquals(one.traceSum(), many.traceSum(), "digest of every event key" + in);
    }

    // ---------------------------------------------------------------- the workload

    /** A message id and the answer its destination wrote back (the reply path of the codec). */
    static final class Note
    {
        final long id;
        long answer;

        Note(final long id)
        {
            this.id = id;
        }
    }

    static final PacketCodec NOTE_CODEC = new PacketCodec()
    {
        @Override
        public void writeAttachment(final Packet packet, final WireBuffer out)
        {
            out.putLong(((Note)packet.attachment()).id);
        }

        @Override
        public Object readAttachment(final Packet packet, final ByteBuffer in)
        {
            return new Note(in.getLong());
        }

        @Override
        public void writeReply(final Packet packet, final WireBuffer out)
        {
            out.putLong(((Note)packet.attachment()).answer);
        }

        @Override
        public void applyReply(final Packet packet, final ByteBuffer in)
        {
            final Note n = (Note)packet.attachment();
            n.answer = Math.max(n.answer, in.getLong());
        }
    };

    /** A node: sends a random mix of unicasts, atomics and broadcasts, more after each ack. */
    static final class NodeLoad implements PacketEndpoint
    {
        final int node;
        final int nodes;
        final SplittableRandom random;
        final Origin origin;
        FabricPort port;
        long digest = 0x1234;
        long arrivals;
        long acks;
        int sent;

        NodeLoad(final Fabric fabric, final int node)
        {
            this.node = node;
            this.nodes = fabric.topology().nodeCount();
            this.random = new SplittableRandom(1000 + node);
            this.origin = fabric.nodeOrigin(node);
        }

        void start()
        {
            for (int i = 0; i < 4; i++)
            {
                origin.schedule(random.nextInt(2000), this::send);
            }
        }

        private void send(final long now)
        {
            if (now > END_NS / 2 || sent > 400)
            {
                return;
            }
            sent++;
            final int kind = random.nextInt(20);
            final Packet p;
            if (kind == 0 && node % 3 == 0)
            {
                final int a = random.nextInt(nodes);
                final int b = Math.min(nodes - 1, a + random.nextInt(nodes / 2 + 1));
                p = Packet.broadcast(node, a, b, random.nextInt(321));
            }
            else if (kind < 3)
            {
                p = Packet.nonWriteBlock(node, random.nextInt(nodes), 8);
            }
            else
            {
                p = Packet.unicast(node, random.nextInt(nodes), random.nextInt(321));
            }
            p.attach(new Note(((long)node << 32) | sent));
            port.inject(p);
            if (random.nextInt(4) == 0)
            {
                origin.schedule(now + 50 + random.nextInt(400), this::send);
            }
        }

        @Override
        public long onArrival(final Packet packet, final long timeNs)
        {
            arrivals++;
            final Note n = (Note)packet.attachment();
            digest = digest * 31 + (n.id ^ timeNs * 17 ^ packet.payloadBytes());
            n.answer = Math.max(n.answer, node * 1000L + (arrivals & 7));
            if (packet.kind() == Packet.Kind.NON_WRITE_BLOCK)
            {
                packet.setAckValue((n.id * 7 + node) & 0xffff);
            }
            return 10 + (arrivals % 5) * 20;
        }

        @Override
        public void onAck(final Packet packet, final long timeNs)
        {
            acks++;
            final Note n = (Note)packet.attachment();
            digest = digest * 37 + (timeNs ^ packet.ackValue() * 13 ^ n.answer * 101 ^ packet.retries());
            origin.schedule(timeNs + 30 + random.nextInt(200), this::send);
        }
    }

    // ---------------------------------------------------------------- runs

    static Outcome runSingle(final FabricConfig config)
    {
        final Kernel kernel = new Kernel();
        final Fabric fabric = new Fabric(kernel, config);
        final int nodes = fabric.topology().nodeCount();
        final NodeLoad[] loads = new NodeLoad[nodes];
        for (int i = 0; i < nodes; i++)
        {
            loads[i] = new NodeLoad(fabric, i);
            loads[i].port = fabric.attach(i, loads[i]);
        }
        for (final NodeLoad l : loads)
        {
            l.start();
        }
        kernel.run();
        return outcome(List.of(kernel), List.of(fabric), loads);
    }

    static Outcome runPartitioned(final FabricConfig config, final int count)
    {
        return runPartitioned(config, count, 0, new Fabric(new Kernel(), config).topology().nodeCount());
    }

    /** The nodes {@code spanFirst..spanFirst+spanNodes-1} split evenly, the rest to the first and last partitions. */
    static Outcome runPartitioned(final FabricConfig config, final int count, final int spanFirst, final int spanNodes)
    {
        final int nodes = new Fabric(new Kernel(), config).topology().nodeCount();
        final List<LocalTransport> transports = LocalTransport.createJob(
            new TransportContext().jobId(99).jobKey(new byte[16]).partition(0, count).maxPayloadBytes(1 << 16));
        final Kernel[] kernels = new Kernel[count];
        final Fabric[] fabrics = new Fabric[count];
        final NodeLoad[] loads = new NodeLoad[nodes];
        for (int p = 0; p < count; p++)
        {
            kernels[p] = new Kernel();
            fabrics[p] = new Fabric(kernels[p], config, new Partitioning(count, p, nodes, spanFirst, spanNodes));
            fabrics[p].remote().codec(NOTE_CODEC);
            for (int i = 0; i < nodes; i++)
            {
                if (fabrics[p].partitioning().isLocal(i))
                {
                    loads[i] = new NodeLoad(fabrics[p], i);
                    loads[i].port = fabrics[p].attach(i, loads[i]);
                }
            }
        }
        for (final NodeLoad l : loads)
        {
            l.start();
        }
        PartitionThreads.run(transports, p -> new PartitionDriver(kernels[p], fabrics[p].remote(), transports.get(p))
            .run(Long.MAX_VALUE));
        return outcome(List.of(kernels), List.of(fabrics), loads);
    }

    static Outcome outcome(final List<Kernel> kernels, final List<Fabric> fabrics, final NodeLoad[] loads)
    {
        final int n = loads.length;
        final long[] digest = new long[n];
        final long[] arrivals = new long[n];
        final long[] acks = new long[n];
        for (int i = 0; i < n; i++)
        {
            digest[i] = loads[i].digest;
            arrivals[i] = loads[i].arrivals;
            acks[i] = loads[i].acks;
        }
        long traceSum = 0;
        long traced = 0;
        long last = 0;
        long nodeHops = 0;
        for (final Kernel k : kernels)
        {
            traceSum += k.traceSum();
            traced += k.tracedEvents();
            last = Math.max(last, k.nowNs());
        }
        for (final Fabric f : fabrics)
        {
            nodeHops += f.nodeLinkHops();
        }
        final Fabric f0 = fabrics.get(0);
        final long[] busy = new long[f0.links().size()];
        long delivered = f0.deliveredPackets();
        long crc = f0.crcErrors();
        long switchHops = f0.packetHops() - f0.nodeLinkHops();
        if (!f0.countsWholeNetwork())
        {
            // analytic timing in partitions: each counts its share, and only its own node links are busy
            delivered = 0;
            crc = 0;
            switchHops = 0;
            for (final Fabric f : fabrics)
            {
                delivered += f.deliveredPackets();
                crc += f.crcErrors();
                switchHops += f.packetHops() - f.nodeLinkHops();
                for (int i = 0; i < busy.length; i++)
                {
                    busy[i] += f.links().get(i).busyNs();
                }
            }
        }
        else
        {
            for (int i = 0; i < busy.length; i++)
            {
                busy[i] = f0.links().get(i).busyNs();
            }
        }
        return new Outcome(digest, arrivals, acks, traceSum, traced, delivered, crc, switchHops, nodeHops, last, busy);
    }
}
