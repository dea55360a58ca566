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
import org.qsnet.fabric.machine.PlatformProfile;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code qsnet hotspot}: Elan3lib hot-spot read and write against the number of nodes, aggregate
 * and per node.
 */
@Command(name = "hotspot", mixinStandardHelpOptions = true,
    description = {"Elan3lib hot spot: every other process gets from (read) or puts into (write) the same memory block of "
        + "process 0, all at once; aggregate and per-node bandwidth against the number of nodes.",
        "Nodes up to the profile's tree (pentium3-he and xeon-gc: 16, alpha-es40: 64; --set dim=3 for 64 on any)."})
public final class HotspotCommand implements Callable<Integer>
{
    @Mixin
    PartitionOptions partitioning;

    @Mixin
    ProfileOptions platform;

    @Option(names = "--nodes", split = ",", description = "Node counts (2..the tree's nodes), comma-separated. "
        + "Default: 2, 4, 8, ... up to the tree's nodes.")
    int[] nodes;

    @Option(names = "--op", split = ",", defaultValue = "read,write",
        description = "read (get from process 0), write (put into it), or both. Default: ${DEFAULT-VALUE}.")
    List<String> ops;

    @Option(names = "--memory", defaultValue = "main", description = "Where the blocks live: main or elan. Default: ${DEFAULT-VALUE}.")
    String memory;

    @Option(names = "--size", defaultValue = "65536", description = "Bytes per DMA. Default: ${DEFAULT-VALUE}.")
    int size;

    @Option(names = "--reps", defaultValue = "4", description = "DMAs per process. Default: ${DEFAULT-VALUE}.")
    int reps;

    @Option(names = "--per-node", description = "Also print each sender's bandwidth (a table per node count and op); "
        + "with --plot, draw them against the node number.")
    boolean perNode;

    @Mixin
    OutputOptions output;

    @Override
    public Integer call() throws Exception
    {
        return partitioning.run(this::experiment);
    }

    /** The experiment: alone, in partitions, or as this JVM's partition of a --jvms job ({@link PartitionOptions#run}). */
    private Integer experiment()
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
        final int treeNodes = (int)Math.pow(p.fabric().k(), p.fabric().dim());
        final int[] counts = nodes != null ? nodes : defaultCounts(treeNodes);
        QsnetException.require(counts.length > 0, "--nodes", "", "must list at least one node count");
        for (final int n : counts)
        {
            QsnetException.require(n >= 2 && n <= treeNodes, "--nodes value", n, "must be in 2.." + treeNodes
                + " (the nodes of " + p.name() + "'s tree; --set dim=N for a larger one)");
        }
        QsnetException.require(ops != null && !ops.isEmpty(), "--op", ops, "must name read, write or both");
        final List<Boolean> reads = new ArrayList<>();
        for (final String o : ops)
        {
            switch (o.trim().toLowerCase(Locale.ROOT))
            {
                case "read" -> reads.add(true);
                case "write" -> reads.add(false);
                default -> throw new QsnetException("--op '" + o + "' must be read or write");
            }
        }
        final String who = "qsnet " + BuildInfo.version();
        final Table t = new Table("Elan3lib hot spot, " + memory + " memory, " + reps + " x " + size + " B per process")
            .fact("emulator", who).fact("profile", p.name())
            .fact("topology", p.fabric().k() + "-ary " + p.fabric().dim() + "-tree, " + treeNodes + " nodes")
            .fact("published (pentium3-he)", "read flat 314 MB/s, write flat 307 MB/s, 2-16 nodes")
            .fact("per node", "a sender's bytes / (its last completion - start); fairness = min / max");
        FabricOptions.labelTiming(t, p.fabric());
        t.column("nodes", "%d").column("op", "%s").column("aggregate_MB/s", "%.1f").column("per_node_mean", "%.2f")
            .column("per_node_min", "%.2f").column("per_node_max", "%.2f").column("min/max", "%.3f");
        final List<Table> tables = new ArrayList<>();
        tables.add(t);
        final List<Plots.Series> aggregate = new ArrayList<>();
        final List<Plots.Series> perNodeSeries = new ArrayList<>();
        for (final boolean read : reads)
        {
            final String op = read ? "read" : "write";
            final double[] x = new double[counts.length];
            final double[] y = new double[counts.length];
            for (int i = 0; i < counts.length; i++)
            {
                final int n = counts[i];
                final HotspotExperiment.Result r = HotspotExperiment.run(p, n, read, where, size, reps);
                final double mean = r.aggregateMBs() / (n - 1);
                t.row(n, op, r.aggregateMBs(), mean, r.minMBs(), r.maxMBs(), r.minMBs() / r.maxMBs());
                x[i] = n;
                y[i] = r.aggregateMBs();
                System.err.printf(Locale.ROOT, "%d nodes %s: %.1f MB/s, per node %.2f..%.2f%n", n, op, r.aggregateMBs(),
                    r.minMBs(), r.maxMBs());
                if (perNode)
                {
                    final Table pn = new Table("per-node " + op + " bandwidth, " + n + " nodes").fact("emulator", who)
                        .fact("profile", p.name());
                    pn.column("node", "%d").column(op + "_MB/s", "%.2f");
                    final double[] ids = new double[n - 1];
                    final double[] bw = new double[n - 1];
                    for (int s = 1; s < n; s++)
                    {
                        pn.row(s, r.perNodeMBs()[s]);
                        ids[s - 1] = s;
                        bw[s - 1] = r.perNodeMBs()[s];
                    }
                    tables.add(pn);
                    if (i == counts.length - 1)
                    {
                        perNodeSeries.add(new Plots.Series(op + ", " + n + " nodes", ids, bw));
                    }
                }
            }
            aggregate.add(new Plots.Series(read ? "read (get from process 0)" : "write (put into process 0)", x, y));
        }
        if (perNode)
        {
            output.emitAll(tables, System.out);
        }
        else
        {
            output.emit(t, System.out);
        }
        if (output.plot != null)
        {
            if (perNode)
            {
                Plots.lines(output.plot, "Elan3lib hot spot per node, " + memory + " memory, " + reps + " x " + size + " B",
                    who + ", " + p.name(), "sending node (process 0 is the hot spot)", "bandwidth of the node (MB/s)",
                    perNodeSeries, false, false);
            }
            else
            {
                Plots.lines(output.plot, "Elan3lib hot spot, " + memory + " memory, " + size + " B DMAs", who + ", " + p.name(),
                    "nodes (process 0 is the hot spot)", "aggregate bandwidth into / out of process 0 (MB/s)", aggregate,
                    false, false);
            }
        }
        return 0;
    }

    private static int[] defaultCounts(final int treeNodes)
    {
        final List<Integer> c = new ArrayList<>();
        for (int n = 2; n <= treeNodes; n *= 2)
        {
            c.add(n);
        }
        if (c.get(c.size() - 1) != treeNodes)
        {
            c.add(treeNodes);
        }
        return c.stream().mapToInt(Integer::intValue).toArray();
    }
}
