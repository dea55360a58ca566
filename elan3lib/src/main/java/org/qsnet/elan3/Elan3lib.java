package org.qsnet.elan3;

import org.qsnet.fabric.QsnetException;

/**
 * The C-named facade of Elan3lib (ELAN-API.md §1.4) and of the RMS calls of §4.2: each method
 * is the C call of the same name, with the catalog's arguments in the catalog's order, over
 * {@link Elan3Context} and {@link ElanCapability}, so a port keeps its calls line for line.
 *
 * <p>How C maps: {@code void *} and {@code E3_Addr} become a {@code long} address,
 * {@code sdramaddr_t} a {@code long} SDRAM handle, {@code ELAN3_SDRAM *} ({@code ctx->sdram}) the
 * {@link Elan3Context#sdram} field, {@code size_t} a {@code long}; a struct pointer filled by the
 * call ({@code ELAN_CAPABILITY *}, {@code ELAN3_DEVINFO *}) is the Java object, filled in place;
 * an {@code int *} out-parameter an {@code int[]} (element 0 written); a {@code char *} buffer a
 * {@link StringBuilder}.
 *
 * <p>Status: a call that returns a status in C returns the same status here (0 or -1, NULL for a
 * pointer) and sets this simulated process's {@link #errno()} (its own, as errno was per process),
 * with the library's message in {@link #strerror(int)}'s place through {@link #perror(String)};
 * {@code void} calls, and the Java API underneath, throw a {@link QsnetException} instead.
 *
 * <pre>
 * import static org.qsnet.elan3.Elan3lib.*;
 * ElanCapability cap = new ElanCapability();
 * rms_getcap(0, cap);
 * Elan3Context ctx = elan3_init(0, 0x400000, 0x2000000, 0x200000, 0x200000);
 * elan3_set_required_mappings(ctx);
 * elan3_block_inputter(ctx, 1);
 * if (elan3_attach(ctx, cap) &lt; 0) { perror("elan3_attach"); return; }
 * elan3_addvp(ctx, 0, cap);
 * int me = elan3_process(ctx);
 * </pre>
 */
public final class Elan3lib
{
    /** {@code EPERM}: operation not permitted. */
    public static final int EPERM = 1;
    /** {@code ENOENT}: no such file or directory (an unset environment variable). */
    public static final int ENOENT = 2;
    /** {@code ENOMEM}: out of memory (a heap is exhausted). */
    public static final int ENOMEM = 12;
    /** {@code EFAULT}: bad address (a memory fault). */
    public static final int EFAULT = 14;
    /** {@code EBUSY}: resource busy (a context already attached, a capability of another job). */
    public static final int EBUSY = 16;
    /** {@code ENODEV}: no such device (a rail the node does not have). */
    public static final int ENODEV = 19;
    /** {@code EINVAL}: invalid argument (any other misuse; {@link #perror} prints the rule broken). */
    public static final int EINVAL = 22;

    private Elan3lib()
    {
    }

    // ------------------------------------------------------------------ errno

    /**
     * {@code errno}: the error number the calling process's last failing status-returning call set
     * (0 if none failed). Each simulated process has its own.
     *
     * @return the error number.
     */
    public static int errno()
    {
        return ElanProcess.current().errno();
    }

    /**
     * {@code strerror}: the text of an error number.
     *
     * @param errnum an error number.
     * @return its text, as the C library prints it.
     */
    public static String strerror(final int errnum)
    {
        return switch (errnum)
        {
            case 0 -> "Success";
            case EPERM -> "Operation not permitted";
            case ENOENT -> "No such file or directory";
            case ENOMEM -> "Cannot allocate memory";
            case EFAULT -> "Bad address";
            case EBUSY -> "Device or resource busy";
            case ENODEV -> "No such device";
            case EINVAL -> "Invalid argument";
            default -> "Unknown error " + errnum;
        };
    }

    /**
     * {@code perror}: prints {@code "s: <strerror(errno)> (<the library's reason>)"} on the
     * process's standard error.
     *
     * @param s the prefix (the failing call's name, as C code passes it), or null.
     */
    public static void perror(final String s)
    {
        final ElanProcess p = ElanProcess.current();
        System.err.println((s == null || s.isEmpty() ? "" : s + ": ") + strerror(p.errno())
            + (p.lastError().isEmpty() ? "" : " (" + p.lastError() + ")"));
    }

