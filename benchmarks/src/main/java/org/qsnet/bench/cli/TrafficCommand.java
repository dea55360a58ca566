package org.qsnet.bench.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

import org.qsnet.bench.report.Plots;
import org.qsnet.bench.report.Table;
import org.qsnet.bench.traffic.Pattern;
import org.qsnet.bench.traffic.TrafficExperiment;
import org.qsnet.bench.traffic.TrafficPoint;
import org.qsnet.bench.traffic.TrafficSpec;
import org.qsnet.fabric.QsnetException;
import org.qsnet.fabric.network.Topology;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code qsnet traffic}: accepted vs offered load of the published traffic workloads.
 */
@Command(name = "traffic", mixinStandardHelpOptions = true,
    description = {"Sweeps offered load and measures accepted load of traffic workloads on the fat tree.",
        "Patterns: uniform, bit-reversal, butterfly, complement, transpose, perfect-shuffle, neighbor, hotspot, "
            + "multi-hotspot, combined.",
        "--injection link (the default): packets go straight into each node's link at link speed; --injection nic: "
            + "DMAs between Elan memories through the Elan3 NIC model of --profile. Offered load is a fraction of the "
            + "injection limit (the peak payload rate of one link, 335.1 MB/s)."})
public final class TrafficCommand implements Callable<Integer>
{
    @picocli.CommandLine.Option(names = "--partitions", paramLabel = "N", defaultValue = "1", description = "Run each point "
        + "in N partitions of the machine (threads of this JVM, in conservative windows); the results are the same. "
        + "Either injection (straight into the links, or through the NIC model). Default: ${DEFAULT-VALUE}.")
    int partitions;

    @Option(names = "--jvms", paramLabel = "N", defaultValue = "1", description = "Run each point in N partitions, one "
        + "per JVM of this host (this one and N-1 it starts, joined by shared memory, in conservative windows); the "
        + "results are the same as in one JVM. Excludes --partitions. Default: ${DEFAULT-VALUE}.")
    int jvms;

    @Mixin
    JvmPartitionOptions child;

    @Option(names = {"-p", "--pattern"}, split = ",", defaultValue = "uniform",
        description = "Workloads, comma-separated. Default: ${DEFAULT-VALUE}.")
    List<String> patterns;

    @Option(names = "--loads", split = ",", defaultValue = "0.1,0.2,0.3,0.4,0.5,0.6,0.7,0.8,0.9,1.0",
        description = "Offered loads, fractions of the injection limit. Default: ${DEFAULT-VALUE}.")
    double[] loads;

    @Option(names = "--per-node", description = "Also print every sending node's delivered bandwidth, accepted load, "
        + "messages and latency (one row per node, pattern and load); with --plot, draw the nodes' bandwidth at the "
        + "last load against the node number.")
    boolean perNode;

    @Mixin
    WorkloadOptions workload;

    @Mixin
    OutputOptions output;

    @Override
    public Integer call() throws Exception
    {
        return child.run(jvms, partitions, this::sweep);
    }

