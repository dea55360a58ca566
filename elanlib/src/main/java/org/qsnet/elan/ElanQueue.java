package org.qsnet.elan;

import java.util.function.Supplier;

import org.qsnet.elan3.E3DmaMain;
import org.qsnet.elan3.Elan3;
import org.qsnet.elan3.Elan3Context;
import org.qsnet.fabric.QsnetException;
import org.qsnet.fabric.machine.PlatformProfile;
import org.qsnet.fabric.nic.E3;

/**
 * {@code ELAN_QUEUE} with its split transmit/receive API ({@code elan_queueTxInit},
 * {@code elan_queueRxInit}, {@code elan_queueTx}, {@code elan_queueRxPoll},
 * {@code elan_queueRxWait}, {@code elan_queueRxComplete}) and the older main-queue API
 * ({@code elan_mainQueueInit}, {@code elan_queueReq}, {@code elan_queueHaveReq},
 * {@code elan_queueWait}), over queued DMA into an {@code E3_Queue}: header in Elan memory at
 * the same address on every member, slots in host memory, {@code q_event} a block copy into a
 * host block, consumed as in ELAN-API.md §1.5 flow 4.
 */
public final class ElanQueue
{
    /** {@code elan_queueMaxSlotSize} on Elan3: one packet. */
    public static final int MAX_SLOT_SIZE = 320;
    /** {@code LIBELAN_QUEUEREUSEBUF}: the message is copied on entry (always so here). */
    public static final int LIBELAN_QUEUEREUSEBUF = 0x10000;

    private final ElanBase base;
    private final Elan3Context ctx;
    private final PlatformProfile profile;
    final long header;
    final long headerVa;
    private final long doneBlock;
    private String claimedBy;

    /**
     * @param base       the process's base.
     * @param collective whether the header comes from the collective Elan heap ({@code elan_gallocQueue}:
     *                   the same address on every member whatever each allocated privately before) or from
     *                   the process's own heap ({@code elan_allocQueue}).
     */
    ElanQueue(final ElanBase base, final boolean collective)
    {
        this.base = base;
        this.ctx = base.ctx();
        this.profile = base.profile();
        if (collective)
        {
            // the allocation is a library call, charged as elan3_allocElan charges it
            ctx.owner().sim().chargeCompute();
            ctx.owner().sim().advance(profile.hostCallNs());
            this.header = base.gallocElanBlock(Elan3.E3_QUEUE_ALIGN, Elan3.E3_QUEUE_SIZE);
        }
        else
        {
            this.header = ctx.allocElan(Elan3.E3_QUEUE_ALIGN, Elan3.E3_QUEUE_SIZE);
        }
        this.headerVa = ctx.sdram2elan(header);
        // its done pattern is written by elan3_initevent_main
        this.doneBlock = ctx.allocElan(E3.BLK_SIZE, E3.BLK_SIZE);
        ctx.write32Sdram(header + E3.Q_STATE, E3.QUEUE_LOCKED);
    }

    /**
     * Hands the queue's {@code E3_Queue} header to a library that runs its own consumer on it
     * ({@code elan_tportInit}); the queue cannot then be used by another.
     *
     * @param by the library, for the message a second user gets.
     * @return the header's SDRAM handle (locked: {@code q_state} is {@code E3_QUEUE_LOCKED}).
     */
    public long claim(final String by)
    {
        QsnetException.require(claimedBy == null, "queue", "at Elan 0x" + Long.toHexString(headerVa),
            "is already used by " + claimedBy + " (one queue per Tport or receiver)");
        claimedBy = by;
        return header;
    }

    /**
     * @return the Elan address of the queue's header (the same on every member for a galloc'd queue).
     */
    public long elanAddress()
    {
        return headerVa;
    }

    /**
     * The transmit side ({@code ELAN_QUEUE_TX}).
     */
    public final class Tx
    {
        Tx()
        {
        }

