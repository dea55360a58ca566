package org.qsnet.bench.cli;

import java.util.concurrent.Callable;

import org.qsnet.bench.elan3.ElanlibExperiment;
import org.qsnet.bench.report.Table;
import org.qsnet.fabric.machine.PlatformProfile;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code qsnet elanlib}: Tports latency, put latency and bandwidth, barriers and broadcast.
 */
@Command(name = "elanlib", mixinStandardHelpOptions = true,
    description = "Elanlib and Tports experiments (Elanlib programs under prun): Tports one-way latency against size "
        + "(pentium3-he), elan_put latency and windowed bandwidth (xeon-gc), gsync vs hgsync and bcast against the number "
        + "of processes (alpha-es40, 2-64).")
public final class ElanlibCommand implements Callable<Integer>
{
    @Mixin
    PartitionOptions partitioning;

    @Option(names = "--format", defaultValue = "text", description = "text, csv or json. Default: ${DEFAULT-VALUE}.")
    String format;

    @Override
    public Integer call() throws Exception
    {
        return partitioning.run(this::experiment);
    }

    /** The experiment: alone, in partitions, or as this JVM's partition of a --jvms job ({@link PartitionOptions#run}). */
    private Integer experiment()
    {
        final Table.Format f = OutputOptions.format("--format", format);
        final java.util.List<Table> tables = new java.util.ArrayList<>();
        final String who = "qsnet " + BuildInfo.version();
        final PlatformProfile p3 = PlatformProfile.pentium3He();
        final Table tp = new Table("Tports one-way latency (us) and streaming bandwidth (MB/s)").fact("emulator", who).fact("profile", p3.name())
            .fact("published", "4.4 us small; a visible step where inline (< 288 B) turns synchronous");
        tp.column("bytes", "%d").column("latency_us", "%.3f").column("bandwidth_MB/s", "%.1f");
        for (final int size : new int[] {0, 8, 64, 128, 256, 287, 288, 512, 1024, 4096, 65536, 1048576})
        {
            tp.row(size, size > 4096 ? Double.NaN : ElanlibExperiment.tportLatencyNs(p3, size) / 1000.0,
                size == 0 ? 0.0 : ElanlibExperiment.tportBandwidthMBs(p3, size, size >= 65536 ? 4 : 32));
        }
        OsuCommand.emit(tp, f, tables);

        final PlatformProfile xeon = PlatformProfile.xeonGc();
        final Table put = new Table("elan_put: latency (buffer polled) and bandwidth with a window of 8").fact("emulator", who)
            .fact("profile", xeon.name()).fact("published", "2.0 us small, 314 MiB/s peak");
        put.column("bytes", "%d").column("put_latency_us", "%.3f").column("put_MiB/s", "%.1f").column("get_latency_us", "%.3f");
        for (final int size : new int[] {8, 64, 1024, 4096, 65536})
        {
            put.row(size, ElanlibExperiment.putLatencyNs(xeon, size) / 1000.0,
                ElanlibExperiment.putBandwidthMBs(xeon, size, 8, size >= 65536 ? 4 : 16) / 1.048576,
                ElanlibExperiment.getLatencyNs(xeon, size) / 1000.0);
        }
        OsuCommand.emit(put, f, tables);

        final PlatformProfile alpha = PlatformProfile.alphaEs40();
        final Table coll = new Table("barrier and broadcast (us per operation, 10 barriers / 5 broadcasts)").fact("emulator", who)
            .fact("profile", alpha.name());
        coll.column("procs", "%d").column("gsync", "%.2f").column("hgsync", "%.2f").column("bcast_64B", "%.2f")
            .column("bcast_4KB", "%.2f");
        for (final int n : new int[] {2, 4, 8, 16, 32, 64})
        {
            coll.row(n, ElanlibExperiment.barrierNs(alpha, n, false) / 1000, ElanlibExperiment.barrierNs(alpha, n, true) / 1000,
                ElanlibExperiment.bcastNs(alpha, n, 64) / 1000, ElanlibExperiment.bcastNs(alpha, n, 4096) / 1000);
        }
        OsuCommand.emit(coll, f, tables);
        if (f == Table.Format.JSON)
        {
            System.out.print(Table.renderAll(f, tables));
            System.out.flush();
        }
        return 0;
    }
}
