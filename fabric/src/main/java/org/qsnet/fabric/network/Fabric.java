package org.qsnet.fabric.network;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.SplittableRandom;

import org.qsnet.fabric.QsnetException;
import org.qsnet.fabric.engine.Kernel;
import org.qsnet.fabric.engine.Origin;

/**
 * The Elite fat tree of one run: switches, links, wormhole circuits, acknowledgements,
 * broadcast and CRC retries, driven by the kernel's events.
 *
 * <p>Life of a packet (exact integer arithmetic, one event per header hop):
 * <pre>
 *  inject ─► header takes a VC of the node link (or waits; a freed output goes to the oldest header)
 *         ─► at each Elite, after wire + 35 ns: read the route tag; ascending: least-loaded up
 *            link of the group with a free VC; descending: the tagged down port. No free VC:
 *            wait there, holding the channels already taken.
 *         ─► header at the destination at tH: the circuit is complete.
 *            The body streams once no link of the path carries another circuit's body:
 *            B = earliest t >= tH that overlaps no other body reserved on those links
 *            (gaps between them may be used); tail = B + (payload + 58 B) x 2.5 ns.
 *         ─► at the tail the inputter checks the CRC: good: deliver (endpoint), bad: NACK.
 *         ─► ack leaves after the endpoint's turnaround, reaches the source after the same
 *            per-hop latencies back; the EOP then releases the channels hop by hop
 *            (link d released at tAck + (d-1) x (wire + switch)). A NACKed packet is injected
 *            again: data is never lost or duplicated.
 * </pre>
 *
 * <p>Origins: node {@code i} schedules as origin {@code i}, switch {@code s} as
 * {@code nodes + s}; simulated processes use ids from {@link #PROCESS_ORIGIN_BASE}.
 */
public final class Fabric
{
    /** First origin id free for simulated processes and other entities above the fabric. */
    public static final int PROCESS_ORIGIN_BASE = 1 << 24;

    static final int TAG_BITS = 5;
    static final int TAG_UP0 = 16;
    static final int TAG_UP_ANY = 31;

    private final Kernel kernel;
    private final FabricConfig config;
    private final Topology topology;
    private final EliteSwitch[] switches;
    private final LinkOutput[] nodeOut;
    private final LinkOutput[] nodeIn;
    private final List<LinkOutput> links = new ArrayList<>();
    private final Origin[] nodeOrigins;
    private final Origin[] switchOrigins;
    private final PacketEndpoint[] endpoints;
    private final SplittableRandom[] crcRandom;
    private final long[] nextSeq;
    private final Port[] ports;
    private final long hopNs;

    private long statsSinceNs;
    private long deliveredPackets;
    private long deliveredPayloadBytes;
    private long crcErrors;
    private long packetHops;

