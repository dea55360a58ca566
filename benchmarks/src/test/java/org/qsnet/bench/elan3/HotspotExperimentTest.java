package org.qsnet.bench.elan3;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.qsnet.bench.elan3.PingExperiment.Placement;
import org.qsnet.fabric.machine.PlatformProfile;

@Timeout(value = 120, unit = TimeUnit.SECONDS)
class HotspotExperimentTest
{
    @ParameterizedTest(name = "read {0}")
    @ValueSource(booleans = {true, false})
    void shouldStarveNoSenderOfA64NodeHotSpot(final boolean read)
    {
        final HotspotExperiment.Result r = HotspotExperiment.run(PlatformProfile.alphaEs40(), 64, read, Placement.ELAN, 16384,
            4);
        assertEquals(64, r.perNodeMBs().length);
        // 63 senders x 4 x 16 KB = 3150 packets through the hot link; oldest-first arbitration keeps
        // every sender within a few packets of the others until the end, so each finishes within
        // ~1 % of the last; serving by arrival let the hot leaf's three nodes finish first
        assertTrue(r.minMBs() / r.maxMBs() > 0.9, "per-node MB/s " + r.minMBs() + " .. " + r.maxMBs());
        assertTrue(r.aggregateMBs() > 300, "aggregate " + r.aggregateMBs());
    }
}
