package org.qsnet.fabric.distributed;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

import org.qsnet.fabric.engine.Kernel;
import org.qsnet.fabric.network.Fabric;
import org.qsnet.fabric.network.FabricConfig;
import org.qsnet.fabric.network.Partitioning;
import org.qsnet.fabric.transport.Transport;
import org.qsnet.fabric.transport.TransportContext;
import org.qsnet.fabric.transport.shm.ShmTransport;

/**
 * One partition of {@link PartitionEquivalenceTest}'s workload in a JVM of its own, joined to the
 * others through shared memory; writes what its nodes saw to a file.
 *
 * <p>Arguments: {@code <partition> <count> <jobId> <keyHex> <shmDirectory> <crcRate> <outFile>}.
 */
public final class PartitionWorkloadMain
{
    private PartitionWorkloadMain()
    {
    }

    /**
     * @param args see the class comment.
     * @throws IOException if the result cannot be written.
     */
    public static void main(final String[] args) throws IOException
    {
        final int self = Integer.parseInt(args[0]);
        final int count = Integer.parseInt(args[1]);
        final TransportContext context = new TransportContext().jobId(Long.parseLong(args[2]))
            .jobKey(HexFormat.of().parseHex(args[3])).partition(self, count).maxPayloadBytes(1 << 16)
            .heartbeat(200, 5_000).connectTimeoutMs(30_000);
        final double crc = Double.parseDouble(args[5]);
        final FabricConfig config = crc > 0 ? FabricConfig.elite(3).withCrcErrorRate(crc).withSeed(7) : FabricConfig.elite(3);
        try (Transport t = ShmTransport.open(context, Path.of(args[4])))
        {
            Files.writeString(Path.of(args[6]), runPartition(config, t));
        }
    }

    /** Runs partition {@code t.partition()} of the workload; returns its part of the outcome as text. */
    static String runPartition(final FabricConfig config, final Transport t)
    {
        final int self = t.partition();
        final int count = t.partitionCount();
        final int nodes = new Fabric(new Kernel(), config).topology().nodeCount();
        final Kernel kernel = new Kernel();
        final Fabric fabric = new Fabric(kernel, config, new Partitioning(count, self, nodes));
        fabric.remote().codec(PartitionEquivalenceTest.NOTE_CODEC);
        final List<PartitionEquivalenceTest.NodeLoad> loads = new ArrayList<>();
        for (int i = 0; i < nodes; i++)
        {
            if (fabric.partitioning().isLocal(i))
            {
                final PartitionEquivalenceTest.NodeLoad l = new PartitionEquivalenceTest.NodeLoad(fabric, i);
                l.port = fabric.attach(i, l);
                loads.add(l);
            }
        }
        loads.forEach(PartitionEquivalenceTest.NodeLoad::start);
        new PartitionDriver(kernel, fabric.remote(), t).run(Long.MAX_VALUE);
        final StringBuilder sb = new StringBuilder();
        for (final PartitionEquivalenceTest.NodeLoad l : loads)
        {
            sb.append("node ").append(l.node).append(' ').append(l.digest).append(' ').append(l.arrivals).append(' ')
                .append(l.acks).append('\n');
        }
        sb.append("trace ").append(kernel.traceSum()).append(' ').append(kernel.tracedEvents()).append(' ')
            .append(kernel.nowNs()).append(' ').append(fabric.nodeLinkHops()).append('\n');
        sb.append("net ").append(fabric.deliveredPackets()).append(' ').append(fabric.crcErrors()).append(' ')
            .append(fabric.packetHops() - fabric.nodeLinkHops());
        for (int i = 0; i < fabric.links().size(); i++)
        {
            sb.append(' ').append(fabric.links().get(i).busyNs());
        }
        sb.append('\n');
        return sb.toString();
    }

    /** Merges the partitions' texts into one outcome. */
    static PartitionEquivalenceTest.Outcome merge(final int nodes, final List<String> parts)
    {
        final long[] digest = new long[nodes];
        final long[] arrivals = new long[nodes];
        final long[] acks = new long[nodes];
        long sum = 0;
        long events = 0;
        long last = 0;
        long nodeHops = 0;
        long[] net = null;
        for (final String part : parts)
        {
            for (final String line : part.split("\n"))
            {
                final String[] f = line.split(" ");
                switch (f[0])
                {
                    case "node" ->
                    {
                        final int i = Integer.parseInt(f[1]);
                        digest[i] = Long.parseLong(f[2]);
                        arrivals[i] = Long.parseLong(f[3]);
                        acks[i] = Long.parseLong(f[4]);
                    }
                    case "trace" ->
                    {
                        sum += Long.parseLong(f[1]);
                        events += Long.parseLong(f[2]);
                        last = Math.max(last, Long.parseLong(f[3]));
                        nodeHops += Long.parseLong(f[4]);
                    }
                    default ->
                    {
                        if (net == null)
                        {
                            net = new long[f.length - 1];
                            for (int i = 1; i < f.length; i++)
                            {
                                net[i - 1] = Long.parseLong(f[i]);
                            }
                        }
                    }
                }
            }
        }
        final long[] busy = java.util.Arrays.copyOfRange(net, 3, net.length);
        return new PartitionEquivalenceTest.Outcome(digest, arrivals, acks, sum, events, net[0], net[1], net[2], nodeHops,
            last, busy);
    }
}
