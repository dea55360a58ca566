package org.qsnet.fabric.nic;

/**
 * The Elan3's resources shared by its units, each serving one request at a time: the microcode
 * processor (threads for commands, DMA, inputter, events), the internal data bus (outgoing and
 * incoming data), the SDRAM and the PCI bus. The units that own a resource of their own (the
 * thread processor, the table walker, the driver's fault handler) keep it themselves.
 */
final class NicResources
{
    final Resource microcode = new Resource("microcode");
    final Resource internalBus = new Resource("internal bus");
    final Resource sdramBus = new Resource("SDRAM");
    final Resource.Pci pci;

    NicResources(final Elan3Timing profile)
    {
        this.pci = new Resource.Pci(profile);
    }
}
