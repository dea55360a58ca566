package legacy;

import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.qsnet.fabric.machine.PlatformProfile;

/**
 * Legacy Tports clients ported call for call under {@code prun}: a runtime's machine layer in the
 * manner of Charm++'s Elan layer ({@link CharmMachineLayer}), an MPI transport in the manner of Open
 * MPI's {@code btl_elan} ({@link MpiTransport}) and a communication library's driver in the manner of
 * NewMadeleine's and Madeleine's qsnet drivers ({@link MadeleineDriver}).
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class LegacyPortsTest
{
    static String run(final Class<?> program, final PlatformProfile p, final int procs, final int nodes, final String scenario)
    {
        return ScenarioJobs.assertPasses(program, p, procs, nodes, scenario);
    }

    static PlatformProfile profile(final double crc)
    {
        return ScenarioJobs.withCrcErrors(crc);
    }

    @ParameterizedTest(name = "{0} ranks on {1} nodes, crcErrorRate {2}")
    @CsvSource({"2, 2, 0", "4, 4, 0", "4, 2, 0", "3, 3, 0.05", "4, 1, 0"})
    void charmShouldPumpEveryClassOfMessageIntactAndInOrder(final int procs, final int nodes, final double crc)
    {
        run(CharmMachineLayer.class, profile(crc), procs, nodes, "pump");
    }

    @ParameterizedTest(name = "{0} ranks on {1} nodes, crcErrorRate {2}")
    @CsvSource({"2, 2, 0", "4, 4, 0", "3, 3, 0.05", "4, 2, 0"})
    void charmShouldWakeABlockedReceiverWithTheNoticeBeforeALargeMessage(final int procs, final int nodes, final double crc)
    {
        run(CharmMachineLayer.class, profile(crc), procs, nodes, "blocking");
    }

    @ParameterizedTest(name = "{0} ranks on {1} nodes, crcErrorRate {2}")
    @CsvSource({"2, 2, 0", "4, 4, 0", "3, 3, 0.05", "4, 2, 0"})
    void charmShouldFetchLargeMessagesWithGetAndSignalWithPut(final int procs, final int nodes, final double crc)
    {
        run(CharmMachineLayer.class, profile(crc), procs, nodes, "fetch");
    }

    @ParameterizedTest(name = "{0} ranks on {1} nodes")
    @CsvSource({"2, 2", "2, 1"})
    void charmShouldNotCompleteASynchronousSendBeforeItsReceiverMatches(final int procs, final int nodes)
    {
        run(CharmMachineLayer.class, profile(0), procs, nodes, "sync-window");
    }

    @ParameterizedTest(name = "{0} ranks on {1} nodes")
    @CsvSource({"2, 2", "2, 1"})
    void charmShouldReportMisusedEventsByTheCallsInvolved(final int procs, final int nodes)
    {
        run(CharmMachineLayer.class, profile(0), procs, nodes, "misuse");
    }

    @ParameterizedTest(name = "{0} ranks on {1} nodes, crcErrorRate {2}")
    @CsvSource({"2, 2, 0", "4, 4, 0", "4, 2, 0", "3, 3, 0.05", "3, 1, 0"})
    void mpiTransportShouldDeliverByQueueAndTportAndRdmaWithSendsCompletedByPollAlone(final int procs, final int nodes,
        final double crc)
    {
        run(MpiTransport.class, profile(crc), procs, nodes, "btl");
    }

    @ParameterizedTest(name = "{0} ranks on {1} nodes, crcErrorRate {2}")
    @CsvSource({"2, 2, 0", "4, 4, 0", "3, 3, 0.05"})
    void mpiTransportShouldTestASendRightAfterStartingItAndWaitWhenDone(final int procs, final int nodes, final double crc)
    {
        run(MpiTransport.class, profile(crc), procs, nodes, "btl-early");
    }

    @ParameterizedTest(name = "{0} ranks on {1} nodes")
    @CsvSource({"2, 2", "2, 1"})
    void mpiTransportShouldStreamThousandsOfSendsCompletedByPollAlone(final int procs, final int nodes)
    {
        run(MpiTransport.class, profile(0), procs, nodes, "stream");
    }

    @ParameterizedTest(name = "{0} ranks on {1} nodes, crcErrorRate {2}")
    @CsvSource({"2, 2, 0", "4, 4, 0", "4, 2, 0", "3, 3, 0.05"})
    void madeleineShouldConnectOverTagOneAndMatchPacketsByGateOrByAnySender(final int procs, final int nodes,
        final double crc)
    {
        run(MadeleineDriver.class, profile(crc), procs, nodes, "nmad");
    }

    @ParameterizedTest(name = "{0} ranks on {1} nodes, crcErrorRate {2}")
    @CsvSource({"2, 2, 0", "4, 4, 0", "2, 1, 0", "2, 2, 0.05"})
    void madeleineShouldHoldEveryThousandthPacketUntilMatched(final int procs, final int nodes, final double crc)
    {
        run(MadeleineDriver.class, profile(crc), procs, nodes, "mad3");
    }

    @ParameterizedTest(name = "{0} ranks on {1} nodes")
    @CsvSource({"2, 2", "4, 2", "2, 1"})
    void madeleineShouldProbeOrPollThenReceiveBySender(final int procs, final int nodes)
    {
        run(MadeleineDriver.class, profile(0), procs, nodes, "mad3-probe");
    }
}
