package legacy;

import static org.qsnet.elan.Elanlib.elan_baseInit;
import static org.qsnet.elan.Elanlib.elan_gallocMain;
import static org.qsnet.elan.Elanlib.elan_gsync;
import static org.qsnet.elan.Elanlib.elan_put;
import static org.qsnet.elan.Elanlib.elan_wait;
import static org.qsnet.elan3.Elan3lib.EVENT_WORD_READY;
import static org.qsnet.elan3.Elan3lib.elan3_allocElan;
import static org.qsnet.elan3.Elan3lib.elan3_allocMain;
import static org.qsnet.elan3.Elan3lib.elan3_elan2main;
import static org.qsnet.elan3.Elan3lib.elan3_initevent_word;
import static org.qsnet.elan3.Elan3lib.elan3_local_cookie;
import static org.qsnet.elan3.Elan3lib.elan3_main2elan;
import static org.qsnet.elan3.Elan3lib.elan3_pollevent_word;
import static org.qsnet.elan3.Elan3lib.elan3_primeevent;
import static org.qsnet.elan3.Elan3lib.elan3_putdma_main;
import static org.qsnet.elan3.Elan3lib.elan3_read32_sdram;
import static org.qsnet.elan3.Elan3lib.elan3_sdram2elan;
import static org.qsnet.elan3.Elan3lib.elan3_waitevent;
import static org.qsnet.elan3.Elan3lib.elan3_write32_sdram;

import org.qsnet.elan.ElanBase;
import org.qsnet.elan3.E3DmaMain;
import org.qsnet.elan3.Elan3;
import org.qsnet.elan3.Elan3Context;

/**
 * Open MPI's old {@code ptl_elan} queue set-up and polling ({@code ompi_init_elan_qdma} and its receive
 * loop), in the calls ELAN-API.md has: the component was written for Elan4, so its {@code elan4_*}
 * allocation, command queues, cookie pools, sleep descriptors and {@code E4_InputQueueControl} become
 * the Elan3lib equivalents of §1.5 flow 4 (the rest has no counterpart here and is left out). Every
 * rank builds an input queue by hand: the header from {@code elan3_allocElan}, slots from
 * {@code elan3_allocMain} (with spare "lost" slots past {@code q_top}, filled with 0xeb), the slots'
 * Elan address from {@code elan3_main2elan} (checked against {@code ELAN_BAD_ADDR}), a word event as
 * {@code q_event} ({@code elan3_initevent_word}, the word reset, primed to 1), the header locked
 * while it is written. The queues' Elan addresses are exchanged through {@code elan_gallocMain}
 * memory. Every rank sends queued DMAs to every other, polling its send events with
 * {@code elan3_pollevent_word} and draining its own queue meanwhile; the consumer takes the slot at
 * {@code q_fptr} while {@code q_bptr} is ahead, else re-arms ({@code elan3_waitevent}) and polls the
 * word. {@code args[0]} is {@code ptl-qdma}; rank 0 prints {@code ok ptl-qdma}.
 */
public final class LegacyOmpiPtl
{
    static ElanBase base;
    static Elan3Context ctx;
    static int me;
    static int nvp;

    static final int RX_NSLOTS = 6;
    static final int LOST_QSLOTS = 2;
    static final int SLOTSIZE = 128;
    static final int PER_PEER = 25;

    static long qh;
    static long doneWord;
    static long qbase;
    static long qtop;
    static long fptr;
    static int[] next;
    static int received;

    private LegacyOmpiPtl()
    {
    }

    /**
     * @param args the scenario.
     */
    public static void main(final String[] args)
    {
        base = elan_baseInit(0);
        ctx = base.ctx();
        me = base.state.vp;
        nvp = base.state.nvp;
        if (!args[0].equals("ptl-qdma"))
        {
            throw new IllegalArgumentException(args[0]);
        }
        qdma();
        elan_gsync(base.allGroup);
        if (me == 0)
        {
            System.out.println("ok " + args[0]);
        }
    }

    static void check(final boolean ok, final String what)
    {
        if (!ok)
        {
            throw new IllegalStateException("rank " + me + ": " + what);
        }
    }

    static byte pattern(final int from, final int seq, final int i)
    {
        return (byte)(from * 17 + seq * 3 + i * 11);
    }

    static void initQueue()
    {
        qh = elan3_allocElan(ctx, Elan3.E3_QUEUE_ALIGN, Elan3.E3_QUEUE_SIZE);
        check(qh != 0, "elan3_allocElan of the queue header");
        final int nslots = RX_NSLOTS + LOST_QSLOTS;
        final long ring = elan3_allocMain(ctx, 128, (long)nslots * SLOTSIZE);
        check(ring != 0, "elan3_allocMain of the slots");
        final byte[] eb = new byte[nslots * SLOTSIZE];
        java.util.Arrays.fill(eb, (byte)0xeb);
        ctx.write(ring, eb, 0, eb.length);
        qbase = elan3_main2elan(ctx, ring);
        check(qbase != Elan3.ELAN_BAD_ADDR, "the slots are not Elan-mapped");
        // the last usable slot: the lost slots lie beyond it, never written
        qtop = qbase + (long)SLOTSIZE * (RX_NSLOTS - 1);
        fptr = qbase;
        doneWord = elan3_allocMain(ctx, 8, 8);
        elan3_write32_sdram(ctx.sdram, qh + Elan3.Q_STATE, Elan3.E3_QUEUE_LOCKED);
        elan3_write32_sdram(ctx.sdram, qh + Elan3.Q_SIZE, SLOTSIZE);
        elan3_write32_sdram(ctx.sdram, qh + Elan3.Q_BASE, (int)qbase);
        elan3_write32_sdram(ctx.sdram, qh + Elan3.Q_TOP, (int)qtop);
        elan3_write32_sdram(ctx.sdram, qh + Elan3.Q_FPTR, (int)qbase);
        elan3_write32_sdram(ctx.sdram, qh + Elan3.Q_BPTR, (int)qbase);
        elan3_initevent_word(ctx, qh + Elan3.Q_EVENT, doneWord);
        ctx.putInt(doneWord, 0);
        elan3_primeevent(ctx, qh + Elan3.Q_EVENT, 1);
        elan3_write32_sdram(ctx.sdram, qh + Elan3.Q_STATE, 0);
    }

