package org.qsnet.bench.cli;

import java.util.Locale;
import java.util.concurrent.Callable;

import org.qsnet.bench.elan3.PingExperiment.Placement;
import org.qsnet.bench.elan3.PingExperiment;
import org.qsnet.bench.report.Plots;
import org.qsnet.bench.report.Table;
import org.qsnet.fabric.QsnetException;
import org.qsnet.fabric.machine.PlatformProfile;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code qsnet ping}: Elan3lib ping latency and bandwidth between two nodes.
 */
@Command(name = "ping", mixinStandardHelpOptions = true,
    description = {"Elan3lib ping between two nodes, written as an Elan3lib program run under prun: one-way latency "
        + "from a ping-pong (post of the ping's DMA to its destination event seen by the host; the next ping leaves "
        + "after the pong) and bandwidth (back-to-back DMAs), with the source and destination buffers in main or Elan "
        + "memory; --bidirectional: both ends send at once."})
public final class PingCommand implements Callable<Integer>
{
    @Mixin
    PartitionOptions partitioning;

    @Mixin
    ProfileOptions platform;

    @Option(names = "--src", defaultValue = "elan", description = "Source buffer: main or elan. Default: ${DEFAULT-VALUE}.")
    String src;

    @Option(names = "--dst", defaultValue = "elan", description = "Destination buffer: main or elan. Default: ${DEFAULT-VALUE}.")
    String dst;

    @Option(names = "--bidirectional", description = "Both ranks send at once (bandwidth per direction).")
    boolean bidirectional;

    @Option(names = "--sizes", split = ",",
        defaultValue = "0,1,8,64,128,256,320,512,1024,2048,4096,16384,65536,262144,1048576",
        description = "Message sizes in bytes, 0..16777216. Default: ${DEFAULT-VALUE}.")
    int[] sizes;

    @Mixin
    OutputOptions output;

    private static Placement placement(final String option, final String v)
    {
        return switch (v.toLowerCase(Locale.ROOT))
        {
            case "main" -> Placement.MAIN;
            case "elan" -> Placement.ELAN;
            default -> throw new QsnetException(option + " '" + v + "' must be main or elan");
        };
    }

    @Override
    public Integer call() throws Exception
    {
        return partitioning.run(this::experiment);
    }

    /** The experiment: alone, in partitions, or as this JVM's partition of a --jvms job ({@link PartitionOptions#run}). */
    private Integer experiment()
    {
        for (final int size : sizes)
        {
            QsnetException.require(size >= 0 && size <= PingExperiment.MAX_BYTES, "--sizes value", size,
                "must be in 0.." + PingExperiment.MAX_BYTES + " (16 MB: both buffers fit the node's 64 MB of Elan memory)");
        }
        output.check();
        final PlatformProfile p = platform.profile();
        final Placement s = placement("--src", src);
        final Placement d = placement("--dst", dst);
        final Table t = new Table("Elan3lib ping, " + s.name().toLowerCase(Locale.ROOT) + " -> "
            + d.name().toLowerCase(Locale.ROOT) + (bidirectional ? ", bidirectional" : ""))
            .fact("emulator", "qsnet " + BuildInfo.version()).fact("profile", p.name() + ": " + p.description())
            .fact("latency", "ping-pong: post of a ping to its event word seen by the receiving host, mean of 4 after 2 warm-up"
                + (bidirectional ? "; both ranks ping at once, per direction" : ""))
            .fact("bandwidth", "after a warm-up DMA, 4 DMAs back to back per size (2 above 64 KB), MB/s = 10^6 B/s per direction")
            .fact("link errors", "crcErrorRate " + p.fabric().crcErrorRate() + "; per size, both runs: packets retransmitted"
                + " after a CRC error, queued packets refused to keep order, duplicates discarded");
        FabricOptions.labelTiming(t, p.fabric());
        t.column("bytes", "%d").column("latency_us", "%.3f").column("bandwidth_MB/s", "%.1f").column("crc_retries", "%d")
            .column("ooo_refused", "%d").column("dup_discarded", "%d");
        final double[] x = new double[sizes.length];
        final double[] y = new double[sizes.length];
        final double[] latency = new double[sizes.length];
        int i = 0;
        PingExperiment.takeLinkErrors();
        for (final int size : sizes)
        {
            final double lat = PingExperiment.latencyNs(p, size, s, d, bidirectional) / 1000.0;
            final double bw = size == 0 ? 0 : PingExperiment.bandwidthMBs(p, size, size > 65536 ? 2 : 4, s, d, bidirectional);
            final org.qsnet.fabric.machine.LinkErrorStats errors = PingExperiment.takeLinkErrors();
            t.row(size, lat, bw, errors.crcRetries(), errors.outOfOrderRefusals(), errors.duplicatesDiscarded());
            x[i] = size;
            latency[i] = lat;
            y[i++] = bw;
            System.err.printf(Locale.ROOT, "%d B: %.3f us, %.1f MB/s%n", size, lat, bw);
        }
        output.emit(t, System.out);
        if (output.plot != null)
        {
            final String how = s.name().toLowerCase(Locale.ROOT) + " -> " + d.name().toLowerCase(Locale.ROOT)
                + (bidirectional ? ", both ways" : "");
            Plots.twoAxes(output.plot, "Elan3lib ping, " + how + ", " + p.name(), "qsnet " + BuildInfo.version()
                + " (0 B left out of the log axes)", "message size (bytes, log)", new Plots.Series("one-way latency (us)", x, latency),
                "one-way latency (us, log)", new Plots.Series("bandwidth (MB/s)", x, y), "bandwidth (MB/s per direction, log)", true,
                true);
        }
        return 0;
    }
}