    /** The sweep, in this JVM alone ({@code job} null) or as one partition of a --jvms job. */
    private int sweep(final JvmJob job) throws Exception
    {
        if (loads == null || loads.length == 0)
        {
            throw new QsnetException("--loads lists no load: give at least one, each in (0, 1]");
        }
        for (final double l : loads)
        {
            QsnetException.require(l > 0 && l <= 1, "--loads value", l, "must be in (0, 1]");
        }
        QsnetException.require(patterns != null && !patterns.isEmpty(), "--pattern", patterns, "must name at least one workload");
        output.check();
        final List<Pattern> ps = new ArrayList<>();
        final List<TrafficSpec> specs = new ArrayList<>();
        for (final String p : patterns)
        {
            ps.add(Pattern.parse(p.trim()));
            specs.add(workload.spec(ps.get(ps.size() - 1)));
        }
        final TrafficSpec first = specs.get(0);
        final Table table = workload.describeThinning(WorkloadOptions.describe(new Table("traffic: accepted vs offered load")
            .fact("emulator", "qsnet " + BuildInfo.version()), first))
            .fact("topology", new Topology(first.fabric().k(), first.fabric().dim()) + ", " + first.nodes() + " active")
            .fact("fabric", first.fabric())
            .fact("message", first.messageBytes() + " B " + (first.exponentialSize() ? "exponential" : "fixed") + ", "
                + (first.poissonArrivals() ? "exponential" : "uniform") + " inter-arrival")
            .fact("window", "warm-up " + first.warmupNs() / 1000.0 + " us, measured " + first.measureNs() / 1000.0 + " us")
            .fact("injection limit", String.format(java.util.Locale.ROOT, "%.1f MB/s per node",
                first.fabric().peakPayloadBytesPerSecond() / 1e6))
            .fact("seed", first.seed())
            .fact("link errors", "crc_retries: packets retransmitted after a CRC error in the measured window; ooo_refused:"
                + " queued packets refused to keep their queue's order and resent; dup_discarded: duplicates dropped (whole run)");
        table.column("pattern", "%s").column("nodes", "%d").column("offered", "%.2f").column("generated", "%.3f")
            .column("accepted", "%.3f").column("aggr_MB/s", "%.1f").column("node_min_MB/s", "%.1f")
            .column("node_mean_MB/s", "%.1f").column("node_max_MB/s", "%.1f").column("latency_us", "%.2f")
            .column("messages", "%d").column("io_job_MB/s", "%.1f").column("crc_retries", "%d")
            .column("ooo_refused", "%d").column("dup_discarded", "%d");
        final Table nodesTable = new Table("traffic: per-node figures").fact("emulator", "qsnet " + BuildInfo.version())
            .fact("per node", "payload of the node's messages delivered in the window (a read's data counts for the reader); "
                + "job 1 is combined's compute job, whose nodes make the point's figures");
        nodesTable.column("pattern", "%s").column("offered", "%.2f").column("node", "%d").column("job", "%d")
            .column("MB/s", "%.2f").column("accepted", "%.3f").column("messages", "%d").column("latency_us", "%.2f");
        final List<Plots.Series> nodeSeries = new ArrayList<>();
        final List<Plots.Series> series = new ArrayList<>();
        final int total = ps.size() * loads.length;
        int done = 0;
        for (final TrafficSpec spec : specs)
        {
            final Pattern p = spec.pattern();
            final double[] x = new double[loads.length];
            final double[] y = new double[loads.length];
            int i = 0;
            for (final double load : loads)
            {
                final TrafficPoint pt;
                if (job != null)
                {
                    final TrafficExperiment.Partitioned r;
                    try (org.qsnet.fabric.transport.Transport t = job.open(done))
                    {
                        r = TrafficExperiment.partitionOfJob(spec, load, t, workload::thin);
                    }
                    if (r == null)
                    {
                        // another partition's JVM: partition 0 prints the results
                        done++;
                        continue;
                    }
                    pt = r.point();
                }
                else if (partitions > 1)
                {
                    pt = TrafficExperiment.partitioned(spec, load, partitions, workload::thin).point();
                }
                else
                {
                    final TrafficExperiment experiment = new TrafficExperiment(spec, load);
                    workload.thin(experiment.fabric());
                    pt = experiment.run(new Progress(String.format(java.util.Locale.ROOT,
                        "[%d/%d] %s offered %.2f", done + 1, total, p.label(), load), spec.warmupNs() + spec.measureNs(),
                        System.err));
                }
                table.row(pt.pattern(), pt.nodes(), pt.offeredLoad(), pt.generatedLoad(), pt.acceptedLoad(),
                    pt.aggregateMBs(), pt.perNodeMinMBs(), pt.perNodeMeanMBs(), pt.perNodeMaxMBs(), pt.meanLatencyUs(),
                    pt.messages(), pt.otherJobMBs(), pt.linkErrors().crcRetries(), pt.linkErrors().outOfOrderRefusals(),
                    pt.linkErrors().duplicatesDiscarded());
                final double[] ids = new double[pt.perNode().size()];
                final double[] bw = new double[ids.length];
                int j = 0;
                for (final TrafficPoint.NodeFigures nf : pt.perNode())
                {
                    nodesTable.row(pt.pattern(), pt.offeredLoad(), nf.node(), nf.job(), nf.deliveredMBs(), nf.acceptedLoad(),
                        nf.messages(), nf.meanLatencyUs());
                    ids[j] = nf.node();
                    bw[j++] = nf.deliveredMBs();
                }
                if (i == loads.length - 1)
                {
                    nodeSeries.add(new Plots.Series(String.format(java.util.Locale.ROOT, "%s, offered %.2f", p.label(),
                        pt.offeredLoad()), ids, bw));
                }
                x[i] = pt.offeredLoad();
                y[i++] = pt.acceptedLoad();
                System.err.printf(java.util.Locale.ROOT, "[%d/%d] %s offered %.2f -> accepted %.3f%n", ++done, total,
                    p.label(), pt.offeredLoad(), pt.acceptedLoad());
            }
            series.add(new Plots.Series(p.label(), x, y));
        }
        if (job != null && job.partition != 0)
        {
            return 0;
        }
        if (perNode)
        {
            output.emitAll(List.of(table, nodesTable), System.out);
        }
        else
        {
            output.emit(table, System.out);
        }
        if (output.plot != null && perNode)
        {
            Plots.lines(output.plot, "Per-node bandwidth, " + first.nodes() + " nodes",
                "seed " + first.seed() + ", " + first.measureNs() / 1000 + " us, "
                    + (first.viaNic() ? "nic, " + first.nicProfile().name() : "link injection"),
                "sending node", "payload delivered (MB/s)", nodeSeries, false, false);
        }
        else if (output.plot != null)
        {
            Plots.lines(output.plot, "Accepted vs offered load, " + first.nodes() + " nodes",
                "qsnet " + BuildInfo.version() + ", seed " + first.seed() + ", "
                    + (first.viaNic() ? "injection nic, profile " + first.nicProfile().name() : "injection link, no NIC profile"),
                "offered load (fraction of injection limit)",
                "accepted load (fraction of injection limit)", series);
        }
        return 0;
    }
}
