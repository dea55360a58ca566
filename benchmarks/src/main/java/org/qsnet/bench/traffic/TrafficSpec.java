package org.qsnet.bench.traffic;

import org.qsnet.fabric.QsnetException;
import org.qsnet.fabric.network.FabricConfig;

/**
 * One traffic experiment: workload, network, message sizes, arrivals and measurement window.
 *
 * @param pattern          the workload.
 * @param nodes            active nodes (16, 32, 64, ...); the tree is the smallest 4-ary tree
 *                         that holds them.
 * @param fabric           the fabric's parameters (its dim must hold {@code nodes}).
 * @param messageBytes     fixed message size, or the mean of the exponential distribution.
 * @param exponentialSize  whether sizes are exponential around the mean.
 * @param poissonArrivals  exponential inter-arrival times (true) or uniform in [0, 2 x mean].
 * @param warmupNs         simulated time before measuring.
 * @param measureNs        simulated time measured.
 * @param hotspotNode      the hot node of {@link Pattern#HOTSPOT}.
 * @param readRatio        fraction of messages that are reads (hotspot, multi-hotspot).
 * @param ioNodes          number of I/O nodes (multi-hotspot; combined: within the I/O job).
 * @param ioDistributed    I/O nodes spread with a stride (true) or the last consecutive nodes.
 * @param ioRandomDest     each message to a random I/O node (true) or a fixed one per client.
 * @param ioShared         I/O nodes also inject (true) or only sink (false).
 * @param ioLoad           load of the I/O job in the combined experiment, fraction of the limit.
 * @param cyclicJobs       combined: jobs on alternate nodes (true) or on the two halves.
 * @param seed             seed of every random stream of the workload.
 * @param viaNic           inject through the Elan3 NIC model (DMAs between Elan memories) instead of
 *                         straight into the links at link speed.
 * @param nicProfile       the platform profile whose NIC parameters apply when {@code viaNic} (its
 *                         fabric is replaced by {@code fabric}).
 * @param ioJob            combined: the I/O job's own message size, size distribution, read ratio and
 *                         where its I/O nodes are; null: the same sizes and read ratio as the compute
 *                         job, I/O nodes within the I/O job's nodes.
 */
