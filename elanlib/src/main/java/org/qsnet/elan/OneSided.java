package org.qsnet.elan;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

import org.qsnet.elan3.E3DmaMain;
import org.qsnet.elan3.Elan3;
import org.qsnet.elan3.Elan3Context;
import org.qsnet.elan3.ElanProcess;
import org.qsnet.fabric.QsnetException;
import org.qsnet.fabric.machine.PlatformProfile;

/**
 * Elanlib's one-sided operations behind {@link ElanBase}: {@code elan_put}, {@code elan_get}, their
 * vector forms and {@code elan_putWaitAll}, over a pool of slots (a word event, its done word, a
 * scratch descriptor, a bounce buffer each) that the collectives and the locks borrow too.
 */
final class OneSided
{
    private final ElanBase base;
    private final Elan3Context ctx;
    private final ElanProcess process;
    private final PlatformProfile profile;
    private final int vp;
    private final int retryCount;
    private final int smallPutSize;
    private final ArrayDeque<Slot> free = new ArrayDeque<>();
    private final List<Slot> busy = new ArrayList<>();
    long puts;
    long gets;

    OneSided(final ElanBase base)
    {
        this.base = base;
        this.ctx = base.ctx();
        this.process = base.process;
        this.profile = base.profile();
        this.vp = base.vp;
        this.retryCount = base.retryCount;
        this.smallPutSize = base.smallPutSize;
    }

    /** One operation's resources: a word event, its done word, a scratch descriptor, a bounce buffer. */
    final class Slot
    {
        final long event = ctx.allocElan(Elan3.E3_EVENT_ALIGN, Elan3.E3_BLOCK_COPY_EVENT_SIZE);
        final long word = ctx.allocMain(8, 8);
        final long descriptor = ctx.allocElan(Elan3.E3_DMA_ALIGN, Elan3.E3_DMA_SIZE);
        final long bounce = ctx.allocElan(64, 64);
        /** The event the program holds for the slot's operation, until it is consumed or detached. */
        OpEvent owner;

        Slot()
        {
            ctx.initeventWord(event, word);
        }

        boolean fired()
        {
            return ctx.raw().getInt(word) != 0;
        }
    }

    /** Returns a slot whose operation the caller waited for itself to the pool. */
    void recycle(final Slot s)
    {
        free.addLast(s);
    }

    /** Counts a slot as outstanding until its event fires (reclaimed then, or by {@link #waitAll}). */
    void track(final Slot s)
    {
        busy.add(s);
    }

    void reclaim()
    {
        for (int i = busy.size() - 1; i >= 0; i--)
        {
            final Slot s = busy.get(i);
            if (s.fired())
            {
                busy.remove(i);
                // the program may still hold the operation's event: it stays complete without the slot
                if (s.owner != null)
                {
                    s.owner.detached = true;
                    s.owner = null;
                }
                free.addLast(s);
            }
        }
    }

    Slot slot()
    {
        if (free.isEmpty())
        {
            reclaim();
        }
        final Slot s = free.isEmpty() ? new Slot() : free.pollFirst();
        ctx.raw().putInt(s.word, 0);
        ctx.primeevent(s.event, 1);
        return s;
    }

    private final class OpEvent extends ElanEvent
    {
        private final Slot slot;
        private final Supplier<String> what;
        /**
         * Set when the slot was reclaimed after its event fired ({@code elan_putWaitAll}, or a later
         * call short of slots) while the program still held this event: the event is complete and
         * no longer reads the slot, which may already serve another operation.
         */
        boolean detached;

        OpEvent(final Slot slot, final Supplier<String> what)
        {
            this.slot = slot;
            this.what = what;
            slot.owner = this;
        }

        @Override
        protected boolean complete()
        {
            return detached || slot.fired();
        }

        @Override
        protected void block(final long how)
        {
            if (!detached)
            {
                ctx.waitEventWord(slot.event, slot.word, how, this);
            }
        }

        @Override
        protected void chargePoll()
        {
            process.sim().poll(profile.hostPollNs());
        }

        @Override
        protected void release()
        {
            // a detached slot went back to the pool when it was reclaimed (returning it twice would give
            // two operations one event and one bounce buffer)
            if (!detached)
            {
                slot.owner = null;
                busy.remove(slot);
                free.addLast(slot);
            }
        }

        @Override
        public String toString()
        {
            return what.get();
        }
    }

    ElanEvent put(final long src, final long dst, final long len, final int destVp)
    {
        return putDma(src, dst, len, destVp, 0);
    }

