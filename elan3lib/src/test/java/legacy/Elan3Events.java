package legacy;

import static org.qsnet.elan3.Elan3lib.EVENT_WORD_READY;
import static org.qsnet.elan3.Elan3lib.E3_DMA_TYPE;
import static org.qsnet.elan3.Elan3lib.elan3_addvp;
import static org.qsnet.elan3.Elan3lib.elan3_allocElan;
import static org.qsnet.elan3.Elan3lib.elan3_allocMain;
import static org.qsnet.elan3.Elan3lib.elan3_attach;
import static org.qsnet.elan3.Elan3lib.elan3_block_inputter;
import static org.qsnet.elan3.Elan3lib.elan3_getdma_main;
import static org.qsnet.elan3.Elan3lib.elan3_init;
import static org.qsnet.elan3.Elan3lib.elan3_initevent_word;
import static org.qsnet.elan3.Elan3lib.elan3_local_cookie;
import static org.qsnet.elan3.Elan3lib.elan3_main2elan;
import static org.qsnet.elan3.Elan3lib.elan3_nvps;
import static org.qsnet.elan3.Elan3lib.elan3_pollevent_word;
import static org.qsnet.elan3.Elan3lib.elan3_primeevent;
import static org.qsnet.elan3.Elan3lib.elan3_process;
import static org.qsnet.elan3.Elan3lib.elan3_putdma_main;
import static org.qsnet.elan3.Elan3lib.elan3_remote_cookie;
import static org.qsnet.elan3.Elan3lib.elan3_sdram2elan;
import static org.qsnet.elan3.Elan3lib.elan3_set_required_mappings;
import static org.qsnet.elan3.Elan3lib.elan3_set_standard_mappings;
import static org.qsnet.elan3.Elan3lib.elan3_setevent;
import static org.qsnet.elan3.Elan3lib.elan3_waitdmaevent;
import static org.qsnet.elan3.Elan3lib.elan3_waitevent_word;
import static org.qsnet.elan3.Elan3lib.rms_getcap;
import static org.qsnet.elan3.Elan3lib.rms_mycap;

import org.qsnet.elan3.E3DmaMain;
import org.qsnet.elan3.Elan3;
import org.qsnet.elan3.Elan3Context;
import org.qsnet.elan3.ElanCapability;

/**
 * Elan3lib events and DMAs as TEAC and LA-MPI use them, written from ELAN-API.md §1.4.5, §1.4.6
 * and §1.5 only (a C program's calls, its globals as static fields; both processes allocate in
 * the same order, so their Elan addresses are symmetric): an event primed with a count fires only
 * after that many sets, by the host ({@code elan3_setevent}) or by arriving DMAs; a word event
 * polled ({@code elan3_pollevent_word}, {@code EVENT_WORD_READY}) and waited with
 * {@code ELAN_POLL_EVENT}, {@code ELAN_WAIT_EVENT} and a spin count; a TEAC pull
 * ({@code DMA_READ} with {@code elan3_getdma_main}) that notifies the <em>sender</em> through its
 * source event; and a descriptor chained to an event with {@code elan3_waitdmaevent}, issued by
 * the NIC only once the event fires. Two processes; rank 0 prints {@code ok events}.
 */
public final class Elan3Events
{
    // C globals
    static Elan3Context ctx;
    static int me;
    static int peer;

    private Elan3Events()
    {
    }

    static void check(final boolean ok, final String what)
    {
        if (!ok)
        {
            throw new IllegalStateException("rank " + me + ": " + what);
        }
    }

    /** An event whose firing writes a main-memory word (TEAC), word cleared. */
    static long[] wordEvent()
    {
        final long ev = elan3_allocElan(ctx, Elan3.E3_EVENT_ALIGN, Elan3.E3_BLOCK_COPY_EVENT_SIZE);
        final long word = elan3_allocMain(ctx, 8, 4);
        elan3_initevent_word(ctx, ev, word);
        ctx.putInt(word, 0);
        return new long[] {ev, word};
    }

    /** A DMA write of {@code len} bytes from {@code src} to the peer's {@code dst}, firing the given events. */
    static E3DmaMain write(final long src, final long dst, final int len, final long srcEv, final long destEv)
    {
        final E3DmaMain d = new E3DmaMain();
        d.dma_type = E3_DMA_TYPE(Elan3.DMA_BYTE, Elan3.DMA_WRITE, Elan3.DMA_NORMAL, 63);
        d.dma_size = len;
        d.dma_source = elan3_main2elan(ctx, src);
        d.dma_dest = elan3_main2elan(ctx, dst);
        d.dma_destEvent = destEv == 0 ? 0 : elan3_sdram2elan(ctx, ctx.sdram, destEv);
        d.dma_destCookieVProc = peer;
        d.dma_srcEvent = srcEv == 0 ? 0 : elan3_sdram2elan(ctx, ctx.sdram, srcEv);
        d.dma_srcCookieVProc = elan3_local_cookie(ctx, me, peer);
        return d;
    }

