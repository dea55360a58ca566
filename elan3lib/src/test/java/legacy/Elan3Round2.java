package legacy;

import static org.qsnet.elan3.Elan3lib.E3_DMA_TYPE;
import static org.qsnet.elan3.Elan3lib.EVENT_WORD_READY;
import static org.qsnet.elan3.Elan3lib.elan3_addbcastvp;
import static org.qsnet.elan3.Elan3lib.elan3_addvp;
import static org.qsnet.elan3.Elan3lib.elan3_allocElan;
import static org.qsnet.elan3.Elan3lib.elan3_allocMain;
import static org.qsnet.elan3.Elan3lib.elan3_allocatebcastvp;
import static org.qsnet.elan3.Elan3lib.elan3_attach;
import static org.qsnet.elan3.Elan3lib.elan3_block_inputter;
import static org.qsnet.elan3.Elan3lib.elan3_getdma_main;
import static org.qsnet.elan3.Elan3lib.elan3_init;
import static org.qsnet.elan3.Elan3lib.elan3_initevent;
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
import static org.qsnet.elan3.Elan3lib.elan3_waitdmaevent;
import static org.qsnet.elan3.Elan3lib.elan3_waitdmaevent0;
import static org.qsnet.elan3.Elan3lib.elan3_waitevent_word;
import static org.qsnet.elan3.Elan3lib.elan3_write32_sdram;
import static org.qsnet.elan3.Elan3lib.errno;
import static org.qsnet.elan3.Elan3lib.rms_getcap;
import static org.qsnet.elan3.Elan3lib.rms_mycap;

import java.util.function.Supplier;

import org.qsnet.elan3.E3DmaMain;
import org.qsnet.elan3.Elan3;
import org.qsnet.elan3.Elan3Context;
import org.qsnet.elan3.ElanCapability;
import org.qsnet.elan3.ElanProcess;

/**
 * The second outside round for Elan3lib, written from ELAN-API.md §1.4–§1.5 only (a C program's
 * calls, its globals static fields; every process allocates the same objects in the same order,
 * so their Elan addresses are symmetric). {@code args[0]} names the scenario; rank 0 prints
 * {@code ok <scenario>}.
 * <ul>
 * <li>{@code relay} (3 processes): a payload of {@code args[1]} bytes goes 0 → 1 → 2 → 0 with no
 * host of 1 or 2 taking part: at 1 the arrival event is chained to the forwarding DMA
 * ({@code elan3_waitdmaevent}); at 2 the forwarding DMA waits for two arrivals
 * ({@code elan3_waitdmaevent0} with a count of 2, LA-MPI's tree forwarding): the relayed data and
 * a header DMA from 0. A chained DMA issued before its event's last packet landed would forward a
 * partial payload; rank 0 checks every byte; then rank 0 pulls (a {@code DMA_READ}) the same bytes
 * back from 2's buffer.</li>
 * <li>{@code bad-arguments}: facade calls with a bad argument fail with an error naming the
 * argument and the value (or return the documented -1 with errno and a reason); the context still
 * works after.</li>
 * </ul>
 */
public final class Elan3Round2
{
    // C globals
    static Elan3Context ctx;
    static ElanCapability cap;
    static int me;
    static int nvp;

    private Elan3Round2()
    {
    }

    static void check(final boolean ok, final String what)
    {
        if (!ok)
        {
            throw new IllegalStateException("rank " + me + ": " + what);
        }
    }

    static long[] wordEvent()
    {
        final long ev = elan3_allocElan(ctx, Elan3.E3_EVENT_ALIGN, Elan3.E3_BLOCK_COPY_EVENT_SIZE);
        final long word = elan3_allocMain(ctx, 8, 4);
        elan3_initevent_word(ctx, ev, word);
        ctx.putInt(word, 0);
        return new long[] {ev, word};
    }