    // ------------------------------------------------------------------ lifecycle

    /**
     * {@code elan3_init}: opens the rail and creates a context.
     *
     * @see Elan3Context#init(int, long, long, long, long)
     * @return the context, or null (with {@link #errno()} set: ENODEV for a rail the node lacks,
     *     EINVAL for bad heaps).
     */
    public static Elan3Context elan3_init(final int rail, final long mainAllocBase, final long mainAllocSize,
        final long elanAllocBase, final long elanAllocSize)
    {
        try
        {
            return Elan3Context.init(rail, mainAllocBase, mainAllocSize, elanAllocBase, elanAllocSize);
        }
        catch (final QsnetException e)
        {
            ElanProcess.failed(rail != 0 ? ENODEV : EINVAL, e);
            return null;
        }
    }

    /**
     * {@code elan3_set_required_mappings}.
     *
     * @see Elan3Context#setRequiredMappings()
     * @return 1 on success, 0 on failure (errno set).
     */
    public static int elan3_set_required_mappings(final Elan3Context ctx)
    {
        try
        {
            return ctx.setRequiredMappings();
        }
        catch (final QsnetException e)
        {
            return ElanProcess.failed(e) + 1;
        }
    }

    /**
     * {@code elan3_set_standard_mappings}.
     *
     * @see Elan3Context#setStandardMappings()
     * @return 1 on success, 0 on failure (errno set).
     */
    public static int elan3_set_standard_mappings(final Elan3Context ctx)
    {
        try
        {
            return ctx.setStandardMappings();
        }
        catch (final QsnetException e)
        {
            return ElanProcess.failed(e) + 1;
        }
    }

    /** @see Elan3Context#blockInputter(int) */
    public static void elan3_block_inputter(final Elan3Context ctx, final int block)
    {
        ctx.blockInputter(block);
    }

    /**
     * {@code elan3_attach}.
     *
     * @see Elan3Context#attach(ElanCapability)
     * @return 0 on success, -1 on failure (errno EINVAL for a wrong key or context, EBUSY when
     *     already attached).
     */
    public static int elan3_attach(final Elan3Context ctx, final ElanCapability cap)
    {
        try
        {
            return ctx.attach(cap);
        }
        catch (final QsnetException e)
        {
            return ElanProcess.failed(ctx.capability() != null ? EBUSY : EINVAL, e);
        }
    }

    /**
     * {@code elan3_addvp}.
     *
     * @see Elan3Context#addvp(int, ElanCapability)
     * @return 0 on success, -1 on failure (errno set).
     */
    public static int elan3_addvp(final Elan3Context ctx, final int firstVp, final ElanCapability cap)
    {
        try
        {
            return ctx.addvp(firstVp, cap);
        }
        catch (final QsnetException e)
        {
            return ElanProcess.failed(e);
        }
    }

    /**
     * {@code elan3_process}.
     *
     * @see Elan3Context#process()
     * @return this process's VP, or -1 when the context is not attached (errno set).
     */
    public static int elan3_process(final Elan3Context ctx)
    {
        try
        {
            return ctx.process();
        }
        catch (final QsnetException e)
        {
            return ElanProcess.failed(e);
        }
    }

    /** @see Elan3Context#detach() */
    public static void elan3_detach(final Elan3Context ctx)
    {
        ctx.detach();
    }

    /** @see Elan3Context#fini() */
    public static void elan3_fini(final Elan3Context ctx)
    {
        ctx.fini();
    }

    /**
     * {@code elan3_control_open}: opens the control device of a rail of this node (needs no
     * context; used by launchers before any process attaches).
     *
     * @param rail the rail (0).
     * @return the handle, or null (errno ENODEV) for a rail the node does not have.
     */
    public static Elan3Control elan3_control_open(final int rail)
    {
        final ElanProcess p = ElanProcess.current();
        if (rail != 0)
        {
            p.fail(ENODEV, "rail " + rail + " does not exist: the emulated nodes have one rail (0)");
            return null;
        }
        return new Elan3Control(p, rail);
    }