    /**
     * @param args unused.
     */
    public static void main(final String[] args)
    {
        final ElanCapability cap = new ElanCapability();
        final int[] capIndex = new int[1];
        check(rms_mycap(capIndex) >= 0 && rms_getcap(capIndex[0], cap) >= 0, "rms_getcap");
        ctx = elan3_init(0, 0x400000, 0x2000000, 0x200000, 0x200000);
        check(ctx != null, "elan3_init");
        elan3_set_standard_mappings(ctx);
        elan3_set_required_mappings(ctx);
        elan3_block_inputter(ctx, 1);
        check(elan3_attach(ctx, cap) == 0, "elan3_attach");
        check(elan3_addvp(ctx, 0, cap) >= 0, "elan3_addvp");
        me = elan3_process(ctx);
        check(elan3_nvps(cap) == 2, "needs 2 processes");
        peer = 1 - me;

        // every process lays out the same objects in the same order: symmetric addresses
        final long[] local = wordEvent(); // host-set count test
        final long[] arrivals = wordEvent(); // 3 DMAs from the peer
        final long[] phase = wordEvent(); // one DMA from the peer: "the first two are done"
        final long[] go = wordEvent(); // one DMA from the peer: "send the third"
        final long[] pulled = wordEvent(); // rank 0: its buffer has been read by rank 1
        final long[] got = wordEvent(); // rank 1: the read has landed
        final long[] tx = wordEvent(); // local source completions
        final long[] chain = wordEvent(); // rank 0: the trigger of a chained DMA
        final long[] chainTx = wordEvent(); // rank 0: the chained DMA's source event
        final long[] chainRx = wordEvent(); // rank 1: the chained DMA's destination event
        final long buf = elan3_allocMain(ctx, 64, 4096);
        final long in = elan3_allocMain(ctx, 64, 4096);
        final long scratch = elan3_allocElan(ctx, Elan3.E3_DMA_ALIGN, Elan3.E3_DMA_SIZE);
        final long chained = elan3_allocElan(ctx, Elan3.E3_DMA_ALIGN, Elan3.E3_DMA_SIZE);
        for (int i = 0; i < 1024; i++)
        {
            ctx.putInt(buf + 4L * i, me * 1_000_000 + i);
        }
        elan3_primeevent(ctx, arrivals[0], 3);
        elan3_primeevent(ctx, phase[0], 1);
        elan3_primeevent(ctx, go[0], 1);
        elan3_primeevent(ctx, pulled[0], 1);
        elan3_primeevent(ctx, got[0], 1);
        elan3_primeevent(ctx, chainRx[0], 1);
        elan3_block_inputter(ctx, 0);

        // (1) a count of 3 set by the host: not fired after 2 sets, fired after the third
        elan3_primeevent(ctx, local[0], 3);
        elan3_setevent(ctx, local[0]);
        elan3_setevent(ctx, local[0]);
        for (int i = 0; i < 50; i++)
        {
            check(!elan3_pollevent_word(ctx, local[1], 1), "event primed with 3 fired after 2 elan3_setevent");
        }
        check(!EVENT_WORD_READY(local[1]), "EVENT_WORD_READY after 2 of 3 sets");
        elan3_setevent(ctx, local[0]);
        elan3_waitevent_word(ctx, local[0], local[1], Elan3.ELAN_POLL_EVENT);
        check(EVENT_WORD_READY(local[1]), "EVENT_WORD_READY false after elan3_waitevent_word returned");
        // re-armed by the program (TEAC clears the word itself before re-priming)
        ctx.putInt(local[1], 0);
        elan3_primeevent(ctx, local[0], 1);
        check(!elan3_pollevent_word(ctx, local[1], 1), "a re-primed event is already fired");
        elan3_setevent(ctx, local[0]);
        elan3_waitevent_word(ctx, local[0], local[1], Elan3.ELAN_WAIT_EVENT);

        // (2) a remote count of 3: the peer's DMAs each set it once
        if (me == 0)
        {
            for (int k = 0; k < 2; k++)
            {
                ctx.putInt(tx[1], 0);
                elan3_primeevent(ctx, tx[0], 1);
                elan3_putdma_main(ctx, write(buf + 100L * k, buf + 100L * k, 100, tx[0], arrivals[0]), scratch);
                elan3_waitevent_word(ctx, tx[0], tx[1], 10);
            }
            ctx.putInt(tx[1], 0);
            elan3_primeevent(ctx, tx[0], 1);
            elan3_putdma_main(ctx, write(buf, in, 4, tx[0], phase[0]), scratch);
            elan3_waitevent_word(ctx, tx[0], tx[1], Elan3.ELAN_WAIT_EVENT);
            elan3_waitevent_word(ctx, go[0], go[1], Elan3.ELAN_WAIT_EVENT);
            ctx.putInt(tx[1], 0);
            elan3_primeevent(ctx, tx[0], 1);
            elan3_putdma_main(ctx, write(buf + 200, buf + 200, 100, tx[0], arrivals[0]), scratch);
            elan3_waitevent_word(ctx, tx[0], tx[1], Elan3.ELAN_POLL_EVENT);
        }
        else
        {
            elan3_waitevent_word(ctx, phase[0], phase[1], Elan3.ELAN_WAIT_EVENT);
            check(!EVENT_WORD_READY(arrivals[1]), "an event primed with 3 fired after 2 DMAs had landed");
            check(ctx.getInt(buf + 100) == 25, "the second DMA's data is not there: " + ctx.getInt(buf + 100));
            ctx.putInt(tx[1], 0);
            elan3_primeevent(ctx, tx[0], 1);
            elan3_putdma_main(ctx, write(buf, in, 4, tx[0], go[0]), scratch);
            elan3_waitevent_word(ctx, tx[0], tx[1], Elan3.ELAN_WAIT_EVENT);
            elan3_waitevent_word(ctx, arrivals[0], arrivals[1], Elan3.ELAN_WAIT_EVENT);
            for (int i = 0; i < 75; i++)
            {
                check(ctx.getInt(buf + 4L * i) == i, "word " + i + " of the 3 DMAs is " + ctx.getInt(buf + 4L * i));
            }
            check(ctx.getInt(buf + 300) == 1_000_000 + 75, "a DMA wrote past its 100 bytes");
        }

        // (3) TEAC pull: rank 1 reads rank 0's buffer; rank 0 learns it through its own event
        if (me == 1)
        {
            final E3DmaMain d = new E3DmaMain();
            d.dma_type = E3_DMA_TYPE(Elan3.DMA_BYTE, Elan3.DMA_READ, Elan3.DMA_NORMAL, 63);
            d.dma_size = 2000;
            d.dma_source = elan3_main2elan(ctx, buf + 1000); // remote (symmetric)
            d.dma_dest = elan3_main2elan(ctx, in);
            d.dma_srcEvent = elan3_sdram2elan(ctx, ctx.sdram, pulled[0]); // fired at the sender (rank 0)
            d.dma_srcCookieVProc = elan3_remote_cookie(ctx, me, peer);
            d.dma_destEvent = elan3_sdram2elan(ctx, ctx.sdram, got[0]);
            d.dma_destCookieVProc = elan3_local_cookie(ctx, me, peer);
            elan3_getdma_main(ctx, d, scratch);
            elan3_waitevent_word(ctx, got[0], got[1], Elan3.ELAN_WAIT_EVENT);
            for (int i = 0; i < 500; i++)
            {
                check(ctx.getInt(in + 4L * i) == 250 + i, "pulled word " + i + " is " + ctx.getInt(in + 4L * i));
            }
            check(!EVENT_WORD_READY(pulled[1]), "the reader's own 'pulled' event fired (it is the sender's)");
        }
        else
        {
            // 10: a spin count, as TEAC waits
            elan3_waitevent_word(ctx, pulled[0], pulled[1], 10);
            check(!EVENT_WORD_READY(got[1]), "the sender's 'got' event fired (it is the reader's)");
        }

        // (4) a descriptor chained to an event: the NIC issues it when the event fires (after 2 sets)
        if (me == 0)
        {
            for (int i = 0; i < 16; i++)
            {
                ctx.putInt(buf + 3000 + 4L * i, 0x0c0ffee0 + i);
            }
            ctx.copyDmaToSdram(write(buf + 3000, in + 3000, 64, chainTx[0], chainRx[0]), chained);
            elan3_primeevent(ctx, chainTx[0], 1);
            elan3_primeevent(ctx, chain[0], 2);
            elan3_waitdmaevent(ctx, chained, chain[0]);
            elan3_setevent(ctx, chain[0]);
            for (int i = 0; i < 200; i++)
            {
                check(!elan3_pollevent_word(ctx, chainTx[1], 1), "the chained DMA ran after 1 of 2 sets of its event");
            }
            elan3_setevent(ctx, chain[0]);
            elan3_waitevent_word(ctx, chainTx[0], chainTx[1], Elan3.ELAN_WAIT_EVENT);
        }
        else
        {
            elan3_waitevent_word(ctx, chainRx[0], chainRx[1], Elan3.ELAN_WAIT_EVENT);
            for (int i = 0; i < 16; i++)
            {
                check(ctx.getInt(in + 3000 + 4L * i) == 0x0c0ffee0 + i, "chained DMA word " + i);
            }
        }
        if (me == 0)
        {
            System.out.println("ok events");
        }
    }
}
