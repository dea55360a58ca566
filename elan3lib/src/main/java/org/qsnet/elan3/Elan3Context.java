package org.qsnet.elan3;

import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

import org.qsnet.fabric.QsnetException;
import org.qsnet.fabric.engine.Signal;
import org.qsnet.fabric.engine.SimProcess;
import org.qsnet.fabric.machine.PlatformProfile;
import org.qsnet.fabric.memory.SparseMemory;
import org.qsnet.fabric.nic.E3;
import org.qsnet.fabric.nic.Elan3Nic;
import org.qsnet.fabric.nic.NicContext;

/**
 * {@code ELAN3_CTX}: a process's handle on its node's Elan3. Every method emulates the
 * Elan3lib call of the same name (C name in the Javadoc) and charges the host's cost of it —
 * entering the library, programmed I/O across PCI for every word written to or read from the
 * NIC, polls of host memory, interrupts — to the process's simulated clock.
 *
 * <p>Addresses: main memory is addressed by host addresses ({@code long}, as {@code void *}),
 * {@code HOST_MAIN_BASE + offset}; the node's SDRAM by {@code sdramaddr_t} handles (the SDRAM
 * offset); both are mapped into the context's 32-bit Elan address space ({@code E3_Addr}), which
 * is what DMA descriptors and events hold. With the default heaps every process gets the same
 * addresses for the same sequence of allocations (libelan's symmetric addressing).
 *
 * <pre>
 * Elan address space of a context (defaults of elan3_init, as TEAC uses them)
 *   0x00000000 .. 0x00020000  reserved (required mappings)
 *   0x00200000 .. 0x00400000  Elan heap: allocElan, backed by this context's SDRAM region
 *   0x00400000 .. 0x02400000  main heap: allocMain, host memory mapped 1:1
 *   0x10000000 .. 0x40000000  allocVaddr ranges, mapped by setperm
 * </pre>
 *
 * <p>The context charges each call and delegates the two mechanisms beneath the API to
 * package-private classes: the address space (heaps, host allocator, mappings and translations:
 * {@code AddressSpace}) and the program's charged access to host memory through the one-line
 * cache model ({@code HostAccess}; {@link Raw} is the uncharged view over the same memory).
 * What remains here is the API itself, one method per {@code elan3_*} call (about 90 public
 * members): each checks its arguments, charges the host's cost and makes one call to the NIC
 * (events, DMA issue, broadcast, atomics, SDRAM by programmed I/O) or to those two classes, so
 * the class is long for its Javadoc, not for a second mechanism.
 */
public final class Elan3Context
{
    /** Default main heap base (TEAC). */
    public static final long DEFAULT_MAIN_BASE = 0x400000;
    /** Default main heap size (TEAC). */
    public static final long DEFAULT_MAIN_SIZE = 0x2000000;
    /** Default Elan heap base (TEAC). */
    public static final long DEFAULT_ELAN_BASE = 0x200000;
    /** Default Elan heap size (TEAC). */
    public static final long DEFAULT_ELAN_SIZE = 0x200000;
    private static final long VADDR_BASE = AddressSpace.VADDR_BASE;

    /** {@code ctx->sdram}: the handle the {@code elan3_*_sdram} calls of the C facade take. */
    public final Elan3Sdram sdram = new Elan3Sdram(this);
    private final ElanProcess process;
    private final int rail;
    private final Elan3Nic nic;
    private final PlatformProfile profile;
    private final SimProcess sim;
    private final AddressSpace memory;
    private final HostAccess host;
    private final NicContext hw;
    private ElanCapability capability;
    private boolean attached;
    private boolean finished;
    private int nextBroadcastVp = -1;
    private int cookieSeq;
    private final long hostAccessNs;
    private final Raw raw = new Raw();

    Elan3Context(final ElanProcess process, final int rail, final long mainBase, final long mainSize, final long elanBase,
        final long elanSize)
    {
        QsnetException.require(rail == 0, "rail", rail, "must be 0 (the emulated nodes have one rail)");
        QsnetException.require(mainBase >= 0x20000 && mainSize > 0 && mainBase + mainSize <= VADDR_BASE, "main heap",
            "0x" + Long.toHexString(mainBase) + "+0x" + Long.toHexString(mainSize), "must lie within 0x20000..0x10000000");
        QsnetException.require(elanBase >= 0x20000 && elanSize > 0 && elanBase + elanSize <= VADDR_BASE, "Elan heap",
            "0x" + Long.toHexString(elanBase) + "+0x" + Long.toHexString(elanSize), "must lie within 0x20000..0x10000000");
        QsnetException.require(elanBase + elanSize <= mainBase || mainBase + mainSize <= elanBase, "heaps",
            "main 0x" + Long.toHexString(mainBase) + ", Elan 0x" + Long.toHexString(elanBase), "must not overlap");
        QsnetException.require(elanBase % SparseMemory.PAGE_SIZE == 0 && mainBase % SparseMemory.PAGE_SIZE == 0,
            "heap bases", "0x" + Long.toHexString(mainBase) + ", 0x" + Long.toHexString(elanBase), "must be 8 KB aligned");
        this.process = process;
        this.rail = rail;
        this.sim = process.sim();
        this.nic = process.machine().nic(process.node());
        this.profile = process.machine().profile();
        this.hostAccessNs = profile.hostPollNs();
        final ElanCapability cap = process.capability();
        this.hw = nic.create(cap.myContext, cap.userKey, process.mainMemory(), sim);
        // the number is taken now when free, so that packets arriving before elan3_attach wait (the
        // inputter is blocked) rather than finding no context; a second context of the process
        // claims it at elan3_attach, which fails while the first holds it (§1.4.1)
        nic.tryClaim(hw);
        // until elan3_attach, packets for it are held back (retried), as with a blocked inputter
        this.hw.blockInputter(true);
        this.host = new HostAccess(process, nic, hw, sim, hostAccessNs, profile.hostHitNs());
        this.memory = new AddressSpace(hw, nic, mainBase, mainSize, elanBase, elanSize);
        process.contextCreated(this);
        charge(0);
    }

