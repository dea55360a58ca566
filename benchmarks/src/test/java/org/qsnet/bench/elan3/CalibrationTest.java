package org.qsnet.bench.elan3;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.qsnet.bench.elan3.PingExperiment.Placement;
import org.qsnet.fabric.machine.PlatformProfile;

@Timeout(value = 120, unit = TimeUnit.SECONDS)
class CalibrationTest
{
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"pentium3-he", "alpha-es40", "xeon-gc"})
    void shouldReproduceEveryPublishedFigureWithinFivePercent(final String profile)
    {
        final List<Calibration.Result> results = Calibration.run(profile, null);
        assertTrue(!results.isEmpty());
        for (final Calibration.Result r : results)
        {
            assertTrue(r.ok(), profile + ": " + r.target().figure() + " published " + r.target().published() + ", emulated "
                + r.emulated());
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"pentium3-he", "alpha-es40"})
    void shouldKeepSmallMessageLatencyNearlyFlatUpToOneWriteBlock(final String profile)
    {
        final PlatformProfile p = PlatformProfile.named(profile);
        final long one = PingExperiment.latencyNs(p, 1, Placement.ELAN, Placement.ELAN);
        assertEquals(one, PingExperiment.latencyNs(p, 64, Placement.ELAN, Placement.ELAN), "one 64-byte write block");
        assertTrue(PingExperiment.latencyNs(p, 65, Placement.ELAN, Placement.ELAN) > one, "two write blocks cost more");
        assertTrue(PingExperiment.latencyNs(p, 0, Placement.ELAN, Placement.ELAN) < one);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"pentium3-he", "alpha-es40", "xeon-gc"})
    void shouldGiveTheSameFiguresOnEveryRun(final String profile)
    {
        final PlatformProfile p = PlatformProfile.named(profile);
        assertEquals(PingExperiment.bandwidthMBs(p, 100_000, 3, Placement.MAIN, Placement.ELAN, true),
            PingExperiment.bandwidthMBs(p, 100_000, 3, Placement.MAIN, Placement.ELAN, true));
    }
}