    /**
     * Builds the tree of {@code config} in {@code kernel}.
     *
     * @param kernel the kernel whose events drive the fabric.
     * @param config the fabric's parameters.
     */
    public Fabric(final Kernel kernel, final FabricConfig config)
    {
        this.kernel = kernel;
        this.config = config;
        this.topology = new Topology(config.k(), config.dim());
        final int k = topology.k();
        final int n = topology.dim();
        final int nodes = topology.nodeCount();
        final long wire = config.wireDelayNs();
        final long sw = config.switchDelayNs();
        final int vcs = config.virtualChannels();
        this.hopNs = wire + sw;

        nodeOrigins = new Origin[nodes];
        for (int i = 0; i < nodes; i++)
        {
            nodeOrigins[i] = kernel.origin(i, "node " + i);
        }
        switches = new EliteSwitch[topology.switchCount()];
        switchOrigins = new Origin[switches.length];
        for (int id = 0; id < switches.length; id++)
        {
            final int level = topology.levelOf(id);
            switches[id] = new EliteSwitch(id, level, topology.wordOf(id), k, level == n);
            switchOrigins[id] = kernel.origin(nodes + id, "switch " + switches[id]);
        }
        for (final EliteSwitch s : switches)
        {
            if (s.level < n)
            {
                for (int j = 0; j < k; j++)
                {
                    final EliteSwitch upper = switches[topology.switchId(s.level + 1, topology.withDigit(s.word, s.level - 1, j))];
                    final int downPort = topology.digit(s.word, s.level - 1);
                    s.up[j] = link(s + ":up" + j, s, -1, upper, -1, true, sw + wire, vcs);
                    upper.down[downPort] = link(upper + ":down" + downPort, upper, -1, s, -1, false, sw + wire, vcs);
                }
            }
        }
        nodeOut = new LinkOutput[nodes];
        nodeIn = new LinkOutput[nodes];
        for (int node = 0; node < nodes; node++)
        {
            final EliteSwitch leaf = switches[topology.leafOf(node)];
            final int port = node % k;
            nodeOut[node] = link("node " + node + ":out", null, node, leaf, -1, true, wire, vcs);
            nodeIn[node] = link(leaf + ":down" + port, leaf, -1, null, node, false, sw + wire, vcs);
            leaf.down[port] = nodeIn[node];
        }
        endpoints = new PacketEndpoint[nodes];
        crcRandom = new SplittableRandom[nodes];
        final SplittableRandom root = new SplittableRandom(config.seed() ^ 0x5DEECE66DL);
        for (int i = 0; i < nodes; i++)
        {
            crcRandom[i] = root.split();
        }
        nextSeq = new long[nodes];
        ports = new Port[nodes];
        for (int i = 0; i < nodes; i++)
        {
            ports[i] = new Port(i);
        }
    }

    private LinkOutput link(final String name, final EliteSwitch from, final int fromNode, final EliteSwitch to,
        final int toNode, final boolean up, final long forwardNs, final int vcs)
    {
        final LinkOutput l = new LinkOutput(links.size(), name, from, fromNode, to, toNode, up, forwardNs, vcs);
        links.add(l);
        return l;
    }

    /**
     * @return the kernel driving this fabric.
     */
    public Kernel kernel()
    {
        return kernel;
    }

    /**
     * @return the fabric's parameters.
     */
    public FabricConfig config()
    {
        return config;
    }

    /**
     * @return the tree's shape and numbering.
     */
    public Topology topology()
    {
        return topology;
    }

    /**
     * @param id switch id.
     * @return the switch.
     */
    public EliteSwitch switchAt(final int id)
    {
        return switches[id];
    }

    /**
     * @return every link direction.
     */
    public List<LinkOutput> links()
    {
        return Collections.unmodifiableList(links);
    }

    /**
     * @param node a node.
     * @return the link direction from the node to its leaf switch.
     */
    public LinkOutput nodeLink(final int node)
    {
        return nodeOut[node];
    }

    /**
     * @param node a node.
     * @return the link direction from the leaf switch to the node.
     */
    public LinkOutput nodeInLink(final int node)
    {
        return nodeIn[node];
    }

    /**
     * @param node a node.
     * @return the origin under which the node's NIC schedules its events.
     */
    public Origin nodeOrigin(final int node)
    {
        topology.checkNode("node", node);
        return nodeOrigins[node];
    }

    /**
     * Attaches the NIC model (or an injector) of a node.
     *
     * @param node     the node.
     * @param endpoint what receives its packets and acknowledgements.
     * @return the node's port, through which it injects.
     */
    public FabricPort attach(final int node, final PacketEndpoint endpoint)
    {
        topology.checkNode("node", node);
        if (endpoints[node] != null)
        {
            throw new QsnetException("node " + node + " already has an endpoint attached");
        }
        endpoints[node] = endpoint;
        return ports[node];
    }

    /**
     * @param node a node.
     * @return its port.
     */
    public FabricPort port(final int node)
    {
        topology.checkNode("node", node);
        return ports[node];
    }