    /**
     * {@code elan3_init}: opens the rail and creates a context for the calling process, with a
     * main heap and an Elan (SDRAM) heap at the given Elan addresses.
     *
     * @param rail     the rail (0).
     * @param mainBase Elan address of the main heap.
     * @param mainSize its size.
     * @param elanBase Elan address of the Elan heap.
     * @param elanSize its size (reserved in the node's SDRAM).
     * @return the context.
     */
    public static Elan3Context init(final int rail, final long mainBase, final long mainSize, final long elanBase,
        final long elanSize)
    {
        return new Elan3Context(ElanProcess.current(), rail, mainBase, mainSize, elanBase, elanSize);
    }

    /**
     * {@code elan3_init} with the default heaps.
     *
     * @return the context.
     */
    public static Elan3Context init()
    {
        return init(0, DEFAULT_MAIN_BASE, DEFAULT_MAIN_SIZE, DEFAULT_ELAN_BASE, DEFAULT_ELAN_SIZE);
    }

    /**
     * The whole attach sequence of ELAN-API.md §1.5 flow 1: init, required mappings, block the
     * inputter, attach with the process's capability, addvp; the inputter stays blocked until
     * {@link #blockInputter(int) blockInputter(0)}.
     *
     * @return the attached context.
     */
    public static Elan3Context open()
    {
        return attached(init());
    }

    /**
     * As {@link #open()} with heaps of the given sizes: the main heap at the default base, the Elan
     * heap right after it (for programs that need large buffers).
     *
     * @param mainSize bytes of the main heap.
     * @param elanSize bytes of the Elan heap.
     * @return the attached context.
     */
    public static Elan3Context open(final long mainSize, final long elanSize)
    {
        return attached(init(0, DEFAULT_MAIN_BASE, mainSize, DEFAULT_MAIN_BASE + mainSize, elanSize));
    }

    private static Elan3Context attached(final Elan3Context c)
    {
        c.setRequiredMappings();
        c.blockInputter(1);
        final ElanCapability cap = Rms.getcap();
        c.attach(cap);
        c.addvp(0, cap);
        return c;
    }

    // ------------------------------------------------------------------ costs and checks

    private void charge(final long ns)
    {
        sim.chargeCompute();
        sim.advance(profile.hostCallNs() + ns);
    }

    private void live()
    {
        if (finished)
        {
            throw new QsnetException("context of " + process + " was detached (elan3_detach/elan3_fini); it cannot be used");
        }
        if (ElanProcess.currentOrNull() != process)
        {
            throw new QsnetException("context of " + process + " used from another process's thread");
        }
    }

    private void attachedCheck()
    {
        live();
        if (!attached)
        {
            throw new QsnetException("context of " + process + " is not attached (call elan3_attach first)");
        }
    }

    /**
     * @return the hardware context (for the libraries above).
     */
    public NicContext hardware()
    {
        return hw;
    }

    /**
     * @return the emulated process that owns this context.
     */
    public ElanProcess owner()
    {
        return process;
    }

    /**
     * @return the rail.
     */
    public int rail()
    {
        return rail;
    }

    // ------------------------------------------------------------------ lifecycle

    /**
     * {@code elan3_set_required_mappings}: the reserved area is the NIC's; nothing to map.
     *
     * @return 1 (success).
     */
    public int setRequiredMappings()
    {
        live();
        charge(0);
        return 1;
    }

    /**
     * {@code elan3_set_standard_mappings}: maps the process's own host memory into the Elan, so that
     * what the program obtains from its allocator ({@link #hostMalloc}, the {@code malloc}
     * equivalent) is DMA-able as well as the heaps (which are mapped at init), whatever its size.
     * Without it, host-allocator memory is reachable only through {@link #setperm}.
     *
     * @return 1 (success).
     */
    public int setStandardMappings()
    {
        live();
        charge(0);
        memory.setStandardMappings();
        return 1;
    }

    /**
     * {@code elan3_block_inputter}: 1 holds off incoming packets (they are retried by their
     * senders), 0 lets them in.
     *
     * @param block 1 or 0.
     */
    public void blockInputter(final int block)
    {
        live();
        charge(profile.pioWriteNs());
        hw.blockInputter(block != 0);
    }

    /**
     * {@code elan3_attach}: binds the context to the capability.
     *
     * @param cap the capability; its key and MyContext must be the ones the driver knows.
     * @return 0 on success.
     */
    public int attach(final ElanCapability cap)
    {
        live();
        charge(profile.pioWriteNs());
        if (attached)
        {
            throw new QsnetException("context of " + process + " is already attached");
        }
        if (cap.myContext < cap.lowContext || cap.myContext > cap.highContext)
        {
            throw new QsnetException("MyContext 0x" + Integer.toHexString(cap.myContext) + " is outside the capability's contexts 0x"
                + Integer.toHexString(cap.lowContext) + "..0x" + Integer.toHexString(cap.highContext));
        }
        if (cap.myContext != hw.number())
        {
            throw new QsnetException("MyContext 0x" + Integer.toHexString(cap.myContext) + " is not this process's context 0x"
                + Integer.toHexString(hw.number()));
        }
        final int[] known = process.machine().capabilityKey(process.node(), cap.myContext);
        if (known == null || !java.util.Arrays.equals(known, cap.userKey))
        {
            throw new QsnetException("capability key does not match the one the driver holds for context 0x"
                + Integer.toHexString(cap.myContext) + " on node " + process.node() + " (wrong key)");
        }
        nic.claim(hw);
        this.capability = cap.copy();
        this.attached = true;
        return 0;
    }

    /**
     * {@code elan3_addvp}: enters every process of the capability into the VP table.
     *
     * @param firstVp first VP (0).
     * @param cap     the capability.
     * @return 0 on success.
     */
    public int addvp(final int firstVp, final ElanCapability cap)
    {
        attachedCheck();
        QsnetException.require(firstVp == 0, "firstVp", firstVp, "must be 0");
        final int n = cap.nvps();
        final int[] node = new int[n];
        final int[] ctx = new int[n];
        int my = -1;
        cap.locations(node, ctx);
        for (int vp = 0; vp < n; vp++)
        {
            node[vp] += cap.lowNode;
            ctx[vp] += cap.lowContext;
            if (node[vp] == process.node() && ctx[vp] == cap.myContext)
            {
                my = vp;
            }
        }
        QsnetException.require(my >= 0, "capability", cap.capabilityString(), "has no VP for this process");
        hw.setVpTable(my, node, ctx);
        nextBroadcastVp = n;
        charge((long)n * profile.pioWriteNs() / 8);
        return 0;
    }

