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

/** {@link Elan3Round2} under {@code prun}: the second outside conformance round for Elan3lib. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class Elan3Round2Test
{
    static synchronized String run(final PlatformProfile p, final int procs, final int nodes, final String... args)
    {
        final PrintStream out = System.out;
        final ByteArrayOutputStream o = new ByteArrayOutputStream();
        try
        {
            System.setOut(new PrintStream(o, true, StandardCharsets.UTF_8));
            Prun.run(p, new Prun.Options(procs, nodes, false, 0, Map.of()), Elan3Round2.class, args).throwIfFailed();
        }
        finally
        {
            System.setOut(out);
        }
        final String s = o.toString(StandardCharsets.UTF_8);
        assertTrue(s.lines().anyMatch(l -> l.equals("ok " + args[0])), s);
        return s;
    }

    @ParameterizedTest(name = "{0} bytes on {1} nodes, crcErrorRate {2}")
    @CsvSource({"64, 3, 0", "100000, 3, 0", "100000, 2, 0", "100000, 1, 0", "300000, 3, 0.05", "5000, 3, 0.3"})
    void shouldRelayThroughChainedDmasOnlyOnceEveryPacketLanded(final int len, final int nodes, final double crc)
    {
        final PlatformProfile p = PlatformProfile.pentium3He();
        run(crc == 0 ? p : p.withFabric(p.fabric().withCrcErrorRate(crc)), 3, nodes, "relay", Integer.toString(len));
    }

    @ParameterizedTest(name = "{0} processes on {1} nodes")
    @CsvSource({"2, 2", "3, 2"})
    void shouldRefuseBadArgumentsNamingThem(final int procs, final int nodes)
    {
        System.err.println(run(PlatformProfile.pentium3He(), procs, nodes, "bad-arguments"));
    }
}
