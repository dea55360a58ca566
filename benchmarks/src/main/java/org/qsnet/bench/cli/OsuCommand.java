package org.qsnet.bench.cli;

import java.util.Locale;
import java.util.concurrent.Callable;

import org.qsnet.bench.elan3.OsuExperiment;
import org.qsnet.bench.report.Table;
import org.qsnet.fabric.model.PlatformProfile;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code qsnet osu}: the Ohio State micro-benchmarks at the Elan3lib level.
 */
@Command(name = "osu", mixinStandardHelpOptions = true,
    description = {"The Ohio State micro-benchmarks at the Elan3lib level (Elan3lib programs under prun, host-memory "
        + "buffers): bandwidth with a window of Q outstanding DMAs, host overhead per DMA, completion by polling the "
        + "buffer vs the event vs a blocking wait, buffer reuse (N buffers in FIFO order, R %% reuse), hot-spot send and "
        + "receive (one master, N slaves), latency with both ends sending at once."})
public final class OsuCommand implements Callable<Integer>
{
    @Option(names = "--profile", defaultValue = "xeon-gc", description = "Platform profile (the paper's: xeon-gc). Default: ${DEFAULT-VALUE}.")
    String profile;

    @Option(names = "--set", paramLabel = "NAME=VALUE", description = "Override a profile or fabric parameter, e.g. --set tlbEntries=32.")
    java.util.Map<String, String> overrides = new java.util.LinkedHashMap<>();

    @Option(names = "--format", defaultValue = "text", description = "text, csv or json. Default: ${DEFAULT-VALUE}.")
    String format;

    @Override
    public Integer call()
    {
        final PlatformProfile p = FabricOptions.applyProfile(PlatformProfile.named(profile), overrides);
        final Table.Format f = OutputOptions.format("--format", format);
        final java.util.List<Table> tables = new java.util.ArrayList<>();
        final String who = "qsnet " + BuildInfo.version();

        final Table bw = new Table("bandwidth with a window of Q outstanding DMAs (MB/s)").fact("emulator", who)
            .fact("profile", p.name());
        bw.column("bytes", "%d").column("Q=1", "%.1f").column("Q=4", "%.1f").column("Q=16", "%.1f").column("Q=64", "%.1f");
        for (final int size : new int[] {4, 64, 1024, 4096, 65536})
        {
            final int loops = size >= 65536 ? 2 : 8;
            bw.row(size, OsuExperiment.windowBandwidthMBs(p, size, 1, loops), OsuExperiment.windowBandwidthMBs(p, size, 4, loops),
                OsuExperiment.windowBandwidthMBs(p, size, 16, loops), OsuExperiment.windowBandwidthMBs(p, size, 64, loops));
        }
        emit(bw, f, tables);

        final Table lat = new Table("completion of a put into host memory (one-way latency, us)").fact("emulator", who)
            .fact("profile", p.name()).fact("host overhead per elan3_putdma_main",
                String.format(Locale.ROOT, "%.3f us", OsuExperiment.hostOverheadNs(p) / 1000));
        lat.column("bytes", "%d").column("poll_buffer", "%.3f").column("poll_event", "%.3f").column("blocking_wait", "%.3f");
        for (final int size : new int[] {4, 64, 1024, 4096})
        {
            final long[] c = OsuExperiment.completionLatencyNs(p, size);
            lat.row(size, c[0] / 1000.0, c[1] / 1000.0, c[2] / 1000.0);
        }
        emit(lat, f, tables);

        final Table reuse = new Table("buffer reuse: 1 KB puts, N buffers in FIFO order, R % of puts reuse buffer 0 (us per put)")
            .fact("emulator", who).fact("profile", p.name()).fact("TLB", p.tlbEntries() + " entries, miss " + p.tableWalkNs() + " ns");
        reuse.column("N", "%d").column("R=0", "%.3f").column("R=50", "%.3f").column("R=100", "%.3f");
        for (final int n : new int[] {1, 4, 8, 16, 32, 64})
        {
            reuse.row(n, OsuExperiment.bufferReuseNs(p, 1024, n, 0) / 1000, OsuExperiment.bufferReuseNs(p, 1024, n, 50) / 1000,
                OsuExperiment.bufferReuseNs(p, 1024, n, 100) / 1000);
        }
        emit(reuse, f, tables);

        final Table hot = new Table("hot-spot send and receive: 4 KB per slave (aggregate MB/s)").fact("emulator", who)
            .fact("profile", p.name());
        hot.column("slaves", "%d").column("send", "%.1f").column("receive", "%.1f");
        final int maxSlaves = Math.min(15, p.fabric().k() == 4 ? (int)Math.pow(4, p.fabric().dim()) - 1 : 7);
        for (final int s : new int[] {1, 2, 4, 8, maxSlaves})
        {
            if (s <= maxSlaves)
            {
                hot.row(s, OsuExperiment.hotspotSendReceiveMBs(p, s, 4096, false),
                    OsuExperiment.hotspotSendReceiveMBs(p, s, 4096, true));
            }
        }
        emit(hot, f, tables);

        final long[] bi = OsuExperiment.bidirectionalLatencyNs(p);
        final Table both = new Table("4-byte latency, one way vs both ends at once (us)").fact("emulator", who)
            .fact("profile", p.name());
        both.column("one_way", "%.3f").column("both_ways", "%.3f");
        both.row(bi[0] / 1000.0, bi[1] / 1000.0);
        emit(both, f, tables);
        if (f == Table.Format.JSON)
        {
            // one JSON document holding every table, so that a machine reads it whole
            System.out.print(Table.renderAll(f, tables));
            System.out.flush();
        }
        return 0;
    }

    /**
     * Prints a finished table at once as text or CSV (so a long run shows its progress); keeps it
     * for the single JSON document.
     *
     * @param t      the table.
     * @param f      the stdout format.
     * @param tables every table so far.
     */
    static void emit(final Table t, final Table.Format f, final java.util.List<Table> tables)
    {
        tables.add(t);
        if (f != Table.Format.JSON)
        {
            t.print(f, System.out);
        }
    }
}