    /**
     * {@code elan3_process}: this process's VP.
     *
     * @return the VP.
     */
    public int process()
    {
        attachedCheck();
        charge(0);
        return hw.myVp();
    }

    /**
     * {@code elan3_detach}: releases the hardware context.
     */
    public void detach()
    {
        live();
        charge(profile.pioWriteNs());
        nic.detach(hw);
        attached = false;
        finished = true;
    }

    /**
     * {@code elan3_fini}: detaches if needed.
     */
    public void fini()
    {
        if (!finished)
        {
            detach();
        }
    }

    /**
     * {@code elan3_devinfo}: node id and network levels.
     *
     * @return the device information.
     */
    public DevInfo devinfo()
    {
        live();
        charge(0);
        return new DevInfo(process.node(), process.machine().fabric().topology().dim(), 0);
    }

    /**
     * {@code ELAN3_DEVINFO}.
     *
     * @param NodeId    this node's Elan id.
     * @param NumLevels switch levels of the network.
     * @param NodeLevel level of the node (0).
     */
    public record DevInfo(int NodeId, int NumLevels, int NodeLevel)
    {
    }

    /**
     * @return the capability attached, or null.
     */
    public ElanCapability capability()
    {
        return capability == null ? null : capability.copy();
    }

    // ------------------------------------------------------------------ memory

    /**
     * {@code elan3_allocMain}: DMA-able host memory, mapped into the Elan with every right.
     *
     * @param align alignment (0 for the default 8).
     * @param size  bytes.
     * @return the host address, or 0 (NULL) when the heap is full.
     */
    public long allocMain(final int align, final long size)
    {
        live();
        charge(0);
        return memory.allocMain(align, size);
    }

    /**
     * {@code elan3_allocElan}: NIC SDRAM.
     *
     * @param align alignment (0 for the default 8).
     * @param size  bytes.
     * @return the SDRAM handle, or 0 when the heap is full.
     */
    public long allocElan(final int align, final long size)
    {
        live();
        charge(0);
        return memory.allocElan(align, size);
    }

    /**
     * {@code elan3_free}.
     *
     * @param hostAddr an address from {@link #allocMain}.
     */
    public void free(final long hostAddr)
    {
        live();
        charge(0);
        memory.free(hostAddr);
    }

    /**
     * {@code elan3_freeElan}.
     *
     * @param sdram a handle from {@link #allocElan}.
     */
    public void freeElan(final long sdram)
    {
        live();
        charge(0);
        memory.freeElan(sdram);
    }

    /**
     * @return the size of the context's Elan (SDRAM) heap, from which {@link #allocElan} allocates.
     */
    public long elanHeapSize()
    {
        return memory.elanHeapSize();
    }

    /**
     * The process's own allocator ({@code malloc}): host memory that is DMA-able once the standard
     * mappings are set ({@link #setStandardMappings}, as libelan and LA-MPI do), and not mapped into
     * the Elan otherwise, for code that tests {@link #addressable} and copies through a bounce
     * buffer. The same rule holds for every size.
     *
     * @param size bytes.
     * @return the host address.
     */
    public long hostMalloc(final long size)
    {
        live();
        return memory.hostMalloc(size);
    }

    /**
     * {@code elan3_allocVaddr}: reserves an Elan address range, unmapped until {@link #setperm}.
     *
     * @param align alignment.
     * @param size  bytes.
     * @return the Elan address, or {@link Elan3#ELAN_ADDR_NULL}.
     */
    public long allocVaddr(final int align, final long size)
    {
        live();
        charge(0);
        return memory.allocVaddr(align, size);
    }

    /**
     * {@code elan3_main2elan}.
     *
     * @param hostAddr a host address.
     * @return its Elan address, or {@link Elan3#ELAN_BAD_ADDR} if it is not mapped.
     */
    public long main2elan(final long hostAddr)
    {
        live();
        return memory.main2elan(hostAddr);
    }

    /**
     * {@code elan3_elan2main}.
     *
     * @param elanAddr an Elan address.
     * @return the host address that reaches the same memory (main, or the SDRAM window), or 0.
     */
    public long elan2main(final long elanAddr)
    {
        live();
        return memory.elan2main(elanAddr);
    }

    /**
     * {@code elan3_sdram2elan}.
     *
     * @param sdram an SDRAM handle of this context's Elan heap.
     * @return its Elan address.
     */
    public long sdram2elan(final long sdram)
    {
        live();
        return memory.sdram2elan(sdram);
    }

    /**
     * {@code elan_elan2sdram}: the SDRAM handle of an Elan address mapped onto this node's SDRAM.
     *
     * @param elanAddr an Elan address.
     * @return its SDRAM handle, or 0 if the address is not mapped onto SDRAM.
     */
    public long elan2sdram(final long elanAddr)
    {
        live();
        return memory.elan2sdram(elanAddr);
    }

    /**
     * {@code elan3_addressable}.
     *
     * @param hostAddr first byte.
     * @param size     bytes.
     * @return whether the whole range is mapped into the Elan.
     */
    public boolean addressable(final long hostAddr, final long size)
    {
        live();
        return memory.addressable(hostAddr, size);
    }

    /**
     * {@code elan3_setperm}: maps a host range at a chosen Elan address with the given rights.
     *
     * @param hostAddr host range start (page aligned with {@code elanAddr}).
     * @param elanAddr Elan address.
     * @param size     bytes, positive.
     * @param perm     rights, e.g. {@link Elan3#ELAN_PERM_REMOTEALL}.
     * @return 0 on success, -1 on failure (a range the MMU cannot map).
     */
    public int setperm(final long hostAddr, final long elanAddr, final long size, final int perm)
    {
        live();
        QsnetException.require(size > 0, "size", size, "must be positive (bytes to map)");
        charge(profile.pioWriteNs() * 4);
        return memory.setperm(hostAddr, elanAddr, size, perm);
    }

    /**
     * {@code elan3_clearperm_main}: removes the mapping of a host range.
     *
     * @param hostAddr host range start.
     * @param size     bytes.
     */
    public void clearpermMain(final long hostAddr, final long size)
    {
        final long va = main2elan(hostAddr);
        if (va != Elan3.ELAN_BAD_ADDR)
        {
            clearpermElan(va, size);
        }
    }

    /**
     * {@code elan3_clearperm_elan}: removes the mapping of an Elan range.
     *
     * @param elanAddr Elan range start.
     * @param size     bytes.
     */
    public void clearpermElan(final long elanAddr, final long size)
    {
        live();
        charge(profile.pioWriteNs() * 4);
        memory.clearpermElan(elanAddr, size);
    }

