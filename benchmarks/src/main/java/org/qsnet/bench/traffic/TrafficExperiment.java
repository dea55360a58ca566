package org.qsnet.bench.traffic;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import java.util.HashMap;
import java.util.Map;

import org.qsnet.fabric.engine.Kernel;
import org.qsnet.fabric.engine.Origin;
import org.qsnet.fabric.machine.Machine;
import org.qsnet.fabric.memory.Mmu;
import org.qsnet.fabric.memory.SparseMemory;
import org.qsnet.fabric.network.Fabric;
import org.qsnet.fabric.network.FabricPort;
import org.qsnet.fabric.network.Packet;
import org.qsnet.fabric.network.PacketEndpoint;
import org.qsnet.fabric.nic.E3;
import org.qsnet.fabric.nic.Elan3Nic;
import org.qsnet.fabric.nic.NicContext;

/**
 * Runs one traffic workload at one offered load on a fresh fabric and measures what the
 * fabric accepted.
 *
 * <p>Injection (this step of the project): each node's traffic source queues messages, cuts
 * them into packets of at most 320 B and injects them straight into the node's link at link
 * speed, keeping at most one packet per virtual channel outstanding (a packet's circuit is
 * held until its acknowledgement). Offered load is a fraction of the injection limit, the
 * peak payload rate of one link with full packets ({@link
 * org.qsnet.fabric.network.FabricConfig#peakPayloadBytesPerSecond()}, 335.1 MB/s for the Elite).
 *
 * <p>Through the NIC model ({@link TrafficSpec#viaNic()}), each message is a DMA between the two
 * nodes' Elan memories; a message larger than the 256 KB staging buffer is posted as several DMAs
 * of at most 256 KB, back to back, and completes when the last of them has landed, so every
 * message moves all its bytes ({@link #completedMessageBytes()} equals {@link #movedBytes()}).
 *
 * <p>Partitioned ({@link #partitioned}), either way: each partition runs the sources (and, through
 * the NIC model, builds the NICs) of its own nodes only, and counts what lands at its nodes; a
 * message crossing partitions carries what its destination counts (its source, size and
 * generation time) with its packets; partition 0 sums every partition's counters at the end.
 */
public final class TrafficExperiment
{
    private final TrafficSpec spec;
    private final double offeredLoad;
    private final Kernel kernel;
    private final Fabric fabric;
    private final Machine machine;
    private final Map<Long, Dma> inFlight = new HashMap<>();
    private final Node[] nodes;
    private final long windowStartNs;
    private final long windowEndNs;
    private final double limitBytesPerNs;
    private final int measuredJob;
    private final org.qsnet.fabric.network.Partitioning partitioning;
    /** Partitioned runs: the messages arriving here, by id, while their packets land. */
    private final Map<Long, Message> arriving = new HashMap<>();
    private org.qsnet.fabric.distributed.PartitionDriver driver;

    private final long[] jobBytes = new long[2];
    private long messages;
    private long latencySumNs;
    private final long[] jobGeneratedBytes = new long[2];
    private long completedMessages;
    private long completedMessageBytes;
    private long movedBytes;

    /**
     * Builds the experiment on a fresh kernel and fabric.
     *
     * @param spec        the workload.
     * @param offeredLoad offered load per sending node, fraction of the injection limit, in (0, 1].
     */
    public TrafficExperiment(final TrafficSpec spec, final double offeredLoad)
    {
        this(spec, offeredLoad, null);
    }

    /**
     * Builds one partition of the experiment (see {@link #runPartitioned}): every partition
     * configures every node alike, and runs the sources of its own.
     */
    private TrafficExperiment(final TrafficSpec spec, final double offeredLoad,
        final org.qsnet.fabric.network.Partitioning partitioning)
    {
        this(spec, offeredLoad, partitioning, true);
    }

    /**
     * @param reserve whether a busy source reserves its next generation instead of scheduling it
     *                ({@link Node#scheduleNext}); false only for the test that compares the two.
     */
    TrafficExperiment(final TrafficSpec spec, final double offeredLoad,
        final org.qsnet.fabric.network.Partitioning partitioning, final boolean reserve)
    {
        org.qsnet.fabric.QsnetException.require(offeredLoad > 0 && offeredLoad <= 1, "offered load", offeredLoad,
            "must be in (0, 1]");
        this.spec = spec;
        this.offeredLoad = offeredLoad;
        this.kernel = new Kernel();
        this.partitioning = partitioning;
        if (spec.viaNic())
        {
            // in a partition: the NICs of this partition's nodes only
            this.machine = new Machine(kernel, spec.nicProfile().withFabric(spec.fabric()), partitioning);
            this.fabric = machine.fabric();
            if (partitioning != null)
            {
                fabric.remote().codec(new NicMessageCodec());
            }
        }
        else
        {
            this.machine = null;
            this.fabric = new Fabric(kernel, spec.fabric(), partitioning);
            if (partitioning != null)
            {
                fabric.remote().codec(new MessageCodec());
            }
        }
        this.limitBytesPerNs = spec.fabric().peakPayloadBytesPerSecond() / 1e9;
        this.windowStartNs = spec.warmupNs();
        this.windowEndNs = spec.warmupNs() + spec.measureNs();
        this.measuredJob = spec.pattern() == Pattern.COMBINED ? 1 : 0;
        this.nodes = new Node[spec.nodes()];
        final SplittableRandom root = new SplittableRandom(spec.seed());
        for (int i = 0; i < nodes.length; i++)
        {
            nodes[i] = new Node(i, root.split());
        }
        configure();
        for (final Node n : nodes)
        {
            if (!fabric.partitioning().isLocal(n.id))
            {
                // another partition runs this node; its object here only sums what arrives for it
                continue;
            }
            if (machine == null)
            {
                n.port = fabric.attach(n.id, n);
                if (reserve && n.rateBytesPerNs > 0)
                {
                    n.reserveGenerations();
                }
            }
            else
            {
                n.attachNic();
            }
            if (n.rateBytesPerNs > 0)
            {
                n.scheduleNext(0);
            }
        }
    }

