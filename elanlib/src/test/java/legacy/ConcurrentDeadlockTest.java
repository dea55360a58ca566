package legacy;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.qsnet.elan.Elanlib.ELAN_WAIT_EVENT;
import static org.qsnet.elan.Elanlib.elan_baseInit;
import static org.qsnet.elan.Elanlib.elan_gallocMain;
import static org.qsnet.elan.Elanlib.elan_gsync;
import static org.qsnet.elan.Elanlib.elan_hgsync;
import static org.qsnet.elan.Elanlib.elan_put;
import static org.qsnet.elan.Elanlib.elan_wait;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.qsnet.elan.ElanBase;
import org.qsnet.elan3.ElanMain;
import org.qsnet.elan3.Prun;
import org.qsnet.fabric.engine.ProcessState;
import org.qsnet.fabric.engine.RunReport;
import org.qsnet.fabric.engine.SimulationException;
import org.qsnet.fabric.machine.PlatformProfile;

/**
 * Two waits that can never end, at once: two jobs of one session, each missing a member of its
 * hardware barrier. Each NIC's barrier test keeps the other's pending, so the run is never
 * quiescent at a retry; it must still end with the deadlock report (it retried for ever before),
 * at the same simulated time in one JVM and in partitions. And the rule must not end a run that
 * can still move: a job whose rank computes for longer than the rule's window, or whose data
 * streams for longer, finishes while the other job's wait retries beside it.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ConcurrentDeadlockTest
{
    private static final Pattern AT = Pattern.compile("deadlock at (\\d+) ns");
    private static final PlatformProfile PROFILE = PlatformProfile.pentium3He();
    /** A job of 4 ranks whose rank 3 skips the barrier the others enter. */
    private static final ElanMain MISSING_MEMBER = (p, a) ->
    {
        final ElanBase base = elan_baseInit(0);
        if (base.state.vp != 3)
        {
            elan_hgsync(base.allGroup);
        }
    };

    @ParameterizedTest(name = "{0} partitions")
    @ValueSource(ints = {1, 2, 4})
    void shouldReportTwoBarriersMissingAMemberAtOnceAtOneJvmsTime(final int partitions)
    {
        // job 0 on nodes 6..9 (across the first two partitions), job 1 on nodes 0..3
        final SimulationException e = assertThrows(SimulationException.class, () -> run(partitions, s ->
        {
            s.launch(new Prun.Options(4, 4, false, 6, Map.of()), MISSING_MEMBER);
            s.launch(new Prun.Options(4, 4, false, 0, Map.of()), MISSING_MEMBER);
        }));
        assertTrue(e.getMessage().contains("deadlock") && e.getMessage().contains("elan_hgsync"), e.getMessage());
        final Map<String, ProcessState> states = states(e.report());
        for (int job = 0; job < 2; job++)
        {
            for (int rank = 0; rank < 3; rank++)
            {
                assertEquals(ProcessState.BLOCKED, states.get("job " + job + " rank " + rank), states.toString());
            }
            assertEquals(ProcessState.DONE, states.get("job " + job + " rank 3"), states.toString());
        }
        // a millisecond of simulated time without a resumption or an accepted packet, then the last
        // wait alone is quiescent at two retries: the same time in any partitioning
        final long t = at(e.getMessage());
        assertTrue(t > 1_000_000L && t < 1_100_000L, e.getMessage());
        if (partitions == 1)
        {
            oneJvmNs = t;
        }
        else
        {
            assertEquals(oneJvmNs == 0 ? oneJvmTime() : oneJvmNs, t, "deadlock time, one JVM against partitions");
        }
    }

    private static long oneJvmNs;

    private static long oneJvmTime()
    {
        final SimulationException e = assertThrows(SimulationException.class, () -> run(1, s ->
        {
            s.launch(new Prun.Options(4, 4, false, 6, Map.of()), MISSING_MEMBER);
            s.launch(new Prun.Options(4, 4, false, 0, Map.of()), MISSING_MEMBER);
        }));
        oneJvmNs = at(e.getMessage());
        return oneJvmNs;
    }

    @Test
    void shouldLetAJobWhoseRankComputesLongerThanTheRuleFinishBesideAWaitThatCannot()
    {
        final long computeNs = 3_000_000L;
        final SimulationException e = assertThrows(SimulationException.class, () -> run(1, s ->
        {
            s.launch(new Prun.Options(4, 4, false, 0, Map.of()), MISSING_MEMBER);
            // job 1: rank 0 computes 3 ms before the barrier its partner already waits in
            s.launch(new Prun.Options(2, 2, false, 4, Map.of()), (p, a) ->
            {
                final ElanBase base = elan_baseInit(0);
                if (base.state.vp == 0)
                {
                    p.sim().compute(computeNs);
                }
                elan_hgsync(base.allGroup);
            });
        }));
        final Map<String, ProcessState> states = states(e.report());
        assertEquals(ProcessState.DONE, states.get("job 1 rank 0"), e.getMessage());
        assertEquals(ProcessState.DONE, states.get("job 1 rank 1"), e.getMessage());
        assertEquals(ProcessState.BLOCKED, states.get("job 0 rank 0"), e.getMessage());
        assertTrue(at(e.getMessage()) > computeNs, e.getMessage());
    }

    @Test
    void shouldLetAJobWhoseDataStreamsLongerThanTheRuleFinishBesideAWaitThatCannot()
    {
        // 1 MB from rank 0 to rank 1 takes about 3 ms at 335 MB/s, while both ranks are blocked:
        // rank 0 in elan_wait, rank 1 in elan_gsync
        final int bytes = 1 << 20;
        final byte[][] received = new byte[1][];
        final SimulationException e = assertThrows(SimulationException.class, () -> run(1, s ->
        {
            s.launch(new Prun.Options(4, 4, false, 0, Map.of()), MISSING_MEMBER);
            s.launch(new Prun.Options(2, 2, false, 4, Map.of()), (p, a) ->
            {
                final ElanBase base = elan_baseInit(0);
                final long buf = elan_gallocMain(base, base.allGroup, 64, bytes);
                if (base.state.vp == 0)
                {
                    final byte[] data = pattern(bytes);
                    base.ctx().write(buf, data, 0, bytes);
                    elan_wait(elan_put(base, buf, buf, bytes, 1), ELAN_WAIT_EVENT);
                }
                elan_gsync(base.allGroup);
                if (base.state.vp == 1)
                {
                    final byte[] got = new byte[bytes];
                    base.ctx().read(buf, got, 0, bytes);
                    received[0] = got;
                }
            });
        }));
        final Map<String, ProcessState> states = states(e.report());
        assertEquals(ProcessState.DONE, states.get("job 1 rank 0"), e.getMessage());
        assertEquals(ProcessState.DONE, states.get("job 1 rank 1"), e.getMessage());
        assertEquals(ProcessState.BLOCKED, states.get("job 0 rank 0"), e.getMessage());
        assertArrayEquals(pattern(bytes), received[0], "the megabyte, as rank 1 read it");
        assertTrue(at(e.getMessage()) > 2_000_000L, "the transfer took milliseconds: " + e.getMessage());
    }

    private static byte[] pattern(final int bytes)
    {
        final byte[] b = new byte[bytes];
        for (int i = 0; i < bytes; i++)
        {
            b[i] = (byte)(i * 31 + (i >>> 12));
        }
        return b;
    }

    private static void run(final int partitions, final java.util.function.Consumer<Prun.Session> launcher)
    {
        if (partitions == 1)
        {
            final Prun.Session s = new Prun.Session(PROFILE, 1);
            launcher.accept(s);
            s.run().throwIfFailed();
        }
        else
        {
            Prun.runPartitioned(PROFILE, partitions, launcher).report().throwIfFailed();
        }
    }

    private static Map<String, ProcessState> states(final RunReport report)
    {
        assertTrue(report != null, "the deadlock carries its report");
        final Map<String, ProcessState> states = new TreeMap<>();
        for (final RunReport.Outcome o : report.outcomes())
        {
            states.put(o.name(), o.state());
        }
        return states;
    }

    private static long at(final String message)
    {
        final Matcher m = AT.matcher(message);
        assertTrue(m.find(), message);
        return Long.parseLong(m.group(1));
    }
}
