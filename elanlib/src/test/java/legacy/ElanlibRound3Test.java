package legacy;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.qsnet.elan3.Prun;
import org.qsnet.fabric.machine.PlatformProfile;

/**
 * {@link ElanlibRound3} under {@code prun}: the third outside conformance round for Elanlib.
 *
 * <p>Defects found (fixed in OneSided, ElanBase.PutGet, ElanEvent): a put or get slot reclaimed once
 * its event had fired (by {@code elan_putWaitAll}, or by a later call short of slots) went back to
 * the pool a second time when the program then waited for the event it still held, so two later
 * puts shared one slot — one event and one 64-byte bounce buffer — and a small put delivered the
 * next put's data ("small put 1 landed 0x5002, expected 0x5001"); and a put/get handle's throttle
 * consumed the oldest event the program held, whose {@code elan_wait} then failed ("event elan_get
 * of 1 bytes from VP 1 was already consumed by elan_wait"); {@code elan_queueReq} longer than the main
 * queue's slots failed at the receiver's inputter naming no argument ("queued DMA of 65 bytes does not
 * fit the queue's 64-byte slots"); {@code elan_link} of a NULL event was accepted (it failed later,
 * inside the wait); and (fixed in the fabric's DMA engine) a member missing from {@code elan_hgsync}
 * — one that returned, or failed — left the run spinning for ever in simulated time, the root's
 * broadcast test retried every {@code queueRetryNs / 8} with nothing else pending, so the deadlock
 * check never fired (an MPI job one of whose ranks failed while the others were in {@code barrier}
 * hung until the test timeout); likewise a sender blocked on a queue nobody will ever drain (its queued
 * DMA restarted by the driver for ever).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ElanlibRound3Test
{
    static String run(final PlatformProfile p, final int procs, final int nodes, final String scenario)
    {
        return ScenarioJobs.assertPasses(ElanlibRound3.class, p, procs, nodes, scenario);
    }

    static PlatformProfile profile(final double crc)
    {
        return ScenarioJobs.withCrcErrors(crc);
    }

    @ParameterizedTest(name = "{0} ranks on {1} nodes, crcErrorRate {2}")
    @CsvSource({"3, 3, 0", "4, 2, 0", "3, 3, 0.2"})
    void shouldDeliverEveryMainQueueRequestInOrderThroughTwoSlots(final int procs, final int nodes, final double crc)
    {
        run(profile(crc), procs, nodes, "mainqueue");
    }

    @ParameterizedTest(name = "{0} ranks on {1} nodes, crcErrorRate {2}")
    @CsvSource({"3, 3, 0", "3, 1, 0", "3, 3, 0.2"})
    void shouldLetTheSenderReuseItsBufferAtOnceWithQueueReuseBuf(final int procs, final int nodes, final double crc)
    {
        run(profile(crc), procs, nodes, "reusebuf");
    }

    @ParameterizedTest(name = "{0} ranks on {1} nodes, crcErrorRate {2}")
    @CsvSource({"5, 3, 0", "3, 3, 0", "6, 6, 0.05"})
    void shouldReduceWithoutCommutingInGroupOrder(final int procs, final int nodes, final double crc)
    {
        run(profile(crc), procs, nodes, "reduce");
    }

    @ParameterizedTest(name = "{0} ranks on {1} nodes, crcErrorRate {2}")
    @CsvSource({"3, 3, 0", "3, 2, 0", "3, 3, 0.1"})
    void shouldMovePutsAndGetsOfEverySizeIntact(final int procs, final int nodes, final double crc)
    {
        run(profile(crc), procs, nodes, "putget");
    }

    @ParameterizedTest(name = "{0} ranks on {1} nodes")
    @CsvSource({"2, 2", "3, 1"})
    void shouldKeepEveryEventTheProgramHoldsUntilItWaitsForIt(final int procs, final int nodes)
    {
        run(profile(0), procs, nodes, "events");
    }

    @ParameterizedTest(name = "{0} ranks on {1} nodes")
    @CsvSource({"3, 2"})
    void shouldRefuseBadArgumentsNamingThem(final int procs, final int nodes)
    {
        System.err.println(run(profile(0), procs, nodes, "bad-arguments"));
    }

    /**
     * A member that never enters {@code elan_hgsync} (here it returns from main) leaves the others
     * waiting for ever; the run ends with the deadlock report, as it does for {@code elan_gsync}.
     */
    @Test
    void shouldReportAMissingMemberOfAHardwareBarrier()
    {
        final org.qsnet.fabric.engine.SimulationException e = org.junit.jupiter.api.Assertions.assertThrows(
            org.qsnet.fabric.engine.SimulationException.class, () -> Prun.run(PlatformProfile.pentium3He(), new Prun.Options(4, 4,
                false, 0, Map.of()), MissingHardwareBarrier.class).throwIfFailed());
        assertTrue(e.getMessage().contains("elan_hgsync"), e.getMessage());
    }

    /** A sender blocked on a queue nobody will ever drain: the run ends with the deadlock report. */
    @Test
    void shouldReportASenderBlockedOnAQueueNobodyDrains()
    {
        final org.qsnet.fabric.engine.SimulationException e = org.junit.jupiter.api.Assertions.assertThrows(
            org.qsnet.fabric.engine.SimulationException.class, () -> Prun.run(PlatformProfile.pentium3He(), new Prun.Options(2, 2,
                false, 0, Map.of()), UndrainedQueue.class).throwIfFailed());
        assertTrue(e.getMessage().contains("deadlock") && e.getMessage().contains("elan_queueReq"), e.getMessage());
    }
}
