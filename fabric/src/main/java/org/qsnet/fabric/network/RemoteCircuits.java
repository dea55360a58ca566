package org.qsnet.fabric.network;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.qsnet.fabric.QsnetException;
import org.qsnet.fabric.engine.EventHandler;
import org.qsnet.fabric.engine.Kernel;

/**
 * The network's side of a partitioned run: what one partition's nodes do to circuits that the
 * other partitions' replicas of the network must see, written to an outbox as keyed events, and
 * the same events from the other partitions, inserted into this kernel under their keys.
 *
 * <p>Every partition runs the whole network (see {@link Partitioning}); an event is
 * <em>scheduled</em> only by the partition that owns its origin, and shipped to the others when
 * they must run it too. Each shipped event lies at least the lookahead past the time it was
 * scheduled at, so it reaches every partition before the window that holds it:
 * <pre>
 *  event                     scheduled by (origin)            at least after scheduling
 *  HEAD  header reaches leaf  source's owner (source node)      wire (= the lookahead)
 *  TAIL  body at the inputter destination's owner (dest node)   body serialisation (145 ns)
 *        (broadcast: source's owner, source node)
 *  ACK   unicast ack at source destination's owner (dest node)   2 x wire + switch
 *  REL   EOP frees depth d    source's owner (source node)      wire + switch
 * </pre>
 * A broadcast's acknowledgement combines every recipient's answer, and the recipients may live
 * in several partitions: each ships its recipients' answers ({@code PART}), and at the end of the
 * window every partition combines them, in the order the tails ran, and schedules the same
 * acknowledgement under the first recipient's broadcast-ack origin (an origin no one else uses,
 * so the order is that of one JVM, where it is scheduled at the tail).
 *
 * <p>It also carries the kernel's {@link org.qsnet.fabric.engine.QuiescenceProbe}s: a {@code PROBE}
 * (the key of a NIC retry, shipped as the retry is scheduled) for every other partition to answer
 * at that key, and each partition's {@code ANSWER} for the partition that owns the probe. They are
 * no events of the model; {@link #shippedWorkPending()} tells a probe whether this window shipped
 * work (events, broadcast answers) that is pending elsewhere.
 *
 * <p>Analytic timing ({@link FabricConfig#analyticTiming()}) replicates no network: a packet's
 * tail is an event of its source's origin, shipped ({@code ANALYTIC}) to its destination's partition
 * alone, which runs and counts it ({@link org.qsnet.fabric.engine.TracedHere}); the acknowledgement
 * goes back to the source's partition alone; a broadcast's tail runs where its source and its
 * recipients live, and one within its source's partition nowhere else. The lookahead is then the
 * least latency of a path between two partitions ({@link #lookaheadNs()}).
 *
 * <p>Node links: the owner keeps their virtual channels and waiting headers; a replica takes
 * the channel named in HEAD when the header reaches the leaf and frees it at the ACK (nothing in
 * a replica reads it in between), and keeps the bodies reserved on it, as for every other link.
 *
 * <p>About 1,090 lines, one class: the eight kinds of shipped events (and the probes), their encoding and their
 * replay are one protocol (what HEAD carries is what the replica's TAIL and ACK rely on), and
 * half of the length is that protocol's description. It is on the packet path only in a
 * partitioned run; a run in one JVM never calls it.
 */
public final class RemoteCircuits implements org.qsnet.fabric.engine.ProbeExchange
{
    static final byte HEAD = 1;
    static final byte TAIL = 2;
    static final byte ACK = 3;
    static final byte RELEASE = 4;
    static final byte PART = 5;
    /** A {@link org.qsnet.fabric.engine.QuiescenceProbe}'s key, for every other partition to answer at. */
    static final byte PROBE = 6;
    /** A partition's answer to a probe, for the partition that owns it. */
    static final byte ANSWER = 7;
    /**
     * Analytic timing: a packet's tail, scheduled by its source's owner under the source's origin
     * and run only where a recipient lives (a broadcast's: everywhere); it carries what HEAD does.
     */
    static final byte ANALYTIC = 8;
    /**
     * Analytic timing: a unicast's tail, compact (the source is in the key, the header's time is the
     * tail's less the body's serialisation, the node link's channel stays with the source), with the
     * packet's slot at its source ({@link #crossing}).
     */
    static final byte ANALYTIC_UNICAST = 9;
    /**
     * Analytic timing: a unicast's acknowledgement, compact (its origin is the packet's destination),
     * naming the packet's slot at its source, where the packet is checked against the key.
     */
    static final byte ANALYTIC_ACK = 10;
    /** {@link #ANALYTIC_ACK}'s flags. */
    private static final int ACK_NACK = 1;
    private static final int ACK_VALUE = 2;
    private static final int ACK_REPLY = 4;
    /** {@link Packet.Kind#values()}, once (each call of it copies the array). */
    private static final Packet.Kind[] KINDS = Packet.Kind.values();
    /** An empty reply (most packets carry none back). */
    private static final byte[] NO_REPLY = new byte[0];

