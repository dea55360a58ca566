package org.qsnet.bench.traffic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.qsnet.fabric.QsnetException;
import org.qsnet.fabric.network.FabricConfig;

@Timeout(value = 120, unit = TimeUnit.SECONDS)
class TrafficExperimentTest
{
    private static final double PEAK_MBS = FabricConfig.elite(2).peakPayloadBytesPerSecond() / 1e6;

    static TrafficSpec spec(final Pattern p, final int nodes, final double readRatio, final double ioLoad, final long seed)
    {
        return spec(p, nodes, readRatio, ioLoad, false, seed);
    }

    static TrafficSpec spec(final Pattern p, final int nodes, final double readRatio, final double ioLoad,
        final boolean cyclicJobs, final long seed)
    {
        return new TrafficSpec(p, nodes, FabricConfig.elite(TrafficSpec.dimFor(nodes)).withSeed(seed), 320, false, true,
            20_000, 100_000, 0, readRatio, Math.max(1, nodes / 8), false, true, false, ioLoad, cyclicJobs, seed, false, org.qsnet.fabric.machine.PlatformProfile.pentium3He());
    }

    @Test
    void shouldStarveNoSenderOfA64NodeHotSpot()
    {
        final TrafficSpec base = spec(Pattern.HOTSPOT, 64, 0, 0, 1);
        final TrafficSpec s = new TrafficSpec(base.pattern(), base.nodes(), base.fabric(), base.messageBytes(),
            base.exponentialSize(), base.poissonArrivals(), 20_000, 2_000_000, 0, 0, base.ioNodes(), false, true, false, 0,
            false, 1, false, base.nicProfile());
        final TrafficPoint p = new TrafficExperiment(s, 0.5).run();
        assertEquals(63, p.perNode().size(), "one row per sender");
        double min = Double.MAX_VALUE;
        double max = 0;
        for (final TrafficPoint.NodeFigures n : p.perNode())
        {
            min = Math.min(min, n.deliveredMBs());
            max = Math.max(max, n.deliveredMBs());
            assertTrue(n.messages() > 0, "node " + n.node() + " completed messages");
        }
        assertEquals(p.perNodeMinMBs(), min, 1e-9);
        assertEquals(p.perNodeMaxMBs(), max, 1e-9);
        // the hot link carries 2 ms x 335 MB/s = 2094 packets, 33 per sender: a fair arbiter gives each
        // sender that count +-2 (the grant order rotates, each sender holds two channels), 31/35 = 0.886;
        // serving each output by arrival gave 0 MB/s to remote senders and 48 MB/s to the hot leaf's
        assertTrue(min / max > 0.85, "per-node MB/s min " + min + " max " + max);
        assertEquals(335.1, p.aggregateMBs(), 2.0, "the hot link stays saturated");
    }

    @Test
    void shouldSplitEachSwitchsWaitingOverItsLinks()
    {
        final TrafficExperiment e = new TrafficExperiment(spec(Pattern.UNIFORM, 64, 0, 0, 1), 1.0);
        e.run();
        final CongestionMatrix m = CongestionMatrix.of(e.fabric(), e.windowNs());
        final java.util.List<CongestionMatrix.LinkCell> links = CongestionMatrix.perLink(e.fabric(), e.windowNs());
        assertEquals(16 * (4 + 4 + 4 + 4 + 4), links.size(), "16 switches per level: 4 down links each, 4 up below the top");
        final double[][] up = new double[4][16];
        final double[][] down = new double[4][16];
        for (final CongestionMatrix.LinkCell c : links)
        {
            (c.up() ? up : down)[c.level()][c.word()] += c.waiting() / 4;
        }
        double total = 0;
        for (int level = 1; level <= 3; level++)
        {
            for (int w = 0; w < 16; w++)
            {
                assertEquals(m.cell(level, w).up(), up[level][w], 1e-9, "up links of <" + w + "," + level + ">");
                assertEquals(m.cell(level, w).down(), down[level][w], 1e-9, "down links of <" + w + "," + level + ">");
                total += down[level][w];
            }
        }
        assertTrue(total > 1, "uniform traffic at saturation waits on the descent: " + total);
    }

    @Test
    void shouldLoseThroughputWhenTheTopLevelIsThinned()
    {
        final TrafficExperiment full = new TrafficExperiment(spec(Pattern.COMPLEMENT, 64, 0, 0, 1), 1.0);
        final TrafficExperiment half = new TrafficExperiment(spec(Pattern.COMPLEMENT, 64, 0, 0, 1), 1.0);
        half.fabric().thinUpLinks(3, 2);
        final double a = full.run().acceptedLoad();
        final double b = half.run().acceptedLoad();
        // every complement pair crosses the top: half the top links carry at most half the traffic
        assertTrue(b < 0.6 * a, "complement with half the top links: " + b + " vs " + a);
    }

