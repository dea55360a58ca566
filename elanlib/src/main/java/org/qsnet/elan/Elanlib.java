package org.qsnet.elan;

/**
 * The C-named facade of Elanlib: each method is the libelan call of the same name and maps
 * one-to-one onto {@link ElanBase}, {@link ElanEvent} and {@link ElanGroup} (the Tports calls are
 * in {@code org.qsnet.tports.Tports}, the layer above). {@code ELAN_STATE *} and
 * {@code ELAN_BASE *} are both the {@link ElanBase}.
 */
public final class Elanlib
{
    private Elanlib()
    {
    }

    /** @see ElanBase#baseInit(int) @return the base. */
    public static ElanBase elan_baseInit(final int flags)
    {
        return ElanBase.baseInit(flags);
    }

    /** @see ElanBase#version() @return the version. */
    public static String elan_version()
    {
        return ElanBase.version();
    }

    /** @see ElanBase#clock() @return ns. */
    public static long elan_clock(final ElanBase state)
    {
        return state.clock();
    }

    /** @see ElanBase#fini(ElanGroup) */
    public static void elan_fini(final ElanBase state, final ElanGroup group)
    {
        state.fini(group);
    }

    /** @see ElanBase#allocMain(int, long) @return host address. */
    public static long elan_allocMain(final ElanBase state, final int align, final long size)
    {
        return state.allocMain(align, size);
    }

    /** @see ElanBase#allocElan(int, long) @return SDRAM handle. */
    public static long elan_allocElan(final ElanBase state, final int align, final long size)
    {
        return state.allocElan(align, size);
    }

    /** @see ElanBase#free(long) */
    public static void elan_free(final ElanBase state, final long addr)
    {
        state.free(addr);
    }

    /** @see ElanBase#freeElan(long) */
    public static void elan_freeElan(final ElanBase state, final long sdram)
    {
        state.freeElan(sdram);
    }

    /** @see ElanBase#gallocMain(ElanGroup, int, long) @return host address. */
    public static long elan_gallocMain(final ElanBase base, final ElanGroup group, final int align, final long size)
    {
        return base.gallocMain(group, align, size);
    }

    /** @see ElanBase#gallocFree(long) */
    public static void elan_gallocFree(final ElanBase base, final long addr)
    {
        base.gallocFree(addr);
    }

    /** @see ElanBase#put(long, long, long, int) @return the event. */
    public static ElanEvent elan_put(final ElanBase state, final long src, final long dst, final long len, final int destVp)
    {
        return state.put(src, dst, len, destVp);
    }

    /** @see ElanBase#get(long, long, long, int) @return the event. */
    public static ElanEvent elan_get(final ElanBase state, final long src, final long dst, final long len, final int srcVp)
    {
        return state.get(src, dst, len, srcVp);
    }

    /** @see ElanEvent#waitEvent(long) */
    public static void elan_wait(final ElanEvent event, final long how)
    {
        event.waitEvent(how);
    }

    /** @see ElanEvent#poll(long) @return whether complete. */
    public static boolean elan_poll(final ElanEvent event, final long how)
    {
        return event.poll(how);
    }

    /** @see ElanEvent#done() @return whether complete. */
    public static boolean elan_done(final ElanEvent event, final long how)
    {
        return event.done();
    }

    /** @see ElanEvent#link(ElanEvent, ElanEvent) @return the combined event. */
    public static ElanEvent elan_link(final ElanEvent a, final ElanEvent b)
    {
        return ElanEvent.link(a, b);
    }

    /** @see ElanBase#waitAll(long) */
    public static void elan_putWaitAll(final ElanBase state, final long how)
    {
        state.waitAll(how);
    }

    /** @see ElanBase#waitAll(long) */
    public static void elan_getWaitAll(final ElanBase state, final long how)
    {
        state.waitAll(how);
    }

    /** @see ElanBase#gsync(ElanGroup) */
    public static void elan_gsync(final ElanBase base, final ElanGroup group)
    {
        base.gsync(group);
    }

    /** @see ElanBase#hgsync(ElanGroup) */
    public static void elan_hgsync(final ElanBase base, final ElanGroup group)
    {
        base.hgsync(group);
    }

    /** @see ElanBase#bcast(ElanGroup, long, long, int) */
    public static void elan_bcast(final ElanBase base, final ElanGroup group, final long buf, final long len, final int root)
    {
        base.bcast(group, buf, len, root);
    }

