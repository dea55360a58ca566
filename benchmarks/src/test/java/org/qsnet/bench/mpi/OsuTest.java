package org.qsnet.bench.mpi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.qsnet.elan3.Prun;
import org.qsnet.fabric.machine.PlatformProfile;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class OsuTest
{
    private static List<String> run(final int n, final String... args)
    {
        final PrintStream old = System.out;
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        System.setOut(new PrintStream(bytes, true, StandardCharsets.UTF_8));
        try
        {
            Prun.run(PlatformProfile.pentium3He(), new Prun.Options(n, n, false, 0, Map.of()), Osu.class, args)
                .throwIfFailed();
        }
        finally
        {
            System.setOut(old);
        }
        return bytes.toString(StandardCharsets.UTF_8).lines().toList();
    }

    @Test
    void shouldPrintTheOsuLatencyTableInSimulatedTime()
    {
        final List<String> lines = run(2, "latency", "-m", "8", "-i", "5");
        assertTrue(lines.get(0).startsWith("# OSU MPI Latency Test"), lines.toString());
        assertEquals("# Size            Latency (us)", lines.get(1));
        assertEquals(2 + 5, lines.size(), lines.toString()); // 0, 1, 2, 4, 8 bytes
        // the 8-byte row is the calibrated ping-pong latency, the same with arrays as with direct buffers
        final String row8 = String.format(Locale.ROOT, "%-10d%20.2f", 8,
            MpiExperiment.latencyNs(PlatformProfile.pentium3He(), 8, 5) / 1000);
        assertEquals(row8, lines.get(6));
        assertEquals(row8, run(2, "latency", "-m", "8", "-i", "5", "-d", "array").get(6));
    }

    @Test
    void shouldPrintACollectiveTableForANonPowerOfTwoJob()
    {
        final List<String> lines = run(5, "allgatherv", "-m", "64", "-i", "3");
        assertEquals("# Size         Avg Latency(us)", lines.get(1));
        assertEquals(2 + 7, lines.size(), lines.toString());
        for (int i = 2, size = 1; i < lines.size(); i++, size *= 2)
        {
            final String l = lines.get(i);
            assertEquals(size, Integer.parseInt(l.substring(0, 10).trim()), l);
            assertTrue(Double.parseDouble(l.substring(10).trim()) > 0, l);
        }
    }
}