    /**
     * @return the fabric, for its statistics after {@link #run()}.
     */
    public Fabric fabric()
    {
        return fabric;
    }

    /**
     * @return the kernel.
     */
    public Kernel kernel()
    {
        return kernel;
    }

    /**
     * @return messages whose every byte had landed by the end of the run (window or not).
     */
    public long completedMessages()
    {
        return completedMessages;
    }

    /**
     * @return the sizes of the {@link #completedMessages()} added up: the bytes they offered.
     */
    public long completedMessageBytes()
    {
        return completedMessageBytes;
    }

    /**
     * @return the data bytes that landed for the {@link #completedMessages()}: what the fabric moved
     *         for them (equals {@link #completedMessageBytes()} when every message moved all its bytes).
     */
    public long movedBytes()
    {
        return movedBytes;
    }

    /**
     * @return DMAs posted through the NIC model that this experiment still follows: posted here and not
     *         yet wholly landed (in a partitioned run, for a write to another partition: not yet wholly
     *         taken there), or posted in another partition and landing here.
     */
    int dmasFollowed()
    {
        return inFlight.size();
    }

    /**
     * @return the measurement window's length in ns.
     */
    public long windowNs()
    {
        return windowEndNs - windowStartNs;
    }

    private void configure()
    {
        final int n = nodes.length;
        final double rate = offeredLoad * limitBytesPerNs;
        switch (spec.pattern())
        {
            case UNIFORM:
                for (final Node node : nodes)
                {
                    node.sends(rate, 0, r -> randomOther(r, node.id, 0, n));
                }
                break;
            case HOTSPOT:
                for (final Node node : nodes)
                {
                    if (node.id != spec.hotspotNode())
                    {
                        node.sends(rate, 0, r -> spec.hotspotNode());
                    }
                }
                break;
            case MULTI_HOTSPOT:
            {
                final int[] all = new int[n];
                java.util.Arrays.setAll(all, i -> i);
                final int[] io = ioNodes(all, spec.ioNodes());
                for (final Node node : nodes)
                {
                    final boolean isIo = contains(io, node.id);
                    if (!isIo || spec.ioShared())
                    {
                        node.sends(rate, 0, ioChooser(io, node.id));
                    }
                }
                break;
            }
            case COMBINED:
            {
                // job 0: I/O job, job 1: compute job; each on half of the nodes
                final int half = n / 2;
                final int[] ioJob = new int[half];
                final int[] computeJob = new int[n - half];
                for (int i = 0, a = 0, b = 0; i < n; i++)
                {
                    final boolean inIo = spec.cyclicJobs() ? i % 2 == 0 : i < half;
                    if (inIo && a < half)
                    {
                        ioJob[a++] = i;
                    }
                    else
                    {
                        computeJob[b++] = i;
                    }
                }
                final TrafficSpec.IoJob ioSpec = spec.io();
                // the I/O nodes: within the I/O job's own nodes, or placed among the compute job's
                final int[] io = ioNodes(ioSpec.insideCompute() ? computeJob : ioJob, spec.ioNodes());
                final double ioRate = spec.ioLoad() * limitBytesPerNs;
                for (final int id : ioJob)
                {
                    if (ioRate > 0 && (!contains(io, id) || spec.ioShared()))
                    {
                        nodes[id].sends(ioRate, 0, ioChooser(io, id));
                        nodes[id].sizes(ioSpec.messageBytes(), ioSpec.exponentialSize(), ioSpec.readRatio());
                    }
                }
                for (final int id : computeJob)
                {
                    nodes[id].sends(rate, 1, r ->
                    {
                        int d;
                        do
                        {
                            d = computeJob[r.nextInt(computeJob.length)];
                        }
                        while (d == id);
                        return d;
                    });
                }
                break;
            }
            default:
                for (final Node node : nodes)
                {
                    final int partner = spec.pattern().partner(node.id, n);
                    if (partner != node.id)
                    {
                        node.sends(rate, 0, r -> partner);
                    }
                }
        }
    }

    /** The I/O nodes of a job: its last {@code m} nodes (clustered) or every {@code pool/m}-th (distributed). */
    private int[] ioNodes(final int[] pool, final int m)
    {
        final int[] io = new int[m];
        final int stride = pool.length / m;
        for (int i = 0; i < m; i++)
        {
            io[i] = pool[spec.ioDistributed() ? (i + 1) * stride - 1 : pool.length - m + i];
        }
        return io;
    }

    private Chooser ioChooser(final int[] io, final int self)
    {
        if (spec.ioRandomDest())
        {
            return r ->
            {
                int d;
                do
                {
                    d = io[r.nextInt(io.length)];
                }
                while (d == self);
                return d;
            };
        }
        int fixed = io[Math.floorMod(self, io.length)];
        if (fixed == self)
        {
            fixed = io[(Math.floorMod(self, io.length) + 1) % io.length];
        }
        final int d = fixed;
        return r -> d;
    }

    private static boolean contains(final int[] a, final int v)
    {
        for (final int x : a)
        {
            if (x == v)
            {
                return true;
            }
        }
        return false;
    }

    private static int randomOther(final SplittableRandom r, final int self, final int first, final int count)
    {
        int d;
        do
        {
            d = first + r.nextInt(count);
        }
        while (d == self);
        return d;
    }

    /**
     * Runs warm-up and window, and measures.
     *
     * @return the outcome.
     */
    public TrafficPoint run()
    {
        return run(null);
    }