    @Test
    void shouldLetTheIoJobHaveItsOwnSizesReadsAndNodes()
    {
        final TrafficSpec base = spec(Pattern.COMBINED, 64, 0, 0.5, 1);
        final TrafficPoint plain = new TrafficExperiment(base, 0.3).run();
        final TrafficPoint same = new TrafficExperiment(withIo(base, new TrafficSpec.IoJob(320, false, 0, false)), 0.3).run();
        assertEquals(plain, same, "an I/O job stated as the default is the default");
        // block placement: each job owns two level-2 subtrees, so I/O servers of its own never touch
        // the compute job; placed among the compute job's nodes they take its links and its nodes' inputs
        final TrafficPoint inside = new TrafficExperiment(withIo(base, new TrafficSpec.IoJob(320, false, 0, true)), 0.3).run();
        assertTrue(inside.meanLatencyUs() > 2 * plain.meanLatencyUs(), "compute latency " + inside.meanLatencyUs() + " vs "
            + plain.meanLatencyUs());
        final TrafficPoint big = new TrafficExperiment(withIo(base, new TrafficSpec.IoJob(4096, true, 1, false)), 0.3).run();
        assertEquals(plain.acceptedLoad(), big.acceptedLoad(), 1e-12, "the I/O job's sizes leave the disjoint compute job alone");
        assertNotEquals(plain.otherJobMBs(), big.otherJobMBs(), "the I/O job's own figures change");
    }

    private static TrafficSpec withIo(final TrafficSpec s, final TrafficSpec.IoJob io)
    {
        return new TrafficSpec(s.pattern(), s.nodes(), s.fabric(), s.messageBytes(), s.exponentialSize(), s.poissonArrivals(),
            s.warmupNs(), s.measureNs(), s.hotspotNode(), s.readRatio(), s.ioNodes(), s.ioDistributed(), s.ioRandomDest(),
            s.ioShared(), s.ioLoad(), s.cyclicJobs(), s.seed(), s.viaNic(), s.nicProfile(), io);
    }

    @Test
    void shouldAcceptWhatIsOfferedBelowSaturation()
    {
        final TrafficPoint p = new TrafficExperiment(spec(Pattern.UNIFORM, 64, 0, 0, 1), 0.1).run();
        assertEquals(p.generatedLoad(), p.acceptedLoad(), 0.01, p.toString());
        assertTrue(p.meanLatencyUs() < 2.0, "unloaded message latency " + p.meanLatencyUs());
    }

    @Test
    void shouldLoseThroughputToHeldCircuitsUnderUniformTraffic()
    {
        final TrafficPoint p = new TrafficExperiment(spec(Pattern.UNIFORM, 64, 0, 0, 1), 1.0).run();
        assertTrue(p.acceptedLoad() < 0.6, "uniform saturates well below the injection limit: " + p.acceptedLoad());
        assertTrue(p.acceptedLoad() > 0.2, p.toString());
    }

    @Test
    void shouldRouteComplementWellAndBitReversalBadly()
    {
        final double complement = new TrafficExperiment(spec(Pattern.COMPLEMENT, 64, 0, 0, 1), 1.0).run().acceptedLoad();
        final double reversal = new TrafficExperiment(spec(Pattern.BIT_REVERSAL, 64, 0, 0, 1), 1.0).run().acceptedLoad();
        final double neighbor = new TrafficExperiment(spec(Pattern.NEIGHBOR, 64, 0, 0, 1), 1.0).run().acceptedLoad();
        assertTrue(neighbor > 0.85, "neighbor pairs share a leaf switch: " + neighbor);
        assertTrue(complement > 0.8, "complement spreads over the top of the tree: " + complement);
        assertTrue(reversal < complement - 0.15, "bit-reversal " + reversal + " vs complement " + complement);
    }

    @ParameterizedTest(name = "{0} nodes")
    @ValueSource(ints = {16, 32, 64})
    void shouldDeliverTheHotSpotLinkPeakWhateverTheNumberOfSenders(final int nodes)
    {
        final TrafficPoint w = new TrafficExperiment(spec(Pattern.HOTSPOT, nodes, 0, 0, 1), 0.5).run();
        assertEquals(PEAK_MBS, w.aggregateMBs(), PEAK_MBS * 0.02, "write hot spot " + w);
        assertEquals(w.aggregateMBs() / (nodes - 1), w.perNodeMeanMBs(), 1e-9);
        final TrafficPoint r = new TrafficExperiment(spec(Pattern.HOTSPOT, nodes, 1.0, 0, 1), 0.5).run();
        assertEquals(PEAK_MBS, r.aggregateMBs(), PEAK_MBS * 0.03, "read hot spot " + r);
    }