public record TrafficSpec(
    Pattern pattern,
    int nodes,
    FabricConfig fabric,
    int messageBytes,
    boolean exponentialSize,
    boolean poissonArrivals,
    long warmupNs,
    long measureNs,
    int hotspotNode,
    double readRatio,
    int ioNodes,
    boolean ioDistributed,
    boolean ioRandomDest,
    boolean ioShared,
    double ioLoad,
    boolean cyclicJobs,
    long seed,
    boolean viaNic,
    org.qsnet.fabric.machine.PlatformProfile nicProfile,
    IoJob ioJob)
{
    /**
     * The I/O job of {@link Pattern#COMBINED}, where it differs from the compute job.
     *
     * @param messageBytes     its fixed message size, or the mean of its exponential distribution.
     * @param exponentialSize  whether its sizes are exponential around the mean.
     * @param readRatio        fraction of its messages that are reads from the I/O nodes.
     * @param insideCompute    its I/O nodes are among the compute job's nodes (true) or its own (false).
     */
    public record IoJob(int messageBytes, boolean exponentialSize, double readRatio, boolean insideCompute)
    {
        /**
         * Validates.
         */
        public IoJob
        {
            QsnetException.require(messageBytes >= 1, "ioMessageBytes", messageBytes, "must be at least 1");
            QsnetException.require(readRatio >= 0 && readRatio <= 1, "ioReadRatio", readRatio, "must be in [0, 1]");
        }
    }

    /**
     * A spec whose I/O job (if any) sends as the compute job does.
     *
     * @param pattern         the workload.
     * @param nodes           active nodes.
     * @param fabric          the fabric.
     * @param messageBytes    message size or mean.
     * @param exponentialSize exponential sizes.
     * @param poissonArrivals exponential inter-arrival times.
     * @param warmupNs        warm-up.
     * @param measureNs       window.
     * @param hotspotNode     hot node.
     * @param readRatio       read fraction.
     * @param ioNodes         I/O nodes.
     * @param ioDistributed   I/O nodes spread.
     * @param ioRandomDest    random I/O destination.
     * @param ioShared        I/O nodes also inject.
     * @param ioLoad          I/O job load.
     * @param cyclicJobs      cyclic job placement.
     * @param seed            seed.
     * @param viaNic          through the NIC model.
     * @param nicProfile      NIC profile.
     */
    public TrafficSpec(final Pattern pattern, final int nodes, final FabricConfig fabric, final int messageBytes,
        final boolean exponentialSize, final boolean poissonArrivals, final long warmupNs, final long measureNs,
        final int hotspotNode, final double readRatio, final int ioNodes, final boolean ioDistributed,
        final boolean ioRandomDest, final boolean ioShared, final double ioLoad, final boolean cyclicJobs, final long seed,
        final boolean viaNic, final org.qsnet.fabric.machine.PlatformProfile nicProfile)
    {
        this(pattern, nodes, fabric, messageBytes, exponentialSize, poissonArrivals, warmupNs, measureNs, hotspotNode,
            readRatio, ioNodes, ioDistributed, ioRandomDest, ioShared, ioLoad, cyclicJobs, seed, viaNic, nicProfile, null);
    }

    /**
     * @return the I/O job's parameters: {@link #ioJob()} or, when null, the compute job's.
     */
    public IoJob io()
    {
        return ioJob != null ? ioJob : new IoJob(messageBytes, exponentialSize, readRatio, false);
    }

    /**
     * Validates the experiment.
     */
    public TrafficSpec
    {
        QsnetException.require(pattern != null, "pattern", null, "must be given");
        QsnetException.require(nicProfile != null, "nicProfile", null, "must be given");
        QsnetException.require(nodes >= 2, "nodes", nodes, "must be at least 2");
        long size = 1;
        for (int i = 0; i < fabric.dim(); i++)
        {
            size *= fabric.k();
        }
        QsnetException.require(nodes <= size, "nodes", nodes, "must fit the " + fabric.k() + "-ary " + fabric.dim()
            + "-tree (" + size + " nodes)");
        QsnetException.require(messageBytes >= 1, "messageBytes", messageBytes, "must be at least 1");
        QsnetException.require(warmupNs >= 0, "warmupNs", warmupNs, "must be at least 0");
        QsnetException.require(measureNs >= 1000, "measureNs", measureNs, "must be at least 1000 ns");
        QsnetException.require(hotspotNode >= 0 && hotspotNode < nodes, "hotspotNode", hotspotNode,
            "must be in 0.." + (nodes - 1));
        QsnetException.require(readRatio >= 0 && readRatio <= 1, "readRatio", readRatio, "must be in [0, 1]");
        QsnetException.require(ioLoad >= 0 && ioLoad <= 1, "ioLoad", ioLoad, "must be in [0, 1]");
        if (pattern == Pattern.MULTI_HOTSPOT || pattern == Pattern.COMBINED)
        {
            final int pool = pattern == Pattern.COMBINED ? nodes / 2 : nodes;
            QsnetException.require(ioNodes >= 1 && ioNodes < pool, "ioNodes", ioNodes, "must be in 1.." + (pool - 1));
        }
        if (pattern.isPermutation())
        {
            QsnetException.require(Integer.bitCount(nodes) == 1, "nodes", nodes, "must be a power of two for " + pattern);
        }
    }

    /**
     * The smallest 4-ary tree that holds {@code nodes}.
     *
     * @param nodes active nodes.
     * @return its dimension.
     */
    public static int dimFor(final int nodes)
    {
        QsnetException.require(nodes >= 2 && nodes <= 4096, "nodes", nodes, "must be in 2..4096");
        int dim = 1;
        int size = 4;
        while (size < nodes)
        {
            size *= 4;
            dim++;
        }
        return dim;
    }
}