    /**
     * Runs warm-up and window in twenty steps of simulated time, telling {@code progress} after
     * each, and measures. The steps do not change the result.
     *
     * @param progress told the simulated ns run so far (of {@code warmupNs + measureNs}) after
     *                 each step; null for none.
     * @return the outcome.
     */
    public TrafficPoint run(final java.util.function.LongConsumer progress)
    {
        final int steps = 20;
        boolean reset = false;
        for (int i = 1; i <= steps; i++)
        {
            final long until = windowEndNs * i / steps;
            if (!reset && until >= windowStartNs)
            {
                runTo(windowStartNs);
                fabric.resetStats();
                reset = true;
            }
            runTo(until);
            if (progress != null)
            {
                progress.accept(until);
            }
        }
        return point(this, List.of(Counts.of(this)));
    }

    /**
     * Runs the simulation up to {@code untilNs} (every event due by then), as {@link #run()} does in
     * steps, without measuring: for benchmarks of the emulator itself.
     *
     * @param untilNs the last simulated time to process.
     */
    public void runTo(final long untilNs)
    {
        if (driver == null)
        {
            kernel.runUntil(untilNs);
        }
        else
        {
            driver.run(untilNs);
        }
    }

    /**
     * Runs the experiment in {@code partitions} partitions of this JVM (threads joined by the in-JVM
     * transport, in conservative windows, as separate JVMs would be): the same result as
     * {@link #run()}, bit for bit.
     *
     * @param spec        the workload (injection straight into the links or through the NIC model).
     * @param offeredLoad offered load per sending node.
     * @param partitions  partitions, at least 1.
     * @return the outcome.
     */
    public static TrafficPoint runPartitioned(final TrafficSpec spec, final double offeredLoad, final int partitions)
    {
        return partitioned(spec, offeredLoad, partitions, f -> { }).point;
    }

    /**
     * A partitioned run's outcome and partition 0's experiment (its fabric, for the statistics).
     *
     * @param point        the outcome.
     * @param first        partition 0's experiment.
     * @param windows      the conservative windows run (0 in one partition).
     * @param traceSum     the sum of the partitions' event-key digests ({@link Kernel#traceSum()}),
     *                     equal to the digest of the same run in one partition.
     * @param tracedEvents the events counted in {@code traceSum}.
     */
    public record Partitioned(TrafficPoint point, TrafficExperiment first, long windows, long traceSum,
        long tracedEvents, long dispatchNs, long exchangeNs)
    {
    }

    /**
     * As {@link #runPartitioned}, also giving partition 0's experiment (its replica of the network
     * holds the whole network's statistics) and the windows run.
     *
     * @param spec        the workload.
     * @param offeredLoad offered load per sending node.
     * @param partitions  partitions, at least 1.
     * @param prepare     applied to every partition's fabric before the run (e.g. thinning its up links).
     * @return the outcome.
     */
    public static Partitioned partitioned(final TrafficSpec spec, final double offeredLoad, final int partitions,
        final java.util.function.Consumer<Fabric> prepare)
    {
        org.qsnet.fabric.QsnetException.require(partitions >= 1 && partitions <= spec.nodes(), "partitions", partitions,
            "must be in 1.." + spec.nodes());
        if (partitions == 1)
        {
            final TrafficExperiment e = new TrafficExperiment(spec, offeredLoad);
            prepare.accept(e.fabric);
            final TrafficPoint point = e.run();
            return new Partitioned(point, e, 0, e.kernel.traceSum(), e.kernel.tracedEvents(), 0, 0);
        }
        final List<org.qsnet.fabric.transport.local.LocalTransport> transports =
            org.qsnet.fabric.transport.local.LocalTransport.createJob(new org.qsnet.fabric.transport.TransportContext()
                .jobId(spec.seed()).jobKey(new byte[16]).partition(0, partitions));
        final List<TrafficExperiment> parts = new ArrayList<>();
        for (int p = 0; p < partitions; p++)
        {
            final TrafficExperiment e = new TrafficExperiment(spec, offeredLoad,
                new org.qsnet.fabric.network.Partitioning(partitions, p, spec.nodes()));
            e.driver = new org.qsnet.fabric.distributed.PartitionDriver(e.kernel, e.fabric.remote(), transports.get(p));
            prepare.accept(e.fabric);
            parts.add(e);
        }
        org.qsnet.fabric.distributed.PartitionThreads.run(transports, p -> parts.get(p).run());
        final List<Counts> counts = new ArrayList<>();
        for (final TrafficExperiment e : parts)
        {
            counts.add(Counts.of(e));
        }
        return combined(parts.get(0), counts);
    }

    /**
     * A partitioned run's outcome at partition 0 from every partition's counts: partition 0's replica
     * of the network takes the node links' waits from their owners (then it holds the whole
     * network's statistics), the event digests add up.
     */
    private static Partitioned combined(final TrafficExperiment first, final List<Counts> counts)
    {
        final org.qsnet.fabric.network.Partitioning partitioning = first.fabric.partitioning();
        for (int node = 0; node < first.nodes.length; node++)
        {
            final Counts owner = counts.get(partitioning.ownerOf(node));
            if (owner != counts.get(0))
            {
                first.fabric.adoptNodeLinkStats(node, owner.nodeLinkWaitNs[node], owner.nodeLinkWaits[node]);
            }
        }
        long traceSum = 0;
        long tracedEvents = 0;
        long dispatchNs = 0;
        long exchangeNs = 0;
        for (final Counts c : counts)
        {
            traceSum += c.traceSum;
            tracedEvents += c.tracedEvents;
            dispatchNs += c.dispatchNs;
            exchangeNs += c.exchangeNs;
        }
        return new Partitioned(point(first, counts), first, first.driver.windows(), traceSum, tracedEvents, dispatchNs,
            exchangeNs);
    }

