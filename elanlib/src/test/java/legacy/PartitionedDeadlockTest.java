package legacy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.qsnet.elan3.Prun;
import org.qsnet.fabric.engine.SimulationException;
import org.qsnet.fabric.machine.PlatformProfile;

/**
 * A job whose ranks wait for ever on a hardware barrier with a member missing, or on a queue
 * nobody drains, ends with the deadlock report in partitions as it does in one JVM, at the same
 * simulated time.
 *
 * <p>Was a limitation, fixed: the NIC's retries (the barrier's broadcast test, the queued DMA's
 * restarts) stop once the run is found quiescent at two retries with no process run in between,
 * and whether the whole run is quiescent cannot be seen inside one partition; a partitioned run
 * retried for ever (bounded only by {@code prun --max-sim-us}). Each other partition now answers a
 * retry's probe at the same key of the event order, and the NIC decides from its two earlier
 * retries, whose answers are in by then.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class PartitionedDeadlockTest
{
    private static final Pattern AT = Pattern.compile("deadlock at (\\d+) ns");

    @ParameterizedTest(name = "{0} on {1} nodes in {2} partitions")
    @CsvSource({"MissingHardwareBarrier, 4, 2, elan_hgsync", "MissingHardwareBarrier, 4, 4, elan_hgsync",
        "UndrainedQueue, 2, 2, elan_queueReq"})
    void shouldReportTheDeadlockAtOneJvmsTime(final String program, final int nodes, final int partitions,
        final String call) throws ClassNotFoundException
    {
        final Class<?> main = Class.forName("legacy." + program);
        final PlatformProfile profile = PlatformProfile.pentium3He();
        final Prun.Options o = new Prun.Options(nodes, nodes, false, 0, Map.of());
        final SimulationException one = assertThrows(SimulationException.class,
            () -> Prun.run(profile, o, main).throwIfFailed());
        final SimulationException parts = assertThrows(SimulationException.class,
            () -> Prun.runPartitioned(profile, partitions, s -> s.launch(o, main)).report().throwIfFailed());
        assertTrue(one.getMessage().contains(call), one.getMessage());
        assertTrue(parts.getMessage().contains("deadlock") && parts.getMessage().contains(call), parts.getMessage());
        assertEquals(at(one.getMessage()), at(parts.getMessage()), "deadlock time, one JVM against partitions:\n"
            + one.getMessage() + "\n" + parts.getMessage());
    }

    private static long at(final String message)
    {
        final Matcher m = AT.matcher(message);
        assertTrue(m.find(), message);
        return Long.parseLong(m.group(1));
    }
}
