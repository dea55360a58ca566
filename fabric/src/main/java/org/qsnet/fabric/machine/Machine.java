package org.qsnet.fabric.machine;

import org.qsnet.fabric.engine.Kernel;
import org.qsnet.fabric.network.Fabric;
import org.qsnet.fabric.network.Partitioning;
import org.qsnet.fabric.nic.Elan3Nic;
import org.qsnet.fabric.nic.NicPacketCodec;

/**
 * An emulated QsNet machine: a kernel, the fat tree of a platform profile and one Elan3 NIC per
 * node. Several jobs may share it.
 */
public final class Machine
{
    private final Kernel kernel;
    private final PlatformProfile profile;
    private final Fabric fabric;
    private final Elan3Nic[] nics;
    private final java.util.Map<Long, int[]> capabilities = new java.util.HashMap<>();

    /**
     * @param kernel  the kernel driving the machine.
     * @param profile the platform.
     */
    public Machine(final Kernel kernel, final PlatformProfile profile)
    {
        this(kernel, profile, null);
    }

    /**
     * One partition of a machine simulated by several JVMs (see
     * {@link org.qsnet.fabric.network.Partitioning}): the whole network, and the NICs of this
     * partition's nodes only. Run it with a {@link org.qsnet.fabric.distributed.PartitionDriver}.
     *
     * @param kernel       this partition's kernel.
     * @param profile      the platform (the same in every partition).
     * @param partitioning which nodes this partition runs; null for the whole machine in one JVM.
     */
    public Machine(final Kernel kernel, final PlatformProfile profile, final Partitioning partitioning)
    {
        this.kernel = kernel;
        this.profile = profile;
        this.fabric = new Fabric(kernel, profile.fabric(), partitioning);
        org.qsnet.fabric.QsnetException.require(partitioning == null || !partitioning.isDistributed()
            || profile.queueRetryNs() / 8 >= profile.fabric().wireDelayNs(), "queueRetryNs", profile.queueRetryNs() + " ns",
            "must be at least 8 x the wire delay (" + 8 * profile.fabric().wireDelayNs() + " ns) in a partitioned run: the"
            + " NIC's retries (a hardware barrier's test every queueRetryNs / 8) are announced to the other partitions"
            + " at least the lookahead ahead");
        org.qsnet.fabric.QsnetException.require(partitioning == null || !partitioning.isDistributed()
            || profile.interruptNs() + profile.driverNs() >= profile.fabric().wireDelayNs(), "interruptNs + driverNs",
            (profile.interruptNs() + profile.driverNs()) + " ns", "must be at least the wire delay ("
            + profile.fabric().wireDelayNs() + " ns) in a partitioned run: a queued DMA the driver restarts retries after"
            + " them, announced to the other partitions at least the lookahead ahead");
        if (partitioning != null && partitioning.isDistributed())
        {
            // the NICs' retries are probed by every partition: a window may be no longer than their lead
            fabric.remote().capLookahead(Math.min(profile.queueRetryNs() / 8, profile.interruptNs() + profile.driverNs()));
        }
        this.nics = new Elan3Nic[fabric.topology().nodeCount()];
        final Partitioning part = fabric.partitioning();
        for (int i = 0; i < nics.length; i++)
        {
            if (part.isLocal(i))
            {
                nics[i] = new Elan3Nic(kernel, profile, fabric, i);
            }
        }
        fabric.remote().codec(NicPacketCodec.INSTANCE);
    }

    /**
     * @return the kernel.
     */
    public Kernel kernel()
    {
        return kernel;
    }

    /**
     * @return the platform profile.
     */
    public PlatformProfile profile()
    {
        return profile;
    }

    /**
     * @return the fabric.
     */
    public Fabric fabric()
    {
        return fabric;
    }

    /**
     * Registers a capability's key for a context range of a node with the node's driver
     * ({@code elan3_create}); a process can attach only to a registered context with this key.
     *
     * @param node        the node.
     * @param lowContext  first context.
     * @param highContext last context.
     * @param key         the key words.
     */
    public void createCapability(final int node, final int lowContext, final int highContext, final int[] key)
    {
        fabric.topology().checkNode("node", node);
        for (int c = lowContext; c <= highContext; c++)
        {
            final int[] old = capabilities.get(((long)node << 32) | c);
            if (old != null && !java.util.Arrays.equals(old, key))
            {
                throw new org.qsnet.fabric.QsnetException("context 0x" + Integer.toHexString(c) + " on node " + node
                    + " already belongs to another job's capability");
            }
            capabilities.put(((long)node << 32) | c, key.clone());
        }
    }

    /**
     * @param node    a node.
     * @param context a context.
     * @return the key registered for it, or null.
     */
    public int[] capabilityKey(final int node, final int context)
    {
        final int[] k = capabilities.get(((long)node << 32) | context);
        return k == null ? null : k.clone();
    }

    /**
     * @return the link-error statistics of the run so far: the fabric's CRC retries (since its last
     *         statistics reset) and every NIC's out-of-order refusals and discarded duplicates.
     */
    public LinkErrorStats linkErrorStats()
    {
        long refused = 0;
        long duplicates = 0;
        for (final Elan3Nic nic : nics)
        {
            if (nic == null)
            {
                continue;
            }
            refused += nic.outOfOrderRefusals();
            duplicates += nic.duplicatesDiscarded();
        }
        return new LinkErrorStats(fabric.crcErrors(), refused, duplicates);
    }

    /**
     * @return the number of nodes.
     */
    public int nodeCount()
    {
        return nics.length;
    }

    /**
     * @param node a node.
     * @return its NIC.
     */
    public Elan3Nic nic(final int node)
    {
        fabric.topology().checkNode("node", node);
        final Elan3Nic nic = nics[node];
        if (nic == null)
        {
            final Partitioning part = fabric.partitioning();
            throw new org.qsnet.fabric.QsnetException("node " + node + " runs in partition " + part.ownerOf(node)
                + " of " + part.count() + ", not in this one (" + part.self() + ")");
        }
        return nic;
    }

    /**
     * @param node a node.
     * @return whether this partition runs it (always, in one JVM).
     */
    public boolean isLocal(final int node)
    {
        return fabric.partitioning().isLocal(node);
    }
}
