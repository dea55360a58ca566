/**
 * The Elite network: the k-ary n-tree topology and its routing, Elite switches with age-based
 * arbitration, links with two virtual channels per direction, packets, wormhole circuits with
 * acknowledgements, hardware broadcast, CRC retries, and the statistics from which the
 * congestion matrix is drawn. Depends on {@code engine} only; what sits on a node (the Elan3 in
 * {@code nic}, or a test's endpoint) attaches through {@link org.qsnet.fabric.network.Fabric#attach}
 * as a {@link org.qsnet.fabric.network.PacketEndpoint} and sends through the
 * {@link org.qsnet.fabric.network.FabricPort} it gets back. The network knows nothing of the NIC.
 */
package org.qsnet.fabric.network;