    // ------------------------------------------------------------------ host access to memory

    /**
     * Loads a 32-bit word from host memory ({@code *(int *)addr}), charging the host's cost of
     * the load (see {@link #raw()} for the libraries' uncharged view).
     *
     * @param hostAddr the address.
     * @return the word.
     */
    public int getInt(final long hostAddr)
    {
        final int v = raw.getInt(hostAddr);
        host.chargeAccess(hostAddr, 4);
        return v;
    }

    /**
     * Stores a 32-bit word into host memory ({@code *(int *)addr = value}), charging its cost.
     *
     * @param hostAddr the address.
     * @param value    the word.
     */
    public void putInt(final long hostAddr, final int value)
    {
        raw.putInt(hostAddr, value);
        host.chargeAccess(hostAddr, 4);
    }

    /**
     * Loads a 64-bit word from host memory, charging its cost.
     *
     * @param hostAddr the address.
     * @return the 64-bit word there.
     */
    public long getLong(final long hostAddr)
    {
        final long v = raw.getLong(hostAddr);
        host.chargeAccess(hostAddr, 8);
        return v;
    }

    /**
     * Stores a 64-bit word into host memory, charging its cost.
     *
     * @param hostAddr the address.
     * @param value    the 64-bit word to store.
     */
    public void putLong(final long hostAddr, final long value)
    {
        raw.putLong(hostAddr, value);
        host.chargeAccess(hostAddr, 8);
    }

    /**
     * Copies host memory into an array ({@code memcpy}), charging one access per 64-byte line.
     *
     * @param hostAddr source.
     * @param dst      destination.
     * @param off      first index.
     * @param length   bytes.
     */
    public void read(final long hostAddr, final byte[] dst, final int off, final int length)
    {
        raw.read(hostAddr, dst, off, length);
        host.chargeAccess(hostAddr, length);
    }

    /**
     * Copies an array into host memory ({@code memcpy}), charging one access per 64-byte line.
     *
     * @param hostAddr destination.
     * @param src      source.
     * @param off      first index.
     * @param length   bytes.
     */
    public void write(final long hostAddr, final byte[] src, final int off, final int length)
    {
        raw.write(hostAddr, src, off, length);
        host.chargeAccess(hostAddr, length);
    }

    /**
     * The context's host memory without the per-access charge: for the libraries built on
     * Elan3lib (Elanlib, Tports, the experiments' harness), whose calls already charge their
     * modelled host cost as a whole. A ported program uses the charged accessors of the context.
     *
     * @return the uncharged view.
     */
    public Raw raw()
    {
        return raw;
    }

    /**
     * Uncharged loads and stores of a context's host memory (main memory and the SDRAM window),
     * for library code whose own cost model covers them. Bounds and mappings are checked as for
     * the charged accessors.
     */
    public final class Raw
    {
        private Raw()
        {
        }

        /**
         * @param hostAddr the address.
         * @return the 32-bit word there.
         */
        public int getInt(final long hostAddr)
        {
            return host.hostMemory(hostAddr).getInt(HostAccess.hostOffset(hostAddr));
        }

        /**
         * @param hostAddr the address.
         * @param value    the 32-bit word to store.
         */
        public void putInt(final long hostAddr, final int value)
        {
            host.hostMemory(hostAddr).putInt(HostAccess.hostOffset(hostAddr), value);
        }

        /**
         * @param hostAddr the address.
         * @return the 64-bit word there.
         */
        public long getLong(final long hostAddr)
        {
            return host.hostMemory(hostAddr).getLong(HostAccess.hostOffset(hostAddr));
        }

        /**
         * @param hostAddr the address.
         * @param value    the 64-bit word to store.
         */
        public void putLong(final long hostAddr, final long value)
        {
            host.hostMemory(hostAddr).putLong(HostAccess.hostOffset(hostAddr), value);
        }

        /**
         * @param hostAddr source.
         * @param dst      destination.
         * @param off      first index.
         * @param length   bytes.
         */
        public void read(final long hostAddr, final byte[] dst, final int off, final int length)
        {
            host.hostMemory(hostAddr).read(HostAccess.hostOffset(hostAddr), dst, off, length);
        }

        /**
         * @param hostAddr destination.
         * @param src      source.
         * @param off      first index.
         * @param length   bytes.
         */
        public void write(final long hostAddr, final byte[] src, final int off, final int length)
        {
            host.hostMemory(hostAddr).write(HostAccess.hostOffset(hostAddr), src, off, length);
        }
    }

    // ------------------------------------------------------------------ SDRAM access (programmed I/O)

    /**
     * {@code elan3_write32_sdram}.
     *
     * @param sdram the handle.
     * @param value the word.
     */
    public void write32Sdram(final long sdram, final int value)
    {
        live();
        memory.checkSdram("elan3_write32_sdram", sdram, 4);
        charge(profile.pioWriteNs());
        nic.sdram().putInt(sdram, value);
    }

    /**
     * {@code elan3_read32_sdram}.
     *
     * @param sdram the handle.
     * @return the word.
     */
    public int read32Sdram(final long sdram)
    {
        live();
        memory.checkSdram("elan3_read32_sdram", sdram, 4);
        charge(profile.pioReadNs());
        return nic.sdram().getInt(sdram);
    }

    /**
     * {@code elan3_copy32_to_sdram}: copies a 32-byte record from host memory.
     *
     * @param hostSrc source.
     * @param sdram   destination handle.
     */
    public void copy32ToSdram(final long hostSrc, final long sdram)
    {
        blkcopy(hostSrc, sdram, 32);
    }

    /**
     * {@code elan3_blkcopy64_to_sdram}: copies whole 64-byte blocks from host memory.
     *
     * @param hostSrc source.
     * @param sdram   destination handle.
     * @param size    bytes, a multiple of 64.
     */
    public void blkcopy64ToSdram(final long hostSrc, final long sdram, final int size)
    {
        QsnetException.require(size % 64 == 0 && size > 0, "size", size, "must be a positive multiple of 64");
        blkcopy(hostSrc, sdram, size);
    }

