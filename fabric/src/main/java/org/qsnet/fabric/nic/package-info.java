/**
 * The Elan3 network interface of one node: its command processor, DMA engine, inputter, event and
 * thread processors, the shared resources they contend for (microcode, internal bus, SDRAM, PCI),
 * the TLB and the MMU glue, and the per-context state. Sits on {@code network} (it is a
 * {@link org.qsnet.fabric.network.PacketEndpoint}), {@code memory} and {@code engine}; its timings
 * come through {@link org.qsnet.fabric.nic.Elan3Timing}, which the platform profile in
 * {@code machine} implements, so the NIC does not depend on the assembled machine. Its public
 * surface ({@link org.qsnet.fabric.nic.Elan3Nic}, {@link org.qsnet.fabric.nic.NicContext},
 * {@link org.qsnet.fabric.nic.E3}) is what Elan3lib drives.
 */
package org.qsnet.fabric.nic;
