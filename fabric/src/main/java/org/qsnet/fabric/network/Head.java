package org.qsnet.fabric.network;

import org.qsnet.fabric.engine.EventHandler;

/**
 * The header of a packet making its way through the tree: where it is, how many links it has
 * crossed, and what it waits for. A unicast packet has one; a broadcast forks one per branch.
 * As an event handler it is the header's arrival at its next element.
 */
final class Head implements EventHandler
{
    final HeaderRouter router;
    final Packet packet;
    final Circuit circuit;
    /** The link the header is crossing or has just crossed. */
    LinkOutput via;
    /** Links crossed including {@code via}. */
    int depth;
    /** Next route tag to read. */
    int tagIndex;
    long waitSinceNs;
    /** When the header entered the network (its attempt's injection): its age is now minus this. */
    long ageSinceNs;
    // broadcast descent: the outputs still to acquire at this switch
    int[] ports;
    int portIndex;
    LinkOutput[] acquired;

    Head(final HeaderRouter router, final Packet packet, final Circuit circuit)
    {
        this.router = router;
        this.packet = packet;
        this.circuit = circuit;
    }

    /** The switch input the header came in by: id of the link it crossed, -1 at the source. */
    int input()
    {
        return via == null ? -1 : via.id;
    }

    /**
     * What {@link HeaderRouter#headArrived} reads first: at a switch, the switch, the link or links
     * the route asks for and the origin that schedules the next hop; at the node, every link of
     * the path, where the body is placed. Also the circuit's arrays the hop writes into.
     */
    @Override
    public int touch()
    {
        if (via == null)
        {
            // not yet on a link (a header is scheduled only once it crosses one)
            return 0;
        }
        final Circuit c = circuit;
        final LinkOutput[] ls = c.links;
        int sum = c.count + ls.length + c.vcs.length + c.depths.length;
        final EliteSwitch s = via.toSwitch;
        if (s == null)
        {
            for (int i = 0; i < c.count; i++)
            {
                sum += ls[i].body.length;
            }
            return sum;
        }
        sum += s.upGroupHeads + s.waitingHeads;
        final LinkOutput o = next(s);
        if (o != null)
        {
            return sum + o.vcBusy + o.waitingHeads + (int)o.origin.peekSeq();
        }
        final LinkOutput[] up = s.up;
        for (int i = 0; i < up.length; i++)
        {
            sum += up[i].vcBusy;
        }
        return up.length == 0 ? sum : sum + (int)up[0].origin.peekSeq();
    }

    /** The down link or fixed up link the route asks for at {@code s}, null for an adaptive ascent or at the route's end. */
    private LinkOutput next(final EliteSwitch s)
    {
        final Packet p = packet;
        if (tagIndex >= p.tagCount)
        {
            return null;
        }
        final int tag = HeaderRouter.tag(p.route, tagIndex);
        // a touch must not throw: a tag the router would refuse reads nothing
        final boolean named = tag == HeaderRouter.TAG_UP_ANY ? false
            : tag >= HeaderRouter.TAG_UP0 ? s.upKeep > 0 : tag < s.down.length;
        return named ? HeaderRouter.output(s, tag) : null;
    }

    @Override
    public void onEvent(final long timeNs)
    {
        router.headArrived(this, timeNs);
    }
}
