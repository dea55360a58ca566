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
    /** Its id, or -1 (read without fetching the switch). */
    final int fromSwitchId;
    final int fromNode;
    /** Receiving switch, or null when it leads to a node. */
    final EliteSwitch toSwitch;
    final int toNode;
    final boolean up;
    final long forwardDelayNs;
    final int vcCount;
    /** Who schedules the events of a header crossing this link: its sending switch or node. */
    final Origin origin;

    /**
     * Every link's hot state in one flat array of the fabric, {@link #STATE_INTS} ints per link at
     * {@code STATE_INTS * si}: {@link #MASK} the channels taken, {@link #BODIES} the channels
     * whose {@link #body} interval is reserved, {@link #WAITING} the headers in {@link #waiting},
     * {@link #UP_GROUP} the id of the switch whose up group may also take this link's channels (or
     * -1), {@link #BUSY} the channels taken. A release with nobody waiting and an adaptive ascent's
     * comparison of a switch's up links read this array, not the links' objects (at thousands of
     * nodes those are cache misses); a switch's up links have consecutive slots.
     */
    final int[] state;
    static final int STATE_INTS = 8;
    static final int MASK = 0;
    static final int BODIES = 1;
    static final int WAITING = 2;
    static final int UP_GROUP = 3;
    static final int BUSY = 4;
    /** This link's slot in {@link #state} and in the latest-body-end array (not its id: see Fabric). */
    int si = -1;
    /** The links' latest body ends by slot (the fabric's). */
    private final long[] freeBySi;
    /**
     * Per virtual channel {@code vc}: the body interval of the circuit holding it, start at
     * {@code 2 vc}, end at {@code 2 vc + 1}; it counts only while bit {@code vc} of
     * {@link #state}'s {@link #BODIES} mask is set (set when the body is placed, cleared when the channel is
     * released, so that a release does not touch this array) and start &lt; end.
     */
    final long[] body;
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
        final Origin origin, final int[] state, final long[] freeBySi)
    {
        this.state = state;
        this.freeBySi = freeBySi;
        this.origin = origin;
        this.id = id;
        this.name = name;
        this.fromSwitch = fromSwitch;
        this.fromSwitchId = fromSwitch == null ? -1 : fromSwitch.id;
        this.fromNode = fromNode;
        this.toSwitch = toSwitch;
        this.toNode = toNode;
        this.up = up;
        this.forwardDelayNs = forwardDelayNs;
        this.vcCount = vcCount;
        this.body = new long[2 * vcCount];
    }

    /** Gives this link its slot in the flat arrays. */
    void slot(final int slot)
    {
        si = slot;
        state[STATE_INTS * si + UP_GROUP] = up && fromSwitch != null ? fromSwitch.id : -1;
    }

    /** @return the channels whose body interval is reserved. */
    int bodyMask()
    {
        return state[STATE_INTS * si + BODIES];
    }

    /** Marks channel {@code vc}'s body interval reserved. */
    void bodyPlaced(final int vc)
    {
        state[STATE_INTS * si + BODIES] |= 1 << vc;
    }

    /** @return the headers waiting in {@link #waiting}. */
    int waitingHeads()
    {
        return state[STATE_INTS * si + WAITING];
    }

    boolean hasFreeVc()
    {
        return state[STATE_INTS * si + BUSY] < vcCount;
    }

    /** @return the channels taken. */
    int busy()
    {
        return state[STATE_INTS * si + BUSY];
    }

    /** @return the end of the latest body reserved on this link. */
    long bodyFreeAtNs()
    {
        return freeBySi[si];
    }

    void bodyFreeAtNs(final long ns)
    {
        freeBySi[si] = ns;
    }

    int takeVc()
    {
        final int x = STATE_INTS * si + MASK;
        final int vc = Integer.numberOfTrailingZeros(~state[x]);
        state[x] |= 1 << vc;
        state[STATE_INTS * si + BUSY]++;
        return vc;
    }

    /** A replica of the network takes the channel its owner took (a node link's, see RemoteCircuits). */
    void takeVc(final int vc)
    {
        final int x = STATE_INTS * si + MASK;
        if ((state[x] & 1 << vc) != 0)
        {
            throw new IllegalStateException(name + ": virtual channel " + vc + " is already taken");
        }
        state[x] |= 1 << vc;
        state[STATE_INTS * si + BUSY]++;
    }

    /** Queues a header for one of this link's channels. */
    void enqueue(final Head h)
    {
        state[STATE_INTS * si + WAITING]++;
        waiting.add(h);
    }

    /** Removes a header that {@link #waiting} granted. */
    void dequeue(final Head h)
    {
        state[STATE_INTS * si + WAITING]--;
        waiting.remove(h);
    }

    void releaseVc(final int vc)
    {
        final int x = STATE_INTS * si;
        state[x + BODIES] &= ~(1 << vc);
        state[x + MASK] &= ~(1 << vc);
        state[STATE_INTS * si + BUSY]--;
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
        return state[STATE_INTS * si + BUSY];
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
