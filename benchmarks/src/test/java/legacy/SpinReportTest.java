package legacy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Issue 8 §7: a loop that can never finish is still reported. A rank spinning on
 * {@code EVENT_WORD_READY} or {@code elan_done} never blocks, so the deadlock detector cannot see
 * it; {@code prun --max-sim-us} ends the job and says where each rank is: RUNNING, its clock, the
 * library call it is in and the program's line that called it (the spin loop).
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class SpinReportTest
{
    /** The line of {@code SpinForever.java} carrying {@code marker}. */
    private static int line(final String marker) throws IOException
    {
        final List<String> lines = Files.readAllLines(Path.of("src/test/java/legacy/SpinForever.java"));
        for (int i = 0; i < lines.size(); i++)
        {
            if (lines.get(i).contains(marker))
            {
                return i + 1;
            }
        }
        throw new IllegalStateException(marker + " not found");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"word, SPIN-WORD, Elan3lib.EVENT_WORD_READY, spinOnWord", "done, SPIN-DONE, Elanlib.elan_done, spinOnDone"})
    void shouldReportWhereASpinningRankIsWhenTheSimulatedTimeLimitEndsTheJob(final String mode, final String marker,
        final String call, final String method) throws IOException
    {
        final String[] r = LegacyProgramsTest.prun("-n", "2", "--max-sim-us", "200", SpinForever.class.getName(), mode);
        assertEquals("1", r[0], "a job ended by the limit exits 1\n" + r[2]);
        final String err = r[2];
        assertTrue(err.contains("prun: simulated time limit of 200.000 us reached (the job has not finished); where each rank is:"),
            err);
        final int line = line(marker);
        for (int rank = 0; rank < 2; rank++)
        {
            final String where = "  job 0 rank " + rank + ": RUNNING, clock ";
            final String site = ", in " + call + ", called at legacy.SpinForever." + method + "(SpinForever.java:" + line + ")";
            assertTrue(err.lines().anyMatch(l -> l.startsWith(where) && l.endsWith(site)),
                "expected '" + where + "…" + site + "' in:\n" + err);
        }
        assertTrue(err.contains("prun: 2 processes on pentium3-he, simulated time 200.000 us"), err);
    }
}