    ElanEvent putDma(final long src, final long dst, final long len, final int destVp, final long remoteEvent)
    {
        base.live();
        base.checkVp("destVp", destVp);
        QsnetException.require(len >= 0, "len", len, "must be at least 0");
        // refused before a slot is taken: a refused put leaves nothing behind
        final long dest = base.elanAddress("put destination", dst);
        final long directSource = len <= smallPutSize ? 0 : base.elanAddress("put source", src);
        final byte[] b;
        if (len <= smallPutSize)
        {
            // the library copies a small put with the CPU (ELAN-API.md: "copied into an Elan
            // buffer, so the source is reusable at once"): its source need not be Elan-mapped, as
            // GASNet's conduit relied on (GASNETC_ELAN_SMALLPUTSZ), only readable by the process
            b = new byte[(int)len];
            ctx.raw().read(src, b, 0, b.length);
        }
        else
        {
            b = null;
        }
        final Slot s = slot();
        long source;
        if (len <= smallPutSize)
        {
            // the DMA reads the copy
            final byte[] padded = new byte[64];
            System.arraycopy(b, 0, padded, 0, b.length);
            // the copy into Elan memory: programmed I/O, one word at a time
            process.sim().advance(((len + 3) / 4) * profile.pioWriteNs());
            ctx.owner().machine().nic(process.node()).sdram().write(s.bounce, padded, 0, 64);
            source = ctx.sdram2elan(s.bounce);
        }
        else
        {
            // the DMA engine reads the source itself: it must be memory the Elan can reach
            source = directSource;
        }
        final E3DmaMain d = new E3DmaMain();
        d.dma_type = Elan3.E3_DMA_TYPE(Elan3.DMA_BYTE, Elan3.DMA_WRITE, Elan3.DMA_NORMAL, retryCount);
        d.dma_size = len;
        d.dma_source = source;
        d.dma_dest = dest;
        d.dma_destEvent = remoteEvent;
        d.dma_destCookieVProc = destVp;
        d.dma_srcEvent = ctx.sdram2elan(s.event);
        d.dma_srcCookieVProc = ctx.localCookie(vp, destVp);
        ctx.putdmaMain(d, s.descriptor);
        busy.add(s);
        puts++;
        return new OpEvent(s, () -> "elan_put of " + len + " bytes to VP " + destVp);
    }

    ElanEvent get(final long src, final long dst, final long len, final int srcVp)
    {
        base.live();
        base.checkVp("srcVp", srcVp);
        QsnetException.require(len >= 0, "len", len, "must be at least 0");
        // refused before a slot is taken: a refused get leaves nothing behind
        final long source = base.elanAddress("get source", src);
        final long dest = base.elanAddress("get destination", dst);
        final Slot s = slot();
        final E3DmaMain d = new E3DmaMain();
        d.dma_type = Elan3.E3_DMA_TYPE(Elan3.DMA_BYTE, Elan3.DMA_READ, Elan3.DMA_NORMAL, retryCount);
        d.dma_size = len;
        d.dma_source = source;
        d.dma_dest = dest;
        d.dma_destEvent = ctx.sdram2elan(s.event);
        d.dma_destCookieVProc = ctx.localCookie(vp, srcVp);
        d.dma_srcCookieVProc = ctx.remoteCookie(vp, srcVp);
        ctx.getdmaMain(d, s.descriptor);
        busy.add(s);
        gets++;
        return new OpEvent(s, () -> "elan_get of " + len + " bytes from VP " + srcVp);
    }

    void waitAll(final long how)
    {
        base.progress();
        for (final Slot s : new ArrayList<>(busy))
        {
            if (!s.fired())
            {
                ctx.waitEventWord(s.event, s.word, how, "an outstanding put or get (elan_putWaitAll/elan_getWaitAll)");
            }
        }
        reclaim();
    }

    ElanEvent putv(final long[] src, final long[] dst, final long[] len, final int destVp)
    {
        QsnetException.require(src.length == dst.length && dst.length == len.length && src.length > 0, "putv vectors",
            src.length + "/" + dst.length + "/" + len.length, "must have the same, non-zero length");
        ElanEvent e = put(src[0], dst[0], len[0], destVp);
        for (int i = 1; i < src.length; i++)
        {
            e = ElanEvent.link(e, put(src[i], dst[i], len[i], destVp));
        }
        return e;
    }

    ElanEvent getv(final long[] src, final long[] dst, final long[] len, final int srcVp)
    {
        QsnetException.require(src.length == dst.length && dst.length == len.length && src.length > 0, "getv vectors",
            src.length + "/" + dst.length + "/" + len.length, "must have the same, non-zero length");
        ElanEvent e = get(src[0], dst[0], len[0], srcVp);
        for (int i = 1; i < src.length; i++)
        {
            e = ElanEvent.link(e, get(src[i], dst[i], len[i], srcVp));
        }
        return e;
    }
}
