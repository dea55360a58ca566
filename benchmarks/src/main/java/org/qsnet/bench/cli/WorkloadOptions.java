package org.qsnet.bench.cli;

import java.util.Locale;

import org.qsnet.bench.traffic.Pattern;
import org.qsnet.bench.traffic.TrafficSpec;
import org.qsnet.fabric.QsnetException;

import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * Options that describe a traffic workload.
 */
public final class WorkloadOptions
{
    @Option(names = {"-n", "--nodes"}, defaultValue = "64",
        description = "Active nodes (16, 32, 64, ... up to 4096); the tree is the smallest 4-ary tree holding them. Default: ${DEFAULT-VALUE}.")
    int nodes;

    @Option(names = "--size", defaultValue = "320", description = "Message size in bytes (the mean if --size-dist exp). Default: ${DEFAULT-VALUE}.")
    int size;

    @Option(names = "--size-dist", defaultValue = "fixed", description = "fixed or exp. Default: ${DEFAULT-VALUE}.")
    String sizeDist;

    @Option(names = "--arrival", defaultValue = "exp", description = "Inter-arrival times: exp or uniform. Default: ${DEFAULT-VALUE}.")
    String arrival;

    @Option(names = "--warmup-us", defaultValue = "20", description = "Simulated warm-up, us. Default: ${DEFAULT-VALUE}.")
    double warmupUs;

    @Option(names = "--measure-us", defaultValue = "100", description = "Simulated measurement window, us. Default: ${DEFAULT-VALUE}.")
    double measureUs;

    @Option(names = "--hotspot-node", defaultValue = "0", description = "hotspot: the hot node. Default: ${DEFAULT-VALUE}.")
    int hotspotNode;

    @Option(names = "--read-ratio", defaultValue = "0", description = "hotspot, multi-hotspot: fraction of reads (1 = read hot spot). Default: ${DEFAULT-VALUE}.")
    double readRatio;

    @Option(names = "--io-nodes", defaultValue = "0", description = "multi-hotspot, combined: number of I/O nodes; 0 = one in eight (8 of 64). Default: ${DEFAULT-VALUE}.")
    int ioNodes;

    @Option(names = "--io-placement", defaultValue = "clustered", description = "clustered (last consecutive nodes) or distributed (stride). Default: ${DEFAULT-VALUE}.")
    String ioPlacement;

    @Option(names = "--io-dest", defaultValue = "random", description = "random (per message) or deterministic (fixed per client). Default: ${DEFAULT-VALUE}.")
    String ioDest;

    @Option(names = "--io-mapping", defaultValue = "dedicated", description = "shared (I/O nodes also inject) or dedicated (they only sink). Default: ${DEFAULT-VALUE}.")
    String ioMapping;

    @Option(names = "--io-load", defaultValue = "0.5", description = "combined: the I/O job's offered load, fraction of the injection limit. Default: ${DEFAULT-VALUE}.")
    double ioLoad;

    @Option(names = "--job-placement", defaultValue = "block", description = "combined: block (two halves) or cyclic (alternate nodes). Default: ${DEFAULT-VALUE}.")
    String jobPlacement;

    @Option(names = "--injection", defaultValue = "link",
        description = "link: packets straight into each node's link at link speed; nic: DMAs between Elan memories "
            + "through the Elan3 NIC model (what the published figures measured). Default: ${DEFAULT-VALUE}.")
    String injection;

    @Option(names = "--profile", defaultValue = "alpha-es40",
        description = "Platform profile of the NIC model for --injection nic (its fabric is resized to the nodes). Default: ${DEFAULT-VALUE}.")
    String profile;

    @Mixin
    FabricOptions fabric;

    /**
     * @param pattern the workload.
     * @return the experiment these options describe.
     */
    public TrafficSpec spec(final Pattern pattern)
    {
        return new TrafficSpec(pattern, nodes, fabric.config(TrafficSpec.dimFor(nodes)), size,
            choice("--size-dist", sizeDist, "exp", "fixed"), choice("--arrival", arrival, "exp", "uniform"),
            Math.round(warmupUs * 1000), Math.round(measureUs * 1000), hotspotNode, readRatio, ioNodes == 0 ? Math.max(1, nodes / 8) : ioNodes,
            choice("--io-placement", ioPlacement, "distributed", "clustered"), choice("--io-dest", ioDest, "random", "deterministic"),
            choice("--io-mapping", ioMapping, "shared", "dedicated"), ioLoad,
            choice("--job-placement", jobPlacement, "cyclic", "block"), fabric.seed,
            choice("--injection", injection, "nic", "link"),
            FabricOptions.applyProfile(org.qsnet.fabric.model.PlatformProfile.named(profile), fabric.overrides));
    }

    private static boolean choice(final String option, final String value, final String yes, final String no)
    {
        final String v = value.toLowerCase(Locale.ROOT);
        if (v.equals(yes))
        {
            return true;
        }
        if (v.equals(no))
        {
            return false;
        }
        throw new QsnetException(option + " '" + value + "' must be " + yes + " or " + no);
    }
}