    /**
     * {@code elan3_create}: registers a capability with the driver of the control handle's node,
     * so that processes holding it may attach its contexts. Registering the same key again is
     * harmless (TEAC calls it and ignores the result).
     *
     * @param ctl the handle from {@link #elan3_control_open}.
     * @param cap the capability (its key and context range).
     * @return 0 on success, -1 (errno EBUSY) when a context of the range belongs to another job's
     *     capability, -1 (errno EINVAL) for a closed handle or a capability not set up.
     */
    public static int elan3_create(final Elan3Control ctl, final ElanCapability cap)
    {
        try
        {
            QsnetException.require(!ctl.closed, "ctl", ctl, "was closed by elan3_control_close");
            QsnetException.require(cap.lowContext >= 0 && cap.highContext >= cap.lowContext, "capability contexts",
                cap.lowContext + ".." + cap.highContext, "must be a range (set LowContext and HighContext)");
        }
        catch (final QsnetException e)
        {
            return ElanProcess.failed(EINVAL, e);
        }
        try
        {
            ctl.process.machine().createCapability(ctl.process.node(), cap.lowContext, cap.highContext, cap.userKey);
            return 0;
        }
        catch (final QsnetException e)
        {
            return ElanProcess.failed(EBUSY, e);
        }
    }

    /**
     * {@code elan3_control_close}: closes a control handle (the capabilities it created stay
     * registered for the job's lifetime).
     *
     * @param ctl the handle.
     */
    public static void elan3_control_close(final Elan3Control ctl)
    {
        ctl.closed = true;
    }

    /**
     * {@code elan3_devinfo}: the calling process's node id and the network's levels (needs no
     * context).
     *
     * @param rail the rail (0).
     * @param info the struct to fill: {@code NodeId}, {@code NumLevels}, {@code NodeLevel},
     *             {@code NumNodes}, and the same under {@code Position}.
     * @return 0 on success, -1 (errno ENODEV) for a rail the node does not have.
     */
    public static int elan3_devinfo(final int rail, final Elan3DevInfo info)
    {
        final ElanProcess p = ElanProcess.current();
        if (rail != 0)
        {
            return p.fail(ENODEV, "rail " + rail + " does not exist: the emulated nodes have one rail (0)");
        }
        final var topology = p.machine().fabric().topology();
        info.set(p.node(), topology.dim(), p.machine().nodeCount());
        return 0;
    }

    /**
     * {@code elan3_get_position}: the newer form of {@link #elan3_devinfo}.
     *
     * @param ctx the context.
     * @param pos the struct to fill.
     * @return 0.
     */
    public static int elan3_get_position(final Elan3Context ctx, final ElanPosition pos)
    {
        final ElanProcess p = ctx.owner();
        pos.pos_mode = ElanPosition.ELAN_POS_MODE_SWITCHED;
        pos.pos_nodeid = p.node();
        pos.pos_levels = p.machine().fabric().topology().dim();
        pos.pos_nodes = p.machine().nodeCount();
        return 0;
    }

    // ------------------------------------------------------------------ RMS

    /**
     * {@code rms_mycap}: the index of this process's capability among those of its program
     * (always 0: the launcher gives each program one).
     *
     * @param capIndex {@code int *}: element 0 receives the index.
     * @return 0.
     */
    public static int rms_mycap(final int[] capIndex)
    {
        ElanProcess.current();
        capIndex[0] = 0;
        return 0;
    }

    /**
     * {@code rms_ncaps}: how many capabilities this process's program holds (1).
     *
     * @param ncaps {@code int *}: element 0 receives the count.
     * @return 0.
     */
    public static int rms_ncaps(final int[] ncaps)
    {
        ElanProcess.current();
        ncaps[0] = 1;
        return 0;
    }

    /**
     * {@code rms_getcap}: copies capability {@code index} of this process's program, with this
     * process's {@code MyContext}, into {@code cap}.
     *
     * @param capIndex the index from {@link #rms_mycap} (0).
     * @param cap      the struct to fill.
     * @return 0 on success, -1 (errno EINVAL) for an index the program does not hold.
     */
    public static int rms_getcap(final int capIndex, final ElanCapability cap)
    {
        final ElanProcess p = ElanProcess.current();
        if (capIndex != 0)
        {
            return p.fail(EINVAL, "capability index " + capIndex + " must be 0 (the program holds one capability)");
        }
        p.capability().copyInto(cap);
        return 0;
    }

