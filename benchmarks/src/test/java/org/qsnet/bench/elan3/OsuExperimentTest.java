package org.qsnet.bench.elan3;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.qsnet.fabric.model.PlatformProfile;

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