    /** @see ElanBase#reduce(ElanGroup, long, long, int, int, ElanBase.Reducer, int, int) */
    public static void elan_reduce(final ElanBase base, final ElanGroup group, final long src, final long dst, final int count,
        final int elementSize, final ElanBase.Reducer op, final int root, final int flags)
    {
        base.reduce(group, src, dst, count, elementSize, op, root, flags);
    }

    /** @see ElanBase#gallocElan(ElanGroup, int, long) @return SDRAM handle. */
    public static long elan_gallocElan(final ElanBase base, final ElanGroup group, final int align, final long size)
    {
        return base.gallocElan(group, align, size);
    }

    /** @see ElanBase#gallocQueue(ElanGroup) @return the queue. */
    public static ElanQueue elan_gallocQueue(final ElanBase base, final ElanGroup group)
    {
        return base.gallocQueue(group);
    }

    /** @see ElanBase#allocQueue() @return the queue. */
    public static ElanQueue elan_allocQueue(final ElanBase state)
    {
        return state.allocQueue();
    }

    /** @see ElanBase#queueMaxSlotSize() @return 320. */
    public static int elan_queueMaxSlotSize(final ElanBase state)
    {
        return state.queueMaxSlotSize();
    }

    /** @see ElanQueue#queueTxInit(int, int) @return the transmit side. */
    public static ElanQueue.Tx elan_queueTxInit(final ElanBase state, final ElanQueue q, final int rail, final int flags)
    {
        return q.queueTxInit(rail, flags);
    }

    /** @see ElanQueue#queueRxInit(int, int, int, int) @return the receive side. */
    public static ElanQueue.Rx elan_queueRxInit(final ElanBase state, final ElanQueue q, final int nSlots,
        final int slotSize, final int rail, final int flags)
    {
        return q.queueRxInit(nSlots, slotSize, rail, flags);
    }

    /** @see ElanQueue.Tx#queueTx(int, long, int) @return the event. */
    public static ElanEvent elan_queueTx(final ElanQueue.Tx tx, final int destVp, final long buf, final int len,
        final int rail)
    {
        return tx.queueTx(destVp, buf, len);
    }

    /** @see ElanQueue.Rx#queueRxPoll(long) @return whether a message waits. */
    public static boolean elan_queueRxPoll(final ElanQueue.Rx rx, final long how)
    {
        return rx.queueRxPoll(how);
    }

    /** @see ElanQueue.Rx#queueRxWait(long, long) @return the buffer or the slot. */
    public static long elan_queueRxWait(final ElanQueue.Rx rx, final long buf, final long how)
    {
        return rx.queueRxWait(buf, how);
    }

    /** @see ElanQueue.Rx#queueRxComplete() */
    public static void elan_queueRxComplete(final ElanQueue.Rx rx)
    {
        rx.queueRxComplete();
    }

    /** @see ElanQueue#mainQueueInit(int, int) @return the main queue. */
    public static ElanQueue.Main elan_mainQueueInit(final ElanBase state, final ElanQueue q, final int nSlots,
        final int slotSize)
    {
        return q.mainQueueInit(nSlots, slotSize);
    }

    /** @see ElanQueue.Main#queueReq(int, long, int) */
    public static void elan_queueReq(final ElanQueue.Main mq, final int destVp, final long buf, final int len)
    {
        mq.queueReq(destVp, buf, len);
    }

    /** @see ElanQueue.Main#queueHaveReq() @return whether a message waits. */
    public static boolean elan_queueHaveReq(final ElanQueue.Main mq)
    {
        return mq.queueHaveReq();
    }

    /** @see ElanQueue.Main#queueWait(long, long) */
    public static void elan_queueWait(final ElanQueue.Main mq, final long buf, final long how)
    {
        mq.queueWait(buf, how);
    }

    /** @see ElanBase#lockInit(long) */
    public static void elan_lockInit(final ElanBase state, final long lock)
    {
        state.lockInit(lock);
    }

    /** @see ElanBase#lockLock(int, long) */
    public static void elan_lockLock(final ElanBase state, final int owner, final long lock)
    {
        state.lockLock(owner, lock);
    }

    /** @see ElanBase#lockUnLock(int, long) */
    public static void elan_lockUnLock(final ElanBase state, final int owner, final long lock)
    {
        state.lockUnLock(owner, lock);
    }

