package legacy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.qsnet.bench.cli.Captured;
import org.qsnet.bench.cli.PrunCommand;
import org.qsnet.elan3.Prun;
import org.qsnet.fabric.engine.RunReport;
import org.qsnet.fabric.machine.PlatformProfile;

/**
 * Issue 8's acceptance: five legacy programs, ported from the catalog's call sequences as
 * standalone {@code main(String[])} programs with their C globals as static fields, run as written
 * under {@code prun} (the public launcher API, and the {@code prun} command in-process) on
 * pentium3-he and with {@code crcErrorRate} 1e-2. Each program checks every payload itself (a
 * rank that sees a wrong byte throws, which fails the job) and prints a checksum the test
 * recomputes from the payload formula; each job runs twice and must end at the same simulated
 * time with the same output.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class LegacyProgramsTest
{
    private static final PlatformProfile P3 = PlatformProfile.pentium3He();
    /** Simulated-time limit of every job: 0.5 s, far beyond what any of them takes. */
    private static final long LIMIT_NS = 500_000_000L;
    private static final PlatformProfile P3_CRC = P3.withFabric(P3.fabric().withCrcErrorRate(1e-2));

    /** A job's simulated end and what its ranks printed. */
    record Run(long endNs, String out) {}

    private static synchronized Run run(final PlatformProfile profile, final int procs, final int nodes, final Class<?> main,
        final String... args)
    {
        final PrintStream out = System.out;
        final ByteArrayOutputStream o = new ByteArrayOutputStream();
        final RunReport r;
        try
        {
            System.setOut(new PrintStream(o, true, StandardCharsets.UTF_8));
            // Prun.run(profile, options, main, args) with a simulated-time limit: a program that
            // spins for ever (spinning ranks never block, so no deadlock is seen) fails with where
            // each rank is instead of hanging the build
            final Prun.Session session = new Prun.Session(profile, 1);
            session.launch(new Prun.Options(procs, nodes, false, 0, Map.of()), main, args);
            r = session.run(LIMIT_NS);
        }
        finally
        {
            System.setOut(out);
        }
        r.throwIfFailed();
        return new Run(r.endNs(), o.toString(StandardCharsets.UTF_8));
    }

    /** Runs twice; asserts the same end time and output; returns the output. */
    private static String deterministic(final PlatformProfile profile, final int procs, final int nodes, final Class<?> main,
        final String... args)
    {
        final Run a = run(profile, procs, nodes, main, args);
        final Run b = run(profile, procs, nodes, main, args);
        assertEquals(a.endNs(), b.endNs(), main.getSimpleName() + ": same job, same simulated end");
        assertEquals(a.out(), b.out(), main.getSimpleName() + ": same job, same output");
        assertTrue(a.endNs() > 0);
        return a.out();
    }

    private static void assertLine(final String out, final String line)
    {
        assertTrue(out.lines().anyMatch(l -> l.equals(line) || l.startsWith(line)), "expected a line starting '" + line
            + "' in:\n" + out);
    }

    // ------------------------------------------------------------------ (a) Elan3lib messaging library

    private static String lampiLine(final int procs, final int msgs)
    {
        long sum = 0;
        for (int from = 1; from < procs; from++)
        {
            for (int seq = 0; seq < msgs; seq++)
            {
                sum += Payload.crc(from, 0, seq, 1 + (seq * 37 + from * 11) % (Elan3Messaging.SLOT_SIZE - Elan3Messaging.HEADER));
            }
        }
        return String.format("lampi: received %d messages from %d senders, crc sum %x, full ", msgs * (procs - 1), procs - 1,
            sum);
    }

    @Test
    void shouldRunAnElan3libMessagingLibraryAsWritten()
    {
        // one sender's window of 4 DMAs wraps the 8 slots 25 times
        assertLine(deterministic(P3, 2, 2, Elan3Messaging.class, "100", "8"), lampiLine(2, 100));
    }

    /**
     * Several senders into one queue (3 senders, 4 DMAs outstanding each, 64 slots). Once a
     * defect: the inputter trusted a q_state FULL bit that LA-MPI's consumer order (it reads q_state
     * before moving q_fptr) could leave stale or clear over a full queue; the pointers decide now.
     */
    @Test
    void shouldRunTheElan3libMessagingLibraryWithSeveralSenders()
    {
        assertLine(deterministic(P3, 4, 4, Elan3Messaging.class, "100", "64"), lampiLine(4, 100));
    }

    @Test
    void shouldRunTheElan3libMessagingLibraryWithFifteenSenders()
    {
        // 15 senders, 20 messages each into 64 slots: runs (the defect above shows with 3 senders, 100 each)
        assertLine(deterministic(P3, 16, 16, Elan3Messaging.class, "20", "64"), lampiLine(16, 20));
    }

    /**
     * 3 senders with 4 queued DMAs outstanding each into an 8-slot queue: full most of the time. A
     * queued DMA whose retries run out traps to the driver, which restarts it after the interrupt
     * and its own work: nothing is abandoned, nothing lost (once a defect: they were abandoned).
     */
    @Test
    void shouldNotAbandonQueuedDmasWhenSeveralSendersOverrunASmallQueue()
    {
        assertLine(deterministic(P3, 4, 4, Elan3Messaging.class, "100", "8"), lampiLine(4, 100));
    }

    @Test
    void shouldRunTheElan3libMessagingLibraryUnderLinkErrors()
    {
        assertLine(deterministic(P3_CRC, 2, 2, Elan3Messaging.class, "100", "8"), lampiLine(2, 100));
    }

    // ------------------------------------------------------------------ (b) Elanlib put ping-pong

    private static String ppLines(final int procs, final int rounds)
    {
        final StringBuilder sb = new StringBuilder();
        for (int me = 0; me + 1 < procs; me += 2)
        {
            long sum = 0;
            for (final int size : PutPingPong.SIZES)
            {
                for (int r = 0; r < rounds; r++)
                {
                    sum += Payload.crc(Payload.bytes(me + 1, me, size * 100 + r, size), 0, size - 4);
                }
            }
            sb.append(String.format("pp: rank %d sizes %d rounds %d crc sum %x%n", me, PutPingPong.SIZES.length, rounds, sum));
        }
        return sb.toString();
    }

    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {2, 5, 16})
    void shouldRunAnElanlibPutPingPongAsWritten(final int procs)
    {
        final String out = deterministic(P3, procs, procs, PutPingPong.class, "5");
        ppLines(procs, 5).lines().forEach(l -> assertLine(out, l));
    }

    @Test
    void shouldRunThePutPingPongUnderLinkErrors()
    {
        final String out = deterministic(P3_CRC, 4, 4, PutPingPong.class, "5");
        ppLines(4, 5).lines().forEach(l -> assertLine(out, l));
    }

    // ------------------------------------------------------------------ (c) Tports driver

    private static String tportLines(final int procs)
    {
        final StringBuilder sb = new StringBuilder();
        for (int me = 0; me < procs; me++)
        {
            long sum = 0;
            long bytes = 0;
            int n = 0;
            for (int from = 0; from < procs; from++)
            {
                if (from == me)
                {
                    continue;
                }
                for (int k = 0; k < TportDriver.SIZES.length; k++)
                {
                    sum += Payload.crc(from, me, k, TportDriver.SIZES[k]);
                    bytes += TportDriver.SIZES[k];
                    n++;
                }
                sum += Payload.crc(from, me, TportDriver.PROBE_TAG, TportDriver.probeSize(from));
                sum += Payload.crc(from, me, TportDriver.ANY_TAG, TportDriver.anySize(from, me));
                bytes += TportDriver.probeSize(from) + TportDriver.anySize(from, me);
                n += 2;
            }
            sb.append(String.format("tports: rank %d received %d messages, %d bytes, crc sum %x%n", me, n, bytes, sum));
        }
        return sb.toString();
    }

    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {2, 5})
    void shouldRunATportsDriverAsWritten(final int procs)
    {
        final String out = deterministic(P3, procs, procs, TportDriver.class);
        tportLines(procs).lines().forEach(l -> assertLine(out, l));
    }

    @Test
    void shouldRunTheTportsDriverWithTwoRanksPerNode()
    {
        // 8 ranks on 4 nodes: pairs on a node exchange through shared memory, the others through the NIC
        final String out = deterministic(P3, 8, 4, TportDriver.class);
        tportLines(8).lines().forEach(l -> assertLine(out, l));
    }

    @Test
    void shouldRunTheTportsDriverUnderLinkErrors()
    {
        final String out = deterministic(P3_CRC, 4, 4, TportDriver.class);
        tportLines(4).lines().forEach(l -> assertLine(out, l));
    }

    // ------------------------------------------------------------------ (d) machine layer with collectives

    private static String collLine(final int procs)
    {
        long bcast = 0;
        for (int root = 0; root < Math.min(procs, 4); root++)
        {
            bcast += Payload.crc(root, -1, 7, MachineLayer.BCAST_LEN - 500 * root);
        }
        long a = 1;
        long b = 0;
        for (int r = 0; r < procs; r++)
        {
            a = (r + 2) * a;
            b = (r + 2) * b + 3L * r + 1;
        }
        return String.format("coll: %d ranks, bcast crc sum %x, sum %d, compose %d %d, group sum %d", procs, bcast,
            (long)procs * (procs + 1) / 2, a, b, (long)procs * (procs - 1) / 2);
    }

    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {2, 7, 16})
    void shouldRunAMachineLayerWithCollectivesAsWritten(final int procs)
    {
        assertLine(deterministic(P3, procs, procs, MachineLayer.class), collLine(procs));
    }

    /**
     * Was a known defect (issue 8), fixed (per-parent staging slots): {@code elan_bcast} from root 0 then at once from root 1 (no barrier
     * between, as a runtime broadcasting from whoever has data does): the second root puts its data
     * into a member's staging area before that member has copied out the first broadcast, so the
     * member returns the second root's data from the first call ("rank 3: bcast of 3000 B from
     * root 0 differs from byte 0", at 7 and 16 ranks). A parent waits for its own children's
     * acknowledgements, but a new root is not the old parent.
     */
    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {7, 16})
    void shouldBroadcastFromDifferentRootsBackToBack(final int procs)
    {
        assertLine(deterministic(P3, procs, procs, MachineLayer.class, "back-to-back"), collLine(procs));
    }

    /**
     * Was a known defect (issue 8), fixed (the group is collective over its members): a group of the even ranks. {@code ElanBase.group(vps)} (there is no C
     * call for it in the catalog) ends with {@code elan_gsync(allGroup)}, so every process must call
     * it, but it refuses a caller that is not a member ("group [0] does not contain this process's
     * VP 1"); when only the members call it, their barriers on allGroup pair with the others' later
     * ones and the job deadlocks in {@code elan_gsync}/{@code elan_reduce}.
     */
    @Test
    void shouldMakeAGroupOfSomeRanks()
    {
        final int procs = 8;
        final String out = deterministic(P3, procs, procs, MachineLayer.class, "evens");
        assertTrue(out.contains("group sum " + (0 + 2 + 4 + 6)), out);
    }

    /**
     * Was a known defect (issue 8), fixed: {@code elan_reduce} with {@code ELAN_RESULT_ALL} on a group of every
     * VP in reverse order (made with {@code ElanBase.group}) deadlocks at 7, 8 and 16 ranks (not at 2): the group's index 0 (the last
     * VP) "waits for the contributions of its subtree in elan_reduce", every other member "waits for
     * the data from its parent in elan_bcast".
     */
    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {7, 16})
    void shouldReduceOnAGroupInReverseOrder(final int procs)
    {
        assertLine(deterministic(P3, procs, procs, MachineLayer.class, "reverse"), collLine(procs));
    }

    /**
     * Was a known defect (issue 8), fixed: the same with the group of every VP in order (made with
     * {@code ElanBase.group} after the allGroup collectives): {@code elan_reduce} on it deadlocks
     * the same way at 7, 8 and 16 ranks.
     */
    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {7, 16})
    void shouldReduceOnAMadeGroup(final int procs)
    {
        assertLine(deterministic(P3, procs, procs, MachineLayer.class, "group-reduce"), collLine(procs));
    }

    /**
     * Was a known defect (issue 8), fixed: {@code elan_bcast} on the group of every VP in order (made with
     * {@code ElanBase.group}): at 7, 8 and 16 ranks the root "waits for its children's
     * acknowledgements in elan_bcast on group 1" for ever, while the others have returned.
     */
    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {7, 16})
    void shouldBroadcastOnAMadeGroup(final int procs)
    {
        assertLine(deterministic(P3, procs, procs, MachineLayer.class, "group-bcast"), collLine(procs));
    }

    @Test
    void shouldRunTheMachineLayerUnderLinkErrors()
    {
        assertLine(deterministic(P3_CRC, 8, 8, MachineLayer.class), collLine(8));
    }

    // ------------------------------------------------------------------ (e) an MPI's queued-DMA receive path

    private static String mpiLine(final int procs, final int msgs)
    {
        long sum = 0;
        for (int from = 1; from < procs; from++)
        {
            for (int seq = 0; seq < msgs; seq++)
            {
                sum += Payload.crc(from, 0, seq, 1 + (seq * 53 + from * 17) % (320 - MpiQueueRecv.HEADER));
            }
        }
        return String.format("mpi: %d messages from %d senders, crc sum %x; main queue %d, crc sum %x", msgs * (procs - 1),
            procs - 1, sum, msgs * (procs - 1), sum);
    }

    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {2, 4, 16})
    void shouldRunAnMpiQueuedDmaReceivePathAsWritten(final int procs)
    {
        final int msgs = procs == 16 ? 10 : 50;
        assertLine(deterministic(P3, procs, procs, MpiQueueRecv.class, Integer.toString(msgs)), mpiLine(procs, msgs));
    }

    @Test
    void shouldRunTheMpiReceivePathUnderLinkErrors()
    {
        assertLine(deterministic(P3_CRC, 4, 4, MpiQueueRecv.class, "50"), mpiLine(4, 50));
    }

    // ------------------------------------------------------------------ through the prun command

    /** Exit status, stdout, stderr of {@code prun} run in-process. */
    static synchronized String[] prun(final String... args)
    {
        return Captured.run(PrunCommand::execute, args);
    }

    @Test
    void shouldRunTheLegacyProgramsThroughThePrunCommand()
    {
        final String[] r = prun("-n", "4", "-t", TportDriver.class.getName());
        assertEquals("0", r[0], r[2]);
        tportLines(4).lines().forEach(l -> assertTrue(r[1].lines().anyMatch(x -> x.matches("\\d+: " + java.util.regex.Pattern
            .quote(l))), "expected '" + l + "' labelled with its rank in:\n" + r[1]));
        final String[] c = prun("-n", "2", "--set", "crcErrorRate=0.01", Elan3Messaging.class.getName(), "100", "8");
        assertEquals("0", c[0], c[2]);
        assertLine(c[1], lampiLine(2, 100));
        assertTrue(c[2].contains("prun: 2 processes on pentium3-he, simulated time "), c[2]);
    }
}
