package org.qsnet.fabric.machine;

import java.util.List;
import java.util.Locale;

import org.qsnet.fabric.QsnetException;
import org.qsnet.fabric.network.FabricConfig;
import org.qsnet.fabric.nic.Elan3Timing;

/**
 * Every parameter of one emulated platform: the fabric, the Elan3 NIC and the host. Immutable;
 * the named profiles reproduce the three platforms of CALIBRATION.md. Which figure fixed which
 * parameter is said next to each value in {@link #pentium3He()}.
 *
 * @param name              profile name.
 * @param description       the machine it stands for.
 * @param fabric            switch fabric parameters (its dim is the machine's tree).
 * @param pciMHz            PCI clock: 66 or 33.
 * @param pciBytesPerCycle  PCI width in bytes (8: 64-bit).
 * @param pciReadSetupNs    start-up of a NIC read burst from host memory (DMA source in main memory).
 * @param pciWriteSetupNs   start-up of a NIC write burst into host memory (destination in main memory).
 * @param pciTurnaroundNs   extra cost when the bus changes direction (33 MHz ES40: cannot interleave).
 * @param internalBusMBs    the Elan's internal data bus, shared by outgoing and incoming data.
 * @param sdramMBs          Elan SDRAM bandwidth, shared by reads and writes.
 * @param sdramLatencyNs    start-up of an SDRAM access.
 * @param cmdProcNs         command processor: accept and check a descriptor.
 * @param dmaStartNs        DMA thread: start a descriptor.
 * @param dmaPacketNs       DMA thread: build one packet.
 * @param inputPacketNs     inputter: accept one packet (context check, translation issue).
 * @param eventNs           microcode: fire an event (read-modify-write in SDRAM).
 * @param threadOpNs        thread processor: one operation (Tports matching, next issue).
 * @param tlbEntries        NIC TLB entries (16, fully associative, LRU).
 * @param tableWalkNs       TLB miss: the table-walk state machine's own cycles; its reads of the three
 *                          levels of the page table are charged on the SDRAM ({@code sdramNs(8)} each).
 * @param hostCallNs        host: entering any library call.
 * @param pioWriteNs        host: one 32-bit programmed-I/O write across PCI (descriptors, commands).
 * @param pioReadNs         host: one 32-bit programmed-I/O read across PCI (polling SDRAM).
 * @param hostPollNs        host: one poll of a word in its own (cached) memory; also a ported program's
 *                          load or store of a 64-byte line it did not touch last, or that the NIC wrote since.
 * @param hostHitNs         host: a ported program's load or store that hits the line it touched last
 *                          (an L1 hit and the loop around it, ~3 cycles at the host's clock).
 * @param interruptNs       blocking wait, step 1: the NIC's interrupt reaches the host CPU (PCI interrupt line,
 *                          interrupt controller) and the kernel enters and leaves its interrupt path.
 * @param driverNs          blocking wait, step 2: the Elan driver's interrupt handler (reads the NIC's interrupt
 *                          cause across PCI, finds the context and the sleeper of the event). The same two
 *                          steps, plus three PIO writes of the entry and the restart, are the NIC's translation
 *                          fault on its first touch of a host page (the driver loads the page's entry).
 * @param wakeupNs          blocking wait, step 3: the kernel wakes the sleeping thread (run queue, scheduler).
 * @param contextSwitchNs   blocking wait, step 4: the switch to the waiter's process and the return from the
 *                          system call to user space.
 * @param queueRetryNs      back-off of a queued DMA that found the remote queue full.
 */