    static E3DmaMain write(final int to, final long src, final long dst, final long len, final long srcEv, final long destEv)
    {
        final E3DmaMain d = new E3DmaMain();
        d.dma_type = E3_DMA_TYPE(Elan3.DMA_BYTE, Elan3.DMA_WRITE, Elan3.DMA_NORMAL, 63);
        d.dma_size = len;
        d.dma_source = elan3_main2elan(ctx, src);
        d.dma_dest = elan3_main2elan(ctx, dst);
        d.dma_destEvent = destEv == 0 ? 0 : elan3_sdram2elan(ctx, ctx.sdram, destEv);
        d.dma_destCookieVProc = to;
        d.dma_srcEvent = srcEv == 0 ? 0 : elan3_sdram2elan(ctx, ctx.sdram, srcEv);
        d.dma_srcCookieVProc = elan3_local_cookie(ctx, me, to);
        return d;
    }

    static byte pattern(final int i)
    {
        return (byte)(i * 13 + (i >>> 9) + 5);
    }

    /**
     * @param args the scenario, then its parameters.
     */
    public static void main(final String[] args)
    {
        cap = new ElanCapability();
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
        nvp = elan3_nvps(cap);
        switch (args[0])
        {
            case "relay" -> relay(Integer.parseInt(args[1]));
            case "bad-arguments" -> badArguments();
            default -> throw new IllegalArgumentException(args[0]);
        }
        if (me == 0)
        {
            System.out.println("ok " + args[0]);
        }
    }

    // ------------------------------------------------------------------ relay

    static void relay(final int len)
    {
        check(nvp == 3, "needs 3 processes");
        final long[] ready = wordEvent(); // rank 0: ranks 1 and 2 are set up (count 2)
        final long[] back = wordEvent(); // rank 0: the payload is back (from 2)
        final long[] pulled = wordEvent(); // rank 0: its DMA_READ from 2 has landed
        final long[] tx = wordEvent(); // local source completions
        final long arrive = elan3_allocElan(ctx, Elan3.E3_EVENT_ALIGN, Elan3.E3_BLOCK_COPY_EVENT_SIZE); // 1, 2: chain trigger
        final long wait0 = elan3_allocElan(ctx, Elan3.E3_EVENT_ALIGN, Elan3.E3_BLOCK_COPY_EVENT_SIZE); // 2: E3_WaitEvent0
        final long fwd = elan3_allocElan(ctx, Elan3.E3_DMA_ALIGN, Elan3.E3_DMA_SIZE); // 1, 2: the chained descriptor
        final long scratch = elan3_allocElan(ctx, Elan3.E3_DMA_ALIGN, Elan3.E3_DMA_SIZE);
        final long buf = elan3_allocMain(ctx, 64, len);
        final long in = elan3_allocMain(ctx, 64, len);
        final long hdr = elan3_allocMain(ctx, 64, 64);
        final long pullInto = elan3_allocMain(ctx, 64, len);
        elan3_primeevent(ctx, ready[0], 2);
        elan3_primeevent(ctx, back[0], 1);
        elan3_primeevent(ctx, pulled[0], 1);
        elan3_initevent(ctx, arrive);
        if (me == 1)
        {
            // when the payload has landed here, the NIC forwards it to 2
            ctx.copyDmaToSdram(write(2, in, in, len, 0, arrive), fwd);
            elan3_waitdmaevent(ctx, fwd, arrive);
            elan3_primeevent(ctx, arrive, 1);
        }
        else if (me == 2)
        {
            // two arrivals (the payload from 1 and a header from 0) before forwarding to 0
            ctx.copyDmaToSdram(write(0, in, in, len, 0, back[0]), fwd);
            elan3_waitdmaevent0(ctx, fwd, arrive, wait0, 2);
        }
        elan3_block_inputter(ctx, 0);
        if (me != 0)
        {
            ctx.putInt(tx[1], 0);
            elan3_primeevent(ctx, tx[0], 1);
            elan3_putdma_main(ctx, write(0, hdr, hdr, 4, tx[0], ready[0]), scratch);
            elan3_waitevent_word(ctx, tx[0], tx[1], Elan3.ELAN_WAIT_EVENT);
            // the hosts of 1 and 2 do nothing more: the relay is the NICs' work
            return;
        }
        elan3_waitevent_word(ctx, ready[0], ready[1], Elan3.ELAN_WAIT_EVENT);
        final byte[] b = new byte[len];
        for (int i = 0; i < len; i++)
        {
            b[i] = pattern(i);
        }
        ctx.write(buf, b, 0, len);
        ctx.putInt(tx[1], 0);
        elan3_primeevent(ctx, tx[0], 1);
        elan3_putdma_main(ctx, write(1, buf, in, len, tx[0], arrive), scratch);
        elan3_waitevent_word(ctx, tx[0], tx[1], Elan3.ELAN_WAIT_EVENT);
        // rank 2 has only one of its two arrivals: it must not forward yet
        for (int k = 0; k < 400; k++)
        {
            check(!elan3_pollevent_word(ctx, back[1], 1), "rank 2 forwarded after 1 of the 2 sets its waitdmaevent0 needs");
        }
        ctx.putInt(tx[1], 0);
        elan3_primeevent(ctx, tx[0], 1);
        elan3_putdma_main(ctx, write(2, hdr, hdr, 4, tx[0], arrive), scratch);
        elan3_waitevent_word(ctx, tx[0], tx[1], Elan3.ELAN_WAIT_EVENT);
        elan3_waitevent_word(ctx, back[0], back[1], Elan3.ELAN_WAIT_EVENT);
        final byte[] got = new byte[len];
        ctx.read(in, got, 0, len);
        for (int i = 0; i < len; i++)
        {
            check(got[i] == b[i], "relayed byte " + i + " of " + len + " is " + got[i] + ", expected " + b[i]
                + " (a chained DMA forwarded before its data had all landed)");
        }
        // pull the copy rank 2 holds (TEAC flow 3)
        final E3DmaMain d = new E3DmaMain();
        d.dma_type = E3_DMA_TYPE(Elan3.DMA_BYTE, Elan3.DMA_READ, Elan3.DMA_NORMAL, 63);
        d.dma_size = len;
        d.dma_source = elan3_main2elan(ctx, in);
        d.dma_dest = elan3_main2elan(ctx, pullInto);
        d.dma_srcCookieVProc = elan3_remote_cookie(ctx, me, 2);
        d.dma_destEvent = elan3_sdram2elan(ctx, ctx.sdram, pulled[0]);
        d.dma_destCookieVProc = elan3_local_cookie(ctx, me, 2);
        elan3_getdma_main(ctx, d, scratch);
        elan3_waitevent_word(ctx, pulled[0], pulled[1], Elan3.ELAN_WAIT_EVENT);
        ctx.read(pullInto, got, 0, len);
        for (int i = 0; i < len; i++)
        {
            check(got[i] == b[i], "pulled byte " + i + " of " + len + " is " + got[i]);
        }
        check(EVENT_WORD_READY(pulled[1]), "EVENT_WORD_READY false after the wait");
    }

