package legacy;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;

import org.qsnet.elan3.Prun;
import org.qsnet.fabric.machine.PlatformProfile;

/**
 * How the outside rounds' suites run a scenario: the program under {@code prun} with its output
 * captured, which must end in {@code ok <scenario>} (rank 0 prints it once every rank checked its
 * part).
 */
final class ScenarioJobs
{
    private ScenarioJobs()
    {
    }

    /**
     * Runs {@code program scenario} and asserts that it ended and said so.
     *
     * @return everything the ranks printed.
     */
    static String assertPasses(final Class<?> program, final PlatformProfile p, final int procs, final int nodes,
        final String scenario)
    {
        return assertPasses(program, p, procs, nodes, scenario, Map.of());
    }

    /**
     * Runs {@code program scenario} with {@code env} in every rank's environment and asserts that it
     * ended and said so.
     *
     * @return everything the ranks printed.
     */
    static synchronized String assertPasses(final Class<?> program, final PlatformProfile p, final int procs, final int nodes,
        final String scenario, final Map<String, String> env)
    {
        final PrintStream out = System.out;
        final ByteArrayOutputStream o = new ByteArrayOutputStream();
        try
        {
            System.setOut(new PrintStream(o, true, StandardCharsets.UTF_8));
            Prun.run(p, new Prun.Options(procs, nodes, false, 0, env), program, scenario).throwIfFailed();
        }
        finally
        {
            System.setOut(out);
        }
        final String s = o.toString(StandardCharsets.UTF_8);
        assertTrue(s.lines().anyMatch(l -> l.equals("ok " + scenario)), s);
        return s;
    }

    /** @return pentium3-he, with link CRC errors at {@code crc} when it is not 0. */
    static PlatformProfile withCrcErrors(final double crc)
    {
        final PlatformProfile p = PlatformProfile.pentium3He();
        return crc == 0 ? p : p.withFabric(p.fabric().withCrcErrorRate(crc));
    }
}