    private final Kernel kernel;
    private final Partitioning partitioning;
    private final FabricConfig config;
    private final Topology topology;
    private final int switchCount;
    private final LinkOutput[] nodeOut;
    /** Analytic timing: no replicated network; an ack crosses only to its source's partition. */
    private final boolean analytic;
    /** This partition's nodes: {@code localFirst .. localEnd - 1}. */
    private final int localFirst;
    private final int localEnd;
    /** With analytic timing, the least latency of a path across partitions (else the wire delay). */
    private final long analyticLookaheadNs;
    /** A bound on the lookahead set by the layers above ({@link #capLookahead(long)}). */
    private long lookaheadCapNs = Long.MAX_VALUE;
    private HeaderRouter router;
    private CircuitDelivery delivery;
    private PacketCodec codec = PacketCodec.NONE;
    private final WireBuffer outbox = new WireBuffer(1 << 16);
    private final WireBuffer scratch = new WireBuffer(1 << 10);
    /** Packets in flight in this partition: the owner's own and the replicas' copies, by key. */
    private final LongObjectMap<Packet> inFlight = new LongObjectMap<>(1024);
    /**
     * Analytic timing: this partition's unicasts in flight to another partition, by slot; the slot
     * rides in the packet's frame and comes back in its acknowledgement, so the ack finds its packet
     * without a hash look-up (one crossing message in two is an ack).
     */
    private Packet[] crossing = new Packet[1024];
    /** Free slots of {@link #crossing} below {@link #crossingEnd}, as a stack. */
    private int[] freeCrossing = new int[1024];
    private int freeCrossingCount;
    /** Slots of {@link #crossing} ever used. */
    private int crossingEnd;
    /** Broadcast tails of this window, in the order they ran, awaiting every recipient's answer. */
    private final List<PendingBroadcast> pending = new ArrayList<>();
    private final LongObjectMap<PendingBroadcast> pendingByKey = new LongObjectMap<>();
    long eventsShipped;
    long eventsReceived;
    /** The earliest time of an event shipped in this window. */
    private long shippedMinNs = Long.MAX_VALUE;
    /** Whether this window shipped an event or a broadcast's answer (work other partitions will run). */
    private boolean shippedWork;

    RemoteCircuits(final Kernel kernel, final Partitioning partitioning, final FabricConfig config,
        final Topology topology, final LinkOutput[] nodeOut)
    {
        this.kernel = kernel;
        this.partitioning = partitioning;
        this.config = config;
        this.topology = topology;
        this.switchCount = topology.switchCount();
        this.nodeOut = nodeOut;
        this.analytic = config.analyticTiming();
        this.localFirst = partitioning.firstNode(partitioning.self());
        this.localEnd = partitioning.self() + 1 == partitioning.count() ? partitioning.nodeCount()
            : partitioning.firstNode(partitioning.self() + 1);
        this.analyticLookaheadNs = analytic && partitioning.isDistributed() ? crossingLatencyNs(partitioning, topology, config)
            : config.wireDelayNs();
    }

    /**
     * The least latency of a path between nodes of two partitions: up to their nearest common
     * ancestor and down, {@code 2 x level} links. Partitions hold contiguous blocks of nodes, and
     * a pair across a boundary is no closer than the two nodes on either side of it.
     */
    private static long crossingLatencyNs(final Partitioning partitioning, final Topology topology,
        final FabricConfig config)
    {
        int level = Integer.MAX_VALUE;
        for (int p = 1; p < partitioning.count(); p++)
        {
            final int first = partitioning.firstNode(p);
            level = Math.min(level, topology.ncaLevel(first - 1, first));
        }
        final int links = 2 * level;
        return links * config.wireDelayNs() + (links - 1) * config.switchDelayNs();
    }

    void connect(final HeaderRouter headerRouter, final CircuitDelivery circuitDelivery)
    {
        this.router = headerRouter;
        this.delivery = circuitDelivery;
    }

    /**
     * @return how this run is partitioned.
     */
    public Partitioning partitioning()
    {
        return partitioning;
    }

    /**
     * The lookahead: no event this partition ships lies less than this past the time it was
     * scheduled at, so windows of this length can run in parallel. In the exact model a header
     * entering the network is shipped a wire delay ahead. With analytic timing only a packet's tail
     * and its acknowledgement cross, each at least a path's latency after it is scheduled, and a
     * path between two partitions climbs to their nearest common ancestor: at 1024 nodes in 2
     * partitions 10 links and 9 Elites, 515 ns; bounded by {@link #capLookahead(long)}.
     *
     * @return the lookahead, ns.
     */
    public long lookaheadNs()
    {
        return analytic ? Math.min(analyticLookaheadNs, lookaheadCapNs) : config.wireDelayNs();
    }