    // ------------------------------------------------------------------ capabilities and VPs (no context needed)

    /** @see ElanCapability#nullcap() */
    public static void elan3_nullcap(final ElanCapability cap)
    {
        cap.nullcap();
    }

    /**
     * {@code elan3_capability_string}: the human-readable dump.
     *
     * @see ElanCapability#capabilityString()
     * @param cap the capability.
     * @param buf {@code char *}: receives the text (replacing what it held), or null.
     * @return the text.
     */
    public static String elan3_capability_string(final ElanCapability cap, final StringBuilder buf)
    {
        final String s = cap.capabilityString();
        if (buf != null)
        {
            buf.setLength(0);
            buf.append(s);
        }
        return s;
    }

    /** @see ElanCapability#nvps() @return VPs. */
    public static int elan3_nvps(final ElanCapability cap)
    {
        return cap.nvps();
    }

    /** @see ElanCapability#nlocal(int) @return processes on the node. */
    public static int elan3_nlocal(final int relNode, final ElanCapability cap)
    {
        return cap.nlocal(relNode);
    }

    /** @see ElanCapability#maxlocal() @return the context range's width. */
    public static int elan3_maxlocal(final ElanCapability cap)
    {
        return cap.maxlocal();
    }

    /** @see ElanCapability#vp2location(int) @return the location. */
    public static ElanLocation elan3_vp2location(final int vp, final ElanCapability cap)
    {
        return cap.vp2location(vp);
    }

    /** @see ElanCapability#location2vp(ElanLocation) @return the VP or ELAN_INVALID_PROCESS. */
    public static int elan3_location2vp(final ElanLocation loc, final ElanCapability cap)
    {
        return cap.location2vp(loc);
    }

    /** @see ElanCapability#nrails() @return rails. */
    public static int elan3_nrails(final ElanCapability cap)
    {
        return cap.nrails();
    }

    /**
     * {@code elan3_rails}: the rail device numbers of the capability's rail mask.
     *
     * @see ElanCapability#rails()
     * @param cap  the capability.
     * @param devs {@code int *}: receives the rail numbers, one per element (it must hold
     *             {@link #elan3_nrails} elements).
     * @return the number of rails.
     */
    public static int elan3_rails(final ElanCapability cap, final int[] devs)
    {
        final int[] r = cap.rails();
        QsnetException.require(devs.length >= r.length, "devs length", devs.length,
            "must hold the capability's " + r.length + " rails");
        System.arraycopy(r, 0, devs, 0, r.length);
        return r.length;
    }

    /** @see Elan3Context#allocMain(int, long) @return host address or 0. */
    public static long elan3_allocMain(final Elan3Context ctx, final int align, final long size)
    {
        return ctx.allocMain(align, size);
    }

    /** @see Elan3Context#allocElan(int, long) @return SDRAM handle or 0. */
    public static long elan3_allocElan(final Elan3Context ctx, final int align, final long size)
    {
        return ctx.allocElan(align, size);
    }

    /** @see Elan3Context#free(long) */
    public static void elan3_free(final Elan3Context ctx, final long ptr)
    {
        ctx.free(ptr);
    }

    /** @see Elan3Context#freeElan(long) */
    public static void elan3_freeElan(final Elan3Context ctx, final long sdram)
    {
        ctx.freeElan(sdram);
    }

    /** @see Elan3Context#allocVaddr(int, long) @return Elan address or ELAN_ADDR_NULL. */
    public static long elan3_allocVaddr(final Elan3Context ctx, final int align, final long size)
    {
        return ctx.allocVaddr(align, size);
    }

    /** @see Elan3Context#main2elan(long) @return Elan address or ELAN_BAD_ADDR. */
    public static long elan3_main2elan(final Elan3Context ctx, final long ptr)
    {
        return ctx.main2elan(ptr);
    }

    /** @see Elan3Context#elan2main(long) @return host address or 0. */
    public static long elan3_elan2main(final Elan3Context ctx, final long addr)
    {
        return ctx.elan2main(addr);
    }

