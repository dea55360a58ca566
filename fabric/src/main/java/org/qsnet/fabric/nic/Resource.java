package org.qsnet.fabric.nic;

/**
 * A resource of the NIC that serves one request at a time, first come first served: the
 * microcode processor, the internal data bus, SDRAM, the PCI bus. Requests are made in event
 * order, so the service order is deterministic. Exact integer arithmetic: a request ready at
 * {@code t} needing {@code d} ns starts at {@code max(t, freeAt)} and ends {@code d} later.
 */
class Resource
{
    private final String name;
    long freeAtNs;
    long busyNs;

    /**
     * @param name for statistics.
     */
    public Resource(final String name)
    {
        this.name = name;
    }

    /**
     * Serves a request.
     *
     * @param readyNs    when the request can start.
     * @param durationNs how long it occupies the resource.
     * @return when it ends.
     */
    public long use(final long readyNs, final long durationNs)
    {
        final long start = Math.max(readyNs, freeAtNs);
        freeAtNs = start + durationNs;
        busyNs += durationNs;
        return freeAtNs;
    }

    /**
     * @return total ns the resource was busy.
     */
    public long busyNs()
    {
        return busyNs;
    }

    /**
     * @return the resource's name.
     */
    public String name()
    {
        return name;
    }

    /**
     * The PCI bus: bursts pay a start-up per direction, and on a bus that cannot interleave
     * directions a burst that has to wait behind one of the other direction pays a turnaround.
     */
    public static final class Pci extends Resource
    {
        private final Elan3Timing profile;
        private boolean lastWasWrite;

        /**
         * @param profile the bus parameters.
         */
        public Pci(final Elan3Timing profile)
        {
            super("PCI");
            this.profile = profile;
        }

        /**
         * A NIC burst across the bus.
         *
         * @param readyNs when it can start.
         * @param write   true for NIC writes into host memory, false for reads.
         * @param bytes   bytes moved.
         * @return when it ends.
         */
        public long burst(final long readyNs, final boolean write, final int bytes)
        {
            long d = (write ? profile.pciWriteSetupNs() : profile.pciReadSetupNs()) + profile.pciBytesNs(bytes);
            if (write != lastWasWrite && readyNs < freeAtNs)
            {
                d += profile.pciTurnaroundNs();
            }
            lastWasWrite = write;
            return use(readyNs, d);
        }
    }
}