    /**
     * @return the least lookahead a run may have: the node link's wire delay (the exact model's).
     */
    public long minLookaheadNs()
    {
        return config.wireDelayNs();
    }

    /**
     * Bounds the lookahead, for a layer above whose own events cross partitions, or must be
     * answered by every partition, sooner than a path's latency (the NIC model's retry probes, the
     * end of a run after a failed process). It never goes below the wire delay, which the exact
     * model uses and whose bounds those layers check. Call before the run.
     *
     * @param ns the least lead those events have, at least the wire delay.
     */
    public void capLookahead(final long ns)
    {
        QsnetException.require(ns >= config.wireDelayNs(), "lookahead cap", ns + " ns",
            "must be at least the wire delay (" + config.wireDelayNs() + " ns)");
        lookaheadCapNs = Math.min(lookaheadCapNs, ns);
    }

    /**
     * Sets how packet attachments cross partitions (the NIC model's DMA packets, a traffic
     * generator's messages). Set it before any packet is injected.
     *
     * @param packetCodec the codec.
     */
    public void codec(final PacketCodec packetCodec)
    {
        this.codec = packetCodec;
    }

    /**
     * Whether an origin's events are this partition's to count in the kernel's trace digest:
     * its nodes', and a share of the replicated switches' (switch {@code s} counts in partition
     * {@code s mod count}).
     *
     * @param originId an origin id.
     * @return whether this partition owns it.
     */
    public boolean ownsOrigin(final int originId)
    {
        final int nodes = partitioning.nodeCount();
        if (originId < nodes)
        {
            return isLocal(originId);
        }
        if (originId < nodes + switchCount)
        {
            return (originId - nodes) % partitioning.count() == partitioning.self();
        }
        if (originId < 2 * nodes + switchCount)
        {
            return isLocal(originId - nodes - switchCount);
        }
        return true;
    }

    /**
     * @return the events of this window so far, to send to every other partition (position 0,
     * limit = bytes written). Valid until {@link #clearOutbox()}.
     */
    public ByteBuffer outbox()
    {
        return outbox.flip();
    }

    /** Forgets the outbox once sent. */
    public void clearOutbox()
    {
        outbox.clear();
        shippedMinNs = Long.MAX_VALUE;
        shippedWork = false;
    }

    // ---------------------------------------------------------------- quiescence probes

    @Override
    public int partitionCount()
    {
        return partitioning.count();
    }

    @Override
    public long probeLeadNs()
    {
        return lookaheadNs();
    }

    @Override
    public void announceProbe(final int originId, final long seq, final long timeNs)
    {
        outbox.putByte(PROBE).putInt(partitioning.self()).putInt(originId).putLong(seq).putLong(timeNs);
    }

    @Override
    public void answerProbe(final int originId, final long seq, final boolean quiescent, final long resumes,
        final long progress, final int pendingResumes)
    {
        outbox.putByte(ANSWER).putInt(probeOwner(originId, seq)).putInt(originId).putLong(seq)
            .putByte(quiescent ? 1 : 0).putLong(resumes).putLong(progress).putInt(pendingResumes);
    }

    @Override
    public boolean shippedWorkPending()
    {
        return shippedWork || !pending.isEmpty();
    }

    /** The partition that announced each probe this partition has yet to answer, by key. */
    private final Map<ProbeKey, Integer> probeOwners = new HashMap<>();

    private record ProbeKey(int originId, long seq)
    {
    }

    private int probeOwner(final int originId, final long seq)
    {
        final Integer owner = probeOwners.remove(new ProbeKey(originId, seq));
        if (owner == null)
        {
            throw new QsnetException("a probe of origin " + originId + ", seq " + seq + " ran here without its announcement");
        }
        return owner;
    }

    /**
     * A lower bound of the events this window adds to other partitions' queues: the events shipped
     * in it, and the acknowledgements of its broadcasts, which every partition schedules at its
     * end (at least the path's latency after the tail, whatever the recipients answer).
     *
     * @return the bound, {@link Long#MAX_VALUE} when there are none.
     */
    public long nextShippedBoundNs()
    {
        long t = shippedMinNs;
        for (final PendingBroadcast b : pending)
        {
            t = Math.min(t, delivery.broadcastAckLowerBoundNs(b.circuit, b.tailNs));
        }
        return t;
    }

    /**
     * @return events shipped to the other partitions so far.
     */
    public long eventsShipped()
    {
        return eventsShipped;
    }

    /**
     * @return events received from the other partitions so far.
     */
    public long eventsReceived()
    {
        return eventsReceived;
    }

    // ---------------------------------------------------------------- owner side