    /**
     * {@code elan3_sdram2elan}.
     *
     * @see Elan3Context#sdram2elan(long)
     * @param ctx   the context.
     * @param sdram {@code ctx->sdram}.
     * @param s     an SDRAM handle of the context's Elan heap.
     * @return its Elan address.
     */
    public static long elan3_sdram2elan(final Elan3Context ctx, final Elan3Sdram sdram, final long s)
    {
        sdramOf(ctx, sdram);
        return ctx.sdram2elan(s);
    }

    private static Elan3Context sdramOf(final Elan3Context ctx, final Elan3Sdram sdram)
    {
        if (sdram == null || sdram.ctx != ctx)
        {
            throw new QsnetException("sdram " + sdram + " must be ctx->sdram (ctx.sdram) of " + ctx);
        }
        return ctx;
    }

    private static Elan3Context ctxOf(final Elan3Sdram sdram)
    {
        if (sdram == null)
        {
            throw new QsnetException("sdram null must be ctx->sdram (ctx.sdram) of an Elan3 context");
        }
        return sdram.ctx;
    }

    /** @see Elan3Context#addressable(long, long) @return whether mapped. */
    public static boolean elan3_addressable(final Elan3Context ctx, final long ptr, final long size)
    {
        return ctx.addressable(ptr, size);
    }

    /**
     * {@code elan3_setperm}.
     *
     * @see Elan3Context#setperm(long, long, long, int)
     * @return 0 on success, -1 on failure (errno set).
     */
    public static int elan3_setperm(final Elan3Context ctx, final long main, final long elan, final long size, final int perm)
    {
        try
        {
            final int r = ctx.setperm(main, elan, size, perm);
            return r < 0 ? ElanProcess.current().fail(EINVAL, "elan3_setperm of 0x" + Long.toHexString(main) + " at Elan 0x"
                + Long.toHexString(elan) + " (" + size + " bytes) could not be mapped") : r;
        }
        catch (final QsnetException e)
        {
            return ElanProcess.failed(e);
        }
    }

    /** @see Elan3Context#clearpermMain(long, long) */
    public static void elan3_clearperm_main(final Elan3Context ctx, final long main, final long size)
    {
        ctx.clearpermMain(main, size);
    }

    /** @see Elan3Context#clearpermElan(long, long) */
    public static void elan3_clearperm_elan(final Elan3Context ctx, final long elan, final long size)
    {
        ctx.clearpermElan(elan, size);
    }

    /** {@code elan3_clearperm}: the older (1.2) name of {@link #elan3_clearperm_elan}. */
    public static void elan3_clearperm(final Elan3Context ctx, final long elan, final long size)
    {
        ctx.clearpermElan(elan, size);
    }

    /** @see Elan3Context#write32Sdram(long, int) */
    public static void elan3_write32_sdram(final Elan3Sdram sdram, final long s, final int value)
    {
        ctxOf(sdram).write32Sdram(s, value);
    }

    /** @see Elan3Context#read32Sdram(long) @return the word. */
    public static int elan3_read32_sdram(final Elan3Sdram sdram, final long s)
    {
        return ctxOf(sdram).read32Sdram(s);
    }

    /** @see Elan3Context#copy32ToSdram(long, long) */
    public static void elan3_copy32_to_sdram(final Elan3Sdram sdram, final long mainSrc, final long dst)
    {
        ctxOf(sdram).copy32ToSdram(mainSrc, dst);
    }

    /** @see Elan3Context#blkcopy64ToSdram(long, long, int) */
    public static void elan3_blkcopy64_to_sdram(final Elan3Sdram sdram, final long src, final long dst, final long size)
    {
        ctxOf(sdram).blkcopy64ToSdram(src, dst, intSize("size", size));
    }

    /** @see Elan3Context#zeroByteSdram(long, int) */
    public static void elan3_zero_byte_sdram(final Elan3Sdram sdram, final long s, final long size)
    {
        ctxOf(sdram).zeroByteSdram(s, intSize("size", size));
    }

