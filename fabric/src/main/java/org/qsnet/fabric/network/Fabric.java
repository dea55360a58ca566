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
 * {@code nodes + s}; simulated processes use ids from {@link #PROCESS_ORIGIN_BASE}. *
 * <p>This class builds the tree and is the network's public face (attachment, ports, routing
 * tables, statistics); a packet's life runs in two package-private collaborators:
 * {@link HeaderRouter} (injection, the header's hops, virtual channels, waiting and arbitration)
 * and {@link CircuitDelivery} (body, CRC check, delivery, acknowledgement, release).
 * At about 490 lines, most of it is the construction of the tree and the public accessors with
 * their contracts; a packet passes through it only in {@code Port.inject}, a one-line delegation
 * to {@link HeaderRouter}.
 */
public final class Fabric
{
    /** First origin id free for simulated processes and other entities above the fabric. */
    public static final int PROCESS_ORIGIN_BASE = 1 << 24;

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
    private final Port[] ports;

    private final HeaderRouter router;
    private final CircuitDelivery delivery;
    private final RemoteCircuits remote;
    private final Partitioning partitioning;
    private long statsSinceNs;

    /**
     * Builds the tree of {@code config} in {@code kernel}.
     *
     * @param kernel the kernel whose events drive the fabric.
     * @param config the fabric's parameters.
     */
    public Fabric(final Kernel kernel, final FabricConfig config)
    {
        this(kernel, config, null);
    }

    /**
     * Builds the tree of {@code config} in {@code kernel} as one partition of a distributed run:
     * this kernel runs the nodes {@code partitioning} gives it and a replica of the whole network
     * (see {@link Partitioning}); what crosses partitions goes through {@link #remote()}.
     *
     * @param kernel       the kernel of this partition.
     * @param config       the fabric's parameters (the same in every partition).
     * @param partitioning which nodes this partition runs; null for a run in one JVM.
     */
    public Fabric(final Kernel kernel, final FabricConfig config, final Partitioning partitioning)
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
        final long hopNs = wire + sw;

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
        final SplittableRandom[] crcRandom = new SplittableRandom[nodes];
        final SplittableRandom root = new SplittableRandom(config.seed() ^ 0x5DEECE66DL);
        for (int i = 0; i < nodes; i++)
        {
            crcRandom[i] = root.split();
        }
        // a broadcast's acknowledgement has an origin of its own (see RemoteCircuits)
        final Origin[] broadcastAckOrigins = new Origin[nodes];
        for (int i = 0; i < nodes; i++)
        {
            broadcastAckOrigins[i] = kernel.origin(nodes + switches.length + i, "broadcast acks of node " + i);
        }
        this.partitioning = partitioning != null ? partitioning : Partitioning.single(nodes);
        QsnetException.require(this.partitioning.nodeCount() == nodes, "partitioning node count",
            this.partitioning.nodeCount(), "must equal the fabric's " + nodes + " nodes");
        QsnetException.require(!this.partitioning.isDistributed() || wire > 0, "wireDelayNs", wire,
            "must be at least 1 ns in a partitioned run (it is the lookahead)");
        remote = new RemoteCircuits(kernel, this.partitioning, config, topology, nodeOut);
        router = new HeaderRouter(kernel, config, topology, nodeOut, switchOrigins);
        delivery = new CircuitDelivery(this, config, router, endpoints, crcRandom, nodeOrigins, broadcastAckOrigins,
            remote, hopNs);
        router.connect(delivery, remote);
        remote.connect(router, delivery);
        if (this.partitioning.isDistributed())
        {
            kernel.partitioned(remote);
            kernel.traceOnly(remote::ownsOrigin);
        }
        ports = new Port[nodes];
        for (int i = 0; i < nodes; i++)
        {
            ports[i] = new Port(i);
        }
    }

    private LinkOutput link(final String name, final EliteSwitch from, final int fromNode, final EliteSwitch to,
        final int toNode, final boolean up, final long forwardNs, final int vcs)
    {
        final LinkOutput l = new LinkOutput(links.size(), name, from, fromNode, to, toNode, up, forwardNs, vcs,
            from != null ? switchOrigins[from.id] : nodeOrigins[fromNode]);
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
     * @return which nodes this fabric's partition runs (one partition in a run in one JVM).
     */
    public Partitioning partitioning()
    {
        return partitioning;
    }

    /**
     * @return what crosses to the other partitions of a distributed run (unused in one JVM).
     */
    public RemoteCircuits remote()
    {
        return remote;
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
        if (!partitioning.isLocal(node))
        {
            throw new QsnetException("node " + node + " belongs to partition " + partitioning.ownerOf(node)
                + "; this is partition " + partitioning.self() + " of " + partitioning.count());
        }
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
        QsnetException.require(router.packetHops == 0 && statsSinceNs == 0, "thinUpLinks", level,
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
        final long route = router.unicastRoute(destination, level);
        final List<String> tags = new ArrayList<>();
        for (int i = 0; i < 2 * level - 1; i++)
        {
            final int t = HeaderRouter.tag(route, i);
            tags.add(t == HeaderRouter.TAG_UP_ANY ? "up*" : t >= HeaderRouter.TAG_UP0 ? "up" + (t - HeaderRouter.TAG_UP0)
                : "down" + t);
        }
        return tags;
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
        delivery.deliveredPackets = 0;
        delivery.deliveredPayloadBytes = 0;
        delivery.crcErrors = 0;
        router.packetHops = 0;
        router.nodeLinkHops = 0;
    }

    /**
     * @return the time the statistics were last reset.
     */
    public long statsSinceNs()
    {
        return statsSinceNs;
    }

    /**
     * Whether this partition's counters ({@link #deliveredPackets()}, {@link #crcErrors()}, the
     * switches' hops) hold the whole run's, as in one JVM and in a partitioned run of the exact
     * model (every partition replicates the network), or only this partition's share, to be summed
     * over the partitions (a partitioned run with analytic timing: deliveries and CRC errors where
     * the recipient, a broadcast's error where the source, lives; no switch hops).
     *
     * @return true unless the run is partitioned with analytic timing.
     */
    public boolean countsWholeNetwork()
    {
        return !partitioning.isDistributed() || !config.analyticTiming();
    }

    /**
     * @return packets delivered (once per recipient) since the last reset.
     */
    public long deliveredPackets()
    {
        return delivery.deliveredPackets;
    }

    /**
     * @return payload bytes delivered (once per recipient) since the last reset.
     */
    public long deliveredPayloadBytes()
    {
        return delivery.deliveredPayloadBytes;
    }

    /**
     * @return packets rejected for a CRC error and retransmitted since the last reset.
     */
    public long crcErrors()
    {
        return delivery.crcErrors;
    }

    /**
     * @return link hops taken by headers since the last reset: over this partition's node links
     * and over every switch's links (the whole run in one JVM).
     */
    public long packetHops()
    {
        return router.packetHops;
    }

    /**
     * @return of {@link #packetHops()}, the hops over this partition's node links (in a
     * distributed run the whole run's hops are the sum of these plus the switch hops, which every
     * partition counts alike).
     */
    public long nodeLinkHops()
    {
        return router.nodeLinkHops;
    }

    /**
     * Partition 0 of a partitioned run takes a node link's waits from the node's owner (only the
     * owner arbitrates its node's link), from the owner's {@link #nodeLinkWaitNs} and
     * {@link #nodeLinkWaits}, in this JVM or sent from another.
     *
     * @param node   the node.
     * @param waitNs the owner's total header wait for the node's link, ns.
     * @param waits  the owner's count of headers that waited for it.
     */
    public void adoptNodeLinkStats(final int node, final long waitNs, final long waits)
    {
        nodeOut[node].waitNs = waitNs;
        nodeOut[node].waits = waits;
    }

    /**
     * @param node a node.
     * @return the total time headers waited for the node's own link (counted by its owner), ns.
     */
    public long nodeLinkWaitNs(final int node)
    {
        return nodeOut[node].waitNs;
    }

    /**
     * @param node a node.
     * @return how many headers waited for the node's own link (counted by its owner).
     */
    public long nodeLinkWaits(final int node)
    {
        return nodeOut[node].waits;
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
            router.inject(node, packet);
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