    boolean isLocal(final int node)
    {
        // Partitioning.isLocal without its division: asked several times per event
        return node >= localFirst && node < localEnd;
    }

    /** Whether nodes {@code first..last} all belong to {@code node}'s partition (partitions hold contiguous blocks). */
    boolean sameOwner(final int node, final int first, final int last)
    {
        final int owner = partitioning.ownerOf(node);
        return partitioning.ownerOf(first) == owner && partitioning.ownerOf(last) == owner;
    }

    boolean distributed()
    {
        return partitioning.isDistributed();
    }

    void injected(final Packet p)
    {
        if (analytic && !p.isBroadcast())
        {
            final int slot;
            if (freeCrossingCount > 0)
            {
                slot = freeCrossing[--freeCrossingCount];
            }
            else
            {
                if (crossingEnd == crossing.length)
                {
                    crossing = java.util.Arrays.copyOf(crossing, crossingEnd * 2);
                    freeCrossing = java.util.Arrays.copyOf(freeCrossing, crossingEnd * 2);
                }
                slot = crossingEnd++;
            }
            crossing[slot] = p;
            p.crossingSlot = slot;
            return;
        }
        inFlight.put(p.key(), p);
    }

    void shipHead(final Head h, final int originId, final long seq, final long timeNs)
    {
        final Packet p = h.packet;
        header(HEAD, originId, seq, timeNs, p.key());
        writePacket(p, h.ageSinceNs, h.circuit.vcs[0]);
        eventsShipped++;
    }

    /**
     * What a partition needs to rebuild a packet: its fields, a time stamp (a header's age, an
     * analytic tail's header time), the node link's channel, and its attachment ({@link #readPacket}).
     */
    private void writePacket(final Packet p, final long stampNs, final int vc)
    {
        final WireBuffer out = outbox;
        out.putInt(p.source()).putInt(p.destination()).putInt(p.broadcastFirst()).putInt(p.broadcastLast())
            .putInt(p.payloadBytes()).putByte(p.kind().ordinal()).putInt(p.priority()).putLong(p.injectNs())
            .putLong(stampNs).putInt(vc);
        final int at = out.position();
        out.putInt(0);
        codec.writeAttachment(p, out);
        out.putIntAt(at, out.position() - at - 4);
    }

    /**
     * Analytic timing: ships a packet's tail, an event of its source's origin under {@code seq}, to
     * the partitions that run it (it carries the packet and, after its header, the attempt).
     */
    void shipAnalytic(final Circuit c, final int originId, final long seq, final long tailNs)
    {
        final Packet p = c.packet;
        header(ANALYTIC, originId, seq, tailNs, p.key());
        outbox.putInt(c.attempt);
        writePacket(p, p.headNs(), c.vcs[0]);
        eventsShipped++;
    }

    /** A compact frame's start (no origin: the receiver knows it): kind, sequence, time, packet key, attempt. */
    private WireBuffer compactHeader(final byte kind, final Circuit c, final long seq, final long timeNs)
    {
        shippedMinNs = Math.min(shippedMinNs, timeNs);
        shippedWork = true;
        return outbox.putByte(kind).putLong(seq).putLong(timeNs).putLong(c.packet.key()).putInt(c.attempt);
    }

    /**
     * Analytic timing: ships a unicast's tail to its destination's partition, which alone runs it,
     * in {@link #ANALYTIC_UNICAST}'s compact form: the tail's key (its origin is the source node's),
     * the attempt, what the destination needs of the packet, and its attachment.
     */
    void shipAnalyticUnicast(final Circuit c, final long seq, final long tailNs)
    {
        final Packet p = c.packet;
        final WireBuffer out = compactHeader(ANALYTIC_UNICAST, c, seq, tailNs);
        out.putInt(p.crossingSlot).putInt(p.destination()).putInt(p.payloadBytes()).putByte(p.kind().ordinal())
            .putInt(p.priority()).putLong(p.injectNs());
        final int at = out.position();
        out.putInt(0);
        codec.writeAttachment(p, out);
        out.putIntAt(at, out.position() - at - 4);
        eventsShipped++;
    }

    /**
     * Analytic timing: ships a unicast's acknowledgement to its source's partition, which alone runs
     * it, in {@link #ANALYTIC_ACK}'s compact form (its origin is the destination node's; the value
     * and the reply only when there are).
     */
    void shipAnalyticAck(final Circuit c, final long seq, final long timeNs)
    {
        final Packet p = c.packet;
        final WireBuffer out = compactHeader(ANALYTIC_ACK, c, seq, timeNs);
        out.putInt(p.crossingSlot);
        final boolean nack = c.nack;
        final long value = p.ackValue();
        final int flagsAt = out.position();
        out.putByte(0);
        int flags = nack ? ACK_NACK : 0;
        if (value != 0)
        {
            flags |= ACK_VALUE;
            out.putLong(value);
        }
        if (!nack)
        {
            final int at = out.position();
            reply(p);
            if (out.position() - at > 4)
            {
                flags |= ACK_REPLY;
            }
            else
            {
                out.truncate(at);
            }
        }
        out.putByteAt(flagsAt, (byte)flags);
        eventsShipped++;
    }