public record PlatformProfile(
    String name,
    String description,
    FabricConfig fabric,
    int pciMHz,
    int pciBytesPerCycle,
    long pciReadSetupNs,
    long pciWriteSetupNs,
    long pciTurnaroundNs,
    long internalBusMBs,
    long sdramMBs,
    long sdramLatencyNs,
    long cmdProcNs,
    long dmaStartNs,
    long dmaPacketNs,
    long inputPacketNs,
    long eventNs,
    long threadOpNs,
    int tlbEntries,
    long tableWalkNs,
    long hostCallNs,
    long pioWriteNs,
    long pioReadNs,
    long hostPollNs,
    long hostHitNs,
    long interruptNs,
    long driverNs,
    long wakeupNs,
    long contextSwitchNs,
    long queueRetryNs) implements Elan3Timing
{
    /**
     * Validates the profile.
     */
    public PlatformProfile
    {
        QsnetException.require(pciMHz == 33 || pciMHz == 66 || pciMHz == 100 || pciMHz == 133, "pciMHz", pciMHz,
            "must be 33, 66, 100 or 133");
        QsnetException.require(pciBytesPerCycle == 4 || pciBytesPerCycle == 8, "pciBytesPerCycle", pciBytesPerCycle,
            "must be 4 or 8");
        QsnetException.require(internalBusMBs > 0, "internalBusMBs", internalBusMBs, "must be positive");
        QsnetException.require(sdramMBs > 0, "sdramMBs", sdramMBs, "must be positive");
        QsnetException.require(tlbEntries >= 1 && tlbEntries <= 1024, "tlbEntries", tlbEntries, "must be in 1..1024");
        for (final long v : new long[] {pciReadSetupNs, pciWriteSetupNs, pciTurnaroundNs, sdramLatencyNs, cmdProcNs,
            dmaStartNs, dmaPacketNs, inputPacketNs, eventNs, threadOpNs, tableWalkNs, hostCallNs, pioWriteNs, pioReadNs,
            hostPollNs, hostHitNs, interruptNs, driverNs, wakeupNs, contextSwitchNs, queueRetryNs})
        {
            QsnetException.require(v >= 0, "a time of profile " + name, v, "must be at least 0");
        }
        QsnetException.require(hostPollNs >= 1, "hostPollNs", hostPollNs, "must be at least 1");
        QsnetException.require(hostHitNs >= 1, "hostHitNs", hostHitNs, "must be at least 1 so that a spin loop advances time");
    }

    /**
     * The 16-node Pentium III cluster (QM-400, QM-S16: a 4-ary 2-tree), 64-bit 66 MHz PCI.
     *
     * @return the profile.
     */
    public static PlatformProfile pentium3He()
    {
        return new PlatformProfile("pentium3-he",
            "16 dual Pentium III 733 MHz, Serverworks HE, 64-bit 66 MHz PCI, QM-400, QM-S16 (4-ary 2-tree)",
            FabricConfig.elite(2),
            66, 8,
            // 321 MB/s main->Elan: 320 B per (391 + 320/528) ns; 317 MB/s Elan->main: 320 B per (403 + 606) ns
            391, 403,
            // 160 MB/s each way main<->main: reads and writes of both directions share the bus, no penalty
            0,
            // 280 MB/s each way, source main: outgoing and incoming data share the internal bus (2 x 320 B per 1.14 us)
            560,
            // Elan->Elan both ways below 280 MB/s: SDRAM reads of one direction plus writes of the other
            530, 20,
            // 0 B latency 1.9 us and 1-64 B 2.4 us: the sum of the issue, command, DMA, inputter, event and
            // block-copy costs below with the fabric's head and body times
            100, 100, 60, 60, 80, 200,
            // 16 TLB entries; a walk's own cycles: 2 per level of the 3-level table at the Elan's 100 MHz
            16, 60,
            60, 70, 500, 30,
            // an L1 hit at 733 MHz
            4,
            // blocking wait on Linux 2.4, PIII 733: interrupt delivery through the IO-APIC and the kernel's
            // IRQ entry and exit (~1.5 us); the driver's handler, two PIO reads of the interrupt cause
            // (2 x 500 ns) and its bookkeeping (~1.5 us); wake_up of the sleeper (~1 us); schedule() to the
            // waiter and the return to user space, lmbench's 2-3 us context switch on this class of CPU (3 us)
            1_500, 1_500, 1_000, 3_000,
            2_000);
    }

    /**
     * The 64-node AlphaServer ES40 cluster (QM-400, a 4-ary 3-tree), 64-bit 33 MHz PCI.
     *
     * @return the profile.
     */
    public static PlatformProfile alphaEs40()
    {
        return new PlatformProfile("alpha-es40",
            "64 AlphaServer ES40 (4x Alpha 21264 667-833 MHz), Tru64, 64-bit 33 MHz PCI, QM-400, 4-ary 3-tree",
            FabricConfig.elite(3),
            33, 8,
            // 200 MB/s main->main: 320 B per (391 + 1212) ns at the source, (403 + 1212) at the destination
            391, 403,
            // 80 MB/s each way main<->main: the 33 MHz bus pays a turnaround at every change of direction
            391,
            // Elan->Elan both ways 280 MB/s: the internal bus, not SDRAM, is the limit here; the faster SDRAM
            // also keeps 1-64 B latency near 2.4 us despite the slower 0 B path
            560, 700, 20,
            100, 100, 60, 60, 80, 200,
            // 16 TLB entries; a walk's own cycles: 2 per level of the 3-level table at the Elan's 100 MHz
            16, 60,
            // 0 B latency 2.2 us: slower programmed I/O across the 33 MHz bus
            60, 93, 700, 30,
            // an L1 hit at 667-833 MHz
            4,
            // blocking wait on Tru64: PALcode interrupt dispatch and the kernel's interrupt entry and exit
            // (~2 us); the driver's handler, two PIO reads across the 33 MHz bus (2 x 700 ns) and its
            // bookkeeping (~3 us); thread_wakeup of the sleeper (~2 us); the switch to the waiter and the
            // return to user space (~3 us, Tru64's heavier context switch on the 21264)
            2_000, 3_000, 2_000, 3_000,
            2_000);
    }

    /**
     * The 8-node dual Xeon cluster (QM-400, one Elite 16), Serverworks GC, 64-bit 66 MHz PCI.
     *
     * @return the profile.
     */
    public static PlatformProfile xeonGc()
    {
        return new PlatformProfile("xeon-gc",
            "8 dual Xeon 2.4 GHz (SuperMicro P4DL6), Serverworks GC, 64-bit 66 MHz PCI, QM-400, Elite 16",
            FabricConfig.elite(2),
            66, 8,
            // 314 MiB/s put bandwidth and 319 MiB/s bidirectional total (host buffers): a faster chipset
            338, 366,
            0,
            560, 600, 20,
            100, 100, 60, 60, 80, 200,
            // 16 TLB entries; a walk's own cycles: 2 per level of the 3-level table at the Elan's 100 MHz
            16, 60,
            // Elanlib put latency 2.0 us: a 2.4 GHz host enters the library faster
            35, 50, 450, 25,
            // an L1 hit at 2.4 GHz
            2,
            // blocking wait on Linux 2.4, Xeon 2.4 GHz: interrupt delivery and IRQ entry and exit (~1 us); the
            // driver's handler, two PIO reads (2 x 450 ns) and its bookkeeping (~1.2 us); wake_up (~0.8 us);
            // the switch back to user space (~3 us: the P4's long pipeline makes it no cheaper than the PIII's)
            1_000, 1_200, 800, 3_000,
            2_000);
    }

    /**
     * @return the names of the built-in profiles.
     */
    public static List<String> names()
    {
        return List.of("pentium3-he", "alpha-es40", "xeon-gc");
    }

    /**
     * @param name a profile name.
     * @return the profile.
     */
    public static PlatformProfile named(final String name)
    {
        return switch (name.toLowerCase(Locale.ROOT))
        {
            case "pentium3-he" -> pentium3He();
            case "alpha-es40" -> alphaEs40();
            case "xeon-gc" -> xeonGc();
            default -> throw new QsnetException("profile '" + name + "' is not one of: " + String.join(", ", names()));
        };
    }

    /**
     * @param bytes bytes across PCI.
     * @return ns of raw bus time, rounded up.
     */
    @Override
    public long pciBytesNs(final int bytes)
    {
        final long bytesPerUs = (long)pciMHz * pciBytesPerCycle;
        return (bytes * 1000L + bytesPerUs - 1) / bytesPerUs;
    }

    /**
     * @param bytes bytes over the internal bus.
     * @return ns, rounded up.
     */
    @Override
    public long internalBusNs(final int bytes)
    {
        return (bytes * 1000L + internalBusMBs - 1) / internalBusMBs;
    }

    /**
     * @param bytes bytes to or from SDRAM.
     * @return ns including the access start-up, rounded up.
     */
    @Override
    public long sdramNs(final int bytes)
    {
        return sdramLatencyNs + (bytes * 1000L + sdramMBs - 1) / sdramMBs;
    }

    /**
     * The host's cost of a blocking wait once the event has fired: interrupt, driver, wake-up and
     * the switch back to user space, in that order.
     *
     * @return {@code interruptNs + driverNs + wakeupNs + contextSwitchNs}.
     */
    public long blockingWakeNs()
    {
        return interruptNs + driverNs + wakeupNs + contextSwitchNs;
    }

    /**
     * @param ns thread-processor time per operation.
     * @return a copy with {@code threadOpNs} replaced.
     */
    public PlatformProfile withThreadOpNs(final long ns)
    {
        return new PlatformProfile(name, description, fabric, pciMHz, pciBytesPerCycle, pciReadSetupNs,
            pciWriteSetupNs, pciTurnaroundNs, internalBusMBs, sdramMBs, sdramLatencyNs, cmdProcNs, dmaStartNs, dmaPacketNs,
            inputPacketNs, eventNs, ns, tlbEntries, tableWalkNs, hostCallNs, pioWriteNs, pioReadNs, hostPollNs,
            hostHitNs, interruptNs, driverNs, wakeupNs, contextSwitchNs, queueRetryNs);
    }

    /**
     * @param newFabric fabric parameters.
     * @return a copy with the fabric replaced.
     */
    public PlatformProfile withFabric(final FabricConfig newFabric)
    {
        return new PlatformProfile(name, description, newFabric, pciMHz, pciBytesPerCycle, pciReadSetupNs,
            pciWriteSetupNs, pciTurnaroundNs, internalBusMBs, sdramMBs, sdramLatencyNs, cmdProcNs, dmaStartNs, dmaPacketNs,
            inputPacketNs, eventNs, threadOpNs, tlbEntries, tableWalkNs, hostCallNs, pioWriteNs, pioReadNs, hostPollNs,
            hostHitNs, interruptNs, driverNs, wakeupNs, contextSwitchNs, queueRetryNs);
    }
}