    /**
     * This JVM's partition of a run split over JVMs ({@code qsnet traffic --jvms N}): runs the
     * partition that {@code transport} says, in conservative windows with the others, then sends
     * what it counted to partition 0, which combines everyone's into the run's outcome, the same
     * bit for bit as in one JVM.
     *
     * @param spec        the workload.
     * @param offeredLoad offered load per sending node.
     * @param transport   this JVM's endpoint of the job (its partition and the partition count).
     * @param prepare     told the partition's fabric before the run.
     * @return at partition 0 the outcome (its experiment holds the network's statistics); elsewhere null.
     */
    public static Partitioned partitionOfJob(final TrafficSpec spec, final double offeredLoad,
        final org.qsnet.fabric.transport.Transport transport, final java.util.function.Consumer<Fabric> prepare)
    {
        return partitionOfJob(spec, offeredLoad, transport, prepare, null).result();
    }

    /**
     * {@link #partitionOfJob(TrafficSpec, double, org.qsnet.fabric.transport.Transport, java.util.function.Consumer)},
     * then, after the run, a vote of every partition of the job (each must call it alike): for a
     * decision every JVM of a job must take together, such as whether to go on warming up.
     *
     * @param spec        the experiment.
     * @param offeredLoad offered load.
     * @param transport   this partition's transport.
     * @param prepare     called with this partition's fabric before the run.
     * @param vote        this partition's answer, asked after the run; null: no vote.
     * @return the combined result (null outside partition 0) and whether every partition said yes.
     */
    public static JobPart partitionOfJob(final TrafficSpec spec, final double offeredLoad,
        final org.qsnet.fabric.transport.Transport transport, final java.util.function.Consumer<Fabric> prepare,
        final java.util.function.BooleanSupplier vote)
    {
        final int n = transport.partitionCount();
        org.qsnet.fabric.QsnetException.require(n >= 2 && n <= spec.nodes(), "partitions", n, "must be in 2.." + spec.nodes());
        final TrafficExperiment e = new TrafficExperiment(spec, offeredLoad,
            new org.qsnet.fabric.network.Partitioning(n, transport.partition(), spec.nodes()));
        e.driver = new org.qsnet.fabric.distributed.PartitionDriver(e.kernel, e.fabric.remote(), transport);
        prepare.accept(e.fabric);
        e.run();
        final byte[][] all = e.driver.gather(Counts.of(e).encode());
        final boolean agreed = vote != null && e.driver.allAgree(vote.getAsBoolean());
        if (all == null)
        {
            return new JobPart(null, agreed);
        }
        final List<Counts> counts = new ArrayList<>();
        for (final byte[] b : all)
        {
            counts.add(Counts.decode(b, spec.nodes()));
        }
        return new JobPart(combined(e, counts), agreed);
    }

    /**
     * One partition's share of a job run in several JVMs.
     *
     * @param result    the combined result at partition 0; null elsewhere.
     * @param allAgreed whether every partition voted yes (false without a vote).
     */
    public record JobPart(Partitioned result, boolean allAgreed)
    {
    }

    /**
     * What one partition counted: its nodes' bytes, messages and latencies, its jobs' bytes, its
     * NICs' refusals and duplicates, its events' digest. Partition 0 adds them up; in a run in one
     * JVM there is one.
     */
    static final class Counts
    {
        final long[] acceptedBytes;
        final long[] ownMessages;
        final long[] ownLatencySumNs;
        /** The node links' header waits, which only a node's owner counts (the congestion matrix's node level). */
        final long[] nodeLinkWaitNs;
        final long[] nodeLinkWaits;
        final long[] jobBytes = new long[2];
        final long[] jobGeneratedBytes = new long[2];
        long messages;
        long latencySumNs;
        long refused;
        long duplicates;
        /** The CRC retries this partition's network counted (all of them unless analytic timing splits it). */
        long crcErrors;
        long traceSum;
        long tracedEvents;
        /** Host time in the windows' events and between them (reports only, see PartitionDriver). */
        long dispatchNs;
        long exchangeNs;

        Counts(final int nodes)
        {
            acceptedBytes = new long[nodes];
            ownMessages = new long[nodes];
            ownLatencySumNs = new long[nodes];
            nodeLinkWaitNs = new long[nodes];
            nodeLinkWaits = new long[nodes];
        }

        static Counts of(final TrafficExperiment e)
        {
            final Counts c = new Counts(e.nodes.length);
            for (int i = 0; i < e.nodes.length; i++)
            {
                c.acceptedBytes[i] = e.nodes[i].acceptedBytes;
                c.ownMessages[i] = e.nodes[i].ownMessages;
                c.ownLatencySumNs[i] = e.nodes[i].ownLatencySumNs;
                c.nodeLinkWaitNs[i] = e.fabric.nodeLinkWaitNs(i);
                c.nodeLinkWaits[i] = e.fabric.nodeLinkWaits(i);
            }
            System.arraycopy(e.jobBytes, 0, c.jobBytes, 0, 2);
            System.arraycopy(e.jobGeneratedBytes, 0, c.jobGeneratedBytes, 0, 2);
            c.messages = e.messages;
            c.latencySumNs = e.latencySumNs;
            if (e.machine != null)
            {
                final org.qsnet.fabric.machine.LinkErrorStats s = e.machine.linkErrorStats();
                c.refused = s.outOfOrderRefusals();
                c.duplicates = s.duplicatesDiscarded();
            }
            c.crcErrors = e.fabric.crcErrors();
            c.traceSum = e.kernel.traceSum();
            c.tracedEvents = e.kernel.tracedEvents();
            if (e.driver != null)
            {
                c.dispatchNs = e.driver.dispatchNs();
                c.exchangeNs = e.driver.exchangeNs();
            }
            return c;
        }