    @Test
    void shouldSinkMultiHotSpotTrafficAtSeveralLinks()
    {
        final TrafficPoint p = new TrafficExperiment(spec(Pattern.MULTI_HOTSPOT, 64, 0, 0, 1), 1.0).run();
        assertTrue(p.aggregateMBs() > 2 * PEAK_MBS && p.aggregateMBs() <= 8 * PEAK_MBS * 1.01, p.toString());
    }

    @Test
    void shouldSlowTheComputeJobOnlyWhenTheJobsShareLinks()
    {
        // cyclic placement: both jobs under every leaf switch, sharing links
        final TrafficPoint quiet = new TrafficExperiment(spec(Pattern.COMBINED, 64, 0, 0.0, true, 1), 0.5).run();
        final TrafficPoint busy = new TrafficExperiment(spec(Pattern.COMBINED, 64, 0, 1.0, true, 1), 0.5).run();
        assertEquals(0, quiet.otherJobMBs());
        assertTrue(busy.otherJobMBs() > PEAK_MBS, busy.toString());
        assertTrue(busy.meanLatencyUs() > quiet.meanLatencyUs() * 1.2, "compute latency " + quiet.meanLatencyUs() + " -> "
            + busy.meanLatencyUs());
        // block placement: each job in its own two subtrees; the fat tree gives them disjoint links
        final TrafficPoint alone = new TrafficExperiment(spec(Pattern.COMBINED, 64, 0, 0.0, false, 1), 0.5).run();
        final TrafficPoint beside = new TrafficExperiment(spec(Pattern.COMBINED, 64, 0, 1.0, false, 1), 0.5).run();
        assertTrue(beside.otherJobMBs() > PEAK_MBS, beside.toString());
        assertEquals(alone.acceptedLoad(), beside.acceptedLoad());
        assertEquals(alone.meanLatencyUs(), beside.meanLatencyUs());
    }

    @Test
    void shouldGiveEqualPointsForEqualSeedsAndOthersForOtherSeeds()
    {
        final TrafficPoint a = new TrafficExperiment(spec(Pattern.UNIFORM, 16, 0, 0, 5), 0.7).run();
        final TrafficPoint b = new TrafficExperiment(spec(Pattern.UNIFORM, 16, 0, 0, 5), 0.7).run();
        final TrafficPoint c = new TrafficExperiment(spec(Pattern.UNIFORM, 16, 0, 0, 6), 0.7).run();
        assertEquals(a, b);
        assertNotEquals(a, c);
    }

    private static TrafficSpec viaNic(final Pattern p, final int nodes, final double readRatio)
    {
        final TrafficSpec s = spec(p, nodes, readRatio, 0, 1);
        return new TrafficSpec(s.pattern(), s.nodes(), s.fabric(), s.messageBytes(), s.exponentialSize(), s.poissonArrivals(),
            s.warmupNs(), s.measureNs(), s.hotspotNode(), s.readRatio(), s.ioNodes(), s.ioDistributed(), s.ioRandomDest(),
            s.ioShared(), s.ioLoad(), s.cyclicJobs(), s.seed(), true, org.qsnet.fabric.machine.PlatformProfile.alphaEs40());
    }

    @Test
    void shouldDriveTheSameWorkloadsThroughTheNicModel()
    {
        final TrafficPoint low = new TrafficExperiment(viaNic(Pattern.UNIFORM, 64, 0), 0.1).run();
        assertEquals(low.generatedLoad(), low.acceptedLoad(), 0.01, low.toString());
        final TrafficPoint linkLow = new TrafficExperiment(spec(Pattern.UNIFORM, 64, 0, 0, 1), 0.1).run();
        assertTrue(low.meanLatencyUs() > linkLow.meanLatencyUs() + 1.0,
            "the NIC adds command, DMA and inputter time: " + low.meanLatencyUs() + " vs " + linkLow.meanLatencyUs());
        for (final double read : new double[] {0, 1})
        {
            final TrafficPoint hot = new TrafficExperiment(viaNic(Pattern.HOTSPOT, 16, read), 0.5).run();
            assertEquals(PEAK_MBS, hot.aggregateMBs(), PEAK_MBS * 0.03, "hot spot through the NIC, read ratio " + read);
        }
        assertEquals(new TrafficExperiment(viaNic(Pattern.COMPLEMENT, 64, 0), 0.8).run(),
            new TrafficExperiment(viaNic(Pattern.COMPLEMENT, 64, 0), 0.8).run());
    }

