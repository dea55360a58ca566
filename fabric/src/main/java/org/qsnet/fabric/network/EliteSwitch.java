package org.qsnet.fabric.network;

/**
 * An Elite switch: k down ports and k up ports (none at the top level), a 16x8 crossbar with
 * one input per virtual channel, 35 ns flow-through. Headers waiting for any up link of the
 * adaptive group wait in one group queue; headers for a specific output wait at that output.
 */
public final class EliteSwitch
{
    final int id;
    final int level;
    final int word;
    final LinkOutput[] down;
    final LinkOutput[] up;
    final HeadQueue upGroup = new HeadQueue();
    /** Headers in {@link #upGroup}: an up link's release with none waiting reads no other object. */
    int upGroupHeads;
    int nextUp;
    /** Up ports in service: 0 .. upKeep-1 (fewer than k when the level above is thinned). */
    int upKeep;

    int waitingHeads;
    long waitingSinceNs;
    long occupiedNs;
    long upWaitNs;
    long downWaitNs;
    long headers;

    EliteSwitch(final int id, final int level, final int word, final int k, final boolean top)
    {
        this.id = id;
        this.level = level;
        this.word = word;
        this.down = new LinkOutput[k];
        this.up = top ? new LinkOutput[0] : new LinkOutput[k];
        this.upKeep = up.length;
    }

    /**
     * @return up ports in service (the first ones); fewer than {@link #upCount()} when the links to
     * the level above were thinned.
     */
    public int upInService()
    {
        return upKeep;
    }

    /**
     * @return the switch id: {@code (level - 1) * k^(n-1) + word}.
     */
    public int id()
    {
        return id;
    }

    /**
     * @return the level, 1 (leaves) .. n (top).
     */
    public int level()
    {
        return level;
    }

    /**
     * @return the switch's word in the k-ary n-tree numbering.
     */
    public int word()
    {
        return word;
    }

    /**
     * @param port 0..k-1.
     * @return the down link of that port.
     */
    public LinkOutput down(final int port)
    {
        return down[port];
    }

    /**
     * @param port 0..k-1.
     * @return the up link of that port (none at the top level).
     */
    public LinkOutput up(final int port)
    {
        return up[port];
    }

    /**
     * @return number of up ports (0 at the top level).
     */
    public int upCount()
    {
        return up.length;
    }

    /**
     * @return total ns headers waited for the up links.
     */
    public long upWaitNs()
    {
        return upWaitNs;
    }

    /**
     * @return total ns headers waited for the down links.
     */
    public long downWaitNs()
    {
        return downWaitNs;
    }

    /**
     * @return ns during which at least one header waited inside this switch.
     */
    public long occupiedNs()
    {
        return occupiedNs;
    }

    /**
     * @return headers routed through this switch.
     */
    public long headers()
    {
        return headers;
    }

    /** Queues a header for any of this switch's up links (adaptive ascent found none free). */
    void enqueueUp(final Head h)
    {
        upGroupHeads++;
        upGroup.add(h);
    }

    /** Removes a header that {@link #upGroup} granted. */
    void dequeueUp(final Head h)
    {
        upGroupHeads--;
        upGroup.remove(h);
    }

    void headerWaits(final long nowNs)
    {
        if (waitingHeads++ == 0)
        {
            waitingSinceNs = nowNs;
        }
    }

    void headerGranted(final long nowNs, final long waitedNs, final boolean upLink)
    {
        if (--waitingHeads == 0)
        {
            occupiedNs += nowNs - waitingSinceNs;
        }
        if (upLink)
        {
            upWaitNs += waitedNs;
        }
        else
        {
            downWaitNs += waitedNs;
        }
    }

    void resetStats(final long nowNs)
    {
        occupiedNs = 0;
        waitingSinceNs = nowNs;
        upWaitNs = 0;
        downWaitNs = 0;
        headers = 0;
    }

    /**
     * Occupancy including a wait still in progress.
     *
     * @param nowNs the current time.
     * @return ns during which at least one header waited inside this switch, up to now.
     */
    public long occupiedNs(final long nowNs)
    {
        return occupiedNs + (waitingHeads > 0 ? nowNs - waitingSinceNs : 0);
    }

    @Override
    public String toString()
    {
        return "<" + word + "," + level + ">";
    }
}
