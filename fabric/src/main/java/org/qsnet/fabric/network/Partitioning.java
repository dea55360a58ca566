package org.qsnet.fabric.network;

import org.qsnet.fabric.QsnetException;

/**
 * How the nodes of a machine are split between the partitions (JVMs) of a distributed run, and
 * which of them this one is. Node {@code i} belongs to partition {@code i * count / nodes}: the
 * partitions hold contiguous blocks of nodes, whole subtrees of the fat tree when {@code count}
 * divides the node count by a power of the arity.
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
 */
public record Partitioning(int count, int self, int nodeCount)
{
    /** The single partition of a run in one JVM. */
    public static Partitioning single(final int nodeCount)
    {
        return new Partitioning(1, 0, nodeCount);
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
    }

    /**
     * @param node a node.
     * @return the partition that runs it.
     */
    public int ownerOf(final int node)
    {
        return (int)((long)node * count / nodeCount);
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
        return (int)(((long)partition * nodeCount + count - 1) / count);
    }

    /**
     * @return whether the run has more than one partition.
     */
    public boolean isDistributed()
    {
        return count > 1;
    }
}