    /**
     * Thins the links between {@code level - 1} and {@code level}: every switch of level
     * {@code level - 1} keeps only its first {@code keep} up links in service (adaptive ascent
     * chooses among them; a deterministic route whose digit names a removed port takes port
     * {@code digit mod keep}). Call before any packet is injected.
     *
     * @param level the upper level of the thinned links, 2..n.
     * @param keep  up links kept per switch, 1..k.
     */
    public void thinUpLinks(final int level, final int keep)
    {
        QsnetException.require(level >= 2 && level <= topology.dim(), "level", level, "must be in 2.." + topology.dim());
        QsnetException.require(keep >= 1 && keep <= topology.k(), "keep", keep, "must be in 1.." + topology.k());
        QsnetException.require(packetHops == 0 && statsSinceNs == 0, "thinUpLinks", level,
            "must be called before any packet is injected");
        for (final EliteSwitch s : switches)
        {
            if (s.level == level - 1)
            {
                s.upKeep = keep;
                s.nextUp = 0;
            }
        }
    }

    /**
     * The route tags the node's routing table holds for a destination: ascend {@code L-1} hops
     * (adaptive group, or the destination's digit when ascent is deterministic), then descend by
     * the destination's digits. {@code L} is the level of the nearest common ancestors.
     *
     * @param source      the source node.
     * @param destination the destination node.
     * @return the tags, first hop first: {@code "up*"} for the adaptive group, {@code "upJ"},
     * {@code "downJ"}.
     */
    public List<String> routeTags(final int source, final int destination)
    {
        topology.checkNode("source", source);
        topology.checkNode("destination", destination);
        final int level = topology.ncaLevel(source, destination);
        final long route = unicastRoute(destination, level);
        final List<String> tags = new ArrayList<>();
        for (int i = 0; i < 2 * level - 1; i++)
        {
            final int t = tag(route, i);
            tags.add(t == TAG_UP_ANY ? "up*" : t >= TAG_UP0 ? "up" + (t - TAG_UP0) : "down" + t);
        }
        return tags;
    }

    private long unicastRoute(final int destination, final int level)
    {
        long route = 0;
        int i = 0;
        for (int l = 1; l < level; l++)
        {
            final int up = config.adaptiveAscent() ? TAG_UP_ANY : TAG_UP0 + topology.digit(destination, l - 1);
            route |= (long)up << (TAG_BITS * i++);
        }
        for (int l = level; l >= 1; l--)
        {
            route |= (long)topology.digit(destination, l - 1) << (TAG_BITS * i++);
        }
        return route;
    }

    private static int tag(final long route, final int index)
    {
        return (int)(route >>> (TAG_BITS * index)) & 31;
    }

    /**
     * Latency of a header (or an acknowledgement) over {@code links} links without waiting.
     *
     * @param linkCount links crossed.
     * @return {@code links x wire + (links - 1) x switch}.
     */
    public long pathLatencyNs(final int linkCount)
    {
        return linkCount * config.wireDelayNs() + (linkCount - 1) * config.switchDelayNs();
    }

    // ---------------------------------------------------------------- packet life

    void inject(final int node, final Packet p)
    {
        final long now = kernel.nowNs();
        // checks on the packet path build their message only when they fail
        if (p.source() != node)
        {
            throw new QsnetException("packet source " + p.source() + " must be the injecting node " + node);
        }
        if (p.payloadBytes() > config.maxPayloadBytes())
        {
            throw new QsnetException("payloadBytes " + p.payloadBytes() + " must be at most " + config.maxPayloadBytes()
                + " per packet");
        }
        if (p.circuit != null || p.injectNs() >= 0)
        {
            throw new QsnetException("packet " + p + " was already injected at " + p.injectNs() + " ns");
        }
        final int level;
        if (p.isBroadcast())
        {
            topology.checkNode("broadcast first", p.broadcastFirst());
            topology.checkNode("broadcast last", p.broadcastLast());
            level = Math.max(topology.ncaLevel(node, p.broadcastFirst()), topology.ncaLevel(node, p.broadcastLast()));
            long route = 0;
            for (int i = 0; i < level - 1; i++)
            {
                route |= (long)(config.adaptiveAscent() ? TAG_UP_ANY : TAG_UP0 + topology.digit(node, i)) << (TAG_BITS * i);
            }
            p.route = route;
            p.tagCount = level - 1;
        }
        else
        {
            topology.checkNode("destination", p.destination());
            level = topology.ncaLevel(node, p.destination());
            p.route = unicastRoute(p.destination(), level);
            p.tagCount = 2 * level - 1;
        }
        p.wireBytes = p.payloadBytes() + config.packetOverheadBytes();
        p.injected(now, ((long)node << 40) | nextSeq[node]++);
        startAttempt(p, now);
    }

