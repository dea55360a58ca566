package org.qsnet.fabric.network;

import java.util.SplittableRandom;

import org.qsnet.fabric.QsnetException;
import org.qsnet.fabric.engine.Origin;

/**
 * The rest of a circuit's life once its header has arrived: the body streams when no link of the
 * path carries another circuit's body, the tail reaches the inputter, which checks the CRC
 * (seeded per node) and delivers to the node's endpoint (every recipient of a broadcast, their
 * acknowledgements combined), the acknowledgement returns, and the EOP releases the channels
 * hop by hop behind it, each through {@link HeaderRouter#releaseVc}. A NACKed packet starts a new
 * attempt there.
 *
 * <p>About 450 lines: the circuit's phases after its header (body placement, delivery with the CRC
 * check and the combining of a broadcast's answers, acknowledgement, release) and their analytic
 * variant ({@code --timing analytic}) are one state machine over the same fields, each phase
 * scheduling the next; what a partitioned run ships of them is in {@link RemoteCircuits}.
 */
final class CircuitDelivery
{
    private final Fabric fabric;
    private final FabricConfig config;
    private final HeaderRouter router;
    private final PacketEndpoint[] endpoints;
    private final SplittableRandom[] crcRandom;
    private final Origin[] nodeOrigins;
    private final Origin[] broadcastAckOrigins;
    private final RemoteCircuits remote;
    private final long hopNs;
    /** Whether the run has several partitions (read on every packet: a field, not a chain of calls). */
    private final boolean distributed;
    /**
     * Analytic timing in several partitions: no network is replicated, so a unicast's tail runs only
     * where its destination lives and the counters here are this partition's share (see
     * {@link #analytic}).
     */
    private final boolean analyticSplit;
    /**
     * Analytic timing: a broadcast's CRC check at each recipient draws from a hash of the packet's
     * key, its attempt and the recipient, the same in every partition that runs the tail (the
     * recipients' own streams advance only where they live, and a partition runs only the
     * broadcasts that reach it).
     */
    private final long broadcastCrcSeed;
    long deliveredPackets;
    long deliveredPayloadBytes;
    long crcErrors;

    CircuitDelivery(final Fabric fabric, final FabricConfig config, final HeaderRouter router,
        final PacketEndpoint[] endpoints, final SplittableRandom[] crcRandom, final Origin[] nodeOrigins,
        final Origin[] broadcastAckOrigins, final RemoteCircuits remote, final long hopNs)
    {
        this.broadcastAckOrigins = broadcastAckOrigins;
        this.remote = remote;
        this.fabric = fabric;
        this.config = config;
        this.router = router;
        this.endpoints = endpoints;
        this.crcRandom = crcRandom;
        this.nodeOrigins = nodeOrigins;
        this.hopNs = hopNs;
        this.distributed = remote.distributed();
        this.analyticSplit = distributed && config.analyticTiming();
        this.broadcastCrcSeed = config.seed() ^ 0xB40ADCA57L;
    }

    private boolean isLocal(final int node)
    {
        return !distributed || remote.isLocal(node);
    }

    void circuitComplete(final Circuit c, final long now, final long headNs)
    {
        final Packet p = c.packet;
        final long bodyNs = config.serializationNs(p.wireBytes);
        // a body occupies each link for its serialisation plus the gap before the next body
        final long start = earliestBodyStart(c, headNs, bodyNs + config.packetGapNs());
        final long tail = start + bodyNs;
        final long linkFreeNs = tail + config.packetGapNs();
        final LinkOutput[] ls = c.links;
        final int n = c.count;
        for (int i = 0; i < n; i++)
        {
            final LinkOutput l = ls[i];
            final int vc = c.vcs[i];
            l.body[2 * vc] = start;
            l.body[2 * vc + 1] = linkFreeNs;
            l.bodyMask |= 1 << vc;
            l.bodyFreeAtNs = Math.max(l.bodyFreeAtNs, linkFreeNs);
            l.busyNs += bodyNs;
            l.bytes += p.wireBytes;
            l.packets++;
        }
        p.times(headNs, tail);
        final int node = p.isBroadcast() ? p.source() : p.destination();
        c.phase = Circuit.TAIL;
        if (isLocal(node))
        {
            final Origin o = nodeOrigins[node];
            if (distributed)
            {
                remote.shipPhase(RemoteCircuits.TAIL, c, o.id(), o.peekSeq(), tail, 0);
            }
            o.schedule(tail, c);
        }
    }