    void shipPhase(final byte kind, final Circuit c, final int originId, final long seq, final long timeNs,
        final int depth)
    {
        header(kind, originId, seq, timeNs, c.packet.key());
        outbox.putInt(c.attempt);
        if (kind == RELEASE)
        {
            outbox.putInt(depth);
        }
        eventsShipped++;
    }

    void shipAck(final Circuit c, final int originId, final long seq, final long timeNs)
    {
        final Packet p = c.packet;
        final boolean nack = c.nack;
        header(ACK, originId, seq, timeNs, p.key());
        outbox.putInt(c.attempt);
        outbox.putLong(p.ackValue()).putByte(nack ? 1 : 0);
        if (!nack)
        {
            reply(p);
        }
        eventsShipped++;
    }

    private void reply(final Packet p)
    {
        final WireBuffer out = outbox;
        final int at = out.position();
        out.putInt(0);
        codec.writeReply(p, out);
        out.putIntAt(at, out.position() - at - 4);
    }

    private void header(final byte kind, final int originId, final long seq, final long timeNs, final long key)
    {
        shippedMinNs = Math.min(shippedMinNs, timeNs);
        shippedWork = true;
        outbox.putByte(kind).putInt(originId).putLong(seq).putLong(timeNs).putLong(key);
    }

    // ---------------------------------------------------------------- broadcast acknowledgements

    /** A broadcast whose tail ran in this window: its answers so far, by recipient node. */
    private static final class PendingBroadcast
    {
        final Circuit circuit;
        final long tailNs;
        final boolean nack;
        /** The acknowledgement's sequence number, taken at the tail (analytic timing), or -1. */
        final long ackSeq;
        final Map<Integer, Part> parts = new HashMap<>();

        PendingBroadcast(final Circuit circuit, final long tailNs, final boolean nack, final long ackSeq)
        {
            this.circuit = circuit;
            this.tailNs = tailNs;
            this.nack = nack;
            this.ackSeq = ackSeq;
        }
    }

    private record Part(long turnaroundNs, long ackValue, byte[] reply)
    {
    }

    void broadcastTail(final Circuit c, final long now, final boolean nack, final long ackSeq)
    {
        final PendingBroadcast b = new PendingBroadcast(c, now, nack, ackSeq);
        pending.add(b);
        final PendingBroadcast old = pendingByKey.put(c.packet.key(), b);
        if (old != null)
        {
            throw new QsnetException("broadcast " + c.packet + " has two tails in one window");
        }
    }

    /** A local recipient answered: keep its part and ship it. */
    void broadcastPart(final Packet p, final int node, final long turnaroundNs)
    {
        scratch.clear();
        codec.writeReply(p, scratch);
        final ByteBuffer r = scratch.flip();
        final byte[] reply = new byte[r.remaining()];
        r.get(reply);
        pendingByKey.get(p.key()).parts.put(node, new Part(turnaroundNs, p.ackValue(), reply));
        shippedWork = true;
        outbox.putByte(PART).putLong(p.key()).putInt(node).putLong(turnaroundNs).putLong(p.ackValue()).putBytes(reply);
    }

    /**
     * Ends a window once every other partition's events of it have been received: combines each
     * broadcast's answers and schedules its acknowledgement, in the order the tails ran.
     */
    public void endWindow()
    {
        for (final PendingBroadcast b : pending)
        {
            final Circuit c = b.circuit;
            final Packet p = c.packet;
            final int first = p.broadcastFirst();
            long turnaround = config.ackTurnaroundNs();
            if (!b.nack)
            {
                long combined = 0;
                for (int node = first; node <= p.broadcastLast(); node++)
                {
                    final Part part = b.parts.get(node);
                    if (part != null)
                    {
                        combined = Math.max(combined, part.ackValue());
                        turnaround = node == first ? part.turnaroundNs() : Math.max(turnaround, part.turnaroundNs());
                    }
                }
                p.setAckValue(combined);
                if (isLocal(p.source()))
                {
                    for (int node = first; node <= p.broadcastLast(); node++)
                    {
                        final Part part = b.parts.get(node);
                        if (part != null)
                        {
                            codec.applyReply(p, ByteBuffer.wrap(part.reply()).order(java.nio.ByteOrder.LITTLE_ENDIAN));
                        }
                    }
                }
            }
            if (b.ackSeq >= 0)
            {
                delivery.scheduleBroadcastAck(c, b.tailNs, turnaround, b.ackSeq);
            }
            else
            {
                delivery.scheduleBroadcastAck(c, b.tailNs, turnaround);
            }
        }
        pending.clear();
        pendingByKey.clear();
    }