        byte[] encode()
        {
            final int n = acceptedBytes.length;
            final java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate(8 * (5 * n + 4 + 9));
            for (final long[] a : new long[][] {acceptedBytes, ownMessages, ownLatencySumNs, nodeLinkWaitNs, nodeLinkWaits, jobBytes, jobGeneratedBytes})
            {
                for (final long v : a)
                {
                    b.putLong(v);
                }
            }
            b.putLong(messages).putLong(latencySumNs).putLong(refused).putLong(duplicates).putLong(crcErrors).putLong(traceSum).putLong(tracedEvents)
                .putLong(dispatchNs).putLong(exchangeNs);
            return b.array();
        }

        static Counts decode(final byte[] bytes, final int nodes)
        {
            org.qsnet.fabric.QsnetException.require(bytes.length == 8 * (5 * nodes + 4 + 9), "partition result", bytes.length + " bytes",
                "must hold the counts of " + nodes + " nodes");
            final java.nio.ByteBuffer b = java.nio.ByteBuffer.wrap(bytes);
            final Counts c = new Counts(nodes);
            for (final long[] a : new long[][] {c.acceptedBytes, c.ownMessages, c.ownLatencySumNs, c.nodeLinkWaitNs, c.nodeLinkWaits, c.jobBytes, c.jobGeneratedBytes})
            {
                for (int i = 0; i < a.length; i++)
                {
                    a[i] = b.getLong();
                }
            }
            c.messages = b.getLong();
            c.latencySumNs = b.getLong();
            c.refused = b.getLong();
            c.duplicates = b.getLong();
            c.crcErrors = b.getLong();
            c.traceSum = b.getLong();
            c.tracedEvents = b.getLong();
            c.dispatchNs = b.getLong();
            c.exchangeNs = b.getLong();
            return c;
        }
    }

    /** The outcome from the counters of every partition (one, in a run in one JVM); {@code e0} is partition 0's. */
    private static TrafficPoint point(final TrafficExperiment e0, final List<Counts> parts)
    {
        final int nodeCount = e0.nodes.length;
        final long[] acceptedBytes = new long[nodeCount];
        final long[] ownMessages = new long[nodeCount];
        final long[] ownLatencySumNs = new long[nodeCount];
        final long[] jobBytes = new long[2];
        final long[] jobGeneratedBytes = new long[2];
        long messages = 0;
        long latencySumNs = 0;
        for (final Counts e : parts)
        {
            for (int i = 0; i < nodeCount; i++)
            {
                acceptedBytes[i] += e.acceptedBytes[i];
                ownMessages[i] += e.ownMessages[i];
                ownLatencySumNs[i] += e.ownLatencySumNs[i];
            }
            for (int j = 0; j < 2; j++)
            {
                jobBytes[j] += e.jobBytes[j];
                jobGeneratedBytes[j] += e.jobGeneratedBytes[j];
            }
            messages += e.messages;
            latencySumNs += e.latencySumNs;
        }
        final TrafficSpec spec = e0.spec;
        final int measuredJob = e0.measuredJob;
        final double limitBytesPerNs = e0.limitBytesPerNs;
        final Node[] nodes = e0.nodes;
        final double windowNs = e0.windowNs();
        int measuredSenders = 0;
        double min = Double.MAX_VALUE;
        double max = 0;
        double sum = 0;
        for (final Node n : nodes)
        {
            if (n.rateBytesPerNs > 0 && n.job == measuredJob)
            {
                measuredSenders++;
                final double mbs = acceptedBytes[n.id] * 1e3 / windowNs;
                min = Math.min(min, mbs);
                max = Math.max(max, mbs);
                sum += mbs;
            }
        }
        final List<TrafficPoint.NodeFigures> perNode = new ArrayList<>();
        for (final Node n : nodes)
        {
            if (n.rateBytesPerNs > 0)
            {
                final double mbs = acceptedBytes[n.id] * 1e3 / windowNs;
                perNode.add(new TrafficPoint.NodeFigures(n.id, n.job, n.job == measuredJob, mbs,
                    mbs / (limitBytesPerNs * 1e3), ownMessages[n.id],
                    ownMessages[n.id] == 0 ? 0 : ownLatencySumNs[n.id] / 1e3 / ownMessages[n.id]));
            }
        }
        final double accepted = jobBytes[measuredJob] / windowNs / measuredSenders / limitBytesPerNs;
        final double generated = jobGeneratedBytes[measuredJob] / windowNs / measuredSenders / limitBytesPerNs;
        return new TrafficPoint(spec.pattern().label(), spec.nodes(), e0.offeredLoad, generated, accepted,
            jobBytes[measuredJob] * 1e3 / windowNs, measuredSenders == 0 ? 0 : min, sum / Math.max(1, measuredSenders), max,
            messages == 0 ? 0 : latencySumNs / 1e3 / messages, messages,
            measuredJob == 1 ? jobBytes[0] * 1e3 / windowNs : 0, perNode,
            linkErrors(e0, parts));
    }

    /**
     * The link errors of a run: the CRC retries every partition's replica of the network counts
     * alike (with analytic timing, each partition its share: summed), and the NICs' refusals and
     * discarded duplicates, each counted by its node's partition.
     */
    private static org.qsnet.fabric.machine.LinkErrorStats linkErrors(final TrafficExperiment e0, final List<Counts> parts)
    {
        long crc = 0;
        long refused = 0;
        long duplicates = 0;
        for (final Counts c : parts)
        {
            crc += c.crcErrors;
            refused += c.refused;
            duplicates += c.duplicates;
        }
        if (e0.fabric.countsWholeNetwork())
        {
            crc = e0.fabric.crcErrors();
        }
        return new org.qsnet.fabric.machine.LinkErrorStats(crc, refused, e0.machine == null ? 0 : duplicates);
    }

