package org.qsnet.bench.elan3;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.qsnet.fabric.machine.PlatformProfile;

@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ElanlibExperimentTest
{
    @Test
    void shouldCostMoreThanARawDmaBecauseOfTheMatchingOnTheThreadProcessor()
    {
        final PlatformProfile p = PlatformProfile.pentium3He();
        final long tport = ElanlibExperiment.tportLatencyNs(p, 8);
        final long dma = PingExperiment.latencyNs(p, 8, PingExperiment.Placement.ELAN, PingExperiment.Placement.ELAN);
        assertTrue(tport > dma + 1500 && tport < dma + 3000, "Tports " + tport + " ns vs DMA " + dma + " ns");
        final PlatformProfile slow = p.withThreadOpNs(2 * p.threadOpNs());
        assertTrue(ElanlibExperiment.tportLatencyNs(slow, 8) > tport + 5 * p.threadOpNs(),
            "the matching cost comes from the thread processor's parameter");
    }

    @Test
    void shouldGrowBarrierTimeLogarithmicallyWithTheSoftwareTree()
    {
        final PlatformProfile p = PlatformProfile.alphaEs40();
        final double two = ElanlibExperiment.barrierNs(p, 2, false);
        final double sixteen = ElanlibExperiment.barrierNs(p, 16, false);
        final double sixtyFour = ElanlibExperiment.barrierNs(p, 64, false);
        // dissemination: 1, 4 and 6 rounds
        assertTrue(sixteen > 3 * two && sixteen < 5 * two, two + " vs " + sixteen);
        assertTrue(sixtyFour > sixteen && sixtyFour < 1.8 * sixteen, sixteen + " vs " + sixtyFour);
    }

    @Test
    void shouldKeepTheHardwareBarrierNearlyFlatWithCombiningBroadcasts()
    {
        final PlatformProfile p = PlatformProfile.alphaEs40();
        final double four = ElanlibExperiment.barrierNs(p, 4, true);
        final double sixtyFour = ElanlibExperiment.barrierNs(p, 64, true);
        assertTrue(sixtyFour < 1.3 * four, "hgsync " + four + " ns at 4, " + sixtyFour + " ns at 64");
        assertTrue(sixtyFour < ElanlibExperiment.barrierNs(p, 64, false) / 2, "and well below the software barrier");
    }
}