    // ---------------------------------------------------------------- receiving side

    /**
     * Inserts the events another partition shipped in a window (between windows only).
     *
     * @param in the bytes of that partition's outbox, from position to limit.
     */
    public void receive(final ByteBuffer in)
    {
        final ByteBuffer b = in.slice().order(java.nio.ByteOrder.LITTLE_ENDIAN);
        while (b.hasRemaining())
        {
            final byte kind = b.get();
            if (kind == ANALYTIC_UNICAST)
            {
                readAnalyticUnicast(b);
                continue;
            }
            if (kind == ANALYTIC_ACK)
            {
                readAnalyticAck(b);
                continue;
            }
            if (kind == PART)
            {
                final long key = b.getLong();
                final int node = b.getInt();
                final long turnaround = b.getLong();
                final long ackValue = b.getLong();
                final byte[] reply = WireBuffer.getBytes(b);
                final PendingBroadcast pb = pendingByKey.get(key);
                if (pb == null && analytic)
                {
                    // analytic timing: a broadcast's tail runs only where its source or a recipient lives
                    continue;
                }
                if (pb == null)
                {
                    throw new QsnetException("an answer of node " + node + " arrived for broadcast " + key
                        + ", whose tail did not run in this window here");
                }
                pb.parts.put(node, new Part(turnaround, ackValue, reply));
                continue;
            }
            if (kind == PROBE)
            {
                final int owner = b.getInt();
                final int originId = b.getInt();
                final long seq = b.getLong();
                final long timeNs = b.getLong();
                probeOwners.put(new ProbeKey(originId, seq), owner);
                kernel.scheduleRemoteProbe(originId, timeNs, seq);
                continue;
            }
            if (kind == ANSWER)
            {
                final int owner = b.getInt();
                final int originId = b.getInt();
                final long seq = b.getLong();
                final boolean quiescent = b.get() != 0;
                final long resumes = b.getLong();
                final long progress = b.getLong();
                final int pendingResumes = b.getInt();
                if (owner == partitioning.self()
                    && !kernel.probeAnswered(originId, seq, quiescent, resumes, progress, pendingResumes))
                {
                    throw new QsnetException("an answer to probe " + originId + "/" + seq
                        + " arrived here, which has no such probe waiting");
                }
                continue;
            }
            final int originId = b.getInt();
            final long seq = b.getLong();
            final long timeNs = b.getLong();
            final long key = b.getLong();
            final int attempt = kind == HEAD ? 0 : b.getInt();
            final EventHandler handler = switch (kind)
            {
                case HEAD -> readHead(b, key);
                case ANALYTIC -> readAnalytic(b, key, attempt);
                case TAIL -> new RemotePhase(TAIL, key, attempt, 0, 0, false, null);
                case ACK ->
                {
                    final long ackValue = b.getLong();
                    final boolean nack = b.get() != 0;
                    byte[] reply = null;
                    if (!nack)
                    {
                        final int n = b.getInt();
                        reply = n == 0 ? NO_REPLY : new byte[n];
                        b.get(reply);
                    }
                    // (analytic timing ships its acks as ANALYTIC_ACK)
                    yield new RemotePhase(ACK, key, attempt, 0, ackValue, nack, reply);
                }
                case RELEASE -> new RemotePhase(RELEASE, key, attempt, b.getInt(), 0, false, null);
                default -> throw new QsnetException("unknown remote event kind " + kind);
            };
            if (handler != null)
            {
                eventsReceived++;
                kernel.scheduleRemote(originId, timeNs, seq, handler);
            }
        }
    }

    private EventHandler readHead(final ByteBuffer b, final long key)
    {
        final RemoteHead h = new RemoteHead();
        h.key = key;
        final ByteBuffer attachment = readPacket(b, h);
        final boolean recipientHere = h.first < 0 ? isLocal(h.destination) : anyLocal(h.first, h.last);
        if (recipientHere)
        {
            h.packet = shadow(h);
            h.attachment = codec.readAttachment(h.packet, attachment);
        }
        return h;
    }