        /**
         * {@code elan_queueTx}: sends {@code len} bytes (at most the receiver's slot size) into
         * {@code destVp}'s queue.
         *
         * @param destVp the receiver.
         * @param buf    host address of the message (copied on entry: reusable at once).
         * @param len    bytes, at most 320.
         * @return the event, complete when the message is in the receiver's queue.
         */
        public ElanEvent queueTx(final int destVp, final long buf, final int len)
        {
            QsnetException.require(len >= 0 && len <= MAX_SLOT_SIZE, "len", len, "must be in 0.." + MAX_SLOT_SIZE);
            // checked before anything is allocated or issued (the NIC's refusal named no argument)
            if (destVp < 0 || destVp >= base.nvp())
            {
                // the text is built only when the check fails: every message passes it
                QsnetException.require(false, "destVp", destVp, "is outside the job's VPs 0.." + (base.nvp() - 1));
            }
            final long staging = ctx.allocMain(64, Math.max(64, len));
            final byte[] b = new byte[len];
            ctx.raw().read(buf, b, 0, len);
            ctx.raw().write(staging, b, 0, len);
            ctx.owner().sim().advance((len + 63) / 64 * profile.hostPollNs());
            final long ev = ctx.allocElan(Elan3.E3_EVENT_ALIGN, Elan3.E3_BLOCK_COPY_EVENT_SIZE);
            final long word = ctx.allocMain(8, 8);
            final long desc = ctx.allocElan(Elan3.E3_DMA_ALIGN, Elan3.E3_DMA_SIZE);
            ctx.initeventWord(ev, word);
            // a recycled word may still hold the last completion
            ctx.raw().putInt(word, 0);
            ctx.primeevent(ev, 1);
            final E3DmaMain d = new E3DmaMain();
            d.dma_type = Elan3.E3_DMA_TYPE(Elan3.DMA_BYTE, Elan3.DMA_WRITE, Elan3.DMA_QUEUED, base.retryCount());
            d.dma_size = len;
            d.dma_source = ctx.main2elan(staging);
            d.dma_destEvent = headerVa;
            d.dma_destCookieVProc = destVp;
            d.dma_srcEvent = ctx.sdram2elan(ev);
            d.dma_srcCookieVProc = ctx.localCookie(base.vp(), destVp);
            ctx.putdmaMain(d, desc);
            return new ElanEvent()
            {
                /** Whether the resources went back to the heaps (the message landed). */
                private boolean freed;

                @Override
                protected boolean complete()
                {
                    if (freed)
                    {
                        return true;
                    }
                    if (ctx.raw().getInt(word) == 0)
                    {
                        return false;
                    }
                    // the DMA and its event are done with them: returned now, for the programs (GASNet's
                    // conduit, MPICH's nemesis module) that only poll a queue send and never wait for it
                    freeResources();
                    return true;
                }

                private void freeResources()
                {
                    if (!freed)
                    {
                        freed = true;
                        ctx.free(staging);
                        ctx.free(word);
                        ctx.freeElan(ev);
                        ctx.freeElan(desc);
                    }
                }

                @Override
                protected void block(final long how)
                {
                    ctx.waitEventWord(ev, word, how,
                        (Supplier<String>)() -> "elan_queueTx of " + len + " B into VP " + destVp + "'s queue to land");
                }

                @Override
                protected void chargePoll()
                {
                    ctx.owner().sim().poll(profile.hostPollNs());
                }

                @Override
                protected void release()
                {
                    freeResources();
                }
            };
        }
    }

    /**
     * The receive side ({@code ELAN_QUEUE_RX}).
     */
    public final class Rx
    {
        private final int slotSize;
        private final long slots;
        private final long base0;
        private final long top;
        private final long block;
        private long fptr;
        /** A slot handed out by {@code queueRxWait(0, ...)} and not yet released: its front is still {@code fptr}. */
        private boolean holding;
        /** A message was copied out by {@code queueRxWait(buf, ...)} and not yet followed by a {@code queueRxComplete}. */
        private boolean copiedOut;

