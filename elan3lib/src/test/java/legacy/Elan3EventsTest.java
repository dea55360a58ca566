package legacy;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.qsnet.elan3.Prun;
import org.qsnet.fabric.machine.PlatformProfile;

/** {@link Elan3Events} under {@code prun} on pentium3-he: two processes on two nodes, and on one node. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class Elan3EventsTest
{
    @ParameterizedTest(name = "2 processes on {0} node(s)")
    @CsvSource({"2", "1"})
    synchronized void shouldCountEventSetsAndChainAndPullAsTheCatalogSays(final int nodes)
    {
        final PrintStream out = System.out;
        final ByteArrayOutputStream o = new ByteArrayOutputStream();
        try
        {
            System.setOut(new PrintStream(o, true, StandardCharsets.UTF_8));
            Prun.run(PlatformProfile.pentium3He(), new Prun.Options(2, nodes, false, 0, Map.of()), Elan3Events.class)
                .throwIfFailed();
        }
        finally
        {
            System.setOut(out);
        }
        assertTrue(o.toString(StandardCharsets.UTF_8).contains("ok events"), o.toString(StandardCharsets.UTF_8));
    }
}