    private void readAnalyticUnicast(final ByteBuffer b)
    {
        final long seq = b.getLong();
        final long tailNs = b.getLong();
        final long key = b.getLong();
        final int attempt = b.getInt();
        final int slot = b.getInt();
        final int destination = b.getInt();
        final int payloadBytes = b.getInt();
        final Packet.Kind kind = KINDS[b.get()];
        final int priority = b.getInt();
        final long injectNs = b.getLong();
        final int end = b.getInt() + b.position();
        if (!isLocal(destination))
        {
            b.position(end);
            return;
        }
        // a unicast's tail runs here alone: a packet of its own, in no map, counted here
        final int source = (int)(key >>> 40);
        final Packet p = kind == Packet.Kind.NON_WRITE_BLOCK ? Packet.nonWriteBlock(source, destination, payloadBytes)
            : Packet.unicast(source, destination, payloadBytes);
        p.priority(priority);
        // what the tail reads of the route: its length (the source checked the destination)
        p.tagCount = 2 * topology.ncaLevel(source, destination) - 1;
        p.wireBytes = payloadBytes + config.packetOverheadBytes();
        p.injected(injectNs, key);
        p.crossingSlot = slot;
        for (int i = 0; i < attempt; i++)
        {
            p.retried();
        }
        // the codec reads the attachment from the frame itself, bounded to it (no slice per packet)
        final int limit = b.limit();
        b.limit(end);
        p.attach(codec.readAttachment(p, b));
        b.limit(limit).position(end);
        final RemoteUnicastTail t = new RemoteUnicastTail();
        t.packet = p;
        t.headNs = tailNs - config.serializationNs(p.wireBytes);
        eventsReceived++;
        // the tail is an event of the source node's origin (node i's origin id is i)
        kernel.scheduleRemote(source, tailNs, seq, t);
    }

    private void readAnalyticAck(final ByteBuffer b)
    {
        final long seq = b.getLong();
        final long timeNs = b.getLong();
        final long key = b.getLong();
        final int attempt = b.getInt();
        final int slot = b.getInt();
        final int flags = b.get();
        final long value = (flags & ACK_VALUE) != 0 ? b.getLong() : 0;
        byte[] reply = null;
        if ((flags & ACK_NACK) == 0)
        {
            reply = NO_REPLY;
            if ((flags & ACK_REPLY) != 0)
            {
                reply = new byte[b.getInt()];
                b.get(reply);
            }
        }
        if (!isLocal((int)(key >>> 40)))
        {
            return;
        }
        final Packet p = slot >= 0 && slot < crossingEnd ? crossing[slot] : null;
        if (p == null || p.key() != key)
        {
            throw new QsnetException("an acknowledgement for packet " + key + " (slot " + slot
                + ") arrived here, where it is not in flight");
        }
        eventsReceived++;
        // the acknowledgement is an event of the destination node's origin
        kernel.scheduleRemote(p.destination(), timeNs, seq,
            new TracedRemotePhase(p, attempt, value, (flags & ACK_NACK) != 0, reply));
    }

    /**
     * A broadcast's analytic tail: it runs where a recipient lives (and at its source, which shipped
     * it), where the recipients' answers combine; elsewhere nothing (null).
     */
    private EventHandler readAnalytic(final ByteBuffer b, final long key, final int attempt)
    {
        final RemoteHead h = new RemoteHead();
        h.key = key;
        h.attempt = attempt;
        h.analytic = true;
        final ByteBuffer attachment = readPacket(b, h);
        if (!anyLocal(h.first, h.last))
        {
            return null;
        }
        h.packet = shadow(h);
        h.attachment = codec.readAttachment(h.packet, attachment);
        return h;
    }

    /** Reads what {@link #writePacket} wrote into {@code h}; returns the attachment's bytes. */
    private static ByteBuffer readPacket(final ByteBuffer b, final RemoteHead h)
    {
        h.source = b.getInt();
        h.destination = b.getInt();
        h.first = b.getInt();
        h.last = b.getInt();
        h.payloadBytes = b.getInt();
        h.kind = KINDS[b.get()];
        h.priority = b.getInt();
        h.injectNs = b.getLong();
        h.stampNs = b.getLong();
        h.vc = b.getInt();
        final int n = b.getInt();
        final ByteBuffer attachment = b.slice(b.position(), n).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        b.position(b.position() + n);
        return attachment;
    }

    private boolean anyLocal(final int first, final int last)
    {
        return partitioning.ownerOf(first) <= partitioning.self() && partitioning.ownerOf(last) >= partitioning.self();
    }

    private Packet shadow(final RemoteHead h)
    {
        Packet p = inFlight.get(h.key);
        if (p == null)
        {
            p = h.first >= 0 ? Packet.broadcast(h.source, h.first, h.last, h.payloadBytes)
                : h.kind == Packet.Kind.NON_WRITE_BLOCK ? Packet.nonWriteBlock(h.source, h.destination, h.payloadBytes)
                : Packet.unicast(h.source, h.destination, h.payloadBytes);
            p.priority(h.priority);
            router.route(h.source, p);
            p.injected(h.injectNs, h.key);
            inFlight.put(h.key, p);
        }
        return p;
    }

    /** Analytic timing: a unicast's tail, which only this partition (its destination's) runs and counts. */
    private final class RemoteUnicastTail implements org.qsnet.fabric.engine.TracedHere
    {
        Packet packet;
        long headNs;