    /**
     * {@code --timing analytic}: the packet's times from a formula instead of the header's hops.
     * The source's link serialises the node's packets (LogGP's G and g); the header crosses the
     * path's links and Elites without waiting (L); the tail follows after the body. Nothing else
     * contends: no virtual channel beyond the node link's, no other body on a link.
     * <pre>
     *   start = max(now, source link free);  head = start + links x wire + (links - 1) x switch
     *   tail  = head + serialisation(payload + 58 B);  ack = tail + turnaround + the same latency back
     * </pre>
     * The tail is an event of the source node's origin (the node link's). In a partitioned run it
     * is shipped to the destination's partition alone, which runs it (a broadcast's to every
     * partition, each delivering to its own recipients); nothing else of the network is
     * replicated, so each partition does only its own nodes' share of the work.
     */
    void analytic(final Circuit c, final LinkOutput out, final long now)
    {
        final Packet p = c.packet;
        final long bodyNs = config.serializationNs(p.wireBytes);
        final long start = Math.max(now, out.bodyFreeAtNs);
        out.bodyFreeAtNs = start + bodyNs + config.packetGapNs();
        out.busyNs += bodyNs;
        out.bytes += p.wireBytes;
        out.packets++;
        c.pathLinks = analyticPathLinks(p);
        final long head = start + fabric.pathLatencyNs(c.pathLinks);
        final long tail = head + bodyNs;
        p.times(head, tail);
        c.phase = Circuit.TAIL;
        final Origin o = out.origin;
        final boolean broadcast = p.isBroadcast();
        if (!distributed || (broadcast ? remote.sameOwner(p.source(), p.broadcastFirst(), p.broadcastLast())
            : isLocal(p.destination())))
        {
            o.schedule(tail, c);
        }
        else if (broadcast)
        {
            o.catchUp();
            remote.shipAnalytic(c, o.id(), o.peekSeq(), tail);
            o.schedule(tail, c);
        }
        else
        {
            remote.shipAnalyticUnicast(c, o.scheduleElsewhere(tail), tail);
        }
    }

    /**
     * A partitioned run's analytic tail arriving in a partition that did not compute it (its
     * destination's, or a broadcast recipient's): the times the source computed, then delivery.
     */
    void analyticTail(final Circuit c, final long headNs, final long tailNs)
    {
        final Packet p = c.packet;
        c.pathLinks = analyticPathLinks(p);
        p.times(headNs, tailNs);
        c.phase = Circuit.TAIL;
        deliver(c, tailNs);
    }

    /** A uniform double in [0, 1) from the key of a broadcast's attempt at a recipient (SplitMix64's finaliser). */
    private double hashedUniform(final long key, final int attempt, final int node)
    {
        long z = broadcastCrcSeed + key * 0x9E3779B97F4A7C15L + ((long)attempt << 32 | node) * 0xC2B2AE3D27D4EB4FL;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        z ^= z >>> 31;
        return (z >>> 11) * 0x1.0p-53;
    }

    /** The links an analytic packet's path crosses: up and down to the destination, or a broadcast's up and down to every recipient. */
    static int analyticPathLinks(final Packet p)
    {
        return p.tagCount + 1 + (p.isBroadcast() ? p.tagCount + 1 : 0);
    }

    /**
     * The earliest time at or after the header's arrival at which the body can stream over every
     * link of the circuit without overlapping the body of another circuit on the same link (the
     * circuits holding the link's other virtual channels). Candidates are the arrival and the
     * ends of those bodies; the latest end always fits.
     */
    private static long earliestBodyStart(final Circuit c, final long headNs, final long bodyNs)
    {
        long best = Long.MAX_VALUE;
        if (fits(c, headNs, bodyNs))
        {
            return headNs;
        }
        final LinkOutput[] ls = c.links;
        for (int i = 0; i < c.count; i++)
        {
            final LinkOutput l = ls[i];
            if (l.bodyFreeAtNs <= headNs)
            {
                // no body on this link ends after the header's arrival: no candidate here
                continue;
            }
            // the other circuits' bodies reserved on this link
            for (int others = l.bodyMask & ~(1 << c.vcs[i]); others != 0; others &= others - 1)
            {
                final long end = l.body[2 * Integer.numberOfTrailingZeros(others) + 1];
                if (end > headNs && end < best && fits(c, end, bodyNs))
                {
                    best = end;
                }
            }
        }
        return best;
    }

