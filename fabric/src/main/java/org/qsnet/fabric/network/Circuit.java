package org.qsnet.fabric.network;

import java.util.Arrays;

import org.qsnet.fabric.engine.EventHandler;

/**
 * The virtual channels one attempt of a packet holds, from the header's first hop until the
 * EOP releases them behind the acknowledgement. As an event handler it is, by {@link #phase},
 * the tail reaching the inputter, the acknowledgement reaching the source, or the EOP passing
 * the output ports of depth {@link #releaseDepth}: one attempt has at most one of them pending
 * at a time, so one object serves all three without an allocation per event.
 */
final class Circuit implements EventHandler
{
    final CircuitDelivery delivery;
    final Packet packet;
    /**
     * Not a broadcast: the circuit holds one link per depth, link {@code i} at depth {@code i + 1}
     * (a header adds one link per hop), so a release finds its link without a search.
     */
    final boolean unicast;
    LinkOutput[] links;
    int[] vcs;
    /** A broadcast's links' depths; empty for a unicast, whose link {@code i} is at depth {@code i + 1}. */
    int[] depths;
    int count;
    int releaseDepth;
    /** Which attempt of the packet this is: its retries when the attempt started. */
    int attempt;
    /** Analytic timing: the links of the packet's path (its latency there and back); 0 otherwise. */
    int pathLinks;
    int releaseIndex;
    long ackNs;
    // broadcast
    int leavesPending;
    long lastHeadNs;
    boolean nack;
    /** What the pending event of this attempt is: {@link #TAIL}, {@link #ACK} or {@link #RELEASE}. */
    int phase;

    static final int TAIL = 0;
    static final int ACK = 1;
    static final int RELEASE = 2;

    Circuit(final CircuitDelivery delivery, final Packet packet, final int capacity)
    {
        this.delivery = delivery;
        this.packet = packet;
        this.unicast = !packet.isBroadcast();
        // sized for the packet's path so that a unicast circuit never grows
        this.links = capacity == 0 ? NO_LINKS : new LinkOutput[capacity];
        this.vcs = capacity == 0 ? NO_INTS : new int[capacity];
        // a unicast's link i is at depth i + 1: only a broadcast keeps its links' depths
        this.depths = capacity == 0 || unicast ? NO_INTS : new int[capacity];
    }

    /** A circuit that holds no link (an analytic tail in its destination's partition) shares these. */
    private static final LinkOutput[] NO_LINKS = new LinkOutput[0];
    private static final int[] NO_INTS = new int[0];

    void add(final LinkOutput link, final int vc, final int depth)
    {
        if (count == links.length)
        {
            links = Arrays.copyOf(links, Math.max(1, count * 2));
            vcs = Arrays.copyOf(vcs, Math.max(1, count * 2));
            if (!unicast)
            {
                depths = Arrays.copyOf(depths, Math.max(1, count * 2));
            }
        }
        links[count] = link;
        vcs[count] = vc;
        if (unicast)
        {
            assert depth == count + 1 : "a unicast's link " + count + " at depth " + depth;
        }
        else
        {
            depths[count] = depth;
        }
        count++;
    }

    /**
     * For a pending release, what {@link CircuitDelivery#releaseDepth} reads: the links it
     * releases now, their body intervals and switches, and the origin that grants a header
     * waiting there. For a tail or an acknowledgement, the packet.
     */
    @Override
    public int touch()
    {
        if (phase != RELEASE)
        {
            return packet.tagCount;
        }
        final int d = releaseDepth;
        if (unicast)
        {
            return d <= count ? touchReleased(links[d - 1]) : 0;
        }
        int sum = 0;
        for (int i = 0; i < count; i++)
        {
            if (depths[i] == d)
            {
                sum += touchReleased(links[i]);
            }
        }
        return sum;
    }

    /** What the release of a channel of {@code l} reads (a release no longer touches its bodies). */
    private static int touchReleased(final LinkOutput l)
    {
        int sum = l.vcBusyMask + l.waitingHeads;
        final EliteSwitch from = l.fromSwitch;
        if (from != null)
        {
            sum += from.upGroupHeads;
        }
        if (l.waitingHeads > 0)
        {
            sum += (int)l.origin.peekSeq();
        }
        return sum;
    }

    @Override
    public void onEvent(final long timeNs)
    {
        switch (phase)
        {
            case TAIL -> delivery.deliver(this, timeNs);
            case ACK -> delivery.ackArrived(this, timeNs);
            default -> delivery.releaseDepth(this, timeNs);
        }
    }
}