        @Override
        public void onEvent(final long timeNs)
        {
            final Packet p = packet;
            // the tail holds no link here (the source's stays with the source)
            delivery.analyticTail(router.newCircuit(p, 0), headNs, timeNs);
        }
    }

    /** A header another partition's node injected, reaching its leaf switch here. */
    private final class RemoteHead implements EventHandler
    {
        long key;
        int source;
        int destination;
        int first;
        int last;
        int payloadBytes;
        Packet.Kind kind;
        int priority;
        long injectNs;
        /** HEAD: the header's age ({@link Head#ageSinceNs}); ANALYTIC: the header's arrival. */
        long stampNs;
        int vc;
        Packet packet;
        Object attachment;
        /** An analytic tail ({@link #ANALYTIC}), and its attempt. */
        boolean analytic;
        int attempt;

        @Override
        public void onEvent(final long timeNs)
        {
            final Packet p = packet != null ? packet : shadow(this);
            if (packet != null)
            {
                p.attach(attachment);
            }
            final Circuit c = router.newCircuit(p);
            if (analytic)
            {
                if (c.attempt != attempt)
                {
                    throw new QsnetException("analytic tail of attempt " + attempt + " of packet " + key
                        + " met attempt " + c.attempt + " here");
                }
                final LinkOutput out = nodeOut[source];
                out.takeVc(vc);
                c.add(out, vc, 1);
                delivery.analyticTail(c, stampNs, timeNs);
                return;
            }
            final Head h = new Head(router, p, c);
            h.ageSinceNs = stampNs;
            final LinkOutput out = nodeOut[source];
            out.takeVc(vc);
            h.depth = 1;
            c.add(out, vc, 1);
            h.via = out;
            // the hop over the node link is counted by its owner (Fabric.nodeLinkHops)
            router.headArrived(h, timeNs);
        }
    }

    /**
     * An acknowledgement that only this partition runs (analytic timing): counted here; its packet,
     * looked up when it arrived, is kept.
     */
    private final class TracedRemotePhase extends RemotePhase implements org.qsnet.fabric.engine.TracedHere
    {
        private final Packet packet;

        TracedRemotePhase(final Packet packet, final int attempt, final long ackValue, final boolean nack,
            final byte[] reply)
        {
            super(ACK, packet.key(), attempt, 0, ackValue, nack, reply);
            this.packet = packet;
        }

        @Override
        Packet packet()
        {
            return packet;
        }
    }

    /** A tail, acknowledgement or release another partition scheduled for a circuit. */
    private class RemotePhase implements EventHandler
    {
        /** @return the packet in flight here that the event is for, null if none. */
        Packet packet()
        {
            return inFlight.get(key);
        }

        final byte kind;
        final long key;
        final int attempt;
        final int depth;
        final long ackValue;
        final boolean nack;
        final byte[] reply;

        RemotePhase(final byte kind, final long key, final int attempt, final int depth, final long ackValue,
            final boolean nack, final byte[] reply)
        {
            this.kind = kind;
            this.key = key;
            this.attempt = attempt;
            this.depth = depth;
            this.ackValue = ackValue;
            this.nack = nack;
            this.reply = reply;
        }

        @Override
        public void onEvent(final long timeNs)
        {
            final Packet p = packet();
            if (p == null)
            {
                throw new QsnetException("remote event " + kind + " for packet " + key + ", which is not in flight here");
            }
            final Circuit c = p.circuit != null && p.circuit.attempt == attempt ? p.circuit : p.previousCircuit;
            if (c == null || c.attempt != attempt)
            {
                throw new QsnetException("remote event " + kind + " for attempt " + attempt + " of packet " + key
                    + ", which is not in flight here");
            }
            switch (kind)
            {
                case TAIL -> delivery.deliver(c, timeNs);
                case ACK ->
                {
                    // the destination's verdict (with analytic timing this partition ran no tail to draw it)
                    c.nack = nack;
                    if (!nack)
                    {
                        p.setAckValue(ackValue);
                        if (isLocal(p.source()))
                        {
                            codec.applyReply(p, ByteBuffer.wrap(reply).order(java.nio.ByteOrder.LITTLE_ENDIAN));
                        }
                    }
                    delivery.ackArrived(c, timeNs);
                }
                default ->
                {
                    c.releaseDepth = depth;
                    delivery.releaseDepth(c, timeNs);
                }
            }
        }
    }

    void acked(final Packet p)
    {
        final int slot = p.crossingSlot;
        if (slot >= 0 && isLocal(p.source()))
        {
            crossing[slot] = null;
            freeCrossing[freeCrossingCount++] = slot;
            p.crossingSlot = -1;
            return;
        }
        inFlight.remove(p.key());
    }

    /**
     * @return packets this partition holds in flight (its own and copies).
     */
    public int packetsInFlight()
    {
        return inFlight.size() + crossingEnd - freeCrossingCount;
    }
}
