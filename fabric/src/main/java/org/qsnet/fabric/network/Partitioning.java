package org.qsnet.fabric.network;

import org.qsnet.fabric.QsnetException;

/**
 * How the nodes of a machine are split between the partitions (JVMs) of a distributed run, and
 * which of them this one is. The partitions hold contiguous blocks of nodes: the nodes of a
 * <em>span</em> ({@code spanNodes} nodes from {@code spanFirst}; by default the whole machine) are
 * split evenly, node {@code spanFirst + i} belonging to partition {@code i * count / spanNodes},
 * and the nodes before the span belong to the first partition, those after it to the last. Over
 * the whole machine the blocks are whole subtrees of the fat tree when {@code count} divides the
 * node count by a power of the arity; a launcher spans a job's nodes so that every JVM runs some of
 * its ranks ({@link #around}). Which partition runs a node changes no result, only who computes it.
 *
 * <p>A partition runs its nodes (their NICs, endpoints and processes) and, in the exact model, a
 * replica of the whole network (with analytic timing none: see {@link RemoteCircuits}): the Elite switches, their links, virtual channels and reserved bodies. A
 * circuit's body may start only when no link of its path carries another body, which couples every
 * link of a path at once; every partition therefore follows every header, and what crosses
 * partitions is what only a node's owner knows: a header entering the network, the tail reaching
 * an endpoint, the acknowledgement and the EOP's release, each a keyed event at least the
 * lookahead (the node link's wire delay) in the future (see {@link RemoteCircuits}).
 *
 * @param count     partitions, at least 1.
 * @param self      this partition, in {@code 0..count-1}.
 * @param nodeCount nodes of the machine, at least {@code count}.
 * @param spanFirst the first node of the span split evenly, in {@code 0..nodeCount-spanNodes}.
 * @param spanNodes the span's nodes, at least {@code count}.
 */
public record Partitioning(int count, int self, int nodeCount, int spanFirst, int spanNodes)
{
    /** The single partition of a run in one JVM. */
    public static Partitioning single(final int nodeCount)
    {
        return new Partitioning(1, 0, nodeCount);
    }

    /**
     * The whole machine split evenly.
     *
     * @param count     partitions, at least 1.
     * @param self      this partition, in {@code 0..count-1}.
     * @param nodeCount nodes of the machine, at least {@code count}.
     */
    public Partitioning(final int count, final int self, final int nodeCount)
    {
        this(count, self, nodeCount, 0, nodeCount);
    }

    /**
     * The nodes {@code first..first+nodes-1} (a job's) split evenly, widened to {@code count}
     * nodes when fewer and kept within the machine, so that each partition runs some of them when
     * the job has at least one node per partition. Out-of-range arguments are clamped, not refused:
     * the launcher names them when it places the job.
     *
     * @param count     partitions, at least 1.
     * @param self      this partition.
     * @param nodeCount nodes of the machine, at least {@code count}.
     * @param first     the job's first node.
     * @param nodes     the job's nodes.
     * @return the partitioning.
     */
    public static Partitioning around(final int count, final int self, final int nodeCount, final int first, final int nodes)
    {
        final int span = Math.max(count, Math.min(Math.max(nodes, 1), nodeCount));
        final int from = Math.max(0, Math.min(first, nodeCount - span));
        return new Partitioning(count, self, nodeCount, from, span);
    }

    /**
     * Validates the fields.
     */
    public Partitioning
    {
        QsnetException.require(count >= 1, "count", count, "must be at least 1");
        QsnetException.require(self >= 0 && self < count, "self", self, "must be in 0.." + (count - 1));
        QsnetException.require(nodeCount >= count, "nodeCount", nodeCount,
            "must be at least the partition count (" + count + ")");
        QsnetException.require(spanNodes >= count && spanNodes <= nodeCount, "spanNodes", spanNodes,
            "must be in " + count + ".." + nodeCount + " (at least one node per partition, within the machine)");
        QsnetException.require(spanFirst >= 0 && spanFirst <= nodeCount - spanNodes, "spanFirst", spanFirst,
            "must be in 0.." + (nodeCount - spanNodes) + " (the span within the machine's " + nodeCount + " nodes)");
    }

    /**
     * @param node a node.
     * @return the partition that runs it.
     */
    public int ownerOf(final int node)
    {
        if (node < spanFirst)
        {
            return 0;
        }
        if (node >= spanFirst + spanNodes)
        {
            return count - 1;
        }
        return (int)((long)(node - spanFirst) * count / spanNodes);
    }

    /**
     * @param node a node.
     * @return whether this partition runs it.
     */
    public boolean isLocal(final int node)
    {
        return count == 1 || ownerOf(node) == self;
    }

    /**
     * @param partition a partition.
     * @return its first node.
     */
    public int firstNode(final int partition)
    {
        return partition == 0 ? 0 : spanFirst + (int)(((long)partition * spanNodes + count - 1) / count);
    }

    /**
     * @return whether the run has more than one partition.
     */
    public boolean isDistributed()
    {
        return count > 1;
    }
}