    @ParameterizedTest(name = "{0}, {1}, {2} B, read ratio {3}, CRC error rate {4}, load {5}")
    @org.junit.jupiter.params.provider.CsvSource({"alpha-es40, HOTSPOT, 320, 0.5, 0.02, 0.6",
        "pentium3-he, UNIFORM, 300000, 0.3, 0, 0.5", "alpha-es40, UNIFORM, 320, 0.3, 0.01, 0.3"})
    void shouldGiveTheSameNicInjectedRunInOneTwoAndFourPartitions(final String profile, final Pattern pattern,
        final int bytes, final double readRatio, final double crcErrorRate, final double load)
    {
        // with reads: writes and read requests cross partitions, read replies come back; 300000 B
        // messages go as two DMAs each, landing in another partition
        final boolean large = bytes > 256 * 1024;
        final TrafficSpec s = new TrafficSpec(pattern, 16, FabricConfig.elite(2).withCrcErrorRate(crcErrorRate)
            .withSeed(9), bytes, false, true, 10_000, large ? 3_000_000 : 50_000, 5, readRatio, 2, false, true, false, 0,
            false, 9, true, org.qsnet.fabric.machine.PlatformProfile.named(profile));
        assertSameInTwoAndFourPartitions(s, load, 10, crcErrorRate > 0, (one, many, in) ->
        {
            assertTrue(many.windows() > 0, "windows run" + in);
            // a write to another partition is forgotten at its source once all its packets are taken
            // there: partition 0 follows no more DMAs at the end than the whole machine had in flight
            assertTrue(many.first().dmasFollowed() <= one.first().dmasFollowed(), "DMAs partition 0 still follows: "
                + many.first().dmasFollowed() + ", in flight in one partition: " + one.first().dmasFollowed() + in);
        });
    }

    /** What a partitioned run must also show, beyond one partition's outcome, events and digest. */
    private interface PartitionedCheck
    {
        void check(TrafficExperiment.Partitioned one, TrafficExperiment.Partitioned many, String in);
    }

    private static void assertSameInTwoAndFourPartitions(final TrafficSpec s, final double load, final int minMessages,
        final boolean crcErrors, final PartitionedCheck more)
    {
        final TrafficExperiment.Partitioned one = TrafficExperiment.partitioned(s, load, 1, f -> { });
        assertTrue(one.point().messages() >= minMessages, "messages completed in the window: " + one.point());
        if (crcErrors)
        {
            assertTrue(one.point().linkErrors().crcRetries() > 0, "CRC errors happened: " + one.point().linkErrors());
        }
        for (final int partitions : new int[] {2, 4})
        {
            final TrafficExperiment.Partitioned many = TrafficExperiment.partitioned(s, load, partitions, f -> { });
            final String in = " (1 partition against " + partitions + ")";
            assertEquals(one.point(), many.point(), "the outcome" + in);
            assertEquals(one.tracedEvents(), many.tracedEvents(), "events" + in);
            assertEquals(one.traceSum(), many.traceSum(), "digest of every event key" + in);
            more.check(one, many, in);
        }
    }

    @ParameterizedTest(name = "analytic timing, {0} injection, {1}, CRC error rate {2}, load {3}")
    @org.junit.jupiter.params.provider.CsvSource({"link, UNIFORM, 0.02, 1.0", "link, HOTSPOT, 0, 0.6", "nic, UNIFORM, 0.01, 0.8"})
    void shouldGiveTheSameAnalyticRunInOneTwoAndFourPartitions(final String injection, final Pattern pattern,
        final double crcErrorRate, final double load)
    {
        // analytic timing replicates no network: a packet's tail runs only where it lands and its
        // ack where it left, and the window ends with packets in flight (their events past the end
        // are counted nowhere, as in one JVM)
        final TrafficSpec s = new TrafficSpec(pattern, 64, FabricConfig.elite(3).withCrcErrorRate(crcErrorRate).withSeed(5)
            .withAnalyticTiming(true), 320, false, true, 10_000, 40_000, 5, "nic".equals(injection) ? 0.3 : 0, 2, false,
            true, false, 0, false, 5, "nic".equals(injection), org.qsnet.fabric.machine.PlatformProfile.alphaEs40());
        // the windows are a path's latency between partitions long, not a wire delay
        assertSameInTwoAndFourPartitions(s, load, 100, crcErrorRate > 0, (one, many, in) -> assertTrue(
            many.windows() > 0 && many.windows() < 50_000 / 100, "windows run" + in + ": " + many.windows()));
    }