    /** {@code E3_WRITE_DMA_SIZE}. */
    public static void E3_WRITE_DMA_SIZE(final Elan3Context ctx, final long dma, final long value)
    {
        ctx.writeDmaField(dma, 4, value);
    }

    /** {@code E3_WRITE_DMA_SOURCE}. */
    public static void E3_WRITE_DMA_SOURCE(final Elan3Context ctx, final long dma, final long value)
    {
        ctx.writeDmaField(dma, 8, value);
    }

    /** {@code E3_WRITE_DMA_DEST}. */
    public static void E3_WRITE_DMA_DEST(final Elan3Context ctx, final long dma, final long value)
    {
        ctx.writeDmaField(dma, 12, value);
    }

    /** {@code E3_WRITE_DMA_DESTEVENT}. */
    public static void E3_WRITE_DMA_DESTEVENT(final Elan3Context ctx, final long dma, final long value)
    {
        ctx.writeDmaField(dma, 16, value);
    }

    /** {@code E3_WRITE_DMA_SRCEVENT}. */
    public static void E3_WRITE_DMA_SRCEVENT(final Elan3Context ctx, final long dma, final long value)
    {
        ctx.writeDmaField(dma, 24, value);
    }

    /** @see Elan3Context#initevent(long) */
    public static void elan3_initevent(final Elan3Context ctx, final long ev)
    {
        ctx.initevent(ev);
    }

    /** @see Elan3Context#initeventWord(long, long) */
    public static void elan3_initevent_word(final Elan3Context ctx, final long ev, final long mainWord)
    {
        ctx.initeventWord(ev, mainWord);
    }

    /** @see Elan3Context#initeventMain(long, long, long) */
    public static void elan3_initevent_main(final Elan3Context ctx, final long ev, final long srcBlk, final long dstBlkMain)
    {
        ctx.initeventMain(ev, srcBlk, dstBlkMain);
    }

    /** @see Elan3Context#primeevent(long, int) */
    public static void elan3_primeevent(final Elan3Context ctx, final long ev, final int count)
    {
        ctx.primeevent(ev, count);
    }

    /** @see Elan3Context#setevent(long) */
    public static void elan3_setevent(final Elan3Context ctx, final long ev)
    {
        ctx.setevent(ev);
    }

    /** @see Elan3Context#pollEventWord(long, int) @return whether fired. */
    public static boolean elan3_pollevent_word(final Elan3Context ctx, final long word, final int count)
    {
        return ctx.pollEventWord(word, count);
    }

    /** @see Elan3Context#waitEventWord(long, long, long) */
    public static void elan3_waitevent_word(final Elan3Context ctx, final long ev, final long word, final long how)
    {
        ctx.waitEventWord(ev, word, how);
    }

    /** @see Elan3Context#waitEventBlk(long, long, long) */
    public static void elan3_waitevent_blk(final Elan3Context ctx, final long ev, final long blk, final long how)
    {
        ctx.waitEventBlk(ev, blk, how);
    }

    /** @see Elan3Context#waitevent(long) */
    public static void elan3_waitevent(final Elan3Context ctx, final long ev)
    {
        ctx.waitevent(ev);
    }

    /** @see Elan3Context#waitdmaevent(long, long) */
    public static void elan3_waitdmaevent(final Elan3Context ctx, final long dma, final long ev)
    {
        ctx.waitdmaevent(dma, ev);
    }

    /** @see Elan3Context#waitdmaevent0(long, long, long, int) */
    public static void elan3_waitdmaevent0(final Elan3Context ctx, final long dma, final long ev, final long waitEvent0,
        final int count)
    {
        ctx.waitdmaevent0(dma, ev, waitEvent0, count);
    }

    /**
     * {@code EVENT_WORD_READY(word)}: whether a word event has fired into {@code word}; reads
     * through the calling process's context (the C macro dereferences the pointer).
     *
     * @see Elan3Context#eventWordReady(long)
     * @param word host address of the word.
     * @return whether it is set.
     */
    public static boolean EVENT_WORD_READY(final long word)
    {
        return ElanProcess.current().context().eventWordReady(word);
    }