    private void blkcopy(final long hostSrc, final long sdram, final int size)
    {
        live();
        memory.checkSdram(size == 32 ? "elan3_copy32_to_sdram" : "elan3_blkcopy64_to_sdram", sdram, size);
        charge((size / 4) * profile.pioWriteNs());
        final byte[] b = new byte[size];
        raw.read(hostSrc, b, 0, size);
        nic.sdram().write(sdram, b, 0, size);
    }

    /**
     * {@code elan3_zero_byte_sdram}.
     *
     * @param sdram the handle.
     * @param size  bytes.
     */
    public void zeroByteSdram(final long sdram, final int size)
    {
        live();
        memory.checkSdram("elan3_zero_byte_sdram", sdram, size);
        charge(((size + 3) / 4) * profile.pioWriteNs());
        nic.sdram().zero(sdram, size);
    }

    // ------------------------------------------------------------------ events

    private long eventVa(final long ev)
    {
        final long va = sdram2elan(ev);
        if ((va & (E3.EVENT_ALIGN - 1)) != 0)
        {
            throw new QsnetException("event 0x" + Long.toHexString(ev) + " is not aligned to " + E3.EVENT_ALIGN + " bytes");
        }
        return va;
    }

    private long mappedMain(final String what, final long hostAddr)
    {
        final long va = main2elan(hostAddr);
        if (va == Elan3.ELAN_BAD_ADDR)
        {
            throw new QsnetException(what + " 0x" + Long.toHexString(hostAddr) + " is not Elan-mapped host memory");
        }
        return va;
    }

    /**
     * {@code elan3_initevent}: a plain event (count 0, no copy).
     *
     * @param ev the event's SDRAM handle.
     */
    public void initevent(final long ev)
    {
        eventVa(ev);
        charge(2 * profile.pioWriteNs());
        nic.sdram().putInt(ev + E3.EV_COUNT, 0);
        nic.sdram().putInt(ev + E3.EV_TYPE, E3.EV_TYPE_NONE);
    }

    /**
     * {@code elan3_initevent_word}: when the event fires, the NIC writes 1 into {@code word}.
     *
     * @param ev       the event (16 bytes).
     * @param hostWord a word of Elan-mapped host memory.
     */
    public void initeventWord(final long ev, final long hostWord)
    {
        eventVa(ev);
        final long w = mappedMain("event word", hostWord);
        charge(4 * profile.pioWriteNs());
        nic.sdram().putInt(ev + E3.EV_COUNT, 0);
        nic.sdram().putInt(ev + E3.EV_TYPE, E3.EV_TYPE_BCOPY_WORD);
        nic.sdram().putInt(ev + E3.EV_SOURCE, E3.EVENT_WORD_FIRED);
        nic.sdram().putInt(ev + E3.EV_DEST, (int)w);
    }

    /**
     * {@code elan3_initevent_main}: when the event fires, the NIC copies the 64-byte block
     * {@code srcBlk} (SDRAM) into {@code dstBlk} (host memory). As libelan3 did, it writes the
     * "done" pattern into the source block: the last word, which {@link #eventBlkReady}
     * ({@code EVENT_BLK_READY}) tests, becomes {@link E3#EVENT_WORD_FIRED}; the other words are left
     * as they are. The consumer's block {@code dstBlk} is not touched: the program resets it
     * ({@code E3_RESET_BCOPY_BLOCK}) as it did with libelan3.
     *
     * <pre>
     * srcBlk (SDRAM, 64 bytes):  0 .. 59 as the program left them | 60: done word (1)
     * </pre>
     *
     * @param ev     the event (16 bytes).
     * @param srcBlk SDRAM handle of the "done" block (64-byte aligned).
     * @param dstBlk host address of the block the host polls.
     */
    public void initeventMain(final long ev, final long srcBlk, final long dstBlk)
    {
        eventVa(ev);
        final long src = sdram2elan(srcBlk);
        if ((src & (E3.BLK_SIZE - 1)) != 0)
        {
            QsnetException.require(false, "srcBlk", "0x" + Long.toHexString(srcBlk),
                "must be aligned to E3_BLK_ALIGN (" + E3.BLK_SIZE + " bytes)");
        }
        final long dst = mappedMain("event block", dstBlk);
        charge(5 * profile.pioWriteNs());
        nic.sdram().putInt(srcBlk + E3.BLK_SIZE - 4, E3.EVENT_WORD_FIRED);
        nic.sdram().putInt(ev + E3.EV_COUNT, 0);
        nic.sdram().putInt(ev + E3.EV_TYPE, E3.EV_TYPE_BCOPY);
        nic.sdram().putInt(ev + E3.EV_SOURCE, (int)src);
        nic.sdram().putInt(ev + E3.EV_DEST, (int)dst);
    }

    /**
     * {@code elan3_primeevent}: the event fires after {@code count} sets.
     *
     * @param ev    the event.
     * @param count sets needed, at least 0.
     */
    public void primeevent(final long ev, final int count)
    {
        QsnetException.require(count >= 0, "count", count, "must be at least 0 (the sets the event waits for)");
        eventVa(ev);
        charge(profile.pioWriteNs());
        nic.sdram().putInt(ev + E3.EV_COUNT, count);
    }

    /**
     * {@code elan3_setevent}: one set, issued by the host through the command processor.
     *
     * @param ev the event.
     */
    public void setevent(final long ev)
    {
        attachedCheck();
        final long va = eventVa(ev);
        charge(profile.pioWriteNs());
        nic.hostSetEvent(hw, va);
    }

    /**
     * {@code EVENT_WORD_READY}: whether a word event has fired into {@code hostWord}.
     *
     * @param hostWord the word.
     * @return whether it is set.
     */
    public boolean eventWordReady(final long hostWord)
    {
        final boolean ready = wordReady(hostWord);
        sim.poll(hostAccessNs);
        return ready;
    }

    private boolean wordReady(final long hostWord)
    {
        return raw.getInt(hostWord) != 0;
    }

    /**
     * {@code EVENT_BLK_READY}: whether a block-copy event has landed (last word of the block non-zero).
     *
     * @param hostBlk the block.
     * @return whether it has landed.
     */
    public boolean eventBlkReady(final long hostBlk)
    {
        final boolean ready = blkReady(hostBlk);
        sim.poll(hostAccessNs);
        return ready;
    }

    private boolean blkReady(final long hostBlk)
    {
        return raw.getInt(hostBlk + E3.BLK_SIZE - 4) != 0;
    }

