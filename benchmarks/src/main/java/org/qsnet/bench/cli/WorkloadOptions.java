package org.qsnet.bench.cli;

import java.lang.reflect.RecordComponent;
import java.util.Locale;

import org.qsnet.bench.report.Table;

import org.qsnet.bench.traffic.Pattern;
import org.qsnet.bench.traffic.TrafficSpec;
import org.qsnet.fabric.QsnetException;
import org.qsnet.fabric.machine.PlatformProfile;
import org.qsnet.fabric.network.FabricConfig;

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

    @Option(names = "--size", defaultValue = "320",
        description = "Message size in bytes, 1..16777216 (the mean if --size-dist exp). Default: ${DEFAULT-VALUE}.")
    int size;

    @Option(names = "--size-dist", defaultValue = "fixed", description = "fixed or exp. Default: ${DEFAULT-VALUE}.")
    String sizeDist;

    @Option(names = "--arrival", defaultValue = "exp", description = "Inter-arrival times: exp or uniform. Default: ${DEFAULT-VALUE}.")
    String arrival;

    @Option(names = "--warmup-us", defaultValue = "20", description = "Simulated warm-up, us, 0..1000000. Default: ${DEFAULT-VALUE}.")
    double warmupUs;

    @Option(names = "--measure-us", defaultValue = "100",
        description = "Simulated measurement window, us, 1..1000000. Default: ${DEFAULT-VALUE}.")
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

    @Option(names = "--io-size", description = "combined: the I/O job's message size (the mean with --io-size-dist exp). "
        + "Default: --size.")
    Integer ioSize;

    @Option(names = "--io-size-dist", description = "combined: the I/O job's size distribution, fixed or exp. Default: --size-dist.")
    String ioSizeDist;

    @Option(names = "--io-read-ratio", description = "combined: fraction of the I/O job's messages that read from the I/O "
        + "nodes (--read-ratio is then the compute job's). Default: --read-ratio.")
    Double ioReadRatio;

    @Option(names = "--io-nodes-in", defaultValue = "io",
        description = "combined: the I/O nodes are among the I/O job's own nodes (io) or placed among the compute job's "
            + "nodes (compute). Default: ${DEFAULT-VALUE}.")
    String ioNodesIn;

    @Option(names = "--job-placement", defaultValue = "block", description = "combined: block (two halves) or cyclic (alternate nodes). Default: ${DEFAULT-VALUE}.")
    String jobPlacement;

    @Option(names = "--thin-level", paramLabel = "LEVEL:FRACTION",
        description = "Thin the links between LEVEL-1 and LEVEL (2..n; n is the top): each switch below keeps that "
            + "fraction of its up links (rounded, at least one), e.g. 3:0.5 keeps half the top-level links of a 64-node tree.")
    String thinLevel;

    @Option(names = "--injection", defaultValue = "link",
        description = "link: packets straight into each node's link at link speed; nic: DMAs between Elan memories "
            + "through the Elan3 NIC model (what the published figures measured). Default: ${DEFAULT-VALUE}.")
    String injection;

    @Option(names = "--profile",
        description = "Platform profile of the NIC model, with --injection nic only (its fabric is resized to the nodes). "
            + "Default: " + DEFAULT_PROFILE + ".")
    String profile;

    /** The NIC profile of {@code --injection nic} when {@code --profile} is not given. */
    static final String DEFAULT_PROFILE = "alpha-es40";

    /** The largest message: 16 MB, as for ping and hotspot. */
    static final int MAX_MESSAGE_BYTES = 1 << 24;

    /** The longest warm-up or window: 1 s of simulated time. */
    static final double MAX_US = 1e6;

    @Mixin
    FabricOptions fabric;

    /**
     * @param pattern the workload.
     * @return the experiment these options describe.
     */
    public TrafficSpec spec(final Pattern pattern)
    {
        final boolean viaNic = choice("--injection", injection, "nic", "link");
        QsnetException.require(nodes >= 2 && nodes <= 4096, "--nodes", nodes, "must be in 2..4096");
        QsnetException.require(size >= 1 && size <= MAX_MESSAGE_BYTES, "--size", size, "must be in 1.." + MAX_MESSAGE_BYTES);
        QsnetException.require(warmupUs >= 0 && warmupUs <= MAX_US, "--warmup-us", warmupUs, "must be in 0..1000000 (1 s simulated)");
        QsnetException.require(measureUs >= 1 && measureUs <= MAX_US, "--measure-us", measureUs,
            "must be in 1..1000000 (1 s simulated)");
        QsnetException.require(hotspotNode >= 0 && hotspotNode < nodes, "--hotspot-node", hotspotNode, "must be in 0.." + (nodes - 1));
        QsnetException.require(readRatio >= 0 && readRatio <= 1, "--read-ratio", readRatio, "must be in [0, 1]");
        QsnetException.require(ioLoad >= 0 && ioLoad <= 1, "--io-load", ioLoad, "must be in [0, 1]");
        QsnetException.require(ioNodes >= 0 && ioNodes < nodes, "--io-nodes", ioNodes, "must be in 0.." + (nodes - 1));
        if (!viaNic)
        {
            QsnetException.require(profile == null, "--profile", profile,
                "has no effect with --injection link (packets go straight into the links): add --injection nic");
            for (final String name : fabric.overrides.keySet())
            {
                QsnetException.require(!isNicParameter(name), "--set", name,
                    "is a NIC parameter of the platform profile: it has no effect with --injection link (add --injection nic)");
            }
        }
        return new TrafficSpec(pattern, nodes, fabric.config(TrafficSpec.dimFor(nodes)), size,
            choice("--size-dist", sizeDist, "exp", "fixed"), choice("--arrival", arrival, "exp", "uniform"),
            Math.round(warmupUs * 1000), Math.round(measureUs * 1000), hotspotNode, readRatio, ioNodes == 0 ? Math.max(1, nodes / 8) : ioNodes,
            choice("--io-placement", ioPlacement, "distributed", "clustered"), choice("--io-dest", ioDest, "random", "deterministic"),
            choice("--io-mapping", ioMapping, "shared", "dedicated"), ioLoad,
            choice("--job-placement", jobPlacement, "cyclic", "block"), fabric.seed,
            viaNic, FabricOptions.applyProfile(PlatformProfile.named(profile == null ? DEFAULT_PROFILE : profile), fabric.overrides),
            ioJob());
    }

    private TrafficSpec.IoJob ioJob()
    {
        final boolean inside = choice("--io-nodes-in", ioNodesIn, "compute", "io");
        if (ioSize == null && ioSizeDist == null && ioReadRatio == null && !inside)
        {
            return null;
        }
        final int bytes = ioSize != null ? ioSize : size;
        QsnetException.require(bytes >= 1 && bytes <= MAX_MESSAGE_BYTES, "--io-size", bytes, "must be in 1.." + MAX_MESSAGE_BYTES);
        final double reads = ioReadRatio != null ? ioReadRatio : readRatio;
        QsnetException.require(reads >= 0 && reads <= 1, "--io-read-ratio", reads, "must be in [0, 1]");
        return new TrafficSpec.IoJob(bytes, choice("--io-size-dist", ioSizeDist != null ? ioSizeDist : sizeDist, "exp", "fixed"),
            reads, inside);
    }

    private static boolean isNicParameter(final String name)
    {
        for (final RecordComponent c : FabricConfig.class.getRecordComponents())
        {
            if (c.getName().equals(name))
            {
                return false;
            }
        }
        for (final RecordComponent c : PlatformProfile.class.getRecordComponents())
        {
            if (c.getName().equals(name))
            {
                return true;
            }
        }
        return false;
    }

    /**
     * Applies {@code --thin-level} to a fabric that has not run yet.
     *
     * @param fabric the fabric.
     */
    public void thin(final org.qsnet.fabric.network.Fabric fabric)
    {
        if (thinLevel == null)
        {
            return;
        }
        final int[] lk = parseThinning(fabric.topology().k(), fabric.topology().dim());
        fabric.thinUpLinks(lk[0], lk[1]);
    }

    /**
     * @param table a table.
     * @return the table, with a fact saying which links were thinned, if any.
     */
    Table describeThinning(final Table table)
    {
        if (thinLevel == null)
        {
            return table;
        }
        final String[] parts = thinLevel.split(":");
        final int level = Integer.parseInt(parts[0].trim());
        return table.fact("thinned", "the links from level " + (level - 1) + " up to level " + level + ": each switch keeps "
            + parts[1].trim() + " of its up links (the first ones)");
    }

    /**
     * @return ", level L thinned to F" or empty.
     */
    String thinningNote()
    {
        return thinLevel == null ? "" : ", level " + thinLevel.replace(":", " thinned to ");
    }

    private int[] parseThinning(final int k, final int dim)
    {
        final String[] parts = thinLevel.split(":");
        QsnetException.require(parts.length == 2, "--thin-level", thinLevel, "must be LEVEL:FRACTION, e.g. 3:0.5");
        final int level;
        final double fraction;
        try
        {
            level = Integer.parseInt(parts[0].trim());
            fraction = Double.parseDouble(parts[1].trim());
        }
        catch (final NumberFormatException e)
        {
            throw new QsnetException("--thin-level " + thinLevel + " must be LEVEL:FRACTION, e.g. 3:0.5");
        }
        QsnetException.require(level >= 2 && level <= dim, "--thin-level level", level, "must be in 2.." + dim
            + " (the upper level of the thinned links)");
        QsnetException.require(fraction > 0 && fraction <= 1, "--thin-level fraction", fraction, "must be in (0, 1]");
        return new int[] {level, Math.max(1, (int)Math.round(fraction * k))};
    }

    /**
     * Adds to a table the facts that say what ran: the profile (or none) and the injection.
     *
     * @param table the table.
     * @param spec  the experiment that ran.
     * @return the table.
     */
    static Table describe(final Table table, final TrafficSpec spec)
    {
        FabricOptions.labelTiming(table, spec.fabric());
        if (spec.viaNic())
        {
            final PlatformProfile p = spec.nicProfile();
            return table.fact("profile", p.name() + ": " + p.description() + " (its NIC model; fabric resized to "
                + spec.nodes() + " nodes)").fact("injection", "nic: DMAs between the nodes' Elan memories through the Elan3 "
                    + "NIC model (messages above 256 KB as several DMAs)");
        }
        return table.fact("profile", "none: the Elite fabric alone, no NIC model")
            .fact("injection", "link: packets straight into each node's link at link speed");
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