    private void startAttempt(final Packet p, final long now)
    {
        final Circuit c = new Circuit(this, p, Math.max(6, p.tagCount + 1));
        p.circuit = c;
        if (p.isBroadcast())
        {
            c.leavesPending = p.broadcastLast() - p.broadcastFirst() + 1;
        }
        final Head h = new Head(this, p, c);
        h.ageSinceNs = now;
        request(h, nodeOut[p.source()], now);
    }

    private void request(final Head h, final LinkOutput out, final long now)
    {
        if (out.hasFreeVc())
        {
            acquireAndForward(h, out, now);
        }
        else
        {
            h.waitSinceNs = now;
            out.waiting.add(h);
            if (out.fromSwitch != null)
            {
                out.fromSwitch.headerWaits(now);
            }
        }
    }

    private void acquireAndForward(final Head h, final LinkOutput out, final long now)
    {
        final int vc = out.takeVc();
        h.depth++;
        h.circuit.add(out, vc, h.depth);
        h.via = out;
        packetHops++;
        origin(out).schedule(now + out.forwardDelayNs, h);
    }

    private Origin origin(final LinkOutput out)
    {
        return out.fromSwitch != null ? switchOrigins[out.fromSwitch.id] : nodeOrigins[out.fromNode];
    }

    void headArrived(final Head h, final long now)
    {
        final LinkOutput via = h.via;
        final EliteSwitch s = via.toSwitch;
        if (s == null)
        {
            if (h.packet.isBroadcast())
            {
                leafReached(h.circuit, now);
            }
            else
            {
                circuitComplete(h.circuit, now, now);
            }
            return;
        }
        s.headers++;
        final Packet p = h.packet;
        if (h.tagIndex < p.tagCount)
        {
            final int tag = tag(p.route, h.tagIndex++);
            if (tag == TAG_UP_ANY)
            {
                ascendAdaptive(h, s, now);
            }
            else if (tag >= TAG_UP0)
            {
                // a thinned level: the destination digit's port may be out of service
                final int j = tag - TAG_UP0;
                request(h, s.up[j < s.upKeep ? j : j % s.upKeep], now);
            }
            else
            {
                request(h, s.down[tag], now);
            }
        }
        else
        {
            startBroadcastDescent(h, s, now);
        }
    }

    private void ascendAdaptive(final Head h, final EliteSwitch s, final long now)
    {
        final LinkOutput[] up = s.up;
        final int k = s.upKeep;
        LinkOutput best = null;
        int bestPort = 0;
        for (int i = 0; i < k; i++)
        {
            final int j = (s.nextUp + i) % k;
            final LinkOutput o = up[j];
            if (o.hasFreeVc() && (best == null || o.vcBusy < best.vcBusy
                || (o.vcBusy == best.vcBusy && o.bodyFreeAtNs < best.bodyFreeAtNs)))
            {
                best = o;
                bestPort = j;
            }
        }
        if (best != null)
        {
            s.nextUp = (bestPort + 1) % k;
            acquireAndForward(h, best, now);
        }
        else
        {
            h.waitSinceNs = now;
            s.upGroup.add(h);
            s.headerWaits(now);
        }
    }