    /**
     * {@code E3_RESET_BCOPY_BLOCK}: clears a block before the event is primed again.
     *
     * @param hostBlk the block.
     */
    public void resetBcopyBlock(final long hostBlk)
    {
        write(hostBlk, new byte[E3.BLK_SIZE], 0, E3.BLK_SIZE);
    }

    /**
     * {@code elan3_pollevent_word}: checks a word event without blocking, up to {@code count} polls.
     *
     * @param hostWord the word.
     * @param count    polls (at least 1).
     * @return whether it has fired.
     */
    public boolean pollEventWord(final long hostWord, final int count)
    {
        live();
        charge(0);
        for (int i = 0; i < Math.max(1, count); i++)
        {
            sim.poll(profile.hostPollNs());
            if (wordReady(hostWord))
            {
                return true;
            }
        }
        return false;
    }

    /**
     * {@code elan3_waitevent_word}: waits until the word event has fired.
     *
     * @param ev       the event (for the interrupt).
     * @param hostWord the word.
     * @param how      {@link Elan3#ELAN_POLL_EVENT}, {@link Elan3#ELAN_WAIT_EVENT} or a spin count.
     */
    public void waitEventWord(final long ev, final long hostWord, final long how)
    {
        waitEventWord(ev, hostWord, how, null);
    }

    /**
     * {@code elan3_waitevent_word} on behalf of a library call that says, in its user's terms,
     * what the wait is for (a Tports receive and its tag, a barrier, a put).
     *
     * @param ev       the event (for the interrupt).
     * @param hostWord the word.
     * @param how      {@link Elan3#ELAN_POLL_EVENT}, {@link Elan3#ELAN_WAIT_EVENT} or a spin count.
     * @param what     the wait's description for a deadlock or limit report (see
     *                 {@link SimProcess#await(org.qsnet.fabric.engine.Signal, Object)}), or null for the event.
     */
    public void waitEventWord(final long ev, final long hostWord, final long how, final Object what)
    {
        live();
        eventVa(ev);
        final long va = mappedMain("event word", hostWord);
        waitFor(() -> wordReady(hostWord), va, how, what != null ? what : eventWait("elan3_waitevent_word", ev));
    }

    /** A wait's description, built only when a report shows it. */
    private static Supplier<String> eventWait(final String call, final long ev)
    {
        return () -> call + " on event 0x" + Long.toHexString(ev);
    }

    /**
     * {@code elan3_waitevent_blk}: waits until the block event has landed.
     *
     * @param ev      the event.
     * @param hostBlk the block.
     * @param how     {@link Elan3#ELAN_POLL_EVENT}, {@link Elan3#ELAN_WAIT_EVENT} or a spin count.
     */
    public void waitEventBlk(final long ev, final long hostBlk, final long how)
    {
        waitEventBlk(ev, hostBlk, how, null);
    }

    /**
     * {@code elan3_waitevent_blk} on behalf of a library call that says, in its user's terms, what
     * the wait is for (a queue's arrivals).
     *
     * @param ev      the event.
     * @param hostBlk the block.
     * @param how     {@link Elan3#ELAN_POLL_EVENT}, {@link Elan3#ELAN_WAIT_EVENT} or a spin count.
     * @param what    the wait's description for reports, or null for the event.
     */
    public void waitEventBlk(final long ev, final long hostBlk, final long how, final Object what)
    {
        live();
        eventVa(ev);
        final long va = mappedMain("event block", hostBlk);
        waitFor(() -> blkReady(hostBlk), va, how, what != null ? what : eventWait("elan3_waitevent_blk", ev));
    }

    /**
     * Waits, as the host does, for the NIC to write an Elan address: spinning on host memory
     * (the poll that sees the write costs one poll), sleeping (an interrupt), or spinning
     * {@code how} times and then sleeping.
     *
     * @param ready the condition.
     * @param va    the Elan address the NIC writes.
     * @param how   the wait type.
     */
    public void waitFor(final BooleanSupplier ready, final long va, final long how)
    {
        waitFor(ready, va, how, null);
    }

    /**
     * Waits, as {@link #waitFor(BooleanSupplier, long, long)}, saying in the user's terms what for.
     *
     * @param ready the condition.
     * @param va    the Elan address the NIC writes.
     * @param how   the wait type.
     * @param what  the wait's description for a deadlock or limit report, or null; any object
     *              (its {@code toString()} is called only when a report is made) or a
     *              {@link Supplier} of the text.
     */
    public void waitFor(final BooleanSupplier ready, final long va, final long how, final Object what)
    {
        QsnetException.require(how == Elan3.ELAN_POLL_EVENT || how == Elan3.ELAN_WAIT_EVENT || how >= 0, "how", how,
            "must be ELAN_POLL_EVENT, ELAN_WAIT_EVENT or a spin count");
        charge(0);
        final long start = sim.nowNs();
        if (!ready.getAsBoolean())
        {
            sim.awaitUntil(ready, hw.watch(va), what);
        }
        final boolean spun = how == Elan3.ELAN_POLL_EVENT || (how >= 0 && sim.nowNs() - start <= how * profile.hostPollNs());
        sim.advance(spun ? profile.hostPollNs() : profile.blockingWakeNs());
    }

    /**
     * Waits as {@link #waitFor(BooleanSupplier, long, long, Object)} on behalf of a library that runs
     * the program's poll function while it waits ({@code elan_addPollFn}, {@code elan_addProgressFn}):
     * {@code poll} runs first and again after every NIC write into this context, so a function that
     * serves the program's own queue (GASNet's conduit answers requests from inside
     * {@code elan_hgsync}) sees each arrival. Between writes the process sleeps, so a wait nothing will
     * end is still reported as a deadlock; a function that returns true asks to be run again at once,
     * one poll later. Not an Elan3lib call: the libraries above use it.
     *
     * @param ready the condition.
     * @param va    the Elan address the NIC writes.
     * @param how   the wait type.
     * @param what  the wait's description for reports, or null.
     * @param poll  the poll function(s); true to be called again without sleeping.
     */
    public void waitForPolling(final BooleanSupplier ready, final long va, final long how, final Object what,
        final BooleanSupplier poll)
    {
        for (;;)
        {
            final long seen = hw.notifiedWrites();
            final boolean again = poll.getAsBoolean();
            if (ready.getAsBoolean())
            {
                break;
            }
            if (again)
            {
                sim.poll(profile.hostPollNs());
            }
            else if (hw.notifiedWrites() == seen)
            {
                sim.awaitUntil(() -> hw.notifiedWrites() != seen, hw.anyWrite(), what);
            }
        }
        waitFor(ready, va, how, what);
    }

