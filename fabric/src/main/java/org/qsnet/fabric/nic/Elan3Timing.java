package org.qsnet.fabric.nic;

/**
 * The parameters the Elan3 NIC model reads: its units' costs, its buses' speeds and the host
 * driver's costs of a translation fault. The platform profile (in {@code machine})
 * implements it; the NIC sees no more of the platform than this, so the package does not depend
 * on the assembled machine. Each method is the profile component of the same name, documented
 * there.
 */
public interface Elan3Timing
{
    /**
     * @return command processor: accept and check a descriptor, ns.
     */
    long cmdProcNs();

    /**
     * @return DMA thread: start a descriptor, ns.
     */
    long dmaStartNs();

    /**
     * @return DMA thread: build one packet, ns.
     */
    long dmaPacketNs();

    /**
     * @return inputter: accept one packet, ns.
     */
    long inputPacketNs();

    /**
     * @return microcode: fire an event, ns.
     */
    long eventNs();

    /**
     * @return thread processor: one operation, ns.
     */
    long threadOpNs();

    /**
     * @return NIC TLB entries.
     */
    int tlbEntries();

    /**
     * @return the table-walk state machine's own cycles on a TLB miss, ns.
     */
    long tableWalkNs();

    /**
     * @return the NIC's interrupt reaching the host CPU and the kernel's interrupt path, ns.
     */
    long interruptNs();

    /**
     * @return the Elan driver's interrupt handler, ns.
     */
    long driverNs();

    /**
     * @return one 32-bit programmed-I/O write across PCI, ns.
     */
    long pioWriteNs();

    /**
     * @return back-off of a queued DMA that found the remote queue full, ns.
     */
    long queueRetryNs();

    /**
     * @return start-up of a NIC read burst from host memory, ns.
     */
    long pciReadSetupNs();

    /**
     * @return start-up of a NIC write burst into host memory, ns.
     */
    long pciWriteSetupNs();

    /**
     * @return extra cost when the PCI bus changes direction, ns.
     */
    long pciTurnaroundNs();

    /**
     * @param bytes bytes across PCI.
     * @return ns of raw bus time, rounded up.
     */
    long pciBytesNs(int bytes);

    /**
     * @param bytes bytes over the internal bus.
     * @return ns, rounded up.
     */
    long internalBusNs(int bytes);

    /**
     * @param bytes bytes to or from SDRAM.
     * @return ns including the access start-up, rounded up.
     */
    long sdramNs(int bytes);
}
