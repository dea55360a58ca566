package org.qsnet.bench.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

import org.qsnet.bench.elan3.HotspotExperiment;
import org.qsnet.bench.elan3.PingExperiment.Placement;
import org.qsnet.bench.report.Plots;
import org.qsnet.bench.report.Table;
import org.qsnet.fabric.QsnetException;
import org.qsnet.fabric.model.PlatformProfile;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code qsnet hotspot}: Elan3lib hot-spot read and write against the number of nodes.
 */
@Command(name = "hotspot", mixinStandardHelpOptions = true,
    description = "Elan3lib hot spot: every other process gets from (read) or puts into (write) the same memory block of "
        + "process 0, all at once; aggregate and per-node bandwidth against the number of nodes.")
public final class HotspotCommand implements Callable<Integer>
{
    @Mixin
    ProfileOptions platform;

    @Option(names = "--memory", defaultValue = "main", description = "Where the blocks live: main or elan. Default: ${DEFAULT-VALUE}.")
    String memory;

    @Option(names = "--size", defaultValue = "65536", description = "Bytes per DMA. Default: ${DEFAULT-VALUE}.")
    int size;

    @Option(names = "--reps", defaultValue = "4", description = "DMAs per process. Default: ${DEFAULT-VALUE}.")
    int reps;

    @Mixin
    OutputOptions output;

    @Override
    public Integer call()
    {
        output.check();
        final PlatformProfile p = platform.profile();
        final Placement where = switch (memory.toLowerCase(Locale.ROOT))
        {
            case "main" -> Placement.MAIN;
            case "elan" -> Placement.ELAN;
            default -> throw new QsnetException("--memory '" + memory + "' must be main or elan");
        };
        QsnetException.require(size >= 1 && size <= (1 << 24), "--size", size, "must be in 1..16 MB");
        QsnetException.require(reps >= 1 && reps <= 1000, "--reps", reps, "must be in 1..1000");
        final Table t = new Table("Elan3lib hot spot, " + memory + " memory, " + reps + " x " + size + " B per process")
            .fact("emulator", "qsnet " + BuildInfo.version()).fact("profile", p.name())
            .fact("published (pentium3-he)", "read flat 314 MB/s, write flat 307 MB/s, 2-16 nodes");
        t.column("nodes", "%d").column("read_MB/s", "%.1f").column("read_per_node", "%.1f").column("write_MB/s", "%.1f")
            .column("write_per_node", "%.1f");
        final List<double[]> points = new ArrayList<>();
        for (int n = 2; n <= p.fabric().k() * p.fabric().k() && n <= 16; n *= 2)
        {
            final double r = HotspotExperiment.aggregateMBs(p, n, true, where, size, reps);
            final double w = HotspotExperiment.aggregateMBs(p, n, false, where, size, reps);
            t.row(n, r, r / (n - 1), w, w / (n - 1));
            points.add(new double[] {n, r, w});
            System.err.printf(Locale.ROOT, "%d nodes: read %.1f MB/s, write %.1f MB/s%n", n, r, w);
        }
        output.emit(t, System.out);
        if (output.plot != null)
        {
            final double[] x = new double[points.size()];
            final double[] read = new double[x.length];
            final double[] write = new double[x.length];
            for (int i = 0; i < x.length; i++)
            {
                x[i] = points.get(i)[0];
                read[i] = points.get(i)[1];
                write[i] = points.get(i)[2];
            }
            Plots.lines(output.plot, "Elan3lib hot spot, " + memory + " memory, " + size + " B DMAs", "qsnet " + BuildInfo.version()
                + ", " + p.name(), "nodes (process 0 is the hot spot)", "aggregate bandwidth into / out of process 0 (MB/s)",
                List.of(new Plots.Series("read (get from process 0)", x, read), new Plots.Series("write (put into process 0)", x, write)),
                false, false);
        }
        return 0;
    }
}
