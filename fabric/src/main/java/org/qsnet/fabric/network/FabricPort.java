package org.qsnet.fabric.network;

/**
 * A node's attachment to the fabric: the link from its NIC to its leaf switch. The NIC model
 * (or a traffic injector) injects packets here.
 */
public interface FabricPort
{
    /**
     * @return the node this port belongs to.
     */
    int node();

    /**
     * Injects a packet at the current simulated time: its header takes a free virtual channel
     * of the node's link, or waits in FIFO order (by priority) for one.
     *
     * @param packet a new packet whose source is this node.
     */
    void inject(Packet packet);

    /**
     * @return virtual channels of the node's outgoing link not held by a circuit now.
     */
    int freeVirtualChannels();

    /**
     * @return headers waiting for a virtual channel of the node's outgoing link.
     */
    int waitingHeaders();
}