    @ParameterizedTest(name = "{0} B, {1}")
    @org.junit.jupiter.params.provider.CsvSource({"1, link", "320, link", "262145, link", "1048576, link", "1, nic", "320, nic",
        "4096, nic", "262144, nic", "262145, nic", "1048576, nic", "4194304, nic", "200000 exp, nic"})
    void shouldMoveEveryByteOfEveryMessageWhateverItsSize(final String size, final String injection)
    {
        final boolean exp = size.endsWith(" exp");
        final int bytes = Integer.parseInt(size.replace(" exp", ""));
        final boolean nic = injection.equals("nic");
        // below saturation: 20 % of the injection limit, or 0.2 % for 1-byte messages (a packet each);
        // the window long enough for a few of the largest messages
        final double load = bytes == 1 ? 0.002 : 0.2;
        final long measureNs = Math.max(100_000, 5L * bytes * 1000 / 67);
        final TrafficSpec s = new TrafficSpec(Pattern.UNIFORM, 16, FabricConfig.elite(2), bytes, exp, true, 0, measureNs, 0, 0, 2,
            false, true, false, 0, false, 3, nic, org.qsnet.fabric.machine.PlatformProfile.alphaEs40());
        final TrafficExperiment e = new TrafficExperiment(s, load);
        final TrafficPoint p = e.run();
        assertTrue(e.completedMessages() >= 16, "messages completed: " + e.completedMessages());
        assertEquals(e.completedMessageBytes(), e.movedBytes(), "bytes moved == bytes offered by the completed messages");
        // a message moving a quarter of its bytes (the old 256 KB cap on 1 MB messages) would fail this too;
        // the rest is the window's edge (messages generated near its end land after it)
        assertTrue(p.acceptedLoad() > 0.6 * p.generatedLoad(), "below saturation " + p);
    }

    @Test
    void shouldComputePermutationPartnersByBitOperations()
    {
        assertEquals(0b100000, Pattern.BIT_REVERSAL.partner(0b000001, 64));
        assertEquals(0b100000, Pattern.BUTTERFLY.partner(0b000001, 64));
        assertEquals(0b100110, Pattern.BUTTERFLY.partner(0b000111, 64) ^ 0b000001 ^ 0b000001);
        assertEquals(0b111110, Pattern.COMPLEMENT.partner(0b000001, 64));
        assertEquals(0b001000, Pattern.TRANSPOSE.partner(0b000001, 64));
        assertEquals(0b000011, Pattern.PERFECT_SHUFFLE.partner(0b100001, 64));
        assertEquals(7, Pattern.NEIGHBOR.partner(6, 64));
        for (final Pattern p : Pattern.values())
        {
            if (p.isPermutation())
            {
                final boolean[] hit = new boolean[64];
                for (int i = 0; i < 64; i++)
                {
                    hit[p.partner(i, 64)] = true;
                }
                for (final boolean h : hit)
                {
                    assertTrue(h, p + " is a permutation");
                }
            }
        }
    }

    @Test
    void shouldRejectBadWorkloadsClearly()
    {
        assertEquals("offered load -0.5 must be in (0, 1]", assertThrows(QsnetException.class,
            () -> new TrafficExperiment(spec(Pattern.UNIFORM, 16, 0, 0, 1), -0.5)).getMessage());
        assertEquals("nodes 24 must be a power of two for bit-reversal", assertThrows(QsnetException.class,
            () -> spec(Pattern.BIT_REVERSAL, 24, 0, 0, 1)).getMessage());
        assertEquals("nodes 100 must fit the 4-ary 3-tree (64 nodes)", assertThrows(QsnetException.class,
            () -> new TrafficSpec(Pattern.UNIFORM, 100, FabricConfig.elite(3), 320, false, true, 0, 10_000, 0, 0, 1,
                false, true, false, 0, false, 1, false, org.qsnet.fabric.machine.PlatformProfile.pentium3He())).getMessage());
        assertEquals("pattern 'zigzag' is not one of: uniform, bit-reversal, butterfly, complement, transpose, "
            + "perfect-shuffle, neighbor, hotspot, multi-hotspot, combined",
            assertThrows(QsnetException.class, () -> Pattern.parse("zigzag")).getMessage());
    }
}
