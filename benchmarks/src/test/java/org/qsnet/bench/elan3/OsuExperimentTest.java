package org.qsnet.bench.elan3;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.qsnet.fabric.machine.PlatformProfile;

@Timeout(value = 120, unit = TimeUnit.SECONDS)
class OsuExperimentTest
{
    private static final PlatformProfile XEON = PlatformProfile.xeonGc();

    @Test
    void shouldGainBandwidthFromAWindowOfOutstandingDmas()
    {
        final double q1 = OsuExperiment.windowBandwidthMBs(XEON, 1024, 1, 8);
        final double q16 = OsuExperiment.windowBandwidthMBs(XEON, 1024, 16, 8);
        assertTrue(q16 > 1.5 * q1, "Q=1 " + q1 + ", Q=16 " + q16);
        assertTrue(q16 < 335, "never above the link: " + q16);
    }

    @Test
    void shouldChargeTheHostOnlyForTheProgrammedIo()
    {
        // putdma_main: one call, eight descriptor words and one command across PCI
        assertEquals(XEON.hostCallNs() + 9 * XEON.pioWriteNs(), OsuExperiment.hostOverheadNs(XEON), 1e-9);
    }

    @Test
    void shouldSeeTheBufferBeforeTheEventAndPayTheInterruptWhenBlocking()
    {
        final long[] c = OsuExperiment.completionLatencyNs(XEON, 64);
        assertTrue(c[0] < c[1], "the data lands before the event's word: " + c[0] + " vs " + c[1]);
        assertEquals(XEON.blockingWakeNs() - XEON.hostPollNs(), c[2] - c[1]);
    }

    @Test
    void shouldChargeEachStepOfABlockingWaitFromItsOwnParameter()
    {
        final long[] base = OsuExperiment.completionLatencyNs(XEON, 64);
        final String[] steps = {"interruptNs", "driverNs", "wakeupNs", "contextSwitchNs"};
        for (int i = 0; i < steps.length; i++)
        {
            final PlatformProfile p = org.qsnet.bench.cli.FabricOptions.applyProfile(XEON,
                java.util.Map.of(steps[i], String.valueOf(1000 * (i + 2) + 111)));
            final long[] c = OsuExperiment.completionLatencyNs(p, 64);
            assertEquals(base[0], c[0], steps[i] + " leaves polling the buffer alone");
            assertEquals(base[1], c[1], steps[i] + " leaves polling the event alone");
            assertEquals(p.blockingWakeNs() - XEON.blockingWakeNs(), c[2] - base[2], steps[i] + " moves the blocking wait");
        }
        assertEquals(XEON.interruptNs() + XEON.driverNs() + XEON.wakeupNs() + XEON.contextSwitchNs(), XEON.blockingWakeNs());
    }

    @Test
    void shouldOverlapComputationWithTheTransferUntilItOutlastsIt()
    {
        final double[] none = OsuExperiment.overlap(XEON, 65536, 8, 0, 4);
        // the window moves 512 KB in ~1.6 ms: half of that computing is hidden behind the NIC's work
        final double[] half = OsuExperiment.overlap(XEON, 65536, 8, 800_000, 4);
        final double[] twice = OsuExperiment.overlap(XEON, 65536, 8, 3_200_000, 4);
        assertEquals(none[1], 0.0);
        assertEquals(none[0], half[0], none[0] * 0.01, "computing half the transfer time costs no bandwidth");
        assertTrue(half[1] > 0.45, "half the time computing: " + half[1]);
        // beyond the transfer time the round lasts as long as the computation (plus the last poll)
        assertEquals(65536.0 * 8 * 1e3 / 3_200_000, twice[0], 2.0, "bandwidth set by the computation");
    }

    @Test
    void shouldMeasureBufferReuseFrom4KbTo512KbInBothVariants()
    {
        for (final int size : new int[] {4096, 524288})
        {
            final int messages = Math.max(128, Math.min(200, (8 << 20) / size));
            final double lat = OsuExperiment.bufferReuseNs(XEON, size, 64, 0, 1, messages);
            final double bw = size * 1e3 / OsuExperiment.bufferReuseNs(XEON, size, 64, 0, 8, messages);
            assertTrue(bw > size * 1e3 / lat, size + " B: a window of 8 is faster than one at a time");
            assertTrue(bw < 335.1, size + " B: " + bw + " MB/s, below the link");
        }
    }

    @Test
    void shouldPayTheDriversEntryLoadsOnEveryFreshPageWhenBuffersAreNotReused()
    {
        // 512 KB = 64 pages per buffer, 64 buffers, 128 puts: without reuse each buffer's pages are
        // first touched once in the run (at both ends, overlapped); with full reuse only buffer 0's
        final int size = 524288;
        final int pages = size / 8192;
        final long delta = 10_000;
        final PlatformProfile slowDriver = org.qsnet.bench.cli.FabricOptions.applyProfile(XEON,
            java.util.Map.of("driverNs", String.valueOf(XEON.driverNs() + delta)));
        final double fresh = OsuExperiment.bufferReuseNs(slowDriver, size, 64, 0, 1, 128)
            - OsuExperiment.bufferReuseNs(XEON, size, 64, 0, 1, 128);
        final double reused = OsuExperiment.bufferReuseNs(slowDriver, size, 64, 100, 1, 128)
            - OsuExperiment.bufferReuseNs(XEON, size, 64, 100, 1, 128);
        // per put: 64 buffers x 64 pages x delta / 128 puts at least (both ends' faults overlapped)
        assertTrue(fresh >= 0.95 * 64.0 * pages * delta / 128, "no reuse: +" + fresh + " ns per put");
        assertTrue(fresh <= 1.05 * 2 * 64.0 * pages * delta / 128, "no reuse: +" + fresh + " ns per put");
        // full reuse: buffer 0's 64 pages once in 128 puts
        assertTrue(reused <= 1.05 * 2 * pages * delta / 128, "full reuse: +" + reused + " ns per put");
        assertTrue(fresh > 30 * reused, "reuse avoids the loads: " + fresh + " vs " + reused);
    }

    @Test
    void shouldMissInTheTlbOnlyWhenTheBuffersOutnumberItsEntries()
    {
        final double few = OsuExperiment.bufferReuseNs(XEON, 1024, 4, 0);
        final double many = OsuExperiment.bufferReuseNs(XEON, 1024, 64, 0);
        final double reused = OsuExperiment.bufferReuseNs(XEON, 1024, 64, 100);
        assertTrue(many > few + 0.5 * XEON.tableWalkNs(), "64 buffers: " + many + " vs 4: " + few);
        assertEquals(OsuExperiment.bufferReuseNs(XEON, 1024, 1, 0), reused, 1e-9, "100 % reuse is one buffer");
    }

    @Test
    void shouldScaleHotSpotSendAndReceiveWithTheSlaves()
    {
        double send = 0;
        double receive = 0;
        for (final int slaves : new int[] {1, 2, 4, 8})
        {
            final double s = OsuExperiment.hotspotSendReceiveMBs(XEON, slaves, 4096, false);
            final double r = OsuExperiment.hotspotSendReceiveMBs(XEON, slaves, 4096, true);
            assertTrue(s >= send && r >= receive, slaves + " slaves: send " + s + ", receive " + r);
            send = s;
            receive = r;
        }
        assertTrue(receive > 300, "receive from 8 slaves: " + receive);
    }
}