        Rx(final int nSlots, final int slotSize)
        {
            QsnetException.require(claimedBy == null || claimedBy.equals("elan_queueRxInit"), "queue",
                "at Elan 0x" + Long.toHexString(headerVa), "is already used by " + claimedBy);
            claimedBy = "elan_queueRxInit";
            QsnetException.require(nSlots >= 2, "nSlots", nSlots, "must be at least 2");
            QsnetException.require(slotSize >= 1 && slotSize <= MAX_SLOT_SIZE, "slotSize", slotSize,
                "must be in 1.." + MAX_SLOT_SIZE + " (elan_queueMaxSlotSize)");
            this.slotSize = slotSize;
            this.slots = ctx.allocMain(64, (long)nSlots * slotSize);
            this.base0 = ctx.main2elan(slots);
            this.top = base0 + (long)(nSlots - 1) * slotSize;
            this.block = ctx.allocMain(64, 64);
            this.fptr = base0;
            ctx.write32Sdram(header + E3.Q_SIZE, slotSize);
            ctx.write32Sdram(header + E3.Q_BASE, (int)base0);
            ctx.write32Sdram(header + E3.Q_TOP, (int)top);
            ctx.write32Sdram(header + E3.Q_FPTR, (int)base0);
            ctx.write32Sdram(header + E3.Q_BPTR, (int)base0);
            ctx.initeventMain(header + E3.Q_EVENT, doneBlock, block);
            ctx.resetBcopyBlock(block);
            ctx.primeevent(header + E3.Q_EVENT, 1);
            ctx.write32Sdram(header + E3.Q_STATE, 0);
        }

        private boolean available()
        {
            // the pointers alone: the inputter keeps one slot free, so bptr == fptr means empty even
            // when E3_QUEUE_FULL is set. That bit can outlive the fullness it noted (a refusal between
            // advance()'s read of q_state and its move of q_fptr leaves it set on an emptied queue);
            // taking it for a message returned a stale slot and moved q_fptr past q_bptr
            final long bptr = ctx.read32Sdram(header + E3.Q_BPTR) & 0xffffffffL;
            if (holding)
            {
                // the held slot is the program's: what waits is what follows it (the inputter keeps one
                // slot free, so a queue whose back is past the held slot holds another message)
                return bptr != next(fptr);
            }
            return bptr != fptr;
        }

        private long next(final long at)
        {
            return at >= top ? base0 : at + slotSize;
        }

        /**
         * {@code elan_queueRxPoll}: whether a message is waiting.
         *
         * @param how polls to make.
         * @return whether one is.
         */
        public boolean queueRxPoll(final long how)
        {
            for (long i = 0; i < Math.max(1, how); i++)
            {
                // the block only hints that something arrived; the pointers in SDRAM say what is left
                if (available())
                {
                    return true;
                }
                ctx.owner().sim().poll(profile.hostPollNs());
            }
            return false;
        }

        /**
         * {@code elan_queueRxWait}: waits for the next message. With a buffer, copies the whole slot
         * into it and releases the slot; with 0, returns the host address of the slot, released by
         * {@link #queueRxComplete} (Open MPI's BTL) or else by the next {@code queueRxWait} (GASNet's
         * conduit never completes: the slot stays the program's until it asks for the next message,
         * and {@link #queueRxPoll} meanwhile reports the messages after it).
         *
         * @param buf host buffer of at least the slot size, or 0.
         * @param how the wait type.
         * @return {@code buf}, or the slot's host address.
         */
        public long queueRxWait(final long buf, final long how)
        {
            copiedOut = false;
            if (holding)
            {
                // GASNet's conduit runs each message from its slot (elan_queueRxWait(rx, NULL, ...)) and
                // never calls elan_queueRxComplete: the next wait releases the slot the last one handed out
                holding = false;
                advance();
            }
            // the pointers in SDRAM say what is left; the block only wakes this loop. A copy that
            // landed for a slot already taken is cleared before sleeping, and checked again after,
            // so an arrival between the check and the sleep still wakes it (q_event re-armed in advance)
            while (!available())
            {
                ctx.raw().write(block, new byte[64], 0, 64); // E3_RESET_BCOPY_BLOCK, inside the library call
                if (available())
                {
                    break;
                }
                ctx.waitEventBlk(header + E3.Q_EVENT, block, how,
                    (Supplier<String>)() -> "a message in the queue at 0x" + Long.toHexString(headerVa) + " (elan_queueRxWait)");
            }
            final long slotHost = ctx.elan2main(fptr);
            if (buf == 0)
            {
                holding = true;
                return slotHost;
            }
            final byte[] b = new byte[slotSize];
            ctx.raw().read(slotHost, b, 0, slotSize);
            ctx.raw().write(buf, b, 0, slotSize);
            ctx.owner().sim().advance((slotSize + 63) / 64 * profile.hostPollNs());
            advance();
            copiedOut = true;
            return buf;
        }

