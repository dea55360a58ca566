package org.qsnet.fabric.network;

import java.util.ArrayList;
import java.util.List;

import org.qsnet.fabric.engine.Signal;

/**
 * Test endpoint: records arrivals and acknowledgements and fires a signal on each ack.
 */
final class RecordingEndpoint implements PacketEndpoint
{
    final int node;
    final long turnaroundNs;
    final List<Packet> arrived = new ArrayList<>();
    final List<Long> arrivalNs = new ArrayList<>();
    final List<Packet> acked = new ArrayList<>();
    final Signal ackSignal;
    long atomicCell;

    RecordingEndpoint(final int node, final long turnaroundNs)
    {
        this.node = node;
        this.turnaroundNs = turnaroundNs;
        this.ackSignal = new Signal("ack at node " + node);
    }

    @Override
    public long onArrival(final Packet packet, final long timeNs)
    {
        arrived.add(packet);
        arrivalNs.add(timeNs);
        if (packet.kind() == Packet.Kind.NON_WRITE_BLOCK)
        {
            // fetch-and-add of the operand carried as attachment
            final long old = atomicCell;
            atomicCell += (Long)packet.attachment();
            packet.setAckValue(old);
        }
        return turnaroundNs;
    }

    @Override
    public void onAck(final Packet packet, final long timeNs)
    {
        acked.add(packet);
        ackSignal.fire();
    }
}
