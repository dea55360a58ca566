package legacy;

import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@link LegacyGasnetTport} under {@code prun}: the GASNet elan conduit's Tports path, several ranks,
 * several per node, link CRC errors.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class LegacyGasnetTportTest
{
    @ParameterizedTest(name = "{0} ranks on {1} nodes, crcErrorRate {2}")
    @CsvSource({"3, 3, 0", "4, 2, 0", "2, 1, 0", "3, 3, 0.1"})
    void shouldCarryMediumsThroughTheConduitsTportFifos(final int procs, final int nodes, final double crc)
    {
        ScenarioJobs.assertPasses(LegacyGasnetTport.class, ScenarioJobs.withCrcErrors(crc), procs, nodes, "tport-medium");
    }
}
