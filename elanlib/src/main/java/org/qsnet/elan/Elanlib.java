package org.qsnet.elan;

import org.qsnet.elan3.Elan3lib;
import org.qsnet.elan3.ElanCapability;
import org.qsnet.elan3.ElanLocation;
import org.qsnet.elan3.ElanProcess;
import org.qsnet.fabric.QsnetException;

/**
 * The C-named facade of Elanlib (ELAN-API.md §2, libelan 1.4.8–1.4.14): each method is the libelan
 * call of the same name, with the catalog's arguments in the catalog's order, over
 * {@link ElanBase}, {@link ElanEvent}, {@link ElanGroup} and {@link ElanQueue} (the Tports calls
 * are in {@code org.qsnet.tports.Tports}, the layer above). {@code ELAN_STATE *} and
 * {@code ELAN_BASE *} are both the {@link ElanBase} ({@code base->state} is {@link ElanBase#state}),
 * and its tunables are typed fields with the C names ({@code base->tport_nslots} is
 * {@code base.tport_nslots}). Collectives take only the group, which knows its base.
 *
 * <p>The mapping of C types and the status convention are those of {@link Elan3lib}: a call that
 * returns a status (an {@code int}, or NULL for a pointer) returns it here and sets
 * {@link Elan3lib#errno()}; {@code void} calls throw a {@link QsnetException}. The capability
 * helpers ({@code elan_nullcap} … {@code elan_rails}, {@code elan_generateCapability},
 * {@code elan_getenvCap}) need no base, as in C, and may be called before {@code elan_baseInit}.
 */
public final class Elanlib
{
    // The constants a libelan port names, so that {@code import static org.qsnet.elan.Elanlib.*} is enough.

    /** {@code ELAN_RAIL_ALL}: the {@code rail} argument of the queue calls meaning every rail (the emulator has one). */
    public static final int ELAN_RAIL_ALL = -1;
    /** {@code ELAN_POLL_EVENT}: a wait that spins. */
    public static final long ELAN_POLL_EVENT = org.qsnet.elan3.Elan3.ELAN_POLL_EVENT;
    /** {@code ELAN_WAIT_EVENT}: a wait that sleeps until the event fires. */
    public static final long ELAN_WAIT_EVENT = org.qsnet.elan3.Elan3.ELAN_WAIT_EVENT;
    /** {@code ELAN_REDUCE_COMMUTE}: {@code elan_reduce}'s operator commutes. */
    public static final int ELAN_REDUCE_COMMUTE = ElanBase.ELAN_REDUCE_COMMUTE;
    /** {@code ELAN_RESULT_ALL}: {@code elan_reduce} leaves the result at every member (allreduce). */
    public static final int ELAN_RESULT_ALL = ElanBase.ELAN_RESULT_ALL;
    /** {@code ELAN_GLOBAL_DEST}: {@code elan_hbcast}'s buffer is at the same address everywhere. */
    public static final int ELAN_GLOBAL_DEST = ElanBase.ELAN_GLOBAL_DEST;
    /** {@code LIBELAN_QUEUEREUSEBUF}: {@code elan_queueTxInit}'s flag: the caller's buffer is reusable at once. */
    public static final int LIBELAN_QUEUEREUSEBUF = ElanQueue.LIBELAN_QUEUEREUSEBUF;

    private Elanlib()
    {
    }

    // ------------------------------------------------------------------ §2.2 initialisation

    /**
     * {@code elan_baseInit}.
     *
     * @see ElanBase#baseInit(int)
     * @param flags ELAN_FLAGS (0).
     * @return the base, or null on failure (errno set; {@link Elan3lib#perror} prints why).
     */
    public static ElanBase elan_baseInit(final int flags)
    {
        try
        {
            return ElanBase.baseInit(flags);
        }
        catch (final QsnetException e)
        {
            ElanProcess.failed(e);
            return null;
        }
    }

