package org.qsnet.bench.elan3;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.qsnet.bench.elan3.PingExperiment.Placement;
import org.qsnet.bench.examples.ElanPing;
import org.qsnet.elan3.Prun;
import org.qsnet.fabric.QsnetException;
import org.qsnet.fabric.machine.PlatformProfile;

@Timeout(value = 120, unit = TimeUnit.SECONDS)
class PingExperimentTest
{
    private static final PlatformProfile P3 = PlatformProfile.pentium3He();

    /** The half round trip the ElanPing example (a legacy-style ping-pong) prints, in ns. */
    private static double elanPingHalfRoundTripNs(final int size)
    {
        final PrintStream out = System.out;
        final ByteArrayOutputStream o = new ByteArrayOutputStream();
        System.setOut(new PrintStream(o, true, StandardCharsets.UTF_8));
        try
        {
            Prun.run(P3, new Prun.Options(2, 2, false, 0, Map.of()), (p, a) -> ElanPing.main(a), Integer.toString(size), "20")
                .throwIfFailed();
        }
        finally
        {
            System.setOut(out);
        }
        final Matcher m = java.util.regex.Pattern.compile(size + " bytes: ([0-9.]+) us half round trip")
            .matcher(o.toString(StandardCharsets.UTF_8));
        assertTrue(m.find(), o.toString(StandardCharsets.UTF_8));
        return Double.parseDouble(m.group(1)) * 1000;
    }

    @Test
    void shouldMeasureAPingNotAQueueOfPings()
    {
        // the old ping posted a ping every 20 us whatever its size, so from ~8 KB it measured a queue
        // (16 KB: 168 us); a ping-pong's one-way latency is ElanPing's half round trip (~52 us) less
        // the host's re-arming of the event between the ping and the pong, the same at every size
        final double rearmNs = elanPingHalfRoundTripNs(0) - PingExperiment.latencyNs(P3, 0, Placement.ELAN, Placement.ELAN);
        assertTrue(rearmNs > 0 && rearmNs < 300, "re-arm (a store and elan3_primeevent): " + rearmNs + " ns");
        for (final int size : new int[] {4096, 16384, 65536})
        {
            final double ping = PingExperiment.latencyNs(P3, size, Placement.ELAN, Placement.ELAN);
            final double elanPing = elanPingHalfRoundTripNs(size);
            assertEquals(elanPing - rearmNs, ping, elanPing * 0.005, size + " B: ping " + ping + " ns vs ElanPing " + elanPing + " ns");
        }
        final double ping16 = PingExperiment.latencyNs(P3, 16384, Placement.ELAN, Placement.ELAN) / 1000.0;
        assertTrue(ping16 > 50 && ping16 < 54, "16 KB: " + ping16 + " us (ElanPing: 52 us)");
        // and it grows by the same amount for each added 16 KB: no ping waits behind another
        final long l16 = PingExperiment.latencyNs(P3, 16384, Placement.ELAN, Placement.ELAN);
        final long l32 = PingExperiment.latencyNs(P3, 32768, Placement.ELAN, Placement.ELAN);
        final long l48 = PingExperiment.latencyNs(P3, 49152, Placement.ELAN, Placement.ELAN);
        assertEquals(l32 - l16, l48 - l32, (l32 - l16) * 0.01, l16 + " " + l32 + " " + l48);
    }

    @Test
    void shouldMeasureBothEndsPingingAtOnce()
    {
        final long one = PingExperiment.latencyNs(P3, 4096, Placement.ELAN, Placement.ELAN, false);
        final long both = PingExperiment.latencyNs(P3, 4096, Placement.ELAN, Placement.ELAN, true);
        assertTrue(both > one, "both directions share each NIC: " + both + " vs " + one);
        assertTrue(both < 2 * one, "but each ping still goes at once: " + both + " vs " + one);
    }

    @Test
    void shouldPingTheLargestSizeAndRefuseLarger()
    {
        final long max = PingExperiment.latencyNs(P3, PingExperiment.MAX_BYTES, Placement.ELAN, Placement.ELAN);
        final double mbs = PingExperiment.MAX_BYTES * 1e3 / max;
        assertTrue(mbs > 300 && mbs < 340, "16 MB at the DMA's streaming rate: " + mbs + " MB/s");
        assertTrue(assertThrows(QsnetException.class,
            () -> PingExperiment.latencyNs(P3, PingExperiment.MAX_BYTES + 1, Placement.MAIN, Placement.MAIN)).getMessage()
            .contains("size 16777217 must be in 0..16777216"));
    }
}
