package legacy;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.qsnet.elan3.Prun;
import org.qsnet.fabric.machine.PlatformProfile;

/**
 * {@link TportSemantics} under {@code prun} on pentium3-he, one rank per node and (for the
 * shared-memory path) two ranks per node: each scenario's ranks check what they receive; the job
 * must end without failure and rank 0 must print {@code ok <scenario>}.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class TportConformanceTest
{
    private static synchronized String run(final int procs, final int nodes, final String scenario)
    {
        final PrintStream out = System.out;
        final ByteArrayOutputStream o = new ByteArrayOutputStream();
        try
        {
            System.setOut(new PrintStream(o, true, StandardCharsets.UTF_8));
            Prun.run(PlatformProfile.pentium3He(), new Prun.Options(procs, nodes, false, 0, Map.of()), TportSemantics.class,
                scenario).throwIfFailed();
        }
        finally
        {
            System.setOut(out);
        }
        final String s = o.toString(StandardCharsets.UTF_8);
        assertTrue(s.lines().anyMatch(l -> l.equals("ok " + scenario)), s);
        return s;
    }

    @Test
    void shouldMatchTagAndSenderByMaskAndSelector()
    {
        run(4, 4, "mask");
    }

    @Test
    void shouldMatchByMaskOverSharedMemory()
    {
        run(4, 2, "mask");
    }

    @Test
    void shouldKeepOneSendersMessagesInOrderWhateverTheirSizes()
    {
        run(2, 2, "order");
    }

    /**
     * Was a defect, fixed (SharedMemoryPath): an unexpected shared-memory message held its FIFO
     * fragments until a receive matched it, so once the 16-fragment FIFO was full of unmatched
     * messages {@code elan_tportTxStart} (a non-blocking start) blocked until the receiver posted
     * a receive: here the 150000-byte send, started before the barrier after which the receiver
     * posts, deadlocked ("waits for Tports send of tag 5, 150000 B to VP 0 [shared-memory FIFO
     * space]") while one rank per node ran.
     */
    @Test
    void shouldKeepOrderOverSharedMemory()
    {
        run(2, 1, "order");
    }

    @Test
    void shouldCompleteASynchronousSendOnlyOnceMatched()
    {
        run(2, 2, "sync");
    }

    @Test
    void shouldCompleteASynchronousSendOnlyOnceMatchedOverSharedMemory()
    {
        run(2, 1, "sync");
    }

    @Test
    void shouldProbeAndPollWithoutConsuming()
    {
        run(2, 2, "probe");
    }

    @Test
    void shouldProbeAndPollWithoutConsumingOverSharedMemory()
    {
        run(2, 1, "probe");
    }

    @Test
    void shouldNeverOverrunATooSmallReceiveBuffer()
    {
        run(2, 2, "small-buffer");
    }

    @Test
    void shouldBufferManyUnexpectedSmallMessages()
    {
        run(2, 2, "flood");
    }

    /** Was the same defect: the 17th unexpected 64-byte message blocked its sender in elan_tportTxStart. */
    @Test
    void shouldBufferManyUnexpectedSmallMessagesOverSharedMemory()
    {
        run(2, 1, "flood");
    }

    @Test
    void shouldKeepOrderBetweenTheNicAndSharedMemoryPaths()
    {
        run(2, 1, "mixed-path");
    }

    @Test
    void shouldNotCompleteASynchronousSendOnAProbe()
    {
        run(2, 2, "sync-probe");
    }

    @Test
    void shouldNotCompleteASynchronousSendOnAProbeOverSharedMemory()
    {
        run(2, 1, "sync-probe");
    }

    @Test
    void shouldRefuseBadArgumentsNamingThem()
    {
        final PrintStream out = System.out;
        final ByteArrayOutputStream o = new ByteArrayOutputStream();
        try
        {
            System.setOut(new PrintStream(o, true, StandardCharsets.UTF_8));
            Prun.run(PlatformProfile.pentium3He(), new Prun.Options(2, 2, false, 0, Map.of()), TportBadArguments.class)
                .throwIfFailed();
        }
        finally
        {
            System.setOut(out);
        }
        final String s = o.toString(StandardCharsets.UTF_8);
        System.err.print(s);
        assertTrue(s.contains("ok bad-arguments"), s);
    }
}