        /**
         * {@code elan_queueRxComplete}: releases the slot returned by {@code queueRxWait(0, ...)}; after a
         * copy-out {@code queueRxWait} (whose slot is already released) it does nothing, as MPICH's nemesis
         * module calls it there too. Refused when no message was taken since the last release.
         */
        public void queueRxComplete()
        {
            if (copiedOut)
            {
                // MPICH's nemesis module completes after a copy-out too: the slot was released by the copy
                copiedOut = false;
                return;
            }
            if (!holding)
            {
                throw new QsnetException("elan_queueRxComplete: no message is held (elan_queueRxWait has not returned one "
                    + "since the last release)");
            }
            holding = false;
            advance();
        }

        private void advance()
        {
            // read q_state before moving q_fptr: while FULL is set the inputter takes nothing, so
            // clearing it after the move cannot erase a FULL set for the new front
            final int state = ctx.read32Sdram(header + E3.Q_STATE);
            fptr = next(fptr);
            ctx.write32Sdram(header + E3.Q_FPTR, (int)fptr);
            if ((state & E3.QUEUE_FULL) != 0)
            {
                ctx.write32Sdram(header + E3.Q_STATE, state & ~E3.QUEUE_FULL);
            }
            // one re-arm per slot taken (LA-MPI's "reprime q_event with a wait"): arrivals while
            // this consumer was busy keep their sets, and fire q_event again at once
            ctx.waitevent(header + E3.Q_EVENT);
        }
    }

    /**
     * {@code elan_queueTxInit}.
     *
     * @param rail  the rail (ELAN_RAIL_ALL).
     * @param flags 0 or {@link #LIBELAN_QUEUEREUSEBUF}.
     * @return the transmit side.
     */
    public Tx queueTxInit(final int rail, final int flags)
    {
        return new Tx();
    }

    /**
     * {@code elan_queueRxInit}.
     *
     * @param nSlots   slots.
     * @param slotSize bytes per slot, at most 320.
     * @param rail     the rail.
     * @param flags    0.
     * @return the receive side.
     */
    public Rx queueRxInit(final int nSlots, final int slotSize, final int rail, final int flags)
    {
        return new Rx(nSlots, slotSize);
    }

    /**
     * {@code ELAN_MAIN_QUEUE}: the older combined API.
     */
    public final class Main
    {
        private final Tx tx = new Tx();
        private final Rx rx;

        Main(final int nSlots, final int slotSize)
        {
            rx = new Rx(nSlots, slotSize);
        }

        /**
         * {@code elan_queueReq}: a blocking send.
         *
         * @param destVp the receiver.
         * @param buf    the message.
         * @param len    bytes.
         */
        public void queueReq(final int destVp, final long buf, final int len)
        {
            // the main queue's slots are the same size at every member (a collective queue): a longer
            // message is refused here, naming the length, not by the receiver's inputter
            QsnetException.require(len <= rx.slotSize, "len", len, "must be at most the main queue's slot size "
                + rx.slotSize + " (elan_mainQueueInit)");
            tx.queueTx(destVp, buf, len).waitEvent(base.waitType());
        }

        /**
         * {@code elan_queueHaveReq}.
         *
         * @return whether a message is waiting.
         */
        public boolean queueHaveReq()
        {
            return rx.queueRxPoll(1);
        }

        /**
         * {@code elan_queueWait}: copies the next message into {@code buf}.
         *
         * @param buf host buffer of at least the slot size.
         * @param how the wait type.
         */
        public void queueWait(final long buf, final long how)
        {
            rx.queueRxWait(buf, how);
        }
    }

    /**
     * {@code elan_mainQueueInit}.
     *
     * @param nSlots   slots.
     * @param slotSize bytes per slot.
     * @return the main queue.
     */
    public Main mainQueueInit(final int nSlots, final int slotSize)
    {
        return new Main(nSlots, slotSize);
    }
}