    private static boolean fits(final Circuit c, final long start, final long bodyNs)
    {
        final long end = start + bodyNs;
        final LinkOutput[] ls = c.links;
        for (int i = 0; i < c.count; i++)
        {
            final LinkOutput l = ls[i];
            if (l.bodyFreeAtNs <= start)
            {
                // every body reserved on this link ends by then (bodyFreeAtNs is the latest end)
                continue;
            }
            // the other circuits' bodies reserved on this link
            for (int others = l.bodyMask & ~(1 << c.vcs[i]); others != 0; others &= others - 1)
            {
                final int vc = Integer.numberOfTrailingZeros(others);
                final long[] b = l.body;
                if (start < b[2 * vc + 1] && end > b[2 * vc])
                {
                    return false;
                }
            }
        }
        return true;
    }

    void deliver(final Circuit c, final long now)
    {
        final Packet p = c.packet;
        final boolean broadcast = p.isBroadcast();
        final int first = broadcast ? p.broadcastFirst() : p.destination();
        final int last = broadcast ? p.broadcastLast() : p.destination();
        final double rate = config.crcErrorRate();
        if (rate > 0)
        {
            // every recipient checks the CRC before any of them commits the data: a broadcast is
            // delivered only if all acknowledge positively
            final boolean hashed = broadcast && config.analyticTiming();
            for (int node = first; node <= last; node++)
            {
                if ((hashed ? hashedUniform(p.key(), c.attempt, node) : crcRandom[node].nextDouble()) < rate)
                {
                    c.nack = true;
                }
            }
        }
        // analytic timing: a broadcast whose recipients all live with its source involves no other
        // partition (every partition that runs the tail must decide this alike)
        final boolean deferred = broadcast && distributed && !(analyticSplit && remote.sameOwner(p.source(), first, last));
        if (deferred)
        {
            // the recipients' answers are combined at the end of the window (RemoteCircuits)
            // analytic timing: some broadcasts of this first recipient are acknowledged at their tail
            // (those within one partition), so the others take their key there too, in tail order
            remote.broadcastTail(c, now, c.nack, analyticSplit ? broadcastAckOrigins[first].reserveSeq() : -1);
        }
        long turnaround = config.ackTurnaroundNs();
        if (c.nack)
        {
            // split analytic runs count a broadcast's error where its source lives (every partition runs its tail)
            if (!analyticSplit || !broadcast || isLocal(p.source()))
            {
                crcErrors++;
            }
        }
        else
        {
            // a broadcast's acknowledgements combine on their way back: the source sees the largest
            // value any recipient returned (so one "not yet" from anyone reaches it)
            long combined = 0;
            for (int node = first; node <= last; node++)
            {
                final PacketEndpoint ep = endpoints[node];
                if (ep != null)
                {
                    p.setAckValue(0);
                    final long t = ep.onArrival(p, now);
                    combined = Math.max(combined, p.ackValue());
                    if (t < 0)
                    {
                        throw new QsnetException("endpoint of node " + node + " returned ack turnaround " + t
                            + " ns; it must be at least 0");
                    }
                    turnaround = node == first ? t : Math.max(turnaround, t);
                    if (deferred)
                    {
                        remote.broadcastPart(p, node, t);
                    }
                }
                if (!analyticSplit || isLocal(node))
                {
                    deliveredPackets++;
                    deliveredPayloadBytes += p.payloadBytes();
                }
            }
            if (!deferred)
            {
                p.setAckValue(combined);
            }
        }
        if (broadcast)
        {
            if (!deferred)
            {
                scheduleBroadcastAck(c, now, turnaround);
            }
            return;
        }
        if (isLocal(first))
        {
            final long ackAt = now + turnaround + fabric.pathLatencyNs(maxDepth(c));
            c.phase = Circuit.ACK;
            final Origin o = nodeOrigins[first];
            if (analyticSplit && !isLocal(p.source()))
            {
                // analytic timing: only the source's partition runs the ack (nothing of the
                // circuit is held here: the tail's packet is this partition's copy alone)
                remote.shipAnalyticAck(c, o.scheduleElsewhere(ackAt), ackAt);
                return;
            }
            if (distributed && !analyticSplit)
            {
                remote.shipAck(c, o.id(), o.peekSeq(), ackAt);
            }
            o.schedule(ackAt, c);
        }
    }