    /**
     * {@code elan3_waitevent_word} as {@link #waitForPolling} waits: the poll function runs while the
     * process waits for the word event.
     *
     * @param ev       the event.
     * @param hostWord the word.
     * @param how      the wait type.
     * @param what     the wait's description for reports, or null.
     * @param poll     the poll function(s); true to be called again without sleeping.
     */
    public void waitEventWordPolling(final long ev, final long hostWord, final long how, final Object what,
        final BooleanSupplier poll)
    {
        live();
        eventVa(ev);
        final long va = mappedMain("event word", hostWord);
        waitForPolling(() -> wordReady(hostWord), va, how, what != null ? what : eventWait("elan3_waitevent_word", ev), poll);
    }

    /**
     * Waits until {@code ready} holds, woken by the NIC's write to any of several words: what a
     * progress engine does when any of several operations may unblock it (an MPI receive while
     * non-blocking collectives are in flight). Costs as {@link #waitFor(BooleanSupplier, long,
     * long, Object)}: a poll when it did not sleep (or spun no longer than {@code how} polls), else
     * the wake-up of a blocking wait. Not an Elan3lib call: the libraries above use it.
     *
     * @param ready the condition.
     * @param vas   the Elan addresses of the words the NIC writes; at least one.
     * @param how   the wait type.
     * @param what  the wait's description for a deadlock or limit report, or null.
     */
    public void waitForAny(final BooleanSupplier ready, final long[] vas, final long how, final Object what)
    {
        QsnetException.require(how == Elan3.ELAN_POLL_EVENT || how == Elan3.ELAN_WAIT_EVENT || how >= 0, "how", how,
            "must be ELAN_POLL_EVENT, ELAN_WAIT_EVENT or a spin count");
        QsnetException.require(vas.length > 0, "vas", "an empty array", "must name at least one word");
        charge(0);
        final long start = sim.nowNs();
        if (!ready.getAsBoolean())
        {
            final Signal[] signals = new Signal[vas.length];
            for (int i = 0; i < vas.length; i++)
            {
                signals[i] = hw.watch(vas[i]);
            }
            sim.awaitAny(ready, signals, what);
        }
        final boolean spun = how == Elan3.ELAN_POLL_EVENT || (how >= 0 && sim.nowNs() - start <= how * profile.hostPollNs());
        sim.advance(spun ? profile.hostPollNs() : profile.blockingWakeNs());
    }

    /**
     * {@code elan3_waitevent}: re-arms an event for one more set, so that its next set fires it
     * again and wakes a sleeping waiter. The NIC adds one to the count rather than overwriting it:
     * sets that arrived while the consumer was between waits (a queue's arrivals) are kept, and the
     * event fires again at once for each of them. Call it once per arrival consumed, as LA-MPI does
     * after each queue slot ("reprime ELAN q_event with a wait").
     *
     * @param ev the event.
     */
    public void waitevent(final long ev)
    {
        live();
        final long va = eventVa(ev);
        charge(profile.pioWriteNs());
        nic.rearmEvent(hw, va);
    }

    /**
     * {@code elan3_waitdmaevent}: when {@code ev} fires, the NIC issues the SDRAM descriptor {@code dma}.
     *
     * @param dma the descriptor's SDRAM handle.
     * @param ev  the event.
     */
    public void waitdmaevent(final long dma, final long ev)
    {
        final long d = sdram2elan(dma);
        if ((d & 31) != 0)
        {
            QsnetException.require(false, "dma", "0x" + Long.toHexString(dma), "must be 32-byte aligned");
        }
        eventVa(ev);
        charge(profile.pioWriteNs());
        nic.sdram().putInt(ev + E3.EV_TYPE, (int)(d | E3.EV_TYPE_DMA));
    }

    /**
     * {@code elan3_waitdmaevent0}: issues {@code dma} after {@code count} sets of {@code ev}.
     *
     * @param dma        the descriptor.
     * @param ev         the event.
     * @param waitEvent0 the {@code E3_WaitEvent0} (its count lives in the event here).
     * @param count      sets needed.
     */
    public void waitdmaevent0(final long dma, final long ev, final long waitEvent0, final int count)
    {
        waitdmaevent(dma, ev);
        primeevent(ev, count);
    }

    // ------------------------------------------------------------------ DMA

    /**
     * {@code elan3_local_cookie}: the cookie of the local side; its low 16 bits are {@code myVp}.
     *
     * @param myVp     this VP.
     * @param remoteVp the other VP.
     * @return the cookie.
     */
    public int localCookie(final int myVp, final int remoteVp)
    {
        return ((++cookieSeq & 0x7fff) << 16) | (myVp & 0xffff);
    }

    /**
     * {@code elan3_remote_cookie}: the cookie of the remote side; its low 16 bits are {@code remoteVp}.
     *
     * @param myVp     this VP.
     * @param remoteVp the other VP.
     * @return the cookie.
     */
    public int remoteCookie(final int myVp, final int remoteVp)
    {
        return ((++cookieSeq & 0x7fff) << 16) | (remoteVp & 0xffff);
    }

    /**
     * {@code elan3_putdma}: hands the NIC a descriptor already in SDRAM (one programmed-I/O write).
     *
     * @param dma the descriptor's SDRAM handle.
     */
    public void putdma(final long dma)
    {
        attachedCheck();
        final long va = sdram2elan(dma);
        charge(profile.pioWriteNs());
        nic.command(hw, va);
    }

    /**
     * {@code elan3_putdma_main}: copies a host descriptor into the SDRAM scratch descriptor
     * (eight programmed-I/O writes) and issues it.
     *
     * @param dma     the descriptor.
     * @param scratch a 32-byte aligned SDRAM descriptor.
     */
    public void putdmaMain(final E3DmaMain dma, final long scratch)
    {
        attachedCheck();
        final long va = sdram2elan(scratch);
        charge(9 * profile.pioWriteNs());
        store(dma, scratch);
        nic.command(hw, va);
    }

