package org.qsnet.elan3;

/**
 * The C-named facade of Elan3lib: each method is the libelan3 call of the same name and maps
 * one-to-one onto {@link Elan3Context} or {@link ElanCapability}, so a port keeps its calls line
 * for line. {@code void *} becomes a host address ({@code long}), {@code sdramaddr_t} an SDRAM
 * handle ({@code long}), {@code E3_Addr} a {@code long}; out-parameters become return values.
 *
 * <pre>
 * import static org.qsnet.elan3.Elan3lib.*;
 * Elan3Context ctx = elan3_init(0, 0x400000, 0x2000000, 0x200000, 0x200000);
 * elan3_set_required_mappings(ctx);
 * elan3_block_inputter(ctx, 1);
 * elan3_attach(ctx, cap);
 * elan3_addvp(ctx, 0, cap);
 * int me = elan3_process(ctx);
 * </pre>
 */
public final class Elan3lib
{
    private Elan3lib()
    {
    }

    /** @see Elan3Context#init(int, long, long, long, long) @return the context. */
    public static Elan3Context elan3_init(final int rail, final long mainBase, final long mainSize, final long elanBase,
        final long elanSize)
    {
        return Elan3Context.init(rail, mainBase, mainSize, elanBase, elanSize);
    }

    /** @see Elan3Context#setRequiredMappings() @return 1. */
    public static int elan3_set_required_mappings(final Elan3Context ctx)
    {
        return ctx.setRequiredMappings();
    }

    /** @see Elan3Context#setStandardMappings() @return 1. */
    public static int elan3_set_standard_mappings(final Elan3Context ctx)
    {
        return ctx.setStandardMappings();
    }

    /** @see Elan3Context#blockInputter(int) */
    public static void elan3_block_inputter(final Elan3Context ctx, final int block)
    {
        ctx.blockInputter(block);
    }

    /** @see Elan3Context#attach(ElanCapability) @return 0 on success. */
    public static int elan3_attach(final Elan3Context ctx, final ElanCapability cap)
    {
        return ctx.attach(cap);
    }

    /** @see Elan3Context#addvp(int, ElanCapability) @return 0 on success. */
    public static int elan3_addvp(final Elan3Context ctx, final int firstVp, final ElanCapability cap)
    {
        return ctx.addvp(firstVp, cap);
    }