    /**
     * {@code elan_generateCapability}: builds a capability from the compact string
     * {@code N<node>C<low>-<my>-<high>N<low>-<high>R<mask><b|c>} with the job's key and exports it
     * in this process's {@code LIBELAN_ECAP0} (where {@link #elan_getenvCap} reads it). Needs no
     * base. Under {@code prun} {@code RMS_NPROCS} is set, so {@code elan_baseInit} attaches with
     * the RMS capability, as libelan does when RMS is present.
     *
     * @param capString the string (MPICH and NewMadeleine build it from PMI data).
     * @return 0 on success, -1 (errno EINVAL) for a malformed string.
     */
    public static int elan_generateCapability(final String capString)
    {
        final ElanProcess p = ElanProcess.current();
        try
        {
            ElanCapability.fromCompactString(capString, p.capability().userKey);
        }
        catch (final QsnetException e)
        {
            return ElanProcess.failed(e);
        }
        p.setenv("LIBELAN_ECAP0", capString);
        return 0;
    }

    /**
     * {@code elan_getenvCap}: the capability in {@code LIBELAN_ECAP<rail>}, with the job's key.
     * Needs no base.
     *
     * @param cap  the struct to fill.
     * @param rail the rail (0).
     * @return 0 on success, -1 on failure (errno ENODEV for a rail the node lacks, ENOENT when
     *     the variable is unset, EINVAL when it is malformed).
     */
    public static int elan_getenvCap(final ElanCapability cap, final int rail)
    {
        final ElanProcess p = ElanProcess.current();
        if (rail != 0)
        {
            return p.fail(Elan3lib.ENODEV, "rail " + rail + " does not exist: the emulated nodes have one rail (0)");
        }
        final String s = p.getenv("LIBELAN_ECAP" + rail);
        if (s == null)
        {
            return p.fail(Elan3lib.ENOENT, "LIBELAN_ECAP" + rail + " is not set");
        }
        try
        {
            ElanCapability.fromCompactString(s, p.capability().userKey).copyInto(cap);
            return 0;
        }
        catch (final QsnetException e)
        {
            return ElanProcess.failed(e);
        }
    }

    /** @see ElanBase#version() @return the version. */
    public static String elan_version()
    {
        return ElanBase.version();
    }

