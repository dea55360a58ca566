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
}