    /** @see Elan3Context#process() @return this VP. */
    public static int elan3_process(final Elan3Context ctx)
    {
        return ctx.process();
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

    /** @see Elan3Context#devinfo() @return the device information. */
    public static Elan3Context.DevInfo elan3_devinfo(final Elan3Context ctx)
    {
        return ctx.devinfo();
    }

    /** {@code rms_getcap(0, &cap)}. @return the process's capability. */
    public static ElanCapability rms_getcap()
    {
        return Rms.getcap();
    }

    /** @see ElanCapability#nullcap() */
    public static void elan3_nullcap(final ElanCapability cap)
    {
        cap.nullcap();
    }

    /** @see ElanCapability#capabilityString() @return the text. */
    public static String elan3_capability_string(final ElanCapability cap)
    {
        return cap.capabilityString();
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

    /** @see ElanCapability#rails() @return rail numbers. */
    public static int[] elan3_rails(final ElanCapability cap)
    {
        return cap.rails();
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

    /** @see Elan3Context#sdram2elan(long) @return Elan address. */
    public static long elan3_sdram2elan(final Elan3Context ctx, final Object sdram, final long s)
    {
        return ctx.sdram2elan(s);
    }

    /** @see Elan3Context#addressable(long, long) @return whether mapped. */
    public static boolean elan3_addressable(final Elan3Context ctx, final long ptr, final long size)
    {
        return ctx.addressable(ptr, size);
    }

    /** @see Elan3Context#setperm(long, long, long, int) @return 0 or -1. */
    public static int elan3_setperm(final Elan3Context ctx, final long main, final long elan, final long size, final int perm)
    {
        return ctx.setperm(main, elan, size, perm);
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

    /** @see Elan3Context#write32Sdram(long, int) */
    public static void elan3_write32_sdram(final Elan3Context ctx, final long s, final int value)
    {
        ctx.write32Sdram(s, value);
    }

    /** @see Elan3Context#read32Sdram(long) @return the word. */
    public static int elan3_read32_sdram(final Elan3Context ctx, final long s)
    {
        return ctx.read32Sdram(s);
    }

    /** @see Elan3Context#copy32ToSdram(long, long) */
    public static void elan3_copy32_to_sdram(final Elan3Context ctx, final long mainSrc, final long s)
    {
        ctx.copy32ToSdram(mainSrc, s);
    }

    /** @see Elan3Context#blkcopy64ToSdram(long, long, int) */
    public static void elan3_blkcopy64_to_sdram(final Elan3Context ctx, final long mainSrc, final long s, final int size)
    {
        ctx.blkcopy64ToSdram(mainSrc, s, size);
    }

    /** @see Elan3Context#zeroByteSdram(long, int) */
    public static void elan3_zero_byte_sdram(final Elan3Context ctx, final long s, final int size)
    {
        ctx.zeroByteSdram(s, size);
    }

    /** {@code E3_WRITE_DMA_SIZE}. */
    public static void E3_WRITE_DMA_SIZE(final Elan3Context ctx, final long dma, final long v)
    {
        ctx.writeDmaField(dma, 4, v);
    }

    /** {@code E3_WRITE_DMA_SOURCE}. */
    public static void E3_WRITE_DMA_SOURCE(final Elan3Context ctx, final long dma, final long v)
    {
        ctx.writeDmaField(dma, 8, v);
    }

    /** {@code E3_WRITE_DMA_DEST}. */
    public static void E3_WRITE_DMA_DEST(final Elan3Context ctx, final long dma, final long v)
    {
        ctx.writeDmaField(dma, 12, v);
    }

    /** {@code E3_WRITE_DMA_DESTEVENT}. */
    public static void E3_WRITE_DMA_DESTEVENT(final Elan3Context ctx, final long dma, final long v)
    {
        ctx.writeDmaField(dma, 16, v);
    }

    /** {@code E3_WRITE_DMA_SRCEVENT}. */
    public static void E3_WRITE_DMA_SRCEVENT(final Elan3Context ctx, final long dma, final long v)
    {
        ctx.writeDmaField(dma, 24, v);
    }

    /** @see Elan3Context#initevent(long) */
    public static void elan3_initevent(final Elan3Context ctx, final long ev)
    {
        ctx.initevent(ev);
    }

    /** @see Elan3Context#initeventWord(long, long) */
    public static void elan3_initevent_word(final Elan3Context ctx, final long ev, final long word)
    {
        ctx.initeventWord(ev, word);
    }

    /** @see Elan3Context#initeventMain(long, long, long) */
    public static void elan3_initevent_main(final Elan3Context ctx, final long ev, final long srcBlk, final long dstBlk)
    {
        ctx.initeventMain(ev, srcBlk, dstBlk);
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

    /** {@code EVENT_WORD_READY}. @return whether set. */
    public static boolean EVENT_WORD_READY(final Elan3Context ctx, final long word)
    {
        return ctx.eventWordReady(word);
    }

    /** {@code EVENT_BLK_READY}. @return whether landed. */
    public static boolean EVENT_BLK_READY(final Elan3Context ctx, final long blk)
    {
        return ctx.eventBlkReady(blk);
    }

    /** {@code E3_RESET_BCOPY_BLOCK}. */
    public static void E3_RESET_BCOPY_BLOCK(final Elan3Context ctx, final long blk)
    {
        ctx.resetBcopyBlock(blk);
    }

    /** @see Elan3Context#localCookie(int, int) @return the cookie. */
    public static int elan3_local_cookie(final Elan3Context ctx, final int me, final int remote)
    {
        return ctx.localCookie(me, remote);
    }

    /** @see Elan3Context#remoteCookie(int, int) @return the cookie. */
    public static int elan3_remote_cookie(final Elan3Context ctx, final int me, final int remote)
    {
        return ctx.remoteCookie(me, remote);
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

    /** @see Elan3Context#allocateBcastVp() @return the VP or -1. */
    public static int elan3_allocatebcastvp(final Elan3Context ctx)
    {
        return ctx.allocateBcastVp();
    }

    /** @see Elan3Context#addBcastVp(int, int, int) @return 0 or -1. */
    public static int elan3_addbcastvp(final Elan3Context ctx, final int bcastVp, final int lowVp, final int highVp)
    {
        return ctx.addBcastVp(bcastVp, lowVp, highVp);
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
}
