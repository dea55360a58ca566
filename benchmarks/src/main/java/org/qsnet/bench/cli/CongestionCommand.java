package org.qsnet.bench.cli;

import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

import org.qsnet.bench.report.Table;
import org.qsnet.bench.traffic.CongestionMatrix;
import org.qsnet.bench.traffic.Pattern;
import org.qsnet.bench.traffic.TrafficExperiment;
import org.qsnet.bench.traffic.TrafficPoint;
import org.qsnet.bench.traffic.TrafficSpec;
import org.qsnet.fabric.QsnetException;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code qsnet congestion}: the congestion matrix of one workload at one load.
 */
@Command(name = "congestion", mixinStandardHelpOptions = true,
    description = {"Runs one workload at one offered load and prints the congestion matrix: per switch level, "
        + "each switch's normalised waiting for its up links, for its down links, and the fraction of time a header "
        + "waited inside it."})
public final class CongestionCommand implements Callable<Integer>
{
    @picocli.CommandLine.Option(names = "--partitions", paramLabel = "N", defaultValue = "1", description = "Run in N "
        + "partitions of the machine (threads of this JVM, in conservative windows); the results are the same. "
        + "Either injection (straight into the links, or through the NIC model). Default: ${DEFAULT-VALUE}.")
    int partitions;

    @Option(names = "--jvms", paramLabel = "N", defaultValue = "1", description = "Run in N partitions, one per JVM of "
        + "this host (this one and N-1 it starts, joined by shared memory); the results are the same as in one JVM. "
        + "Excludes --partitions. Default: ${DEFAULT-VALUE}.")
    int jvms;

    @Mixin
    JvmPartitionOptions child;

    @Option(names = {"-p", "--pattern"}, defaultValue = "hotspot", description = "The workload. Default: ${DEFAULT-VALUE}.")
    String pattern;

    @Option(names = "--load", defaultValue = "0.5", description = "Offered load, fraction of the injection limit. Default: ${DEFAULT-VALUE}.")
    double load;

    @Option(names = "--per-link", description = "Per link instead of per switch: every switch's up and down links, one "
        + "row per level, direction and port, one column per switch (mean headers waiting for the link).")
    boolean perLink;

    @Mixin
    WorkloadOptions workload;

    @Mixin
    OutputOptions output;

    @Override
    public Integer call() throws Exception
    {
        return child.run(jvms, partitions, this::matrix);
    }

    /** The run and its matrix, in this JVM alone ({@code job} null) or as one partition of a --jvms job. */
    private int matrix(final JvmJob job) throws Exception
    {
        QsnetException.require(load > 0 && load <= 1, "--load", load, "must be in (0, 1]");
        final Table.Format format = output.check();
        final TrafficSpec spec = workload.spec(Pattern.parse(pattern));
        final TrafficExperiment e;
        final TrafficPoint pt;
        if (job != null)
        {
            final TrafficExperiment.Partitioned run;
            try (org.qsnet.fabric.transport.Transport t = job.open(0))
            {
                run = TrafficExperiment.partitionOfJob(spec, load, t, workload::thin);
            }
            if (run == null)
            {
                // another partition's JVM: partition 0 prints the matrix
                return 0;
            }
            e = run.first();
            pt = run.point();
        }
        else if (partitions > 1)
        {
            final TrafficExperiment.Partitioned run = TrafficExperiment.partitioned(spec, load, partitions, workload::thin);
            e = run.first();
            pt = run.point();
        }
        else
        {
            e = new TrafficExperiment(spec, load);
            workload.thin(e.fabric());
            pt = e.run(new Progress(String.format(Locale.ROOT, "%s offered %.2f", spec.pattern().label(), load),
                spec.warmupNs() + spec.measureNs(), System.err));
        }
        final CongestionMatrix m = CongestionMatrix.of(e.fabric(), e.windowNs());
        final List<CongestionMatrix.LinkCell> links = perLink ? CongestionMatrix.perLink(e.fabric(), e.windowNs()) : null;
        final String title = String.format(Locale.ROOT, "congestion %s: %s, %d nodes, offered %.2f, accepted %.3f",
            perLink ? "per link" : "matrix", spec.pattern().label(), spec.nodes(), load, pt.acceptedLoad());
        final Table base = perLink ? CongestionMatrix.linkTable(links, title) : m.table(title);
        final Table table = workload.describeThinning(WorkloadOptions.describe(base.fact("emulator", "qsnet "
            + BuildInfo.version()), spec))
            .fact("fabric", spec.fabric())
            .fact("window", spec.measureNs() / 1000.0 + " us after " + spec.warmupNs() / 1000.0 + " us warm-up")
            .fact("seed", spec.seed());
        if (format == Table.Format.TEXT)
        {
            System.out.print(table.header());
            System.out.print(perLink ? CongestionMatrix.linkText(links) : m.text());
            System.out.flush();
        }
        else
        {
            table.print(format, System.out);
        }
        if (output.csv != null)
        {
            table.write(Table.Format.CSV, output.csv);
        }
        if (output.json != null)
        {
            table.write(Table.Format.JSON, output.json);
        }
        if (output.plot != null)
        {
            final String subtitle = "qsnet " + BuildInfo.version() + ", seed " + spec.seed() + ", profile "
                + (spec.viaNic() ? spec.nicProfile().name() + ", injection nic" : "none, injection link") + ", "
                + spec.measureNs() / 1000.0 + " us measured" + workload.thinningNote();
            if (perLink)
            {
                CongestionMatrix.linkPng(links, output.plot, title, subtitle);
            }
            else
            {
                m.png(output.plot, title, subtitle);
            }
        }
        return 0;
    }
}