    // ------------------------------------------------------------------ bad arguments

    static void refused(final String what, final String arg, final String value, final Supplier<Object> call)
    {
        final Object r;
        try
        {
            r = call.get();
        }
        catch (final RuntimeException e)
        {
            final String m = String.valueOf(e.getMessage());
            check(e instanceof org.qsnet.fabric.QsnetException, what + ": threw " + e + ", not the project's QsnetException");
            check(m.contains(arg) && m.contains(value), what + ": the error does not name " + arg + " = " + value + ": " + m);
            if (me == 0)
            {
                System.out.println(what + ": " + m);
            }
            return;
        }
        if (r instanceof Integer i && i == -1)
        {
            // the C convention: -1 and errno; the reason must still name the argument and the value
            final String reason = ElanProcess.current().lastError();
            check(errno() != 0, what + ": returned -1 without errno");
            check(reason.contains(arg) && reason.contains(value) && !reason.contains("not on contiguous nodes"), what
                + ": returned -1, errno " + errno() + ", reason '" + reason + "' does not name " + arg + " = " + value
                + " and its rule");
            if (me == 0)
            {
                System.out.println(what + ": -1, " + reason);
            }
            return;
        }
        if (r instanceof Long l && (l == 0 || l == Elan3.ELAN_BAD_ADDR))
        {
            if (me == 0)
            {
                System.out.println(what + ": returned the sentinel " + l);
            }
            return;
        }
        check(false, what + ": accepted (returned " + r + ")");
    }