    private void startBroadcastDescent(final Head h, final EliteSwitch s, final long now)
    {
        final int span = topology.pow(s.level - 1);
        final int first = topology.subtreeFirstNode(s.id);
        final int lo = h.packet.broadcastFirst();
        final int hi = h.packet.broadcastLast();
        int count = 0;
        final int[] needed = new int[s.down.length];
        for (int d = 0; d < s.down.length; d++)
        {
            final int a = first + d * span;
            final int b = a + span - 1;
            if (a <= hi && b >= lo)
            {
                needed[count++] = d;
            }
        }
        h.ports = java.util.Arrays.copyOf(needed, count);
        h.portIndex = 0;
        h.acquired = new LinkOutput[count];
        continueBroadcast(h, s, now);
    }

    private void continueBroadcast(final Head h, final EliteSwitch s, final long now)
    {
        // channels are taken in port order, holding those already taken, as a unicast header does
        while (h.portIndex < h.ports.length)
        {
            final LinkOutput out = s.down[h.ports[h.portIndex]];
            if (!out.hasFreeVc())
            {
                h.waitSinceNs = now;
                out.waiting.add(h);
                s.headerWaits(now);
                return;
            }
            final int vc = out.takeVc();
            h.circuit.add(out, vc, h.depth + 1);
            h.acquired[h.portIndex++] = out;
        }
        for (final LinkOutput out : h.acquired)
        {
            final Head child = new Head(this, h.packet, h.circuit);
            child.depth = h.depth + 1;
            child.via = out;
            child.tagIndex = h.tagIndex;
            child.ageSinceNs = h.ageSinceNs;
            packetHops++;
            switchOrigins[s.id].schedule(now + out.forwardDelayNs, child);
        }
    }

    private void leafReached(final Circuit c, final long now)
    {
        c.lastHeadNs = Math.max(c.lastHeadNs, now);
        if (--c.leavesPending == 0)
        {
            circuitComplete(c, now, c.lastHeadNs);
        }
    }