    /** Takes whatever waits in the queue, re-arming the queue's event when it is empty; returns what it took. */
    static int drain()
    {
        int n = 0;
        final byte[] slot = new byte[SLOTSIZE];
        for (;;)
        {
            final long bptr = elan3_read32_sdram(ctx.sdram, qh + Elan3.Q_BPTR) & 0xffffffffL;
            if (bptr == fptr)
            {
                if (EVENT_WORD_READY(doneWord))
                {
                    // arrivals seen: reset the word, re-arm for the next, and look again
                    ctx.putInt(doneWord, 0);
                    elan3_waitevent(ctx, qh + Elan3.Q_EVENT);
                    continue;
                }
                return n;
            }
            check(bptr >= qbase && bptr <= qtop, "q_bptr 0x" + Long.toHexString(bptr) + " past q_top (into the lost slots)");
            ctx.read(elan3_elan2main(ctx, fptr), slot, 0, SLOTSIZE);
            final int from = ((slot[0] & 0xff) << 8) | (slot[1] & 0xff);
            final int seq = ((slot[2] & 0xff) << 8) | (slot[3] & 0xff);
            check(from < nvp && from != me && seq == next[from], "slot from " + from + " seq " + seq + ", expected seq "
                + (from < nvp ? next[from] : -1));
            for (int i = 4; i < SLOTSIZE; i++)
            {
                check(slot[i] == pattern(from, seq, i), "message " + seq + " from " + from + ", byte " + i);
            }
            next[from]++;
            received++;
            n++;
            fptr = fptr >= qtop ? qbase : fptr + SLOTSIZE;
            elan3_write32_sdram(ctx.sdram, qh + Elan3.Q_FPTR, (int)fptr);
        }
    }

    static void qdma()
    {
        next = new int[nvp];
        initQueue();
        // the modex: every queue's Elan address, in a table at the same address everywhere
        final long table = elan_gallocMain(base, base.allGroup, 64, 8L * nvp);
        final long mine = elan3_allocMain(ctx, 8, 8);
        ctx.putInt(mine, (int)elan3_sdram2elan(ctx, ctx.sdram, qh));
        for (int r = 0; r < nvp; r++)
        {
            elan_wait(elan_put(base.state, mine, table + 8L * me, 4, r), base.waitType);
        }
        elan_gsync(base.allGroup);
        // the lost slots stay untouched
        final long ring = elan3_elan2main(ctx, qbase);
        final long ev = elan3_allocElan(ctx, Elan3.E3_EVENT_ALIGN, Elan3.E3_BLOCK_COPY_EVENT_SIZE);
        final long word = elan3_allocMain(ctx, 8, 8);
        final long scratch = elan3_allocElan(ctx, Elan3.E3_DMA_ALIGN, Elan3.E3_DMA_SIZE);
        final long msg = elan3_allocMain(ctx, 64, SLOTSIZE);
        elan3_initevent_word(ctx, ev, word);
        for (int seq = 0; seq < PER_PEER; seq++)
        {
            for (int k = 1; k < nvp; k++)
            {
                final int dest = (me + k) % nvp;
                final byte[] b = new byte[SLOTSIZE];
                b[0] = (byte)(me >>> 8);
                b[1] = (byte)me;
                b[2] = (byte)(seq >>> 8);
                b[3] = (byte)seq;
                for (int i = 4; i < SLOTSIZE; i++)
                {
                    b[i] = pattern(me, seq, i);
                }
                ctx.write(msg, b, 0, SLOTSIZE);
                ctx.putInt(word, 0);
                elan3_primeevent(ctx, ev, 1);
                final E3DmaMain d = new E3DmaMain();
                d.dma_type = Elan3.E3_DMA_TYPE(Elan3.DMA_BYTE, Elan3.DMA_WRITE, Elan3.DMA_QUEUED, base.retryCount);
                d.dma_size = SLOTSIZE;
                d.dma_source = elan3_main2elan(ctx, msg);
                d.dma_dest = 0;
                d.dma_destEvent = ctx.getInt(table + 8L * dest) & 0xffffffffL;
                d.dma_destCookieVProc = dest;
                d.dma_srcEvent = elan3_sdram2elan(ctx, ctx.sdram, ev);
                d.dma_srcCookieVProc = elan3_local_cookie(ctx, me, dest);
                elan3_putdma_main(ctx, d, scratch);
                while (!elan3_pollevent_word(ctx, word, 1))
                {
                    drain();
                }
            }
        }
        while (received < PER_PEER * (nvp - 1))
        {
            drain();
        }
        check(drain() == 0, "a message too many");
        final byte[] lost = new byte[LOST_QSLOTS * SLOTSIZE];
        ctx.read(ring + (long)RX_NSLOTS * SLOTSIZE, lost, 0, lost.length);
        for (int i = 0; i < lost.length; i++)
        {
            check(lost[i] == (byte)0xeb, "lost slot byte " + i + " was written (past q_top)");
        }
    }
}
