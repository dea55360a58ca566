package org.qsnet.fabric.network;

import org.qsnet.fabric.QsnetException;
import org.qsnet.fabric.engine.Kernel;
import org.qsnet.fabric.engine.Origin;

/**
 * The header's way through the tree: the route tags a packet is given at injection, the header's
 * hop from Elite to Elite (adaptive ascent to the least-loaded up link, descent by the tags, the
 * broadcast's fork at the top), the virtual channels it takes and holds, its wait when none is
 * free, and the arbitration that hands a freed channel to the oldest waiting header. Once the
 * header reaches its destination (every leaf, for a broadcast) the circuit passes to
 * {@link CircuitDelivery}; when the EOP frees a channel, it comes back here ({@link #releaseVc}).
 */
final class HeaderRouter
{
    static final int TAG_BITS = 5;
    static final int TAG_UP0 = 16;
    static final int TAG_UP_ANY = 31;

    private final Kernel kernel;
    private final FabricConfig config;
    private final Topology topology;
    private final LinkOutput[] nodeOut;
    private final Origin[] switchOrigins;
    private final long[] nextSeq;
    /** Set once, right after construction (the two halves of a circuit's life call each other). */
    private CircuitDelivery delivery;
    private RemoteCircuits remote;
    /** Whether the run has several partitions, read on every hop. */
    private boolean distributed;
    long packetHops;
    /** Of {@link #packetHops}, those over this partition's node links. */
    long nodeLinkHops;

    HeaderRouter(final Kernel kernel, final FabricConfig config, final Topology topology, final LinkOutput[] nodeOut,
        final Origin[] switchOrigins)
    {
        this.kernel = kernel;
        this.config = config;
        this.topology = topology;
        this.nodeOut = nodeOut;
        this.switchOrigins = switchOrigins;
        this.nextSeq = new long[nodeOut.length];
    }

    void connect(final CircuitDelivery circuitDelivery, final RemoteCircuits remoteCircuits)
    {
        this.delivery = circuitDelivery;
        this.remote = remoteCircuits;
        this.distributed = remoteCircuits.distributed();
    }

    long unicastRoute(final int destination, final int level)
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

    static int tag(final long route, final int index)
    {
        return (int)(route >>> (TAG_BITS * index)) & 31;
    }

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
        route(node, p);
        p.injected(now, ((long)node << 40) | nextSeq[node]++);
        // analytic timing: a unicast to a node of this partition never meets another partition
        if (distributed && !(config.analyticTiming() && !p.isBroadcast() && remote.isLocal(p.destination())))
        {
            remote.injected(p);
        }
        startAttempt(p, now);
    }

    /** Gives a packet injected at {@code node} its route tags and wire size. */
    void route(final int node, final Packet p)
    {
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
            // analytic timing takes no hop: the route's length is all it reads
            p.route = config.analyticTiming() ? 0 : unicastRoute(p.destination(), level);
            p.tagCount = 2 * level - 1;
        }
        p.wireBytes = p.payloadBytes() + config.packetOverheadBytes();
    }

    void startAttempt(final Packet p, final long now)
    {
        final Circuit c = newCircuit(p);
        final Head h = new Head(this, p, c);
        h.ageSinceNs = now;
        request(h, nodeOut[p.source()], now);
    }

    /** A new attempt's circuit, now the packet's. */
    Circuit newCircuit(final Packet p)
    {
        // analytic timing holds the source's link only
        return newCircuit(p, config.analyticTiming() ? 1 : Math.max(6, p.tagCount + 1));
    }

    /** A new attempt's circuit, now the packet's, room for {@code links} links (0: none, shared empty arrays). */
    Circuit newCircuit(final Packet p, final int links)
    {
        final Circuit c = new Circuit(delivery, p, links);
        c.attempt = p.retries();
        p.previousCircuit = p.circuit;
        p.circuit = c;
        if (p.isBroadcast())
        {
            c.leavesPending = p.broadcastLast() - p.broadcastFirst() + 1;
        }
        return c;
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
            out.enqueue(h);
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
        final Origin o = out.origin;
        if (out.fromNode >= 0)
        {
            nodeLinkHops++;
            if (config.analyticTiming())
            {
                delivery.analytic(h.circuit, out, now);
                return;
            }
        }
        if (out.fromNode >= 0 && distributed)
        {
            // the header leaves its node: the other partitions' replicas must see it reach the leaf
            remote.shipHead(h, o.id(), o.peekSeq(), now + out.forwardDelayNs);
        }
        o.schedule(now + out.forwardDelayNs, h);
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
                delivery.circuitComplete(h.circuit, now, now);
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
            else
            {
                request(h, output(s, tag), now);
            }
        }
        else
        {
            startBroadcastDescent(h, s, now);
        }
    }

    /** The output a fixed route tag names at {@code s}: a down port, or an up port of a deterministic ascent. */
    static LinkOutput output(final EliteSwitch s, final int tag)
    {
        if (tag >= TAG_UP0)
        {
            // a thinned level: the destination digit's port may be out of service
            final int j = tag - TAG_UP0;
            return s.up[j < s.upKeep ? j : j % s.upKeep];
        }
        return s.down[tag];
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
            s.enqueueUp(h);
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
                out.enqueue(h);
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
            delivery.circuitComplete(c, now, c.lastHeadNs);
        }
    }

    void releaseVc(final LinkOutput out, final int vc, final long now)
    {
        out.releaseVc(vc);
        final long aging = config.agingNs();
        Head next = out.waitingHeads == 0 ? null : out.waiting.peek(now, aging, out.lastInput);
        final EliteSwitch from = out.fromSwitch;
        boolean fromGroup = false;
        if (out.up && from != null && from.upGroupHeads > 0)
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
            from.dequeueUp(next);
        }
        else
        {
            out.dequeue(next);
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
}