    /**
     * {@code elan3_getdma_main}: as {@link #putdmaMain} for a {@code DMA_READ}.
     *
     * @param dma     the descriptor (direction DMA_READ).
     * @param scratch a 32-byte aligned SDRAM descriptor.
     */
    public void getdmaMain(final E3DmaMain dma, final long scratch)
    {
        if (E3.direction(dma.dma_type) != E3.DMA_READ)
        {
            QsnetException.require(false, "dma_type", "0x" + Integer.toHexString(dma.dma_type),
                "must be a DMA_READ for elan3_getdma_main");
        }
        putdmaMain(dma, scratch);
    }

    /**
     * Writes a host descriptor into SDRAM (no cost: callers charge it).
     *
     * @param dma   the descriptor.
     * @param sdram where.
     */
    void store(final E3DmaMain dma, final long sdram)
    {
        dma.writeTo(nic.sdram(), sdram);
    }

    /**
     * Writes a descriptor into SDRAM with programmed I/O (eight words).
     *
     * @param dma   the descriptor.
     * @param sdram where, 32-byte aligned.
     */
    public void copyDmaToSdram(final E3DmaMain dma, final long sdram)
    {
        live();
        charge(8 * profile.pioWriteNs());
        store(dma, sdram);
    }

    /**
     * Patches one field of a descriptor in SDRAM: {@code E3_WRITE_DMA_SIZE}, {@code ..._SOURCE},
     * {@code ..._DEST}, {@code ..._SRCEVENT}, {@code ..._DESTEVENT}.
     *
     * @param dma         the descriptor.
     * @param fieldOffset the field's offset ({@link E3#DMA_SIZE_FIELD}, ...).
     * @param value       the new value.
     */
    public void writeDmaField(final long dma, final int fieldOffset, final long value)
    {
        QsnetException.require(fieldOffset >= 0 && fieldOffset < E3.DMA_SIZE && fieldOffset % 4 == 0, "field offset",
            fieldOffset, "must be a field of E3_DMA (0, 4, ..., 28)");
        live();
        // the whole descriptor is checked, so a bad handle is named as the program passed it
        memory.checkSdram(switch (fieldOffset)
        {
            case 4 -> "E3_WRITE_DMA_SIZE";
            case 8 -> "E3_WRITE_DMA_SOURCE";
            case 12 -> "E3_WRITE_DMA_DEST";
            case 16 -> "E3_WRITE_DMA_DESTEVENT";
            case 24 -> "E3_WRITE_DMA_SRCEVENT";
            default -> "E3_DMA field " + fieldOffset;
        } + " (dma)", dma, E3.DMA_SIZE);
        write32Sdram(dma + fieldOffset, (int)value);
    }

    // ------------------------------------------------------------------ broadcast

    /**
     * {@code elan3_allocatebcastvp}: reserves a broadcast VP number.
     *
     * @return the VP, or -1.
     */
    public int allocateBcastVp()
    {
        attachedCheck();
        charge(0);
        return nextBroadcastVp < 0 ? -1 : nextBroadcastVp++;
    }

    /**
     * {@code elan3_addbcastvp}: makes {@code bcastVp} stand for the contiguous VPs {@code lowVp..highVp}.
     *
     * @param bcastVp the broadcast VP.
     * @param lowVp   first VP.
     * @param highVp  last VP.
     * @return 0 on success, -1 if the VPs are not on contiguous nodes.
     */
    public int addBcastVp(final int bcastVp, final int lowVp, final int highVp)
    {
        attachedCheck();
        charge(profile.pioWriteNs());
        try
        {
            hw.addBroadcastVp(bcastVp, lowVp, highVp);
            return 0;
        }
        catch (final QsnetException e)
        {
            // the hardware's reason (a VP range out of order or outside the VPs, a hole, nodes not contiguous)
            return process.fail(Elan3lib.EINVAL, "elan3_addbcastvp: " + e.getMessage());
        }
    }

    /**
     * The hardware barrier test: a broadcast to the VPs of {@code bcastVp} that succeeds only when
     * the word at {@code hostWord} (the same address in every member) has reached {@code expected}
     * everywhere; the NIC repeats it until then and sets {@code ev}. (Elanlib's {@code elan_hgsync}
     * is built on it.)
     *
     * @param bcastVp  a broadcast VP.
     * @param hostWord host address of the word, in every member.
     * @param expected the value to reach.
     * @param ev       local event set when every member is ready (SDRAM handle).
     */
    public void broadcastTest(final int bcastVp, final long hostWord, final int expected, final long ev)
    {
        attachedCheck();
        charge(4 * profile.pioWriteNs());
        nic.broadcastTest(hw, bcastVp, mappedMain("barrier word", hostWord), expected, eventVa(ev));
    }

    // ------------------------------------------------------------------ remote atomics

    /**
     * Remote fetch-and-add on a 32-bit word: a non-write-block transaction whose result returns
     * in the acknowledgement.
     *
     * @param vp         the remote VP.
     * @param remoteAddr Elan address of the word at the remote.
     * @param value      the addend.
     * @param resultHost host word receiving the old value, 0 for none.
     * @param ev         local event set on completion (SDRAM handle), 0 for none.
     */
    public void atomicFetchAdd(final int vp, final long remoteAddr, final int value, final long resultHost, final long ev)
    {
        atomic(E3.ATOMIC_FETCH_ADD, vp, remoteAddr, value, 0, resultHost, ev);
    }

    /**
     * Remote test-and-write: writes {@code value} if the word equals {@code expected}.
     *
     * @param vp         the remote VP.
     * @param remoteAddr Elan address of the word at the remote.
     * @param expected   the value expected.
     * @param value      the value written.
     * @param resultHost host word receiving the old value, 0 for none.
     * @param ev         local event set on completion, 0 for none.
     */
    public void atomicTestAndWrite(final int vp, final long remoteAddr, final int expected, final int value,
        final long resultHost, final long ev)
    {
        atomic(E3.ATOMIC_TEST_AND_WRITE, vp, remoteAddr, value, expected, resultHost, ev);
    }

    private void atomic(final int op, final int vp, final long remoteAddr, final int value, final int expected,
        final long resultHost, final long ev)
    {
        attachedCheck();
        charge(4 * profile.pioWriteNs());
        nic.atomic(hw, op, vp, remoteAddr, value, expected, resultHost == 0 ? 0 : mappedMain("atomic result", resultHost),
            ev == 0 ? 0 : eventVa(ev));
    }

    @Override
    public String toString()
    {
        return "ELAN3_CTX of " + process + " (" + hw + ")";
    }
}