    static void badArguments()
    {
        final long[] ev = wordEvent();
        final long scratch = elan3_allocElan(ctx, Elan3.E3_DMA_ALIGN, Elan3.E3_DMA_SIZE);
        final long buf = elan3_allocMain(ctx, 64, 4096);
        elan3_block_inputter(ctx, 0);
        final int peer = (me + 1) % nvp;
        refused("elan3_primeevent with a count of -1", "count", "-1", () ->
        {
            elan3_primeevent(ctx, ev[0], -1);
            return null;
        });
        refused("elan3_allocMain of -16 bytes", "size", "-16", () -> elan3_allocMain(ctx, 64, -16));
        refused("elan3_allocElan aligned to 24", "align", "24", () -> elan3_allocElan(ctx, 24, 64));
        refused("elan3_putdma_main to VP nvp", "VP", Integer.toString(nvp), () ->
        {
            elan3_putdma_main(ctx, write(nvp, buf, buf, 64, 0, 0), scratch);
            return null;
        });
        // dma_size is an E3_uint32: -8 in C is 0xfffffff8, and the error names that value
        refused("elan3_putdma_main of -8 bytes", "dma_size", "4294967288", () ->
        {
            elan3_putdma_main(ctx, write(peer, buf, buf, -8, 0, 0), scratch);
            return null;
        });
        refused("elan3_putdma_main from an unmapped source", "source", "0x7ff00000", () ->
        {
            final E3DmaMain d = write(peer, buf, buf, 64, 0, 0);
            d.dma_source = 0x7ff00000L;
            elan3_putdma_main(ctx, d, scratch);
            return null;
        });
        final String writeType = "0x" + Integer.toHexString(E3_DMA_TYPE(Elan3.DMA_BYTE, Elan3.DMA_WRITE, Elan3.DMA_NORMAL, 63));
        refused("elan3_getdma_main of a DMA_WRITE descriptor", "dma_type", writeType, () ->
        {
            elan3_getdma_main(ctx, write(peer, buf, buf, 64, 0, 0), scratch);
            return null;
        });
        refused("elan3_write32_sdram outside the SDRAM", "SDRAM handle", "0x7fff0000", () ->
        {
            elan3_write32_sdram(ctx.sdram, 0x7fff0000L, 1);
            return null;
        });
        // just past this context's 2 MB Elan heap: another process's SDRAM on the node (or nobody's)
        final long beyond = ev[0] + 0x200000L;
        refused("elan3_write32_sdram past this context's SDRAM", "SDRAM handle", "0x" + Long.toHexString(beyond), () ->
        {
            elan3_write32_sdram(ctx.sdram, beyond, 0xdead);
            return null;
        });
        refused("elan3_read32_sdram past this context's SDRAM", "SDRAM handle", "0x" + Long.toHexString(beyond),
            () -> org.qsnet.elan3.Elan3lib.elan3_read32_sdram(ctx.sdram, beyond));
        final int b = elan3_allocatebcastvp(ctx);
        check(b >= nvp, "elan3_allocatebcastvp returned " + b);
        refused("elan3_addbcastvp with lowVp > highVp", "VP range", "2..1", () -> elan3_addbcastvp(ctx, b, 2, 1));
        refused("elan3_addbcastvp to VP nvp", "VP range", "0.." + nvp, () -> elan3_addbcastvp(ctx, b, 0, nvp));
        check(elan3_main2elan(ctx, 0x10L) == Elan3.ELAN_BAD_ADDR, "elan3_main2elan of an unmapped pointer is not ELAN_BAD_ADDR");
        // the context still works: the host sets its own event
        ctx.putInt(ev[1], 0);
        elan3_primeevent(ctx, ev[0], 1);
        org.qsnet.elan3.Elan3lib.elan3_setevent(ctx, ev[0]);
        elan3_waitevent_word(ctx, ev[0], ev[1], Elan3.ELAN_POLL_EVENT);
    }
}