    private static final int CONTEXT = 0x400;
    private static final int[] KEY = {0x51, 0x53, 0x4e, 0x45};
    private static final long HEAP = 0x200000;
    private static final long HEAP_SIZE = 1 << 21;
    private static final int RING = 256;
    private static final int BUFFER = 256 * 1024;
    private static final long SOURCE = HEAP + 0x20000;
    private static final long DEST = SOURCE + BUFFER;

    @FunctionalInterface
    private interface Chooser
    {
        int next(SplittableRandom r);
    }

    /** One DMA of a message posted through the NIC, with the data bytes still to land. */
    private static final class Dma
    {
        final Message message;
        final int bytes;
        int remainingBytes;
        /** Partitioned runs, at the source of a write to another partition: its packets taken there. */
        int acceptedPackets;

        Dma(final Message message, final int bytes)
        {
            this.message = message;
            this.bytes = bytes;
            this.remainingBytes = bytes;
        }
    }

    private static final class Message
    {
        /** Source node and the source's own count: the same message in every partition. */
        final long id;
        final Node source;
        final int destination;
        final int bytes;
        final long generatedNs;
        final boolean readRequest;
        final int packets;
        int injected;
        int delivered;
        int remainingBytes;
        /** Data bytes landed so far. */
        long landedBytes;
        /** NIC injection: DMAs posted and not yet completely landed. */
        int dmasLeft;

        Message(final long id, final Node source, final int destination, final int bytes, final long generatedNs,
            final boolean readRequest, final int maxPayload)
        {
            this.id = id;
            this.source = source;
            this.destination = destination;
            this.bytes = bytes;
            this.generatedNs = generatedNs;
            this.readRequest = readRequest;
            this.packets = readRequest ? 1 : (bytes + maxPayload - 1) / maxPayload;
            this.remainingBytes = readRequest ? 0 : bytes;
        }
    }

    private final class Node implements PacketEndpoint
    {
        final int id;
        final SplittableRandom random;
        final Origin origin;
        /** Link injection: messages not yet begun, then the one whose packets are going out. */
        final PendingMessages pending;
        Message sending;
        FabricPort port;
        double rateBytesPerNs;
        int job;
        Chooser chooser;
        int outstanding;
        long acceptedBytes;
        long ownMessages;
        long ownLatencySumNs;
        int messageBytes = spec.messageBytes();
        /** Messages this node made (a read's reply counts for the server that sends it). */
        long messagesMade;
        boolean exponentialSize = spec.exponentialSize();
        double readRatio = spec.readRatio();
        /** The next message's generation, one handler for all of them. */
        private final org.qsnet.fabric.engine.EventHandler generator = this::generate;

        Node(final int id, final SplittableRandom random)
        {
            this.id = id;
            this.random = random;
            this.origin = fabric.nodeOrigin(id);
            this.pending = new PendingMessages(id);
        }

        void sends(final double rateBytesPerNs, final int job, final Chooser chooser)
        {
            this.rateBytesPerNs = rateBytesPerNs;
            this.job = job;
            this.chooser = chooser;
        }

        void sizes(final int bytes, final boolean exponential, final double reads)
        {
            this.messageBytes = bytes;
            this.exponentialSize = exponential;
            this.readRatio = reads;
        }

        void scheduleNext(final long nowNs)
        {
            final double meanGapNs = messageBytes / rateBytesPerNs;
            final double gap = spec.poissonArrivals() ? -Math.log(1 - random.nextDouble()) * meanGapNs
                : random.nextDouble() * 2 * meanGapNs;
            final long t = nowNs + Math.max(1, Math.round(gap));
            if (later != null && outstanding >= spec.fabric().virtualChannels())
            {
                origin.reserve(later, t, generator);
            }
            else
            {
                origin.schedule(t, generator);
            }
        }

        // ---- a busy source's next generation, reserved instead of scheduled. While every channel
        // of the source is taken, a generation only appends to the source's queue, which nothing
        // but this node reads: its event is reserved at its key (Reservation) and taken, in key
        // order, when the node next reads the queue (an acknowledgement, a read request), when its
        // origin schedules anything, or at the end of the run. At saturation most generations are
        // never dispatched: 2.5 of the 14.5 events per packet of 64-node uniform traffic at offered
        // load 1.0.

        /** The reserved next generation (link injection only), null when generations are events. */
        org.qsnet.fabric.engine.Reservation later;

        void reserveGenerations()
        {
            later = origin.newReservation();
        }

        /** Once the source has a free channel, its next generation must run as an event. */
        private void scheduleReserved()
        {
            if (later.held() && outstanding < spec.fabric().virtualChannels())
            {
                later.schedule();
            }
        }

        private void generate(final long nowNs)
        {
            final int bytes = exponentialSize
                ? Math.max(1, (int)Math.round(-Math.log(1 - random.nextDouble()) * messageBytes))
                : messageBytes;
            final int dst = chooser.next(random);
            final boolean read = readRatio > 0 && random.nextDouble() < readRatio;
            if (nowNs >= windowStartNs && nowNs < windowEndNs)
            {
                jobGeneratedBytes[job] += bytes;
            }
            final long messageId = ((long)id << 32) | messagesMade++;
            if (machine != null)
            {
                postDma(new Message(messageId, this, dst, bytes, nowNs, read, spec.fabric().maxPayloadBytes()));
            }
            else
            {
                pending.add(messageId, nowNs, id, dst, bytes, read);
                trySend();
            }
            scheduleNext(nowNs);
        }