    /** @see ElanBase#hbcast(ElanGroup, long, long, int) */
    public static void elan_hbcast(final ElanBase base, final ElanGroup group, final long buf, final long len, final int root)
    {
        base.hbcast(group, buf, len, root);
    }

    /** @see ElanBase#putv(long[], long[], long[], int) @return the event. */
    public static ElanEvent elan_putv(final ElanBase state, final long[] src, final long[] dst, final long[] len,
        final int destVp)
    {
        return state.putv(src, dst, len, destVp);
    }

    /** @see ElanBase#getv(long[], long[], long[], int) @return the event. */
    public static ElanEvent elan_getv(final ElanBase state, final long[] src, final long[] dst, final long[] len,
        final int srcVp)
    {
        return state.getv(src, dst, len, srcVp);
    }

    /** @see ElanBase#enableNetwork() */
    public static void elan_enable_network(final ElanBase state)
    {
        state.enableNetwork();
    }

    /** @see ElanBase#disableNetwork() */
    public static void elan_disable_network(final ElanBase state)
    {
        state.disableNetwork();
    }

    /** @see ElanBase#deviceCheck() @return 0 when healthy. */
    public static int elan_deviceCheck(final ElanBase state)
    {
        return state.deviceCheck();
    }

    /** @see ElanBase#addProgressFn(Runnable) */
    public static void elan_addProgressFn(final ElanBase state, final Runnable fn)
    {
        state.addProgressFn(fn);
    }

    /** @see ElanBase#addProgressFn(Runnable) */
    public static void elan_addPollFn(final ElanBase state, final Runnable fn)
    {
        state.addProgressFn(fn);
    }

    /** @see ElanBase#generateCapability(String) @return the capability. */
    public static org.qsnet.elan3.ElanCapability elan_generateCapability(final ElanBase state, final String capString)
    {
        return state.generateCapability(capString);
    }

    /** @see ElanBase#getenvCap(int) @return the capability. */
    public static org.qsnet.elan3.ElanCapability elan_getenvCap(final ElanBase state, final int rail)
    {
        return state.getenvCap(rail);
    }

    /** @see ElanBase#putgetInit(int, int) @return the handle. */
    public static ElanBase.PutGet elan_putgetInit(final ElanBase state, final int smallPutSize, final int throttle)
    {
        return state.putgetInit(smallPutSize, throttle);
    }

    /** @see ElanBase#doput(ElanBase.PutGet, long, long, long, int) @return the event. */
    public static ElanEvent elan_doput(final ElanBase state, final ElanBase.PutGet pg, final long src, final long dst,
        final long len, final int destVp)
    {
        return state.doput(pg, src, dst, len, destVp);
    }

    /** @see ElanBase#doget(ElanBase.PutGet, long, long, long, int) @return the event. */
    public static ElanEvent elan_doget(final ElanBase state, final ElanBase.PutGet pg, final long src, final long dst,
        final long len, final int srcVp)
    {
        return state.doget(pg, src, dst, len, srcVp);
    }

    /** {@code elan_checkVersion}: whether the headers' version matches the library's. @return true for "1.4". */
    public static boolean elan_checkVersion(final String headerVersion)
    {
        return headerVersion != null && ElanBase.version().startsWith("libelan " + headerVersion);
    }

    /** {@code elan_main2elan}. @return the Elan address or ELAN_BAD_ADDR. */
    public static long elan_main2elan(final ElanBase state, final long addr)
    {
        return state.ctx().main2elan(addr);
    }

    /** {@code elan_elan2main}. @return the host address or 0. */
    public static long elan_elan2main(final ElanBase state, final long elanAddr)
    {
        return state.ctx().elan2main(elanAddr);
    }

    /** {@code elan_sdram2elan}. @return the Elan address. */
    public static long elan_sdram2elan(final ElanBase state, final long sdram)
    {
        return state.ctx().sdram2elan(sdram);
    }

    /** {@code elan_addressable}. @return whether the range is Elan-mapped. */
    public static boolean elan_addressable(final ElanBase state, final long addr, final long size)
    {
        return state.ctx().addressable(addr, size);
    }

    /** {@code elan_nRails}. @return rails in the capability. */
    public static int elan_nRails(final ElanBase state)
    {
        return state.capability().nrails();
    }

    /** {@code elan_nvps} (the state's nvp). @return VPs in the job. */
    public static int elan_nvps(final ElanBase state)
    {
        return state.nvp();
    }
}
