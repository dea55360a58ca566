package org.qsnet.bench.cli;

import java.util.Locale;
import java.util.concurrent.Callable;

import org.qsnet.bench.elan3.OsuExperiment;
import org.qsnet.bench.report.Plots;
import org.qsnet.bench.report.Table;
import org.qsnet.fabric.QsnetException;
import org.qsnet.fabric.machine.PlatformProfile;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
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
    @Mixin
    PartitionOptions partitioning;

    @Option(names = "--profile", defaultValue = "xeon-gc", description = "Platform profile (the paper's: xeon-gc). Default: ${DEFAULT-VALUE}.")
    String profile;

    @Option(names = "--set", paramLabel = "NAME=VALUE", description = "Override a profile or fabric parameter, e.g. --set tlbEntries=32.")
    java.util.Map<String, String> overrides = new java.util.LinkedHashMap<>();

    @Option(names = "--format", defaultValue = "text", description = "text, csv or json. Default: ${DEFAULT-VALUE}.")
    String format;

    @Option(names = "--tests", split = ",", defaultValue = "bandwidth,completion,reuse,hotspot,bidirectional",
        description = "Which tests, comma-separated: bandwidth, completion, reuse, hotspot, bidirectional, overlap. "
            + "Default: ${DEFAULT-VALUE}.")
    java.util.List<String> tests;

    @Option(names = "--sizes", split = ",", defaultValue = "4,64,1024,4096,65536",
        description = "Message sizes of the bandwidth and completion tests, bytes. Default: ${DEFAULT-VALUE}.")
    int[] sizes;

    @Option(names = "--windows", split = ",", defaultValue = "1,4,16,64",
        description = "Windows Q (DMAs outstanding) of the bandwidth test. Default: ${DEFAULT-VALUE}.")
    int[] windows;

    @Option(names = "--reuse-sizes", split = ",", defaultValue = "1024,4096,65536,524288",
        description = "Message sizes of the buffer-reuse test, bytes. Default: ${DEFAULT-VALUE}.")
    int[] reuseSizes;

    @Option(names = "--buffers", split = ",", defaultValue = "1,4,16,32,64",
        description = "Numbers of buffers N of the buffer-reuse test (used in FIFO order). Default: ${DEFAULT-VALUE}.")
    int[] buffers;

    @Option(names = "--reuse", split = ",", defaultValue = "0,50,100",
        description = "Reuse percentages R of the buffer-reuse test (R %% of puts reuse buffer 0). Default: ${DEFAULT-VALUE}.")
    int[] reuse;

    @Option(names = "--window", defaultValue = "8",
        description = "Window Q of the bandwidth variant of the buffer-reuse test and of the overlap test. Default: ${DEFAULT-VALUE}.")
    int window;

    @Option(names = "--plot", paramLabel = "FILE.png",
        description = "Draw each test that ran as FILE-<test>.png (bandwidth, completion, reuse, overlap).")
    java.nio.file.Path plot;

    @Option(names = "--overlap-size", defaultValue = "65536",
        description = "Bytes per put of the overlap test. Default: ${DEFAULT-VALUE}.")
    int overlapSize;

    @Override
    public Integer call() throws Exception
    {
        return partitioning.run(this::experiment);
    }

    /** The experiment: alone, in partitions, or as this JVM's partition of a --jvms job ({@link PartitionOptions#run}). */
    private Integer experiment()
    {
        final PlatformProfile p = FabricOptions.applyProfile(PlatformProfile.named(profile), overrides);
        if (plot != null)
        {
            OutputOptions.writable("--plot", plot);
        }
        final String sub = "qsnet " + BuildInfo.version() + ", " + p.name();
        final Table.Format f = OutputOptions.format("--format", format);
        final java.util.List<Table> tables = new java.util.ArrayList<>();
        final String who = "qsnet " + BuildInfo.version();

        for (final int size : sizes)
        {
            QsnetException.require(size >= 0 && size <= (1 << 20), "--sizes value", size, "must be in 0..1048576");
        }
        for (final int q : windows)
        {
            QsnetException.require(q >= 1 && q <= 256, "--windows value", q, "must be in 1..256");
        }
        for (final int size : reuseSizes)
        {
            QsnetException.require(size >= 1 && size <= (1 << 20), "--reuse-sizes value", size, "must be in 1..1048576");
        }
        for (final int n : buffers)
        {
            QsnetException.require(n >= 1 && n <= 256, "--buffers value", n, "must be in 1..256");
        }
        for (final int r : reuse)
        {
            QsnetException.require(r >= 0 && r <= 100, "--reuse value", r, "must be in 0..100");
        }
        QsnetException.require(window >= 1 && window <= 256, "--window", window, "must be in 1..256");
        QsnetException.require(overlapSize >= 1 && overlapSize <= (1 << 20), "--overlap-size", overlapSize,
            "must be in 1..1048576");
        final java.util.Set<String> run = new java.util.LinkedHashSet<>();
        for (final String t : tests)
        {
            final String name = t.trim().toLowerCase(Locale.ROOT);
            QsnetException.require(java.util.List.of("bandwidth", "completion", "reuse", "hotspot", "bidirectional", "overlap")
                .contains(name), "--tests value", t, "must be bandwidth, completion, reuse, hotspot, bidirectional or overlap");
            run.add(name);
        }

        if (run.contains("bandwidth"))
        {
            final Table bw = new Table("bandwidth with a window of Q outstanding DMAs (MB/s)").fact("emulator", who)
                .fact("profile", p.name());
            bw.column("bytes", "%d");
            for (final int q : windows)
            {
                bw.column("Q=" + q, "%.1f");
            }
            for (final int size : sizes)
            {
                final int loops = size >= 65536 ? 2 : 8;
                final Object[] row = new Object[windows.length + 1];
                row[0] = size;
                for (int i = 0; i < windows.length; i++)
                {
                    row[i + 1] = OsuExperiment.windowBandwidthMBs(p, size, windows[i], loops);
                }
                bw.row(row);
            }
            emit(bw, f, tables);
            if (plot != null)
            {
                final java.util.List<Plots.Series> series = new java.util.ArrayList<>();
                for (int i = 0; i < windows.length; i++)
                {
                    final double[] x = new double[sizes.length];
                    final double[] y = new double[sizes.length];
                    for (int j = 0; j < sizes.length; j++)
                    {
                        x[j] = sizes[j];
                        y[j] = (Double)bw.rows().get(j)[i + 1];
                    }
                    series.add(new Plots.Series("Q = " + windows[i], x, y));
                }
                Plots.lines(figure("bandwidth"), "Put bandwidth with a window of Q outstanding DMAs", sub, "message size (bytes)",
                    "bandwidth (MB/s)", series, true, false);
            }
        }

        if (run.contains("completion"))
        {
            final Table lat = new Table("completion of a put into host memory (one-way latency, us)").fact("emulator", who)
                .fact("profile", p.name()).fact("host overhead per elan3_putdma_main",
                    String.format(Locale.ROOT, "%.3f us", OsuExperiment.hostOverheadNs(p) / 1000));
            lat.fact("poll_event - poll_buffer", "the NIC's event after the last packet's data: microcode, SDRAM count, word "
                + "copy across PCI queued behind the data's writes");
            lat.fact("blocking_wait - poll_event", String.format(Locale.ROOT,
                "interrupt %.1f + driver %.1f + wake-up %.1f + context switch to user %.1f us - the poll %.3f us",
                p.interruptNs() / 1e3, p.driverNs() / 1e3, p.wakeupNs() / 1e3, p.contextSwitchNs() / 1e3, p.hostPollNs() / 1e3));
            lat.column("bytes", "%d").column("poll_buffer", "%.3f").column("poll_event", "%.3f").column("blocking_wait", "%.3f")
                .column("event_extra", "%.3f").column("blocking_extra", "%.3f");
            for (final int size : sizes)
            {
                final long[] c = OsuExperiment.completionLatencyNs(p, Math.max(4, size));
                lat.row(size, c[0] / 1000.0, c[1] / 1000.0, c[2] / 1000.0, (c[1] - c[0]) / 1000.0, (c[2] - c[1]) / 1000.0);
            }
            emit(lat, f, tables);
            if (plot != null)
            {
                final java.util.List<Plots.Series> series = new java.util.ArrayList<>();
                final String[] names = {"polling the buffer", "polling the event", "blocking wait"};
                for (int i = 0; i < 3; i++)
                {
                    final double[] x = new double[sizes.length];
                    final double[] y = new double[sizes.length];
                    for (int j = 0; j < sizes.length; j++)
                    {
                        x[j] = Math.max(4, sizes[j]);
                        y[j] = (Double)lat.rows().get(j)[i + 1];
                    }
                    series.add(new Plots.Series(names[i], x, y));
                }
                Plots.lines(figure("completion"), "Completion of a put into host memory", sub, "message size (bytes)",
                    "one-way latency (us)", series, true, true);
            }
        }

        if (run.contains("reuse"))
        {
            final Table reuseTable = new Table("buffer reuse: puts of each size, N buffers in FIFO order, R % of puts reuse "
                + "buffer 0: latency (one put at a time, us per put) and bandwidth (window of " + window + ", MB/s)")
                .fact("emulator", who).fact("profile", p.name())
                .fact("TLB", p.tlbEntries() + " entries, LRU; a page (8 KB) not held: a walk of 3 levels in SDRAM, "
                    + (p.tableWalkNs() + 3 * p.sdramNs(8)) + " ns unloaded")
                .fact("first touch", "a host page the NIC has not touched since it was mapped: the driver loads its "
                    + "entry (interrupt, handler, 3 PIO writes) = " + (p.interruptNs() + p.driverNs() + 3 * p.pioWriteNs())
                    + " ns, then a second walk; every buffer is touched first inside the run (the FIFO cycles twice)");
            reuseTable.column("bytes", "%d").column("N", "%d");
            for (final int r : reuse)
            {
                reuseTable.column("lat_R=" + r, "%.3f");
            }
            for (final int r : reuse)
            {
                reuseTable.column("MB/s_R=" + r, "%.1f");
            }
            for (final int size : reuseSizes)
            {
                for (final int n : buffers)
                {
                    final Object[] row = new Object[2 + 2 * reuse.length];
                    row[0] = size;
                    row[1] = n;
                    // enough puts to cycle the FIFO twice, at most 8 MB moved per point
                    final int messages = Math.max(2 * n, Math.min(200, (8 << 20) / size));
                    for (int i = 0; i < reuse.length; i++)
                    {
                        row[2 + i] = OsuExperiment.bufferReuseNs(p, size, n, reuse[i], 1, messages) / 1000;
                        row[2 + reuse.length + i] = size * 1e3
                            / OsuExperiment.bufferReuseNs(p, size, n, reuse[i], window, Math.max(messages, 2 * window));
                    }
                    reuseTable.row(row);
                }
            }
            emit(reuseTable, f, tables);
            if (plot != null)
            {
                // what not reusing costs: latency per put above that of one buffer always reused (N = 1)
                final java.util.List<Plots.Series> series = new java.util.ArrayList<>();
                for (int bi = 0; bi < buffers.length; bi++)
                {
                    final double[] x = new double[reuseSizes.length];
                    final double[] y = new double[reuseSizes.length];
                    for (int j = 0; j < reuseSizes.length; j++)
                    {
                        x[j] = reuseSizes[j];
                        final double one = OsuExperiment.bufferReuseNs(p, reuseSizes[j], 1, 100, 1,
                            Math.max(2, Math.min(200, (8 << 20) / reuseSizes[j]))) / 1000;
                        y[j] = (Double)reuseTable.rows().get(j * buffers.length + bi)[2] - one;
                    }
                    series.add(new Plots.Series("N = " + buffers[bi] + ", R = " + reuse[0] + " %", x, y));
                }
                Plots.lines(figure("reuse"), "Buffer reuse: extra latency per put over one reused buffer", sub,
                    "message size (bytes)", "extra post-to-completion time (us)", series, true, false);
            }
        }

        if (run.contains("hotspot"))
        {
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

        }

        if (run.contains("bidirectional"))
        {
            final long[] bi = OsuExperiment.bidirectionalLatencyNs(p);
            final Table both = new Table("4-byte latency, one way vs both ends at once (us)").fact("emulator", who)
                .fact("profile", p.name());
            both.column("one_way", "%.3f").column("both_ways", "%.3f");
            both.row(bi[0] / 1000.0, bi[1] / 1000.0);
            emit(both, f, tables);
        }

        if (run.contains("overlap"))
        {
            final Table ov = new Table("computation/communication overlap: a window of " + window + " puts of " + overlapSize
                + " B, then C us of computation, then the wait (bandwidth against the fraction of time computing)")
                .fact("emulator", who).fact("profile", p.name());
            ov.column("compute_us", "%.1f").column("compute_fraction", "%.3f").column("MB/s", "%.1f");
            // computation from none to twice the window's transfer time at the link's peak
            final double windowUs = (double)overlapSize * window / 335.1;
            for (final double frac : new double[] {0, 0.25, 0.5, 0.75, 1.0, 1.25, 1.5, 2.0})
            {
                final long c = Math.round(frac * windowUs * 1000);
                final double[] r = OsuExperiment.overlap(p, overlapSize, window, c, 4);
                ov.row(c / 1000.0, r[1], r[0]);
            }
            emit(ov, f, tables);
            if (plot != null)
            {
                final double[] x = new double[ov.rows().size()];
                final double[] frac = new double[x.length];
                final double[] y = new double[x.length];
                for (int j = 0; j < x.length; j++)
                {
                    x[j] = (Double)ov.rows().get(j)[0];
                    frac[j] = (Double)ov.rows().get(j)[1];
                    y[j] = (Double)ov.rows().get(j)[2];
                }
                Plots.twoAxes(figure("overlap"), "Overlap: " + window + " x " + overlapSize + " B puts, then computation", sub,
                    "computation per window (us)", new Plots.Series("bandwidth (MB/s)", x, y), "bandwidth (MB/s)",
                    new Plots.Series("fraction of the time computing", x, frac), "fraction of the time computing", false, false);
            }
        }
        if (f == Table.Format.JSON)
        {
            // one JSON document holding every table, so that a machine reads it whole
            System.out.print(Table.renderAll(f, tables));
            System.out.flush();
        }
        return 0;
    }

    private java.nio.file.Path figure(final String test)
    {
        final String name = plot.getFileName().toString();
        final String stem = name.endsWith(".png") ? name.substring(0, name.length() - 4) : name;
        return plot.resolveSibling(stem + "-" + test + ".png");
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
