package legacy;

import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.qsnet.fabric.machine.PlatformProfile;

/**
 * {@link LegacyGasnet} and {@link LegacyOmpiPtl} under {@code prun}: the GASNet elan conduit's calls and
 * Open MPI's old ptl_elan queue, with several ranks, several per node, and link CRC errors.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class LegacyGasnetTest
{
    static String run(final PlatformProfile p, final int procs, final int nodes, final String scenario)
    {
        return ScenarioJobs.assertPasses(LegacyGasnet.class, p, procs, nodes, scenario);
    }

    static PlatformProfile profile(final double crc)
    {
        return ScenarioJobs.withCrcErrors(crc);
    }

    @ParameterizedTest(name = "{0} ranks on {1} nodes, crcErrorRate {2}")
    @CsvSource({"3, 3, 0", "4, 2, 0", "3, 3, 0.1"})
    void shouldStartUpAsTheConduitDoes(final int procs, final int nodes, final double crc)
    {
        run(profile(crc), procs, nodes, "startup");
    }

    @ParameterizedTest(name = "{0} ranks on {1} nodes, crcErrorRate {2}")
    @CsvSource({"3, 3, 0", "4, 2, 0", "2, 1, 0", "3, 3, 0.1"})
    void shouldCarryActiveMessagesOverTheQueueRunFromTheSlot(final int procs, final int nodes, final double crc)
    {
        run(profile(crc), procs, nodes, "am");
    }

    @ParameterizedTest(name = "{0} ranks on {1} nodes, crcErrorRate {2}")
    @CsvSource({"3, 3, 0", "4, 2, 0", "3, 3, 0.1"})
    void shouldCarryActiveMessagesOverTheMainQueue(final int procs, final int nodes, final double crc)
    {
        run(profile(crc), procs, nodes, "am-mainqueue");
    }

    @ParameterizedTest(name = "{0} ranks on {1} nodes, crcErrorRate {2}")
    @CsvSource({"3, 3, 0", "4, 2, 0", "3, 3, 0.1"})
    void shouldCompletePutsAndGetsByPollingAlone(final int procs, final int nodes, final double crc)
    {
        run(profile(crc), procs, nodes, "putget");
    }

    @ParameterizedTest(name = "{0} ranks on {1} nodes, crcErrorRate {2}")
    @CsvSource({"4, 4, 0", "4, 2, 0", "3, 3, 0.1"})
    void shouldRunTheConduitsBarrierServingMessagesInside(final int procs, final int nodes, final double crc)
    {
        run(profile(crc), procs, nodes, "barrier");
    }

    @ParameterizedTest(name = "{0} ranks on {1} nodes, crcErrorRate {2}")
    @CsvSource({"3, 3, 0", "3, 1, 0", "3, 3, 0.1"})
    void shouldReleaseASlotWithRxCompleteAfterEitherWait(final int procs, final int nodes, final double crc)
    {
        run(profile(crc), procs, nodes, "rxcomplete");
    }

    @ParameterizedTest(name = "{0} ranks on {1} nodes, crcErrorRate {2}")
    @CsvSource({"3, 3, 0", "3, 1, 0", "2, 2, 0.1"})
    void shouldFreeWhatAQueueSendHeldOncePollingSawItComplete(final int procs, final int nodes, final double crc)
    {
        ScenarioJobs.assertPasses(LegacyGasnet.class, profile(crc), procs, nodes, "polled-sends",
            Map.of("LIBELAN_ALLOCELAN_SIZE", "65536"));
    }

    @ParameterizedTest(name = "{0} ranks on {1} nodes, crcErrorRate {2}")
    @CsvSource({"3, 3, 0", "4, 2, 0", "3, 3, 0.1"})
    void shouldRunOpenMpiPtlsHandBuiltQueue(final int procs, final int nodes, final double crc)
    {
        ScenarioJobs.assertPasses(LegacyOmpiPtl.class, profile(crc), procs, nodes, "ptl-qdma");
    }
}
