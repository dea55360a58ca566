package org.qsnet.fabric.network;

/**
 * What sits at a node's end of the fabric: the Elan3 NIC model (or, for the raw traffic
 * experiments, a link-speed injector). The fabric calls it when a packet's tail has arrived
 * intact (the inputter's side) and when the acknowledgement of a packet it sent comes back
 * (the DMA engine's side). Both calls run inside kernel events at their simulated time.
 */
public interface PacketEndpoint
{
    /**
     * The whole packet has arrived at this node with a good CRC: deliver it (write memory, fire
     * events). For a non-write-block transaction (remote atomic) set
     * {@link Packet#setAckValue(long)}: the result travels back in the acknowledgement.
     * Called once per packet, never for a corrupted copy.
     *
     * @param packet the packet.
     * @param timeNs arrival time of its tail.
     * @return ns between the tail and the acknowledgement leaving this node, at least 0.
     */
    long onArrival(Packet packet, long timeNs);

    /**
     * The acknowledgement of a packet this node injected has come back: the packet was delivered
     * exactly once (a CRC-rejected copy is retransmitted by the fabric first). The circuit
     * closes behind it.
     *
     * @param packet the packet.
     * @param timeNs arrival time of the acknowledgement at this node.
     */
    void onAck(Packet packet, long timeNs);
}
