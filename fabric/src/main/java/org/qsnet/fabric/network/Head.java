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

    @Override
    public void onEvent(final long timeNs)
    {
        router.headArrived(this, timeNs);
    }
}