    /**
     * {@code elan_checkVersion}: whether the headers' version matches the library's. The version may
     * be given as a number ({@code "1.4"}, {@code "1.4.14"}) or as {@code elan_version()} spells it
     * (GASNet's conduit passes the library's own string back); a number matches whole components.
     *
     * @param headerVersion the headers' version.
     * @return true for "1.4", "1.4.14", "libelan 1.4" and {@code elan_version()}.
     */
    public static boolean elan_checkVersion(final String headerVersion)
    {
        if (headerVersion == null)
        {
            return false;
        }
        final String full = ElanBase.version();
        if (headerVersion.equals(full))
        {
            return true;
        }
        final String h = headerVersion.startsWith("libelan ") ? headerVersion.substring("libelan ".length()) : headerVersion;
        final String number = full.substring("libelan ".length()).split(" ", 2)[0];
        return !h.isEmpty() && (number.equals(h) || number.startsWith(h + "."));
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

    /**
     * {@code elan_fini}: collective teardown.
     *
     * @see ElanBase#fini(ElanGroup)
     * @param state     the base.
     * @param group     the group (allGroup).
     * @param finiFlags {@link ElanBase#LIBELAN_FINI_GROUP} (or 0).
     */
    public static void elan_fini(final ElanBase state, final ElanGroup group, final int finiFlags)
    {
        QsnetException.require((finiFlags & ~ElanBase.LIBELAN_FINI_GROUP) == 0, "finiFlags", finiFlags,
            "may only contain LIBELAN_FINI_GROUP");
        state.fini(group);
    }

    /** @see ElanBase#deviceCheck() @return 0 when healthy. */
    public static int elan_deviceCheck(final ElanBase state)
    {
        return state.deviceCheck();
    }

    /**
     * {@code elan_addPollFn}: a function the library calls while it spins.
     *
     * @see ElanBase#addProgressFn(Runnable)
     * @param state  the base.
     * @param fn     the function.
     * @param handle passed to it.
     */
    public static void elan_addPollFn(final ElanBase state, final ElanPollFn fn, final Object handle)
    {
        state.addPollFn(() -> fn.poll(handle, new int[1]));
    }

    /**
     * {@code elan_addProgressFn}: as {@link #elan_addPollFn}.
     *
     * @see ElanBase#addProgressFn(Runnable)
     * @param state  the base.
     * @param fn     the function.
     * @param handle passed to it.
     */
    public static void elan_addProgressFn(final ElanBase state, final ElanPollFn fn, final Object handle)
    {
        state.addPollFn(() -> fn.poll(handle, new int[1]));
    }

    /** @see ElanBase#clock() @return ns. */
    public static long elan_clock(final ElanBase state)
    {
        return state.clock();
    }

    /** {@code elan_nRails}. @return rails in the state's capability. */
    public static int elan_nRails(final ElanBase state)
    {
        return state.capability().nrails();
    }

    // ------------------------------------------------------------------ §2.4 events

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

    // ------------------------------------------------------------------ §2.5 memory

    /** @see ElanBase#allocMain(int, long) @return host address, 0 on failure. */
    public static long elan_allocMain(final ElanBase state, final int align, final long size)
    {
        return state.allocMain(align, size);
    }

    /** @see ElanBase#allocElan(int, long) @return SDRAM handle, 0 on failure. */
    public static long elan_allocElan(final ElanBase state, final int align, final long size)
    {
        return state.allocElan(align, size);
    }

    /** @see ElanBase#free(long) */
    public static void elan_free(final ElanBase state, final long ptr)
    {
        state.free(ptr);
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

    /** @see ElanBase#gallocFree(long) */
    public static void elan_gallocFree(final ElanBase base, final long ptr)
    {
        base.gallocFree(ptr);
    }

    /** @see ElanBase#allocQueue() @return the queue. */
    public static ElanQueue elan_allocQueue(final ElanBase state)
    {
        return state.allocQueue();
    }

    /** {@code elan_main2elan}. @return the Elan address or ELAN_BAD_ADDR. */
    public static long elan_main2elan(final ElanBase state, final long ptr)
    {
        return state.ctx().main2elan(ptr);
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

    /**
     * {@code elan_elan2sdram}.
     *
     * @see org.qsnet.elan3.Elan3Context#elan2sdram(long)
     * @return the SDRAM handle, or 0 if the address is not mapped onto SDRAM.
     */
    public static long elan_elan2sdram(final ElanBase state, final long elanAddr)
    {
        return state.ctx().elan2sdram(elanAddr);
    }

    /** {@code elan_addressable}. @return whether the range is Elan-mapped. */
    public static boolean elan_addressable(final ElanBase state, final long ptr, final long size)
    {
        return state.ctx().addressable(ptr, size);
    }

    // ------------------------------------------------------------------ §2.7 queues

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
    public static ElanEvent elan_queueTx(final ElanQueue.Tx tx, final int destVp, final long buf, final long len,
        final int rail)
    {
        // the slot limit first: a C size_t of -1 is out of a queue slot's range before anything else
        QsnetException.require(len >= 0 && len <= ElanQueue.MAX_SLOT_SIZE, "len", len,
            "must be in 0.." + ElanQueue.MAX_SLOT_SIZE + " (a queue slot)");
        return tx.queueTx(destVp, buf, (int)len);
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

    /**
     * {@code elan_queueMaxSlotSize}: the largest queue slot. GASNet's conduit asks before it has a
     * state ({@code elan_queueMaxSlotSize(NULL)}), so a null state gives the Elan3 figure too.
     *
     * @see ElanBase#queueMaxSlotSize()
     * @param state the base, or null.
     * @return 320.
     */
    public static int elan_queueMaxSlotSize(final ElanBase state)
    {
        return state == null ? ElanQueue.MAX_SLOT_SIZE : state.queueMaxSlotSize();
    }

    /**
     * {@code elan_mainQueueInit} (the 1.4.8 form, with {@code mqueue_flags}).
     *
     * @see ElanQueue#mainQueueInit(int, int)
     * @return the main queue.
     */
    public static ElanQueue.Main elan_mainQueueInit(final ElanBase state, final ElanQueue q, final int nSlots,
        final int slotSize, final int mqueue_flags)
    {
        return q.mainQueueInit(nSlots, slotSize);
    }

    /** @see ElanQueue.Main#queueReq(int, long, int) */
    public static void elan_queueReq(final ElanQueue.Main mq, final int destVp, final long buf, final long len)
    {
        mq.queueReq(destVp, buf, intLen("len", len));
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

    // ------------------------------------------------------------------ §2.8 put and get

    /** @see ElanBase#put(long, long, long, int) @return the event. */
    public static ElanEvent elan_put(final ElanBase state, final long localSrc, final long remoteDst, final long len,
        final int destVp)
    {
        return state.put(localSrc, remoteDst, len, destVp);
    }

    /** @see ElanBase#get(long, long, long, int) @return the event. */
    public static ElanEvent elan_get(final ElanBase state, final long remoteSrc, final long localDst, final long len,
        final int srcVp)
    {
        return state.get(remoteSrc, localDst, len, srcVp);
    }

    /**
     * {@code elan_putgetInit} (the 1.4.8 form).
     *
     * @see ElanBase#putgetInit(int, int)
     * @param state    the base.
     * @param qMem     memory from {@code elan_gallocElan} of {@link #elan_pgvGlobalMemSize} bytes
     *                 (the emulated engine keeps no state in it).
     * @param smallPut puts up to this size are copied first (at most 64).
     * @param splitPut striping size of puts (one rail: unused).
     * @param splitGet striping size of gets (one rail: unused).
     * @param throttle outstanding operations before a call waits for the oldest (0: no limit).
     * @param flags    e.g. {@code ELAN_PGVINIT} (unused).
     * @return the handle ({@code ELAN_PGCTRL *}).
     */
    public static ElanBase.PutGet elan_putgetInit(final ElanBase state, final long qMem, final int smallPut,
        final int splitPut, final int splitGet, final int throttle, final int flags)
    {
        return state.putgetInit(smallPut, throttle);
    }

    /**
     * {@code elan_pgvGlobalMemSize}: bytes of {@code qMem} {@link #elan_putgetInit} wants.
     *
     * @param state the base.
     * @return 64: the emulated engine keeps its state in Java objects, the allocation only has to succeed.
     */
    public static long elan_pgvGlobalMemSize(final ElanBase state)
    {
        return 64;
    }

    /**
     * {@code elan_pgsGlobalMemSize}: as {@link #elan_pgvGlobalMemSize} for the strided engine.
     *
     * @param state the base.
     * @return 64.
     */
    public static long elan_pgsGlobalMemSize(final ElanBase state)
    {
        return 64;
    }

    /**
     * {@code elan_doput}: a throttled put through a put/get handle.
     *
     * @see ElanBase#doput(ElanBase.PutGet, long, long, long, int)
     * @param pgctrl   the handle.
     * @param src      local host address.
     * @param dst      host address at the destination.
     * @param reserved NULL (0).
     * @param len      bytes.
     * @param vp       the destination.
     * @param rail     the rail ({@code ELAN_RAIL_ALL} or 0).
     * @return the event.
     */
    public static ElanEvent elan_doput(final ElanBase.PutGet pgctrl, final long src, final long dst, final long reserved,
        final long len, final int vp, final int rail)
    {
        QsnetException.require(reserved == 0, "reserved", reserved, "must be NULL (0)");
        return pgctrl.base().doput(pgctrl, src, dst, len, vp);
    }

    /**
     * {@code elan_doget}: a throttled get through a put/get handle.
     *
     * @see ElanBase#doget(ElanBase.PutGet, long, long, long, int)
     * @param pgctrl the handle.
     * @param src    host address at the source.
     * @param dst    local host address.
     * @param len    bytes.
     * @param vp     the source.
     * @param rail   the rail.
     * @return the event.
     */
    public static ElanEvent elan_doget(final ElanBase.PutGet pgctrl, final long src, final long dst, final long len,
        final int vp, final int rail)
    {
        return pgctrl.base().doget(pgctrl, src, dst, len, vp);
    }

    /**
     * {@code elan_putv}: puts {@code count} pieces to one VP; one event for all.
     *
     * @see ElanBase#putv(long[], long[], long[], int)
     * @param pgctrl the handle.
     * @param src    source host addresses.
     * @param dst    destination host addresses.
     * @param lens   lengths.
     * @param count  pieces (the first {@code count} elements of each array).
     * @param vp     the destination.
     * @return the event.
     */
    public static ElanEvent elan_putv(final ElanBase.PutGet pgctrl, final long[] src, final long[] dst, final long[] lens,
        final int count, final int vp)
    {
        checkCount(count, src, dst, lens);
        return pgctrl.base().putv(java.util.Arrays.copyOf(src, count), java.util.Arrays.copyOf(dst, count),
            java.util.Arrays.copyOf(lens, count), vp);
    }

    /**
     * {@code elan_getv}: the vector form of {@link #elan_get}.
     *
     * @see ElanBase#getv(long[], long[], long[], int)
     * @param pgctrl the handle.
     * @param src    source host addresses at {@code vp}.
     * @param dst    local host addresses.
     * @param lens   lengths.
     * @param count  pieces.
     * @param vp     the source.
     * @return the event.
     */
    public static ElanEvent elan_getv(final ElanBase.PutGet pgctrl, final long[] src, final long[] dst, final long[] lens,
        final int count, final int vp)
    {
        checkCount(count, src, dst, lens);
        return pgctrl.base().getv(java.util.Arrays.copyOf(src, count), java.util.Arrays.copyOf(dst, count),
            java.util.Arrays.copyOf(lens, count), vp);
    }

    private static void checkCount(final int count, final long[] src, final long[] dst, final long[] lens)
    {
        QsnetException.require(count >= 1 && count <= Math.min(src.length, Math.min(dst.length, lens.length)), "count", count,
            "must be in 1.." + Math.min(src.length, Math.min(dst.length, lens.length)) + " (the arrays' length)");
    }

    // ------------------------------------------------------------------ §2.9 collectives

    /** {@code elan_gsync}: the group's barrier. @see ElanBase#gsync(ElanGroup) */
    public static void elan_gsync(final ElanGroup group)
    {
        group.base().gsync(group);
    }

    /** {@code elan_hgsync}: the hardware barrier. @see ElanBase#hgsync(ElanGroup) */
    public static void elan_hgsync(final ElanGroup group)
    {
        group.base().hgsync(group);
    }

    /**
     * {@code elan_bcast}.
     *
     * @see ElanBase#bcast(ElanGroup, long, long, int)
     * @param group the group.
     * @param buf   host address, the same on every member.
     * @param len   bytes.
     * @param root  group index of the root.
     * @param flags 0 or {@link ElanBase#ELAN_GLOBAL_DEST}.
     */
    public static void elan_bcast(final ElanGroup group, final long buf, final long len, final int root, final int flags)
    {
        checkBcastFlags(flags);
        group.base().bcast(group, buf, len, root);
    }

    /**
     * {@code elan_hbcast}.
     *
     * @see ElanBase#hbcast(ElanGroup, long, long, int)
     * @param group the group.
     * @param buf   host address, the same on every member.
     * @param len   bytes.
     * @param root  group index of the root.
     * @param flags 0 or {@link ElanBase#ELAN_GLOBAL_DEST}.
     */
    public static void elan_hbcast(final ElanGroup group, final long buf, final long len, final int root, final int flags)
    {
        checkBcastFlags(flags);
        group.base().hbcast(group, buf, len, root);
    }

    private static void checkBcastFlags(final int flags)
    {
        QsnetException.require((flags & ~ElanBase.ELAN_GLOBAL_DEST) == 0, "flags", flags, "may only contain ELAN_GLOBAL_DEST");
    }

    /**
     * {@code elan_reduce}: combines every member's {@code nElem} elements of {@code dataTypeSize}
     * bytes at {@code src} with {@code fn}, in group order, into {@code dst} at the root, or at
     * every member with {@link ElanBase#ELAN_RESULT_ALL}.
     *
     * @see ElanBase#reduce(ElanGroup, long, long, int, int, ElanBase.Reducer, int, int)
     * @param group        the group.
     * @param src          this member's operand (host address).
     * @param dst          the result (host address, the same on every member).
     * @param dataTypeSize bytes per element.
     * @param nElem        elements.
     * @param fn           the operator, called as {@code fn(in, inout, &count, fnHandle)}.
     * @param fnHandle     passed to {@code fn}.
     * @param unknown1     the catalog's first unknown integer: every known caller passes 0, the only value emulated.
     * @param unknown2     the second: likewise 0.
     * @param flags        {@link ElanBase#ELAN_REDUCE_COMMUTE}, {@link ElanBase#ELAN_RESULT_ALL},
     *                     {@code base->group_flags}.
     * @param root         group index of the root.
     */
    public static void elan_reduce(final ElanGroup group, final long src, final long dst, final int dataTypeSize,
        final int nElem, final ElanReducer fn, final Object fnHandle, final int unknown1, final int unknown2, final int flags,
        final int root)
    {
        QsnetException.require(unknown1 == 0 && unknown2 == 0, "elan_reduce's 8th and 9th arguments",
            unknown1 + ", " + unknown2, "must be 0 (their meaning is unknown; every known caller passes 0)");
        QsnetException.require(dataTypeSize >= 1, "dataTypeSize", dataTypeSize, "must be at least 1");
        QsnetException.require(nElem >= 0, "nElem", nElem, "must be at least 0");
        final ElanBase base = group.base();
        final long len = (long)dataTypeSize * nElem;
        final long scratch = len == 0 ? 0 : base.allocMain(64, 2 * len);
        QsnetException.require(len == 0 || scratch != 0, "nElem x dataTypeSize", len, "does not fit the main heap twice");
        try
        {
            base.reduce(group, src, dst, nElem, dataTypeSize, (in, inout, count, size) ->
            {
                // the C operator works on memory: lay both operands out in host memory, call it, read
                // back. As MPI's user functions, C's inout = in op inout with in the earlier operand in
                // group order; the Java Reducer's accumulator (its inout) holds the earlier one
                base.ctx().raw().write(scratch, inout, 0, inout.length);
                base.ctx().raw().write(scratch + len, in, 0, in.length);
                fn.reduce(scratch, scratch + len, new int[] {count}, fnHandle);
                base.ctx().raw().read(scratch + len, inout, 0, inout.length);
            }, root, flags);
        }
        finally
        {
            if (scratch != 0)
            {
                base.free(scratch);
            }
        }
    }

    // ------------------------------------------------------------------ §2.10 locks

    /** {@code ELAN_LOCK_NORMAL}: {@code elan_lockInit}'s lock type. */
    public static final int ELAN_LOCK_NORMAL = 0;
    /** {@code ELAN_LOCK_BUSY}: {@code elan_lockLock} spins while the lock is held. */
    public static final int ELAN_LOCK_BUSY = 1;

    /**
     * {@code elan_lockInit}: initialises the lock word at {@code lock}.
     *
     * @see ElanBase#lockInit(long)
     * @param state the base.
     * @param lock  host address of the lock (galloc'd: the same address everywhere).
     * @param type  {@link #ELAN_LOCK_NORMAL}.
     */
    public static void elan_lockInit(final ElanBase state, final long lock, final int type)
    {
        QsnetException.require(type == ELAN_LOCK_NORMAL, "type", type, "must be ELAN_LOCK_NORMAL");
        state.lockInit(lock);
    }

    /**
     * {@code elan_lockLock}: takes the lock. The catalog does not say which process's memory holds
     * a lock; here the copy at VP 0 is the lock every process takes (ELAN-API.md §2.10: the
     * address names the lock, and memory is mirrored).
     *
     * @see ElanBase#lockLock(int, long)
     * @param state the base.
     * @param remoteLock host address of the lock.
     * @param how        {@link #ELAN_LOCK_BUSY}.
     */
    public static void elan_lockLock(final ElanBase state, final long remoteLock, final int how)
    {
        QsnetException.require(how == ELAN_LOCK_BUSY, "how", how, "must be ELAN_LOCK_BUSY");
        state.lockLock(0, remoteLock);
    }

    /**
     * {@code elan_lockUnLock}: releases a lock taken with {@link #elan_lockLock}.
     *
     * @see ElanBase#lockUnLock(int, long)
     * @param state the base.
     * @param lock  host address of the lock.
     */
    public static void elan_lockUnLock(final ElanBase state, final long lock)
    {
        state.lockUnLock(0, lock);
    }

    // ------------------------------------------------------------------ §2.11 capability and VP helpers (no base needed)

    /** {@code elan_nullcap}. @see ElanCapability#nullcap() */
    public static void elan_nullcap(final ElanCapability cap)
    {
        Elan3lib.elan3_nullcap(cap);
    }

    /** {@code elan_capability_string}. @see Elan3lib#elan3_capability_string @return the text. */
    public static String elan_capability_string(final ElanCapability cap, final StringBuilder buf)
    {
        return Elan3lib.elan3_capability_string(cap, buf);
    }

    /** {@code elan_nvps}. @see ElanCapability#nvps() @return VPs. */
    public static int elan_nvps(final ElanCapability cap)
    {
        return cap.nvps();
    }

    /** {@code elan_nlocal}. @see ElanCapability#nlocal(int) @return processes on the node. */
    public static int elan_nlocal(final int relNode, final ElanCapability cap)
    {
        return cap.nlocal(relNode);
    }

    /** {@code elan_maxlocal}. @see ElanCapability#maxlocal() @return the context range's width. */
    public static int elan_maxlocal(final ElanCapability cap)
    {
        return cap.maxlocal();
    }

    /**
     * {@code elan_localvps}: the VPs on a node of the capability.
     *
     * @param relNode a node relative to {@code LowNode}.
     * @param cap     the capability.
     * @param vps     {@code int *}: receives up to {@code n} VPs.
     * @param n       room in {@code vps}.
     * @return the number of VPs written.
     */
    public static int elan_localvps(final int relNode, final ElanCapability cap, final int[] vps, final int n)
    {
        QsnetException.require(n >= 0 && n <= vps.length, "n", n, "must be in 0.." + vps.length + " (the array's length)");
        int k = 0;
        for (int local = 0; local < cap.maxlocal() && k < n; local++)
        {
            final int vp = cap.location2vp(new ElanLocation(relNode, local));
            if (vp != ElanCapability.ELAN_INVALID_PROCESS)
            {
                vps[k++] = vp;
            }
        }
        return k;
    }

    /** {@code elan_vp2location}. @see ElanCapability#vp2location(int) @return the location. */
    public static ElanLocation elan_vp2location(final int vp, final ElanCapability cap)
    {
        return cap.vp2location(vp);
    }

    /** {@code elan_location2vp}. @see ElanCapability#location2vp(ElanLocation) @return the VP or ELAN_INVALID_PROCESS. */
    public static int elan_location2vp(final ElanLocation loc, final ElanCapability cap)
    {
        return cap.location2vp(loc);
    }

    /** {@code elan_nrails}. @see ElanCapability#nrails() @return rails. */
    public static int elan_nrails(final ElanCapability cap)
    {
        return cap.nrails();
    }

    /** {@code elan_rails}. @see Elan3lib#elan3_rails @return the number of rails. */
    public static int elan_rails(final ElanCapability cap, final int[] devs)
    {
        return Elan3lib.elan3_rails(cap, devs);
    }

    private static int intLen(final String what, final long len)
    {
        QsnetException.require(len >= 0 && len <= Integer.MAX_VALUE, what, len, "must be in 0.." + Integer.MAX_VALUE);
        return (int)len;
    }
}