    private void circuitComplete(final Circuit c, final long now, final long headNs)
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
            l.bodyStartNs[vc] = start;
            l.bodyEndNs[vc] = linkFreeNs;
            l.bodyFreeAtNs = Math.max(l.bodyFreeAtNs, linkFreeNs);
            l.busyNs += bodyNs;
            l.bytes += p.wireBytes;
            l.packets++;
        }
        p.times(headNs, tail);
        final int node = p.isBroadcast() ? p.source() : p.destination();
        c.phase = Circuit.TAIL;
        nodeOrigins[node].schedule(tail, c);
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
            for (int vc = 0; vc < l.vcCount; vc++)
            {
                final long end = l.bodyEndNs[vc];
                if (vc != c.vcs[i] && end > headNs && end < best && fits(c, end, bodyNs))
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
            for (int vc = 0; vc < l.vcCount; vc++)
            {
                if (vc != c.vcs[i] && l.bodyEndNs[vc] > l.bodyStartNs[vc] && start < l.bodyEndNs[vc]
                    && end > l.bodyStartNs[vc])
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
        final int first = p.isBroadcast() ? p.broadcastFirst() : p.destination();
        final int last = p.isBroadcast() ? p.broadcastLast() : p.destination();
        final double rate = config.crcErrorRate();
        if (rate > 0)
        {
            // every recipient checks the CRC before any of them commits the data: a broadcast is
            // delivered only if all acknowledge positively
            for (int node = first; node <= last; node++)
            {
                if (crcRandom[node].nextDouble() < rate)
                {
                    c.nack = true;
                }
            }
        }
        long turnaround = config.ackTurnaroundNs();
        if (c.nack)
        {
            crcErrors++;
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
                }
                deliveredPackets++;
                deliveredPayloadBytes += p.payloadBytes();
            }
            p.setAckValue(combined);
        }
        int depth = 0;
        for (int i = 0; i < c.count; i++)
        {
            depth = Math.max(depth, c.depths[i]);
        }
        final long ackAt = now + turnaround + pathLatencyNs(depth);
        c.phase = Circuit.ACK;
        nodeOrigins[first].schedule(ackAt, c);
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
            startAttempt(p, now);
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

    void releaseDepth(final Circuit c, final long now)
    {
        final int d = c.releaseDepth;
        boolean more = false;
        for (int i = 0; i < c.count; i++)
        {
            final int depth = c.depths[i];
            if (depth == d)
            {
                releaseVc(c.links[i], c.vcs[i], now);
            }
            else if (depth > d)
            {
                more = true;
            }
        }
        if (more)
        {
            c.releaseDepth = d + 1;
            c.phase = Circuit.RELEASE;
            nodeOrigins[c.packet.source()].schedule(now + hopNs, c);
        }
    }

    private void releaseVc(final LinkOutput out, final int vc, final long now)
    {
        out.releaseVc(vc);
        final long aging = config.agingNs();
        Head next = out.waiting.peek(now, aging, out.lastInput);
        final EliteSwitch from = out.fromSwitch;
        boolean fromGroup = false;
        if (out.up && from != null && !from.upGroup.isEmpty())
        {
            final Head g = from.upGroup.peek(now, aging, out.lastInput);
            final Head chosen = HeadQueue.better(next, g, now, aging, out.lastInput);
            fromGroup = chosen == g;
            next = chosen;
        }
        if (next == null)
        {
            return;
        }
        if (fromGroup)
        {
            from.upGroup.remove(next);
        }
        else
        {
            out.waiting.remove(next);
        }
        out.lastInput = next.input();
        final long waited = now - next.waitSinceNs;
        out.waitNs += waited;
        out.waits++;
        if (from != null)
        {
            from.headerGranted(now, waited, out.up);
        }
        if (next.ports != null)
        {
            continueBroadcast(next, from, now);
        }
        else
        {
            acquireAndForward(next, out, now);
        }
    }

    // ---------------------------------------------------------------- statistics

    /**
     * Zeroes every link and switch counter; the statistics then cover {@code [now, ...)}.
     */
    public void resetStats()
    {
        final long now = kernel.nowNs();
        statsSinceNs = now;
        for (final LinkOutput l : links)
        {
            l.resetStats();
        }
        for (final EliteSwitch s : switches)
        {
            s.resetStats(now);
        }
        deliveredPackets = 0;
        deliveredPayloadBytes = 0;
        crcErrors = 0;
        packetHops = 0;
    }

    /**
     * @return the time the statistics were last reset.
     */
    public long statsSinceNs()
    {
        return statsSinceNs;
    }

    /**
     * @return packets delivered (once per recipient) since the last reset.
     */
    public long deliveredPackets()
    {
        return deliveredPackets;
    }

    /**
     * @return payload bytes delivered (once per recipient) since the last reset.
     */
    public long deliveredPayloadBytes()
    {
        return deliveredPayloadBytes;
    }

    /**
     * @return packets rejected for a CRC error and retransmitted since the last reset.
     */
    public long crcErrors()
    {
        return crcErrors;
    }

    /**
     * @return link hops taken by headers since the last reset.
     */
    public long packetHops()
    {
        return packetHops;
    }

    // ---------------------------------------------------------------- ports

    private final class Port implements FabricPort
    {
        private final int node;

        Port(final int node)
        {
            this.node = node;
        }

        @Override
        public int node()
        {
            return node;
        }

        @Override
        public void inject(final Packet packet)
        {
            Fabric.this.inject(node, packet);
        }

        @Override
        public int freeVirtualChannels()
        {
            final LinkOutput l = nodeOut[node];
            return l.vcCount - l.vcBusy;
        }

        @Override
        public int waitingHeaders()
        {
            return nodeOut[node].waiting.size();
        }
    }
}