    private static int maxDepth(final Circuit c)
    {
        if (c.pathLinks > 0)
        {
            return c.pathLinks;
        }
        if (c.unicast)
        {
            return c.count;
        }
        int depth = 0;
        for (int i = 0; i < c.count; i++)
        {
            depth = Math.max(depth, c.depths[i]);
        }
        return depth;
    }

    /**
     * Schedules a broadcast's acknowledgement under its first recipient's broadcast-ack origin, at
     * the tail (one partition) or at the end of the tail's window (several, every partition alike).
     */
    long broadcastAckLowerBoundNs(final Circuit c, final long tailNs)
    {
        return tailNs + fabric.pathLatencyNs(maxDepth(c));
    }

    /** As {@link #scheduleBroadcastAck(Circuit, long, long)}, under the sequence number taken at the tail. */
    void scheduleBroadcastAck(final Circuit c, final long tailNs, final long turnaroundNs, final long seq)
    {
        final long ackAt = tailNs + turnaroundNs + fabric.pathLatencyNs(maxDepth(c));
        c.phase = Circuit.ACK;
        fabric.kernel().scheduleRemote(broadcastAckOrigins[c.packet.broadcastFirst()].id(), ackAt, seq, c);
    }

    void scheduleBroadcastAck(final Circuit c, final long tailNs, final long turnaroundNs)
    {
        final long ackAt = tailNs + turnaroundNs + fabric.pathLatencyNs(maxDepth(c));
        c.phase = Circuit.ACK;
        broadcastAckOrigins[c.packet.broadcastFirst()].schedule(ackAt, c);
    }

    void ackArrived(final Circuit c, final long now)
    {
        final Packet p = c.packet;
        c.ackNs = now;
        c.releaseDepth = 1;
        releaseDepth(c, now);
        if (c.nack)
        {
            p.retried();
            if (isLocal(p.source()))
            {
                router.startAttempt(p, now);
            }
        }
        else
        {
            p.acked(now);
            final PacketEndpoint ep = endpoints[p.source()];
            if (ep != null)
            {
                ep.onAck(p, now);
            }
        }
    }

    private void release(final Circuit c, final int i, final long now)
    {
        final LinkOutput l = c.links[i];
        if (l.fromNode >= 0 && !isLocal(l.fromNode))
        {
            // a replica's copy of another partition's node link: its owner arbitrates
            l.releaseVc(c.vcs[i]);
        }
        else
        {
            router.releaseVc(l, c.vcs[i], now);
        }
    }

    void releaseDepth(final Circuit c, final long now)
    {
        final int d = c.releaseDepth;
        boolean more = false;
        if (c.unicast)
        {
            // link d - 1 is the one at depth d (Circuit.unicast)
            release(c, d - 1, now);
            more = d < c.count;
        }
        else
        {
            for (int i = 0; i < c.count; i++)
            {
                final int depth = c.depths[i];
                if (depth == d)
                {
                    release(c, i, now);
                }
                else if (depth > d)
                {
                    more = true;
                }
            }
        }
        if (more)
        {
            c.releaseDepth = d + 1;
            c.phase = Circuit.RELEASE;
            final int source = c.packet.source();
            if (isLocal(source))
            {
                final Origin o = nodeOrigins[source];
                if (distributed)
                {
                    remote.shipPhase(RemoteCircuits.RELEASE, c, o.id(), o.peekSeq(), now + hopNs, d + 1);
                }
                o.schedule(now + hopNs, c);
            }
        }
        else if (!c.nack && distributed)
        {
            // the last channels of a delivered packet are free: no event of it is left anywhere
            remote.acked(c.packet);
        }
    }
}
