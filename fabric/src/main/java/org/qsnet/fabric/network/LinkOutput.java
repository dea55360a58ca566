package org.qsnet.fabric.network;

import org.qsnet.fabric.engine.Origin;

/**
 * One direction of a link, seen from the output port that drives it: its virtual channels, the
 * time its bandwidth is next free, the headers waiting for one of its channels, and its
 * statistics.
 *
 * <p>Bandwidth: the bodies of circuits that share a link direction (one per virtual channel)
 * are serialised packet by packet on it; a body may use any gap left between the others'
 * (each virtual channel holds at most one reserved body interval). The hardware interleaves
 * their flits; the link time used is the same, and a packet's completion differs by at most
 * one packet time.
 */
public final class LinkOutput
{
    final int id;
    final String name;
    /** Driving switch, or null when a node drives it. */
    final EliteSwitch fromSwitch;
    final int fromNode;
    /** Receiving switch, or null when it leads to a node. */
    final EliteSwitch toSwitch;
    final int toNode;
    final boolean up;
    final long forwardDelayNs;
    final int vcCount;
    /** Who schedules the events of a header crossing this link: its sending switch or node. */
    final Origin origin;

    int vcBusyMask;
    int vcBusy;
    /**
     * Per virtual channel {@code vc}: the body interval of the circuit holding it, start at
     * {@code 2 vc}, end at {@code 2 vc + 1}; it counts only while bit {@code vc} of
     * {@link #bodyMask} is set (set when the body is placed, cleared when the channel is released,
     * so that a release does not touch this array, one object less per hop at thousands of nodes).
     */
    final long[] body;
    /** Channels whose {@link #body} interval is reserved (a placed body ends after it starts). */
    int bodyMask;
    /** End of the latest body reserved on this link. */
    long bodyFreeAtNs;
    /** Headers in {@link #waiting}: a release with none waiting reads no other object. */
    int waitingHeads;
    final HeadQueue waiting = new HeadQueue();
    /** Input (link id) this output granted last: round-robin among headers of equal age. */
    int lastInput = -1;

    long bytes;
    long packets;
    long busyNs;
    long waitNs;
    long waits;

    LinkOutput(final int id, final String name, final EliteSwitch fromSwitch, final int fromNode,
        final EliteSwitch toSwitch, final int toNode, final boolean up, final long forwardDelayNs, final int vcCount,
        final Origin origin)
    {
        this.origin = origin;
        this.id = id;
        this.name = name;
        this.fromSwitch = fromSwitch;
        this.fromNode = fromNode;
        this.toSwitch = toSwitch;
        this.toNode = toNode;
        this.up = up;
        this.forwardDelayNs = forwardDelayNs;
        this.vcCount = vcCount;
        this.body = new long[2 * vcCount];
    }

    boolean hasFreeVc()
    {
        return vcBusy < vcCount;
    }

    int takeVc()
    {
        final int vc = Integer.numberOfTrailingZeros(~vcBusyMask);
        vcBusyMask |= 1 << vc;
        vcBusy++;
        return vc;
    }

    /** A replica of the network takes the channel its owner took (a node link's, see RemoteCircuits). */
    void takeVc(final int vc)
    {
        if ((vcBusyMask & 1 << vc) != 0)
        {
            throw new IllegalStateException(name + ": virtual channel " + vc + " is already taken");
        }
        vcBusyMask |= 1 << vc;
        vcBusy++;
    }

    /** Queues a header for one of this link's channels. */
    void enqueue(final Head h)
    {
        waitingHeads++;
        waiting.add(h);
    }

    /** Removes a header that {@link #waiting} granted. */
    void dequeue(final Head h)
    {
        waitingHeads--;
        waiting.remove(h);
    }

    void releaseVc(final int vc)
    {
        bodyMask &= ~(1 << vc);
        vcBusyMask &= ~(1 << vc);
        vcBusy--;
    }

    /**
     * @return a name such as {@code "S1.0:up2"} or {@code "node 5:out"}.
     */
    public String name()
    {
        return name;
    }

    /**
     * @return whether this direction goes towards the top of the tree.
     */
    public boolean isUp()
    {
        return up;
    }

    /**
     * @return virtual channels held by circuits now.
     */
    public int busyVirtualChannels()
    {
        return vcBusy;
    }

    /**
     * @return bytes carried since the statistics were last reset.
     */
    public long bytes()
    {
        return bytes;
    }

    /**
     * @return packets carried since the statistics were last reset.
     */
    public long packets()
    {
        return packets;
    }

    /**
     * @return ns the link carried data since the statistics were last reset.
     */
    public long busyNs()
    {
        return busyNs;
    }

    /**
     * @return total ns headers waited for a virtual channel of this link.
     */
    public long waitNs()
    {
        return waitNs;
    }

    /**
     * @return number of headers that had to wait.
     */
    public long waits()
    {
        return waits;
    }

    void resetStats()
    {
        bytes = 0;
        packets = 0;
        busyNs = 0;
        waitNs = 0;
        waits = 0;
    }

    @Override
    public String toString()
    {
        return name;
    }
}