    /**
     * {@code EVENT_BLK_READY(blk)}: whether a block-copy event has landed in {@code blk}.
     *
     * @see Elan3Context#eventBlkReady(long)
     * @param blk host address of the 64-byte block.
     * @return whether it has landed.
     */
    public static boolean EVENT_BLK_READY(final long blk)
    {
        return ElanProcess.current().context().eventBlkReady(blk);
    }

    /**
     * {@code E3_RESET_BCOPY_BLOCK(blk)}: clears a block before its event is primed again.
     *
     * @see Elan3Context#resetBcopyBlock(long)
     * @param blk host address of the 64-byte block.
     */
    public static void E3_RESET_BCOPY_BLOCK(final long blk)
    {
        ElanProcess.current().context().resetBcopyBlock(blk);
    }

    /** @see Elan3Context#localCookie(int, int) @return the cookie. */
    public static int elan3_local_cookie(final Elan3Context ctx, final int myVp, final int remoteVp)
    {
        return ctx.localCookie(myVp, remoteVp);
    }

    /** @see Elan3Context#remoteCookie(int, int) @return the cookie. */
    public static int elan3_remote_cookie(final Elan3Context ctx, final int myVp, final int remoteVp)
    {
        return ctx.remoteCookie(myVp, remoteVp);
    }

    /** @see Elan3Context#putdma(long) */
    public static void elan3_putdma(final Elan3Context ctx, final long dma)
    {
        ctx.putdma(dma);
    }

    /** @see Elan3Context#putdmaMain(E3DmaMain, long) */
    public static void elan3_putdma_main(final Elan3Context ctx, final E3DmaMain dma, final long scratch)
    {
        ctx.putdmaMain(dma, scratch);
    }

    /** @see Elan3Context#getdmaMain(E3DmaMain, long) */
    public static void elan3_getdma_main(final Elan3Context ctx, final E3DmaMain dma, final long scratch)
    {
        ctx.getdmaMain(dma, scratch);
    }

    /**
     * {@code elan3_allocatebcastvp}.
     *
     * @see Elan3Context#allocateBcastVp()
     * @return the broadcast VP, or -1 (errno set).
     */
    public static int elan3_allocatebcastvp(final Elan3Context ctx)
    {
        try
        {
            final int vp = ctx.allocateBcastVp();
            return vp < 0 ? ElanProcess.current().fail(EINVAL, "no broadcast VP: call elan3_addvp first") : vp;
        }
        catch (final QsnetException e)
        {
            return ElanProcess.failed(e);
        }
    }

    /**
     * {@code elan3_addbcastvp}.
     *
     * @see Elan3Context#addBcastVp(int, int, int)
     * @return 0 on success, -1 (errno EINVAL, the reason naming the VPs) when the range is out of order, outside
     *         the VPs, has a hole or spans nodes that are not contiguous.
     */
    public static int elan3_addbcastvp(final Elan3Context ctx, final int bcastVp, final int lowVp, final int highVp)
    {
        try
        {
            // on failure the context has set errno (EINVAL) and the hardware's reason
            return ctx.addBcastVp(bcastVp, lowVp, highVp);
        }
        catch (final QsnetException e)
        {
            return ElanProcess.failed(e);
        }
    }

    /** Remote fetch-and-add (see {@link Elan3Context#atomicFetchAdd}). */
    public static void elan3_fetchadd(final Elan3Context ctx, final int vp, final long remote, final int value,
        final long result, final long ev)
    {
        ctx.atomicFetchAdd(vp, remote, value, result, ev);
    }

    /** Remote test-and-write (see {@link Elan3Context#atomicTestAndWrite}). */
    public static void elan3_testandwrite(final Elan3Context ctx, final int vp, final long remote, final int expected,
        final int value, final long result, final long ev)
    {
        ctx.atomicTestAndWrite(vp, remote, expected, value, result, ev);
    }

    /** {@code E3_DMA_TYPE}. @return the type word. */
    public static int E3_DMA_TYPE(final int dataType, final int direction, final int opcode, final int failCount)
    {
        return Elan3.E3_DMA_TYPE(dataType, direction, opcode, failCount);
    }

    private static int intSize(final String what, final long size)
    {
        QsnetException.require(size >= 0 && size <= Integer.MAX_VALUE, what, size, "must be in 0.." + Integer.MAX_VALUE);
        return (int)size;
    }
}