        private void trySend()
        {
            final int vcs = spec.fabric().virtualChannels();
            while (outstanding < vcs)
            {
                Message m = sending;
                if (m == null)
                {
                    if (pending.isEmpty())
                    {
                        return;
                    }
                    final PendingMessages q = pending;
                    m = new Message(q.firstId(), nodes[q.firstSource()], q.firstDestination(), q.firstBytes(),
                        q.firstGeneratedNs(), q.firstReadRequest(), spec.fabric().maxPayloadBytes());
                    q.removeFirst();
                    sending = m;
                }
                final int payload = Math.min(m.remainingBytes, spec.fabric().maxPayloadBytes());
                m.remainingBytes -= payload;
                if (++m.injected == m.packets)
                {
                    sending = null;
                }
                outstanding++;
                port.inject(Packet.unicast(id, m.destination, payload).attach(m));
            }
        }

        // ---- injection through the Elan3 NIC model: DMAs between the nodes' Elan memories

        NicContext ctx;
        long descriptors;
        int nextDescriptor;

        void attachNic()
        {
            final Elan3Nic nic = machine.nic(id);
            ctx = nic.attach(CONTEXT, KEY, new SparseMemory("main memory of node " + id, 1L << 32), null);
            final int[] vpNode = new int[nodes.length];
            final int[] vpContext = new int[nodes.length];
            for (int i = 0; i < nodes.length; i++)
            {
                vpNode[i] = i;
                vpContext[i] = CONTEXT;
            }
            ctx.setVpTable(id, vpNode, vpContext);
            ctx.mmu().map(HEAP, Mmu.Kind.SDRAM, nic.reserveSdram(HEAP_SIZE), HEAP_SIZE, Mmu.ALL);
            descriptors = HEAP;
            nic.observe((dmaId, bytes, last, t) -> landed(dmaId, bytes, t));
        }

        private void postDma(final Message m)
        {
            // a message larger than the staging buffer goes as several DMAs, back to back
            m.dmasLeft = (m.bytes + BUFFER - 1) / BUFFER;
            for (int left = m.bytes; left > 0; left -= BUFFER)
            {
                postDma(m, Math.min(left, BUFFER));
            }
        }

        private void postDma(final Message m, final int size)
        {
            final long desc = descriptors + (long)(nextDescriptor++ % RING) * E3.DMA_SIZE;
            final SparseMemory sdram = machine.nic(id).sdram();
            final long at = Mmu.offset(ctx.mmu().translate(desc, Mmu.WRITE, "descriptor"));
            sdram.putInt(at + E3.DMA_TYPE, E3.dmaType(E3.DMA_BYTE, m.readRequest ? E3.DMA_READ : E3.DMA_WRITE, E3.DMA_NORMAL, 0));
            sdram.putInt(at + E3.DMA_SIZE_FIELD, size);
            sdram.putInt(at + E3.DMA_SOURCE, (int)SOURCE);
            sdram.putInt(at + E3.DMA_DEST, (int)DEST);
            sdram.putInt(at + E3.DMA_DEST_EVENT, 0);
            sdram.putInt(at + E3.DMA_SRC_EVENT, 0);
            sdram.putInt(at + E3.DMA_DEST_COOKIE_VPROC, m.readRequest ? id : m.destination);
            sdram.putInt(at + E3.DMA_SRC_COOKIE_VPROC, m.readRequest ? m.destination : id);
            inFlight.put(machine.nic(id).command(ctx, desc), new Dma(m, size));
        }

        private void landed(final long dmaId, final int bytes, final long timeNs)
        {
            // packets of one DMA may land out of order (adaptive routing): a DMA is done when all its
            // bytes have landed, whichever packet came last
            final Dma dma = inFlight.get(dmaId);
            if (dma == null)
            {
                return;
            }
            final Message m = dma.message;
            m.landedBytes += bytes;
            dma.remainingBytes -= bytes;
            if (dma.remainingBytes <= 0)
            {
                inFlight.remove(dmaId);
            }
            final boolean complete = dma.remainingBytes <= 0 && --m.dmasLeft == 0;
            if (complete)
            {
                completed(m);
                if (partitioning != null)
                {
                    arriving.remove(m.id);
                }
            }
            if (timeNs >= windowStartNs && timeNs < windowEndNs)
            {
                jobBytes[m.source.job] += bytes;
                m.source.acceptedBytes += bytes;
                if (complete)
                {
                    m.source.ownMessages++;
                    m.source.ownLatencySumNs += timeNs - m.generatedNs;
                }
                if (complete && m.source.job == measuredJob)
                {
                    messages++;
                    latencySumNs += timeNs - m.generatedNs;
                }
            }
        }

        // ---- injection straight into the link

        @Override
        public long onArrival(final Packet packet, final long timeNs)
        {
            final Message m = (Message)packet.attachment();
            if (m.readRequest)
            {
                // the server answers a read with the data, queued behind its own traffic
                origin.catchUp();
                pending.add(((long)id << 32) | messagesMade++, m.generatedNs, m.source.id, m.source.id, m.bytes, false);
                trySend();
                return spec.fabric().ackTurnaroundNs();
            }
            m.landedBytes += packet.payloadBytes();
            final boolean complete = ++m.delivered == m.packets;
            if (complete)
            {
                completed(m);
                if (partitioning != null && m.packets > 1)
                {
                    arriving.remove(m.id);
                }
            }
            if (timeNs >= windowStartNs && timeNs < windowEndNs)
            {
                // a read's data counts for the reader, a write's for the writer
                jobBytes[m.source.job] += packet.payloadBytes();
                m.source.acceptedBytes += packet.payloadBytes();
                if (complete)
                {
                    m.source.ownMessages++;
                    m.source.ownLatencySumNs += timeNs - m.generatedNs;
                }
                if (complete && m.source.job == measuredJob)
                {
                    messages++;
                    latencySumNs += timeNs - m.generatedNs;
                }
            }
            return spec.fabric().ackTurnaroundNs();
        }

        @Override
        public void onAck(final Packet packet, final long timeNs)
        {
            origin.catchUp();
            outstanding--;
            trySend();
            if (later != null)
            {
                scheduleReserved();
            }
        }
    }

    /**
     * A message crossing partitions: its fields go with every packet; the destination keeps one
     * copy per message while its packets land, as the shared object does in one JVM.
     */
    private final class MessageCodec implements org.qsnet.fabric.network.PacketCodec
    {
        @Override
        public void writeAttachment(final Packet packet, final org.qsnet.fabric.network.WireBuffer out)
        {
            final Message m = (Message)packet.attachment();
            out.putLong(m.id).putInt(m.source.id).putInt(m.destination).putInt(m.bytes).putLong(m.generatedNs)
                .putByte(m.readRequest ? 1 : 0);
        }

        @Override
        public Object readAttachment(final Packet packet, final java.nio.ByteBuffer in)
        {
            final long id = in.getLong();
            final int source = in.getInt();
            final int destination = in.getInt();
            final int bytes = in.getInt();
            final long generatedNs = in.getLong();
            final boolean read = in.get() != 0;
            final int max = spec.fabric().maxPayloadBytes();
            if (read || bytes <= max)
            {
                // one packet: nothing else of the message will land, no copy to keep
                return new Message(id, nodes[source], destination, bytes, generatedNs, read, max);
            }
            return arriving.computeIfAbsent(id, k -> new Message(id, nodes[source], destination, bytes, generatedNs, read,
                max));
        }

        @Override
        public void writeReply(final Packet packet, final org.qsnet.fabric.network.WireBuffer out)
        {
        }

        @Override
        public void applyReply(final Packet packet, final java.nio.ByteBuffer in)
        {
        }
    }

    /**
     * Injection through the NIC model, partitioned: a write's packets carry their message (and the
     * size of their DMA) to the partition where they land, after what the NIC's own codec ships;
     * the destination keeps one copy per DMA and per message while their packets land, as the
     * shared objects are in one JVM, so that the bytes, the completed messages and their latency
     * are counted where the data lands, at the same simulated times. A remote read needs nothing
     * more: its reply lands at the requester, which posted it.
     */
    private final class NicMessageCodec implements org.qsnet.fabric.network.PacketCodec
    {
        private final org.qsnet.fabric.nic.NicPacketCodec nic = org.qsnet.fabric.nic.NicPacketCodec.INSTANCE;

        @Override
        public void writeAttachment(final Packet packet, final org.qsnet.fabric.network.WireBuffer out)
        {
            nic.writeAttachment(packet, out);
            final long dmaId = org.qsnet.fabric.nic.NicPacketCodec.dmaId(packet);
            final Dma dma = inFlight.get(dmaId);
            if (dma == null || dma.message.readRequest)
            {
                out.putByte(0);
                return;
            }
            final Message m = dma.message;
            out.putByte(1).putLong(dmaId).putInt(dma.bytes).putLong(m.id).putInt(m.source.id).putInt(m.destination)
                .putInt(m.bytes).putLong(m.generatedNs);
        }

        @Override
        public Object readAttachment(final Packet packet, final java.nio.ByteBuffer in)
        {
            final Object attachment = nic.readAttachment(packet, in);
            if (in.get() != 0)
            {
                final long dmaId = in.getLong();
                final int dmaBytes = in.getInt();
                final long id = in.getLong();
                final int source = in.getInt();
                final int destination = in.getInt();
                final int bytes = in.getInt();
                final long generatedNs = in.getLong();
                inFlight.computeIfAbsent(dmaId, d -> new Dma(arriving.computeIfAbsent(id, k ->
                {
                    final Message m = new Message(id, nodes[source], destination, bytes, generatedNs, false,
                        spec.fabric().maxPayloadBytes());
                    m.dmasLeft = (bytes + BUFFER - 1) / BUFFER;
                    return m;
                }), dmaBytes));
            }
            return attachment;
        }

        @Override
        public void writeReply(final Packet packet, final org.qsnet.fabric.network.WireBuffer out)
        {
            nic.writeReply(packet, out);
        }

        @Override
        public void applyReply(final Packet packet, final java.nio.ByteBuffer in)
        {
            nic.applyReply(packet, in);
            if (!org.qsnet.fabric.nic.NicPacketCodec.accepted(packet))
            {
                return;
            }
            // the source forgets a write to another partition once every packet of it has been
            // taken there: none of them is sent again, and its bytes are counted there
            final long dmaId = org.qsnet.fabric.nic.NicPacketCodec.dmaId(packet);
            final Dma dma = inFlight.get(dmaId);
            if (dma != null && !dma.message.readRequest
                && ++dma.acceptedPackets == org.qsnet.fabric.nic.NicPacketCodec.dmaPackets(packet))
            {
                inFlight.remove(dmaId);
            }
        }
    }

    private void completed(final Message m)
    {
        completedMessages++;
        completedMessageBytes += m.bytes;
        movedBytes += m.landedBytes;
    }

    /**
     * Runs a sweep of offered loads.
     *
     * @param spec     the workload.
     * @param loads    offered loads, each in (0, 1].
     * @param progress called after each point (e.g. to print progress), may be null.
     * @return one point per load.
     */
    public static List<TrafficPoint> sweep(final TrafficSpec spec, final double[] loads,
        final java.util.function.Consumer<TrafficPoint> progress)
    {
        final List<TrafficPoint> points = new ArrayList<>(loads.length);
        for (final double load : loads)
        {
            final TrafficPoint p = new TrafficExperiment(spec, load).run();
            points.add(p);
            if (progress != null)
            {
                progress.accept(p);
            }
        }
        return points;
    }
}
