package legacy;

import static org.qsnet.elan3.Elan3lib.E3_DMA_TYPE;
import static org.qsnet.elan3.Elan3lib.E3_RESET_BCOPY_BLOCK;
import static org.qsnet.elan3.Elan3lib.E3_WRITE_DMA_DEST;
import static org.qsnet.elan3.Elan3lib.E3_WRITE_DMA_DESTEVENT;
import static org.qsnet.elan3.Elan3lib.E3_WRITE_DMA_SIZE;
import static org.qsnet.elan3.Elan3lib.E3_WRITE_DMA_SOURCE;
import static org.qsnet.elan3.Elan3lib.E3_WRITE_DMA_SRCEVENT;
import static org.qsnet.elan3.Elan3lib.EVENT_BLK_READY;
import static org.qsnet.elan3.Elan3lib.EVENT_WORD_READY;
import static org.qsnet.elan3.Elan3lib.elan3_addbcastvp;
import static org.qsnet.elan3.Elan3lib.elan3_addressable;
import static org.qsnet.elan3.Elan3lib.elan3_addvp;
import static org.qsnet.elan3.Elan3lib.elan3_allocElan;
import static org.qsnet.elan3.Elan3lib.elan3_allocMain;
import static org.qsnet.elan3.Elan3lib.elan3_allocVaddr;
import static org.qsnet.elan3.Elan3lib.elan3_allocatebcastvp;
import static org.qsnet.elan3.Elan3lib.elan3_attach;
import static org.qsnet.elan3.Elan3lib.elan3_blkcopy64_to_sdram;
import static org.qsnet.elan3.Elan3lib.elan3_block_inputter;
import static org.qsnet.elan3.Elan3lib.elan3_clearperm;
import static org.qsnet.elan3.Elan3lib.elan3_clearperm_elan;
import static org.qsnet.elan3.Elan3lib.elan3_clearperm_main;
import static org.qsnet.elan3.Elan3lib.elan3_copy32_to_sdram;
import static org.qsnet.elan3.Elan3lib.elan3_detach;
import static org.qsnet.elan3.Elan3lib.elan3_elan2main;
import static org.qsnet.elan3.Elan3lib.elan3_free;
import static org.qsnet.elan3.Elan3lib.elan3_freeElan;
import static org.qsnet.elan3.Elan3lib.elan3_getdma_main;
import static org.qsnet.elan3.Elan3lib.elan3_init;
import static org.qsnet.elan3.Elan3lib.elan3_initevent;
import static org.qsnet.elan3.Elan3lib.elan3_initevent_main;
import static org.qsnet.elan3.Elan3lib.elan3_initevent_word;
import static org.qsnet.elan3.Elan3lib.elan3_local_cookie;
import static org.qsnet.elan3.Elan3lib.elan3_main2elan;
import static org.qsnet.elan3.Elan3lib.elan3_nvps;
import static org.qsnet.elan3.Elan3lib.elan3_vp2location;
import static org.qsnet.elan3.Elan3lib.elan3_nullcap;
import static org.qsnet.elan3.Elan3lib.elan3_nlocal;
import static org.qsnet.elan3.Elan3lib.elan3_maxlocal;
import static org.qsnet.elan3.Elan3lib.elan3_capability_string;
import static org.qsnet.elan3.Elan3lib.elan3_rails;
import static org.qsnet.elan3.Elan3lib.elan3_nrails;
import static org.qsnet.elan3.Elan3lib.elan3_pollevent_word;
import static org.qsnet.elan3.Elan3lib.elan3_primeevent;
import static org.qsnet.elan3.Elan3lib.elan3_process;
import static org.qsnet.elan3.Elan3lib.elan3_putdma;
import static org.qsnet.elan3.Elan3lib.elan3_putdma_main;
import static org.qsnet.elan3.Elan3lib.elan3_read32_sdram;
import static org.qsnet.elan3.Elan3lib.elan3_remote_cookie;
import static org.qsnet.elan3.Elan3lib.elan3_sdram2elan;
import static org.qsnet.elan3.Elan3lib.elan3_set_required_mappings;
import static org.qsnet.elan3.Elan3lib.elan3_set_standard_mappings;
import static org.qsnet.elan3.Elan3lib.elan3_setevent;
import static org.qsnet.elan3.Elan3lib.elan3_setperm;
import static org.qsnet.elan3.Elan3lib.elan3_waitdmaevent;
import static org.qsnet.elan3.Elan3lib.elan3_waitevent;
import static org.qsnet.elan3.Elan3lib.elan3_waitevent_blk;
import static org.qsnet.elan3.Elan3lib.elan3_waitevent_word;
import static org.qsnet.elan3.Elan3lib.elan3_write32_sdram;
import static org.qsnet.elan3.Elan3lib.elan3_zero_byte_sdram;
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
 * The third outside round for Elan3lib, written from ELAN-API.md §1 and §4 only (a C program's
 * calls, its globals static fields; every process allocates the same objects in the same order,
 * so their Elan addresses are symmetric). {@code args[0]} names the scenario; rank 0 prints
 * {@code ok <scenario>}.
 * <ul>
 * <li>{@code queue} (2 processes): LA-MPI's QDMA input queue (§1.5 flow 4) built by hand in SDRAM
 * ({@code q_state}, {@code q_size}, {@code q_base}, {@code q_top}, {@code q_fptr}, {@code q_bptr},
 * a block-copy {@code q_event}); rank 0 sends {@code args[1]} {@code DMA_QUEUED} messages two at a
 * time, rank 1 consumes them in order, wrapping at {@code q_top}, re-arming with
 * {@code elan3_waitevent}.</li>
 * <li>{@code sdram} (2 processes): the §1.4.4 accessors; a descriptor laid out word by word in
 * main memory in the catalog's field order (§1.2.6), copied with {@code elan3_copy32_to_sdram},
 * issued with {@code elan3_putdma}, then patched with every {@code E3_WRITE_DMA_*} macro and
 * reissued; SDRAM reached from the host through {@code sdram2elan} then {@code elan2main}
 * (Charm++'s chain, §1.1).</li>
 * <li>{@code memory} (2 processes): {@code allocMain}/{@code allocElan} alignments, free and
 * reuse, {@code main2elan}/{@code elan2main} inverses, {@code allocVaddr} + {@code setperm} of
 * plain host memory as a DMA target (LA-MPI's global memory), {@code clearperm_main} after.</li>
 * <li>{@code bcast}: a {@code DMA_NORMAL_BROADCAST} to a VP made with
 * {@code elan3_addbcastvp(ctx, b, 0, nvp-1)} reaches every member (the root too) at the same
 * address and fires the destination event at each.</li>
 * <li>{@code events} (3 processes): an event primed with 3 fired by the host and two remote DMAs,
 * block-copy source events waited with a spin count, a DMA whose source event is chained to a
 * second DMA (a copy of the first), a 0-byte DMA as a pure notification, every DMA data type.</li>
 * <li>{@code once} (2 processes, run with CRC errors): a destination event primed with 2 is not
 * fired by one DMA however many of its packets were retransmitted; data arrive intact.</li>
 * <li>{@code attach}: before its attach, a context cannot attach with {@code MyContext} outside the
 * capability's range, with another process's context, or with another key (§4.5); then the real
 * capability attaches once, and the context works.</li>
 * <li>{@code second-context}: a second {@code elan3_init} on the rail succeeds (§1.4.1: attach,
 * not init, claims {@code MyContext}); its attach of the held context fails; after
 * {@code elan3_detach} of the first a new context attaches.</li>
 * <li>{@code capability}: §1.4.2 helpers on the job's capability ({@code elan3_nrails},
 * {@code elan3_rails}, {@code elan3_capability_string}, {@code elan3_maxlocal}, the
 * {@code elan3_nlocal} of every node adding up to {@code elan3_nvps}); a capability after
 * {@code elan3_nullcap} attaches nowhere.</li>
 * <li>{@code placements} ({@code args[1]} bytes): DMAs SDRAM to SDRAM, main to SDRAM, SDRAM to
 * main (peer), and a read of the peer's SDRAM into main memory.</li>
 * <li>{@code remote-fault} ({@code args[1]} write or read): a DMA to or from an Elan address the
 * peer never mapped is an error at the initiator naming the address (DESIGN.md), the peer's memory
 * and events are untouched, and both contexts work after.</li>
 * <li>{@code bad-arguments}: more misuse, refused naming the argument and the value.</li>
 * </ul>
 * Where the catalog is open, the scenarios assert only what it says: {@code EVENT_BLK_READY} tests
 * a done word that {@code elan3_initevent_main} writes into the source block's last word (who
 * writes the "done" pattern is not said), so only the other 15 words are checked as the program's;
 * a spin count of 0 ({@code how}) is not treated as misuse ("a positive spin count" is not said to
 * exclude it); nothing assumes how many messages a queue of n slots holds (§1.6 says
 * {@code E3_QUEUE_FULL} is set "when q_bptr catches up with q_fptr"; the emulator keeps one slot
 * free and sets it when it refuses one, so n-1 fit).
 */
public final class Elan3Round3
{
    // C globals
    static Elan3Context ctx;
    static ElanCapability cap;
    static int me;
    static int nvp;
    static long scratch;

    private Elan3Round3()
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

    static long elan(final long sdramEv)
    {
        return sdramEv == 0 ? 0 : elan3_sdram2elan(ctx, ctx.sdram, sdramEv);
    }

    static E3DmaMain write(final int to, final long src, final long dst, final long len, final long srcEv, final long destEv)
    {
        return dma(Elan3.DMA_BYTE, Elan3.DMA_NORMAL, to, src, dst, len, srcEv, destEv);
    }

    static E3DmaMain dma(final int dataType, final int opcode, final int to, final long src, final long dst, final long len,
        final long srcEv, final long destEv)
    {
        final E3DmaMain d = new E3DmaMain();
        d.dma_type = E3_DMA_TYPE(dataType, Elan3.DMA_WRITE, opcode, 63);
        d.dma_size = len;
        d.dma_source = elan3_main2elan(ctx, src);
        d.dma_dest = dst == 0 ? 0 : elan3_main2elan(ctx, dst);
        d.dma_destEvent = elan(destEv);
        d.dma_destCookieVProc = to;
        d.dma_srcEvent = elan(srcEv);
        d.dma_srcCookieVProc = elan3_local_cookie(ctx, me, to);
        return d;
    }

    /** Issue and wait for the local completion (TEAC flow 2). */
    static void send(final E3DmaMain d, final long[] tx)
    {
        ctx.putInt(tx[1], 0);
        elan3_primeevent(ctx, tx[0], 1);
        d.dma_srcEvent = elan(tx[0]);
        elan3_putdma_main(ctx, d, scratch);
        elan3_waitevent_word(ctx, tx[0], tx[1], Elan3.ELAN_WAIT_EVENT);
    }

    static void waitWord(final long[] ev)
    {
        elan3_waitevent_word(ctx, ev[0], ev[1], Elan3.ELAN_WAIT_EVENT);
    }

    static void rearm(final long[] ev, final int count)
    {
        ctx.putInt(ev[1], 0);
        elan3_primeevent(ctx, ev[0], count);
    }

    static byte pattern(final int i, final int salt)
    {
        return (byte)(i * 31 + (i >>> 8) + salt);
    }

    static void fill(final long p, final int len, final int salt)
    {
        final byte[] b = new byte[len];
        for (int i = 0; i < len; i++)
        {
            b[i] = pattern(i, salt);
        }
        ctx.write(p, b, 0, len);
    }

    static void expect(final long p, final int len, final int salt, final String what)
    {
        final byte[] b = new byte[len];
        ctx.read(p, b, 0, len);
        for (int i = 0; i < len; i++)
        {
            check(b[i] == pattern(i, salt), what + ": byte " + i + " of " + len + " is " + b[i] + ", expected " + pattern(i, salt));
        }
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
        // TEAC's start-up (required mappings only) where the scenario needs malloc'ed memory unmapped
        if (!args[0].equals("memory") && !args[0].equals("bad-arguments"))
        {
            check(elan3_set_standard_mappings(ctx) != 0, "elan3_set_standard_mappings");
        }
        check(elan3_set_required_mappings(ctx) != 0, "elan3_set_required_mappings");
        elan3_block_inputter(ctx, 1);
        if (!args[0].equals("attach"))
        {
            check(elan3_attach(ctx, cap) == 0, "elan3_attach");
            check(elan3_addvp(ctx, 0, cap) >= 0, "elan3_addvp");
            me = elan3_process(ctx);
            nvp = elan3_nvps(cap);
        }
        scratch = elan3_allocElan(ctx, Elan3.E3_DMA_ALIGN, Elan3.E3_DMA_SIZE);
        switch (args[0])
        {
            case "queue" -> queue(Integer.parseInt(args[1]));
            case "sdram" -> sdram();
            case "memory" -> memory();
            case "bcast" -> bcast(Integer.parseInt(args[1]));
            case "events" -> events();
            case "once" -> once(Integer.parseInt(args[1]));
            case "attach" -> attach();
            case "placements" -> placements(Integer.parseInt(args[1]));
            case "capability" -> capability();
            case "remote-fault" -> remoteFault(args[1].equals("read"));
            case "second-context" -> secondContext();
            case "bad-arguments" -> badArguments();
            default -> throw new IllegalArgumentException(args[0]);
        }
        if (me == 0)
        {
            System.out.println("ok " + args[0]);
        }
    }

    // ------------------------------------------------------------------ queue (LA-MPI flow 4)

    static void queue(final int messages)
    {
        check(nvp == 2, "needs 2 processes");
        final int slotSize = 64;
        final int slots = 4;
        final long[] ready = wordEvent(); // 0: the queue at 1 is set up
        final long[] ack = wordEvent(); // 0: 1 consumed two more messages
        final long[] tx = wordEvent();
        final long qh = elan3_allocElan(ctx, Elan3.E3_QUEUE_ALIGN, Elan3.E3_QUEUE_SIZE);
        final long doneBlk = elan3_allocElan(ctx, Elan3.E3_BLK_ALIGN, Elan3.E3_BLK_SIZE);
        final long blk = elan3_allocMain(ctx, Elan3.E3_BLK_ALIGN, Elan3.E3_BLK_SIZE);
        final long ring = elan3_allocMain(ctx, 64, (long)slotSize * slots);
        final long msg = elan3_allocMain(ctx, 64, slotSize);
        final long hdr = elan3_allocMain(ctx, 64, 64);
        rearm(ready, 1);
        rearm(ack, 1);
        final long base = elan3_main2elan(ctx, ring);
        final long top = base + (long)slotSize * (slots - 1);
        if (me == 1)
        {
            for (int w = 0; w < Elan3.E3_BLK_SIZE; w += 4)
            {
                elan3_write32_sdram(ctx.sdram, doneBlk + w, 1);
            }
            elan3_write32_sdram(ctx.sdram, qh + Elan3.Q_STATE, Elan3.E3_QUEUE_LOCKED);
            elan3_write32_sdram(ctx.sdram, qh + Elan3.Q_SIZE, slotSize);
            elan3_write32_sdram(ctx.sdram, qh + Elan3.Q_BASE, (int)base);
            elan3_write32_sdram(ctx.sdram, qh + Elan3.Q_TOP, (int)top);
            elan3_write32_sdram(ctx.sdram, qh + Elan3.Q_FPTR, (int)base);
            elan3_write32_sdram(ctx.sdram, qh + Elan3.Q_BPTR, (int)base);
            E3_RESET_BCOPY_BLOCK(blk);
            elan3_initevent_main(ctx, qh + Elan3.Q_EVENT, doneBlk, blk);
            elan3_primeevent(ctx, qh + Elan3.Q_EVENT, 1);
            elan3_write32_sdram(ctx.sdram, qh + Elan3.Q_STATE, 0);
        }
        elan3_block_inputter(ctx, 0);
        if (me == 1)
        {
            send(write(0, hdr, hdr, 4, 0, ready[0]), tx);
            long fptr = base;
            int consumed = 0;
            final byte[] slot = new byte[slotSize];
            while (consumed < messages)
            {
                final long bptr = elan3_read32_sdram(ctx.sdram, qh + Elan3.Q_BPTR) & 0xFFFFFFFFL;
                final int state = elan3_read32_sdram(ctx.sdram, qh + Elan3.Q_STATE);
                check((state & Elan3.E3_QUEUE_FULL) == 0, "E3_QUEUE_FULL set with at most 2 of 4 slots in use");
                check(bptr >= base && bptr <= top, "q_bptr 0x" + Long.toHexString(bptr) + " outside q_base..q_top 0x"
                    + Long.toHexString(base) + "..0x" + Long.toHexString(top));
                if (bptr == fptr)
                {
                    elan3_waitevent_blk(ctx, qh + Elan3.Q_EVENT, blk, Elan3.ELAN_WAIT_EVENT);
                    check(EVENT_BLK_READY(blk), "EVENT_BLK_READY false after elan3_waitevent_blk returned");
                    E3_RESET_BCOPY_BLOCK(blk);
                    check(!EVENT_BLK_READY(blk), "EVENT_BLK_READY true after E3_RESET_BCOPY_BLOCK");
                    elan3_waitevent(ctx, qh + Elan3.Q_EVENT);
                    continue;
                }
                ctx.read(elan3_elan2main(ctx, fptr), slot, 0, slotSize);
                for (int i = 0; i < slotSize; i++)
                {
                    check(slot[i] == pattern(i, consumed), "message " + consumed + " byte " + i + " is " + slot[i]
                        + ", expected " + pattern(i, consumed) + " (slot at 0x" + Long.toHexString(fptr) + ")");
                }
                fptr = fptr == top ? base : fptr + slotSize;
                elan3_write32_sdram(ctx.sdram, qh + Elan3.Q_FPTR, (int)fptr);
                consumed++;
                if (consumed % 2 == 0)
                {
                    send(write(0, hdr, hdr, 4, 0, ack[0]), tx);
                }
            }
            return;
        }
        waitWord(ready);
        final long remoteQueue = elan3_sdram2elan(ctx, ctx.sdram, qh);
        for (int m = 0; m < messages; m++)
        {
            fill(msg, slotSize, m);
            final E3DmaMain d = dma(Elan3.DMA_BYTE, Elan3.DMA_QUEUED, 1, msg, 0, slotSize, 0, 0);
            d.dma_destEvent = remoteQueue;
            send(d, tx);
            if (m % 2 == 1)
            {
                waitWord(ack);
                rearm(ack, 1);
            }
        }
    }

    // ------------------------------------------------------------------ SDRAM accessors

    static void sdram()
    {
        check(nvp == 2, "needs 2 processes");
        final int peer = 1 - me;
        final long[] done = wordEvent(); // destination: a patched descriptor's data landed
        final long[] tx = wordEvent();
        final long[] ready = wordEvent();
        final long[] ready2 = wordEvent(); // a second handshake: re-priming ready would race with the peer's set
        final long[] done2 = wordEvent();
        final long[] tx2 = wordEvent();
        final long area = elan3_allocElan(ctx, 64, 256);
        final long desc = elan3_allocElan(ctx, Elan3.E3_DMA_ALIGN, Elan3.E3_DMA_SIZE);
        final long descMain = elan3_allocMain(ctx, Elan3.E3_DMA_ALIGN, Elan3.E3_DMA_SIZE);
        final long src = elan3_allocMain(ctx, 64, 4096);
        final long dst = elan3_allocMain(ctx, 64, 4096);
        final long blocks = elan3_allocMain(ctx, 64, 128);
        rearm(done, 1);
        rearm(ready, 1);
        rearm(ready2, 1);
        rearm(done2, 1);
        elan3_block_inputter(ctx, 0);

        // word access, zeroing and block copies on this process's own SDRAM
        for (int w = 0; w < 64; w++)
        {
            elan3_write32_sdram(ctx.sdram, area + 4L * w, 0x5a000000 | w);
        }
        for (int w = 0; w < 64; w++)
        {
            check(elan3_read32_sdram(ctx.sdram, area + 4L * w) == (0x5a000000 | w), "elan3_read32_sdram of word " + w);
        }
        elan3_zero_byte_sdram(ctx.sdram, area + 16, 100);
        for (int w = 0; w < 64; w++)
        {
            final int v = elan3_read32_sdram(ctx.sdram, area + 4L * w);
            if (w >= 4 && w < 29)
            {
                check(v == 0, "elan3_zero_byte_sdram(area + 16, 100) left word " + w + " = 0x" + Integer.toHexString(v));
            }
            else
            {
                check(v == (0x5a000000 | w), "elan3_zero_byte_sdram(area + 16, 100) changed word " + w + " to 0x"
                    + Integer.toHexString(v));
            }
        }
        for (int w = 0; w < 32; w++)
        {
            ctx.putInt(blocks + 4L * w, 0x3c000000 + w * 7);
        }
        elan3_blkcopy64_to_sdram(ctx.sdram, blocks, area + 64, 128);
        for (int w = 0; w < 64; w++)
        {
            final int v = elan3_read32_sdram(ctx.sdram, area + 4L * w);
            final int want = w < 16 ? (w >= 4 ? 0 : 0x5a000000 | w) : w < 48 ? 0x3c000000 + (w - 16) * 7 : 0x5a000000 | w;
            check(v == want, "after elan3_blkcopy64_to_sdram(blocks, area + 64, 128): word " + w + " = 0x"
                + Integer.toHexString(v) + ", expected 0x" + Integer.toHexString(want));
        }
        // SDRAM seen from the host: sdram2elan then elan2main (Charm++'s chain)
        final long hostView = elan3_elan2main(ctx, elan3_sdram2elan(ctx, ctx.sdram, area));
        check(hostView != 0 && hostView != Elan3.ELAN_BAD_ADDR, "elan3_elan2main of SDRAM's Elan address: 0x"
            + Long.toHexString(hostView));
        check(ctx.getInt(hostView + 4 * 20) == 0x3c000000 + 4 * 7, "a host load through elan2main(sdram2elan(s)) reads 0x"
            + Integer.toHexString(ctx.getInt(hostView + 4 * 20)));
        ctx.putInt(hostView + 4 * 60, 0x77665544);
        check(elan3_read32_sdram(ctx.sdram, area + 4 * 60) == 0x77665544, "a host store through elan2main(sdram2elan(s))"
            + " is not seen by elan3_read32_sdram");

        // a descriptor built word by word in the catalog's field order (§1.2.6)
        final int[] words = {
            E3_DMA_TYPE(Elan3.DMA_BYTE, Elan3.DMA_WRITE, Elan3.DMA_NORMAL, 63),
            1000,
            (int)elan3_main2elan(ctx, src),
            (int)elan3_main2elan(ctx, dst),
            (int)elan(done[0]),
            peer,
            (int)elan(tx[0]),
            elan3_local_cookie(ctx, me, peer)};
        for (int w = 0; w < 8; w++)
        {
            ctx.putInt(descMain + 4L * w, words[w]);
        }
        elan3_copy32_to_sdram(ctx.sdram, descMain, desc);
        for (int w = 0; w < 8; w++)
        {
            check(elan3_read32_sdram(ctx.sdram, desc + 4L * w) == words[w], "elan3_copy32_to_sdram: word " + w);
        }
        fill(src, 4096, 3 + me);
        // both sides ready before any DMA (the peer's done event is primed)
        send(write(peer, src, src, 0, 0, ready[0]), tx);
        waitWord(ready);
        rearm(tx, 1);
        elan3_putdma(ctx, desc);
        waitWord(tx);
        waitWord(done);
        expect(dst, 1000, 3 + peer, "the descriptor copied with elan3_copy32_to_sdram");
        // patch every field the macros reach and reissue the same SDRAM descriptor
        send(write(peer, src, src, 0, 0, ready2[0]), tx);
        waitWord(ready2);
        rearm(tx2, 1);
        E3_WRITE_DMA_SIZE(ctx, desc, 300);
        E3_WRITE_DMA_SOURCE(ctx, desc, elan3_main2elan(ctx, src + 2000));
        E3_WRITE_DMA_DEST(ctx, desc, elan3_main2elan(ctx, dst + 3000));
        E3_WRITE_DMA_SRCEVENT(ctx, desc, elan(tx2[0]));
        E3_WRITE_DMA_DESTEVENT(ctx, desc, elan(done2[0]));
        elan3_putdma(ctx, desc);
        waitWord(tx2);
        waitWord(done2);
        final byte[] got = new byte[300];
        ctx.read(dst + 3000, got, 0, 300);
        for (int i = 0; i < 300; i++)
        {
            check(got[i] == pattern(2000 + i, 3 + peer), "patched descriptor: byte " + i + " is " + got[i]);
        }
        check(EVENT_WORD_READY(done[1]), "the first descriptor's destination event was cleared by the second");
        expect(dst, 1000, 3 + peer, "the first transfer after the patched one");
    }

    // ------------------------------------------------------------------ memory

    static void memory()
    {
        check(nvp == 2, "needs 2 processes");
        final int peer = 1 - me;
        for (final int align : new int[] {0, 8, 64, Elan3.E3_BLK_ALIGN, Elan3.E3_DMA_ALIGN, 4096})
        {
            final long p = elan3_allocMain(ctx, align, 100);
            check(p != 0, "elan3_allocMain(align " + align + ") returned NULL");
            check(align == 0 || p % align == 0, "elan3_allocMain(align " + align + ") returned 0x" + Long.toHexString(p));
            check(elan3_addressable(ctx, p, 100), "elan3_allocMain memory is not elan3_addressable");
            final long e = elan3_main2elan(ctx, p);
            check(e != Elan3.ELAN_BAD_ADDR, "elan3_main2elan of allocMain memory is ELAN_BAD_ADDR");
            check(e >= 0 && e <= 0xFFFFFFFFL, "an E3_Addr is 32-bit: 0x" + Long.toHexString(e));
            check(elan3_elan2main(ctx, e) == p, "elan3_elan2main(elan3_main2elan(p)) != p");
            check(elan3_elan2main(ctx, e + 37) == p + 37, "elan3_elan2main is not linear inside an allocation");
            final long s = elan3_allocElan(ctx, align, 100);
            check(s != 0, "elan3_allocElan(align " + align + ") returned 0");
            check(align == 0 || elan3_sdram2elan(ctx, ctx.sdram, s) % align == 0, "elan3_allocElan(align " + align
                + ") gave Elan address 0x" + Long.toHexString(elan3_sdram2elan(ctx, ctx.sdram, s)));
            elan3_freeElan(ctx, s);
            elan3_free(ctx, p);
        }
        // an allocation the heap cannot hold fails with NULL (0); freeing makes room again
        check(elan3_allocMain(ctx, 64, 0x4000000L) == 0, "elan3_allocMain of 64 MB from a 32 MB heap did not return NULL");
        check(elan3_allocElan(ctx, 64, 0x400000L) == 0, "elan3_allocElan of 4 MB from a 2 MB heap did not return 0");
        final long a = elan3_allocMain(ctx, 64, 20L << 20);
        check(a != 0, "elan3_allocMain of 20 MB from a 32 MB heap");
        check(elan3_allocMain(ctx, 64, 20L << 20) == 0, "a second 20 MB from a 32 MB heap did not return NULL");
        elan3_free(ctx, a);
        final long a2 = elan3_allocMain(ctx, 64, 20L << 20);
        check(a2 != 0, "elan3_allocMain of 20 MB after elan3_free of the first returned NULL");
        elan3_free(ctx, a2);
        final long e = elan3_allocElan(ctx, 64, 1200L << 10);
        check(e != 0, "elan3_allocElan of 1.2 MB from a 2 MB heap");
        check(elan3_allocElan(ctx, 64, 1200L << 10) == 0, "a second 1.2 MB from a 2 MB heap did not return 0");
        elan3_freeElan(ctx, e);
        final long e2 = elan3_allocElan(ctx, 64, 1200L << 10);
        check(e2 != 0, "elan3_allocElan of 1.2 MB after elan3_freeElan of the first returned 0");
        elan3_freeElan(ctx, e2);

        // LA-MPI's global memory: reserve an Elan range, map plain host memory there
        final long[] done = wordEvent();
        final long[] tx = wordEvent();
        final long[] ready = wordEvent();
        final long[] ready2 = wordEvent();
        final long src = elan3_allocMain(ctx, 64, 8192);
        final long va = elan3_allocVaddr(ctx, 8192, 8192);
        check(va != Elan3.ELAN_ADDR_NULL && va % 8192 == 0, "elan3_allocVaddr(8192, 8192) = 0x" + Long.toHexString(va));
        final long host = ctx.hostMalloc(8192);
        check(!elan3_addressable(ctx, host, 8192), "malloc'ed host memory is Elan-addressable before setperm");
        check(elan3_main2elan(ctx, host) == Elan3.ELAN_BAD_ADDR, "elan3_main2elan of malloc'ed memory is not ELAN_BAD_ADDR");
        check(elan3_setperm(ctx, host, va, 8192, Elan3.ELAN_PERM_REMOTEALL) >= 0, "elan3_setperm failed");
        check(elan3_addressable(ctx, host, 8192), "not addressable after setperm");
        check(elan3_main2elan(ctx, host + 100) == va + 100, "elan3_main2elan after setperm: 0x"
            + Long.toHexString(elan3_main2elan(ctx, host + 100)) + ", expected 0x" + Long.toHexString(va + 100));
        check(elan3_elan2main(ctx, va + 100) == host + 100, "elan3_elan2main after setperm");
        rearm(done, 1);
        rearm(ready, 1);
        rearm(ready2, 1);
        elan3_block_inputter(ctx, 0);
        send(write(peer, src, src, 0, 0, ready[0]), tx);
        waitWord(ready);
        fill(src, 8192, 11 + me);
        final E3DmaMain d = write(peer, src, 0, 8192, 0, done[0]);
        d.dma_dest = va; // symmetric: the same allocVaddr at the peer
        send(d, tx);
        waitWord(done);
        expect(host, 8192, 11 + peer, "a DMA into setperm'ed host memory");
        // both have received before either unmaps
        send(write(peer, src, src, 0, 0, ready2[0]), tx);
        waitWord(ready2);
        elan3_clearperm_main(ctx, host, 8192);
        check(elan3_main2elan(ctx, host) == Elan3.ELAN_BAD_ADDR, "elan3_main2elan after elan3_clearperm_main");
        check(!elan3_addressable(ctx, host, 8192), "addressable after elan3_clearperm_main");
        expect(host, 8192, 11 + peer, "host memory after elan3_clearperm_main");
        // unmapping by Elan address, in the current and the older (1.2) form
        for (int form = 0; form < 2; form++)
        {
            final long h = ctx.hostMalloc(16384);
            final long v = elan3_allocVaddr(ctx, 8192, 16384);
            check(elan3_setperm(ctx, h, v, 16384, Elan3.ELAN_PERM_REMOTEALL) >= 0, "elan3_setperm");
            check(elan3_addressable(ctx, h, 16384), "not addressable after setperm");
            if (form == 0)
            {
                elan3_clearperm_elan(ctx, v + 8192, 8192);
            }
            else
            {
                elan3_clearperm(ctx, v + 8192, 8192);
            }
            check(elan3_main2elan(ctx, h + 100) == v + 100, "the first page's mapping went with the second's");
            check(elan3_main2elan(ctx, h + 8192 + 100) == Elan3.ELAN_BAD_ADDR, (form == 0 ? "elan3_clearperm_elan"
                : "elan3_clearperm") + " of the second page left it mapped");
            check(!elan3_addressable(ctx, h, 16384), "a range half unmapped is elan3_addressable");
            check(elan3_addressable(ctx, h, 8192), "the first page is no longer addressable");
        }
        // a range running past the end of the main heap is not addressable as a whole
        final long last = elan3_allocMain(ctx, 64, 64);
        check(!elan3_addressable(ctx, last, 0x4000000L), "64 MB from an allocMain pointer in a 32 MB heap is addressable");
    }

    // ------------------------------------------------------------------ hardware broadcast

    static void bcast(final int len)
    {
        final long[] got = wordEvent(); // every member: the broadcast landed
        final long[] acks = wordEvent(); // 0: every member has it
        final long[] ready = wordEvent(); // 0: every member is set up
        final long[] tx = wordEvent();
        final long buf = elan3_allocMain(ctx, 64, len);
        final long hdr = elan3_allocMain(ctx, 64, 64);
        final int b = elan3_allocatebcastvp(ctx);
        check(b >= 0, "elan3_allocatebcastvp failed");
        check(elan3_addbcastvp(ctx, b, 0, nvp - 1) >= 0, "elan3_addbcastvp(" + b + ", 0, " + (nvp - 1) + ") failed, errno "
            + errno() + " " + ElanProcess.current().lastError());
        rearm(got, 1);
        rearm(acks, nvp - 1);
        rearm(ready, nvp - 1);
        elan3_block_inputter(ctx, 0);
        if (me != 0)
        {
            send(write(0, hdr, hdr, 4, 0, ready[0]), tx);
            waitWord(got);
            expect(buf, len, 77, "the broadcast at rank " + me);
            send(write(0, hdr, hdr, 4, 0, acks[0]), tx);
            return;
        }
        waitWord(ready);
        fill(buf, len, 77);
        final E3DmaMain d = dma(Elan3.DMA_BYTE, Elan3.DMA_NORMAL_BROADCAST, b, buf, buf, len, 0, got[0]);
        send(d, tx);
        waitWord(acks);
        waitWord(got);
        expect(buf, len, 77, "the broadcast at the root");
    }

    // ------------------------------------------------------------------ events

    static void events()
    {
        check(nvp == 3, "needs 3 processes");
        final long[] three = wordEvent(); // 0: host set + a DMA from 1 + a DMA from 2
        final long[] ready = wordEvent(); // 0: 1 and 2 are set up
        final long[] go = wordEvent(); // 1, 2: rank 0 is ready
        final long[] tx = wordEvent();
        final long[] zero = wordEvent(); // 1: the 0-byte notification
        final long[] copied = wordEvent(); // 2: the chained copy landed
        final long[] first = wordEvent(); // 2: the first DMA landed
        final long chain = elan3_allocElan(ctx, Elan3.E3_EVENT_ALIGN, Elan3.E3_BLOCK_COPY_EVENT_SIZE);
        final long chained = elan3_allocElan(ctx, Elan3.E3_DMA_ALIGN, Elan3.E3_DMA_SIZE);
        final long blkEv = elan3_allocElan(ctx, Elan3.E3_EVENT_ALIGN, Elan3.E3_BLOCK_COPY_EVENT_SIZE);
        final long doneBlk = elan3_allocElan(ctx, Elan3.E3_BLK_ALIGN, Elan3.E3_BLK_SIZE);
        final long blk = elan3_allocMain(ctx, Elan3.E3_BLK_ALIGN, Elan3.E3_BLK_SIZE);
        final long[] typed = wordEvent(); // 1: every typed DMA landed
        final long buf = elan3_allocMain(ctx, 64, 8192);
        final long in = elan3_allocMain(ctx, 64, 8192);
        final long in2 = elan3_allocMain(ctx, 64, 8192);
        final long hdr = elan3_allocMain(ctx, 64, 64);
        rearm(three, 3);
        rearm(ready, 2);
        rearm(go, 1);
        rearm(zero, 1);
        rearm(copied, 1);
        rearm(first, 1);
        rearm(typed, 4);
        for (int w = 0; w < Elan3.E3_BLK_SIZE; w += 4)
        {
            elan3_write32_sdram(ctx.sdram, doneBlk + w, 0x600d0000 + w);
        }
        E3_RESET_BCOPY_BLOCK(blk);
        elan3_initevent_main(ctx, blkEv, doneBlk, blk);
        elan3_initevent(ctx, chain);
        elan3_block_inputter(ctx, 0);
        if (me != 0)
        {
            send(write(0, hdr, hdr, 4, 0, ready[0]), tx);
            waitWord(go);
            send(write(0, hdr, hdr, 4, 0, three[0]), tx);
            if (me == 1)
            {
                waitWord(zero);
                waitWord(typed);
                final byte[] b = new byte[2 * 4096];
                ctx.read(in, b, 0, b.length);
                for (int i = 0; i < 4096; i++)
                {
                    check(b[i] == pattern(i, 40), "typed DMAs: byte " + i + " is " + b[i]);
                }
            }
            else
            {
                waitWord(first);
                waitWord(copied);
                expect(in, 5000, 50, "the first DMA");
                expect(in2, 5000, 50, "the chained copy");
            }
            send(write(0, hdr, hdr, 4, 0, ready[0]), tx);
            return;
        }
        waitWord(ready);
        rearm(ready, 2);
        // the host's set is one of three: not fired yet
        elan3_setevent(ctx, three[0]);
        for (int k = 0; k < 200; k++)
        {
            check(!elan3_pollevent_word(ctx, three[1], 1), "an event primed with 3 fired after 1 set");
        }
        send(write(1, hdr, hdr, 4, 0, go[0]), tx);
        send(write(2, hdr, hdr, 4, 0, go[0]), tx);
        waitWord(three);
        check(EVENT_WORD_READY(three[1]), "EVENT_WORD_READY after the third set");

        // a block-copy source event, waited with a spin count
        fill(buf, 8192, 40);
        check(!EVENT_BLK_READY(blk), "EVENT_BLK_READY before any DMA");
        elan3_primeevent(ctx, blkEv, 4);
        final int[] types = {Elan3.DMA_BYTE, Elan3.DMA_HALFWORD, Elan3.DMA_WORD, Elan3.DMA_DOUBLE};
        for (int t = 0; t < 4; t++)
        {
            final E3DmaMain d = dma(types[t], Elan3.DMA_NORMAL, 1, buf + 1024L * t, in + 1024L * t, 1024, 0, typed[0]);
            d.dma_srcEvent = elan(blkEv);
            elan3_putdma_main(ctx, d, scratch);
        }
        elan3_waitevent_blk(ctx, blkEv, blk, 10);
        check(EVENT_BLK_READY(blk), "EVENT_BLK_READY after elan3_waitevent_blk");
        // the last word is the done word EVENT_BLK_READY tests (elan3_initevent_main writes it; the
        // catalog leaves open who writes the "done" pattern): the other 15 are the program's
        for (int w = 0; w < Elan3.E3_BLK_SIZE - 4; w += 4)
        {
            check(ctx.getInt(blk + w) == 0x600d0000 + w, "the block copied by the event: word " + w / 4 + " = 0x"
                + Integer.toHexString(ctx.getInt(blk + w)));
        }
        check(ctx.getInt(blk + Elan3.E3_BLK_SIZE - 4) != 0, "the done word of the copied block is 0");
        // a 0-byte DMA fires its events
        send(write(1, buf, in + 6000, 0, 0, zero[0]), tx);
        // a DMA whose source completion starts a copy of it (the copy issued by the NIC)
        fill(buf, 5000, 50);
        final E3DmaMain copy = write(2, buf, in2, 5000, 0, copied[0]);
        ctx.copyDmaToSdram(copy, chained);
        elan3_waitdmaevent(ctx, chained, chain);
        elan3_primeevent(ctx, chain, 1);
        final E3DmaMain d = write(2, buf, in, 5000, chain, first[0]);
        elan3_putdma_main(ctx, d, scratch);
        // 1 and 2 have checked what they received
        waitWord(ready);
    }

    // ------------------------------------------------------------------ a destination event under CRC errors

    static void once(final int len)
    {
        check(nvp == 2, "needs 2 processes");
        final long[] two = wordEvent(); // 1: primed with 2
        final long[] between = wordEvent(); // 0: 1 saw only one set
        final long[] ready = wordEvent();
        final long[] tx = wordEvent();
        final long buf = elan3_allocMain(ctx, 64, len);
        final long in = elan3_allocMain(ctx, 64, 2L * len);
        final long hdr = elan3_allocMain(ctx, 64, 64);
        rearm(two, 2);
        rearm(between, 1);
        rearm(ready, 1);
        elan3_block_inputter(ctx, 0);
        if (me == 1)
        {
            send(write(0, hdr, hdr, 4, 0, ready[0]), tx);
            // the first DMA is complete at the source before 0 sends this header
            waitWord(ready);
            for (int k = 0; k < 500; k++)
            {
                check(!elan3_pollevent_word(ctx, two[1], 1), "an event primed with 2 fired after one DMA (retransmitted "
                    + "packets set it more than once?)");
            }
            send(write(0, hdr, hdr, 4, 0, between[0]), tx);
            waitWord(two);
            expect(in, len, 21, "the first DMA");
            expect(in + len, len, 22, "the second DMA");
            return;
        }
        waitWord(ready);
        rearm(ready, 1);
        fill(buf, len, 21);
        send(write(1, buf, in, len, 0, two[0]), tx);
        send(write(1, hdr, hdr, 4, 0, ready[0]), tx);
        waitWord(between);
        fill(buf, len, 22);
        send(write(1, buf, in + len, len, 0, two[0]), tx);
    }

    // ------------------------------------------------------------------ attach

    static void refusedAttach(final Elan3Context c, final ElanCapability with, final String what)
    {
        final int r = elan3_attach(c, with);
        check(r < 0, "elan3_attach of " + what + " returned " + r);
        check(errno() != 0, "elan3_attach of " + what + " failed without errno");
        if (me == 0)
        {
            System.out.println("elan3_attach of " + what + ": " + r + ", errno " + errno() + ", "
                + ElanProcess.current().lastError());
        }
    }

    static ElanCapability copyOfCap()
    {
        final ElanCapability c = new ElanCapability();
        cap.copyInto(c);
        return c;
    }

    /** Before the attach main() skipped for this scenario: every refusal of §4.5, then the real one. */
    static void attach()
    {
        final ElanCapability outside = copyOfCap();
        outside.myContext = cap.highContext + 1;
        refusedAttach(ctx, outside, "MyContext = HighContext + 1");
        final ElanCapability below = copyOfCap();
        below.myContext = cap.lowContext - 1;
        refusedAttach(ctx, below, "MyContext = LowContext - 1");
        final ElanCapability forged = copyOfCap();
        forged.userKey[0] ^= 0x1234;
        refusedAttach(ctx, forged, "the capability with another key");
        final int width = cap.highContext - cap.lowContext + 1;
        if (width > 1)
        {
            final ElanCapability neighbour = copyOfCap();
            neighbour.myContext = cap.lowContext + (cap.myContext - cap.lowContext + 1) % width;
            refusedAttach(ctx, neighbour, "the MyContext of another process on the node");
        }
        check(elan3_attach(ctx, cap) == 0, "elan3_attach of the real capability after the refusals: errno " + errno()
            + " " + ElanProcess.current().lastError());
        refusedAttach(ctx, cap, "a context already attached");
        check(elan3_addvp(ctx, 0, cap) >= 0, "elan3_addvp");
        me = elan3_process(ctx);
        nvp = elan3_nvps(cap);
        // the context works: every process hears from the previous one
        final long[] ev = wordEvent();
        final long[] tx = wordEvent();
        final long hdr = elan3_allocMain(ctx, 64, 64);
        rearm(ev, 1);
        elan3_block_inputter(ctx, 0);
        send(write((me + 1) % nvp, hdr, hdr, 4, 0, ev[0]), tx);
        waitWord(ev);
    }

    /**
     * Two contexts of one process on the rail (§1.4.1: {@code elan3_init} creates a context,
     * {@code elan3_attach} claims {@code MyContext}): the second init succeeds and its attach of the
     * held context is refused; after {@code elan3_detach} of the first, a new context attaches.
     */
    static void secondContext()
    {
        final Elan3Context other = elan3_init(0, 0x400000, 0x2000000, 0x200000, 0x200000);
        check(other != null, "a second elan3_init on the rail: errno " + errno() + ", " + ElanProcess.current().lastError());
        refusedAttach(other, cap, "the MyContext the first context holds");
        elan3_detach(ctx);
        final Elan3Context again = elan3_init(0, 0x400000, 0x2000000, 0x200000, 0x200000);
        check(again != null, "elan3_init after elan3_detach: errno " + errno() + ", " + ElanProcess.current().lastError());
        check(elan3_attach(again, cap) == 0, "elan3_attach after elan3_detach of the first context: errno " + errno() + " "
            + ElanProcess.current().lastError());
    }

    // ------------------------------------------------------------------ capability helpers

    /** §1.4.2 on the job's capability: rails, the dump, and a null capability that attaches nowhere. */
    static void capability()
    {
        check(elan3_nrails(cap) == Integer.bitCount(cap.railMask), "elan3_nrails " + elan3_nrails(cap) + " for RailMask "
            + cap.railMask);
        final int[] devs = new int[8];
        final int n = elan3_rails(cap, devs);
        check(n == elan3_nrails(cap) && devs[0] == 0, "elan3_rails returned " + n + ", devs[0] = " + devs[0]);
        final StringBuilder buf = new StringBuilder();
        final String str = elan3_capability_string(cap, buf);
        check(str != null && str.equals(buf.toString()) && !str.isEmpty(), "elan3_capability_string returned '" + str
            + "', buf '" + buf + "'");
        check(elan3_maxlocal(cap) == cap.highContext - cap.lowContext + 1, "elan3_maxlocal " + elan3_maxlocal(cap));
        int sum = 0;
        for (int node = 0; node <= cap.highNode - cap.lowNode; node++)
        {
            sum += elan3_nlocal(node, cap);
        }
        check(sum == nvp, "the elan3_nlocal of every node add up to " + sum + ", not elan3_nvps " + nvp);
        final ElanCapability none = new ElanCapability();
        elan3_nullcap(none);
        final Elan3Context other = elan3_init(0, 0x400000, 0x2000000, 0x200000, 0x200000);
        check(other != null, "a second elan3_init");
        refusedAttach(other, none, "a capability after elan3_nullcap");
    }

    // ------------------------------------------------------------------ main memory and SDRAM placements

    /**
     * §1.1: {@code elan3_allocElan} memory has an Elan address ({@code elan3_sdram2elan}) that DMA
     * fields take like any other: rank 0 writes SDRAM to the peer's SDRAM, main memory to the
     * peer's SDRAM, SDRAM to the peer's main memory, then reads the peer's SDRAM into main memory;
     * the data are checked with {@code elan3_read32_sdram} or host loads.
     */
    static void placements(final int len)
    {
        check(nvp == 2, "needs 2 processes");
        final long[] landed = wordEvent(); // 1: three DMAs landed
        final long[] pulled = wordEvent(); // 0: the read landed
        final long[] ready = wordEvent();
        final long[] tx = wordEvent();
        final long sdSrc = elan3_allocElan(ctx, 64, len);
        final long sdDst = elan3_allocElan(ctx, 64, len);
        final long sdDst2 = elan3_allocElan(ctx, 64, len);
        final long mainSrc = elan3_allocMain(ctx, 64, len);
        final long mainDst = elan3_allocMain(ctx, 64, len);
        final long pullInto = elan3_allocMain(ctx, 64, len);
        final long hdr = elan3_allocMain(ctx, 64, 64);
        check(sdSrc != 0 && sdDst != 0 && sdDst2 != 0, "elan3_allocElan of " + len + " bytes");
        rearm(landed, 3);
        rearm(pulled, 1);
        rearm(ready, 1);
        elan3_block_inputter(ctx, 0);
        final int peer = 1 - me;
        if (me == 1)
        {
            send(write(0, hdr, hdr, 4, 0, ready[0]), tx);
            waitWord(landed);
            for (int w = 0; w < len / 4; w++)
            {
                final int a = elan3_read32_sdram(ctx.sdram, sdDst + 4L * w);
                final int b = elan3_read32_sdram(ctx.sdram, sdDst2 + 4L * w);
                check(a == 0x51000000 + w, "SDRAM to SDRAM: word " + w + " = 0x" + Integer.toHexString(a));
                check(b == 0x3a000000 + w, "main to SDRAM: word " + w + " = 0x" + Integer.toHexString(b));
                check(ctx.getInt(mainDst + 4L * w) == 0x51000000 + w, "SDRAM to main: word " + w);
            }
            // the read's source: this SDRAM, changed after the writes
            for (int w = 0; w < len / 4; w++)
            {
                elan3_write32_sdram(ctx.sdram, sdDst + 4L * w, 0x7e000000 + w);
            }
            send(write(0, hdr, hdr, 4, 0, ready[0]), tx);
            return;
        }
        for (int w = 0; w < len / 4; w++)
        {
            elan3_write32_sdram(ctx.sdram, sdSrc + 4L * w, 0x51000000 + w);
            ctx.putInt(mainSrc + 4L * w, 0x3a000000 + w);
        }
        waitWord(ready);
        rearm(ready, 1);
        final long sdSrcE = elan3_sdram2elan(ctx, ctx.sdram, sdSrc);
        final E3DmaMain a = write(peer, mainSrc, 0, len, 0, landed[0]);
        a.dma_source = sdSrcE;
        a.dma_dest = elan3_sdram2elan(ctx, ctx.sdram, sdDst);
        send(a, tx);
        final E3DmaMain b = write(peer, mainSrc, 0, len, 0, landed[0]);
        b.dma_dest = elan3_sdram2elan(ctx, ctx.sdram, sdDst2);
        send(b, tx);
        final E3DmaMain c = write(peer, mainSrc, mainDst, len, 0, landed[0]);
        c.dma_source = sdSrcE;
        send(c, tx);
        waitWord(ready);
        final E3DmaMain d = new E3DmaMain();
        d.dma_type = E3_DMA_TYPE(Elan3.DMA_BYTE, Elan3.DMA_READ, Elan3.DMA_NORMAL, 63);
        d.dma_size = len;
        d.dma_source = elan3_sdram2elan(ctx, ctx.sdram, sdDst);
        d.dma_dest = elan3_main2elan(ctx, pullInto);
        d.dma_srcCookieVProc = elan3_remote_cookie(ctx, me, peer);
        d.dma_destCookieVProc = elan3_local_cookie(ctx, me, peer);
        d.dma_destEvent = elan(pulled[0]);
        elan3_getdma_main(ctx, d, scratch);
        waitWord(pulled);
        for (int w = 0; w < len / 4; w++)
        {
            check(ctx.getInt(pullInto + 4L * w) == 0x7e000000 + w, "a read of the peer's SDRAM: word " + w + " = 0x"
                + Integer.toHexString(ctx.getInt(pullInto + 4L * w)));
        }
    }

    // ------------------------------------------------------------------ a remote translation fault

    /**
     * DESIGN.md (Memory, protection): a bad access is a clear error at the initiator, never silent
     * corruption. Rank 0 writes to an Elan address rank 1 never mapped ({@code args[1]}: write or read);
     * the error surfaces in rank 0 naming the address, rank 1's memory is untouched, and both
     * contexts still work.
     */
    static void remoteFault(final boolean read)
    {
        check(nvp == 2, "needs 2 processes");
        final long[] done = wordEvent();
        final long[] tx = wordEvent();
        final long[] after = wordEvent(); // 1: rank 0 survived and sent this
        final long buf = elan3_allocMain(ctx, 64, 4096);
        final long hdr = elan3_allocMain(ctx, 64, 64);
        rearm(done, 1);
        rearm(after, 1);
        fill(buf, 4096, 9);
        elan3_block_inputter(ctx, 0);
        final long unmapped = 0x0ff00000L;
        if (me == 1)
        {
            waitWord(after);
            expect(buf, 4096, 9, "rank 1's buffer after rank 0's faulting DMA");
            check(!EVENT_WORD_READY(done[1]), "the faulting DMA set rank 1's destination event");
            return;
        }
        String error = null;
        try
        {
            final E3DmaMain d;
            if (read)
            {
                d = new E3DmaMain();
                d.dma_type = E3_DMA_TYPE(Elan3.DMA_BYTE, Elan3.DMA_READ, Elan3.DMA_NORMAL, 63);
                d.dma_size = 4096;
                d.dma_source = unmapped;
                d.dma_dest = elan3_main2elan(ctx, buf);
                d.dma_srcCookieVProc = elan3_remote_cookie(ctx, me, 1);
                d.dma_destCookieVProc = elan3_local_cookie(ctx, me, 1);
                d.dma_destEvent = elan(done[0]);
                elan3_getdma_main(ctx, d, scratch);
                waitWord(done);
            }
            else
            {
                d = write(1, buf, 0, 4096, 0, done[0]);
                d.dma_dest = unmapped;
                send(d, tx);
            }
            // nothing came back yet: the next calls are where an asynchronous fault surfaces
            for (int k = 0; k < 100; k++)
            {
                elan3_pollevent_word(ctx, done[1], 1);
            }
        }
        catch (final RuntimeException e)
        {
            error = String.valueOf(e.getMessage());
            check(e instanceof org.qsnet.fabric.QsnetException, "the fault surfaced as " + e);
        }
        check(error != null, "a " + (read ? "read from" : "write to") + " an unmapped remote address was not reported to "
            + "the initiator");
        check(error.contains("0xff00000"), "the fault does not name the address 0xff00000: " + error);
        System.out.println("fault: " + error);
        final long[] tx2 = wordEvent();
        send(write(1, hdr, hdr, 4, 0, after[0]), tx2);
    }

    // ------------------------------------------------------------------ bad arguments

    /** Whether {@code m} names one of the {@code |}-separated argument names (in any case). */
    static boolean names(final String m, final String args)
    {
        for (final String a : args.split("\\|"))
        {
            if (m.toLowerCase(java.util.Locale.ROOT).contains(a.toLowerCase(java.util.Locale.ROOT)))
            {
                return true;
            }
        }
        return false;
    }

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
            check(names(m, arg) && m.contains(value), what + ": the error does not name " + arg + " = " + value + ": " + m);
            if (me == 0)
            {
                System.out.println(what + ": " + m);
            }
            return;
        }
        if (r instanceof Integer i && i == -1)
        {
            final String reason = ElanProcess.current().lastError();
            check(errno() != 0, what + ": returned -1 without errno");
            check(names(reason, arg) && reason.contains(value), what + ": returned -1, reason '" + reason
                + "' does not name " + arg + " = " + value);
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
        final long desc = elan3_allocElan(ctx, Elan3.E3_DMA_ALIGN, Elan3.E3_DMA_SIZE);
        final long buf = elan3_allocMain(ctx, 64, 4096);
        final long blocks = elan3_allocMain(ctx, 64, 128);
        final long area = elan3_allocElan(ctx, 64, 256);
        elan3_block_inputter(ctx, 0);
        final int peer = (me + 1) % nvp;
        refused("elan3_allocMain aligned to 48", "align", "48", () -> elan3_allocMain(ctx, 48, 64));
        refused("elan3_allocElan of -64 bytes", "size", "-64", () -> elan3_allocElan(ctx, 64, -64));
        refused("elan3_blkcopy64_to_sdram of 100 bytes", "size", "100", () ->
        {
            elan3_blkcopy64_to_sdram(ctx.sdram, blocks, area, 100);
            return null;
        });
        refused("elan3_zero_byte_sdram of -4 bytes", "size", "-4", () ->
        {
            elan3_zero_byte_sdram(ctx.sdram, area, -4);
            return null;
        });
        refused("elan3_primeevent of a handle outside the SDRAM", "ev|event|SDRAM handle", "0x7fff0000", () ->
        {
            elan3_primeevent(ctx, 0x7fff0000L, 1);
            return null;
        });
        refused("elan3_putdma of a descriptor outside the SDRAM", "dma|descriptor|SDRAM handle", "0x7fff0000", () ->
        {
            elan3_putdma(ctx, 0x7fff0000L);
            return null;
        });
        refused("E3_WRITE_DMA_SIZE on a descriptor outside the SDRAM", "dma|descriptor|SDRAM handle", "0x7fff0000", () ->
        {
            E3_WRITE_DMA_SIZE(ctx, 0x7fff0000L, 64);
            return null;
        });
        // dma_destCookieVProc is an E3_uint32: -1 in C is 0xffffffff, and the error names that value
        refused("elan3_putdma_main to VP -1", "dma_destCookieVProc", "0xffffffff", () ->
        {
            final E3DmaMain d = write(peer, buf, buf, 64, 0, 0);
            d.dma_destCookieVProc = -1;
            elan3_putdma_main(ctx, d, scratch);
            return null;
        });
        refused("elan3_putdma_main with a destination of ELAN_BAD_ADDR", "dest", "0xffffffff", () ->
        {
            final E3DmaMain d = write(peer, buf, buf, 64, 0, 0);
            d.dma_dest = Elan3.ELAN_BAD_ADDR;
            elan3_putdma_main(ctx, d, scratch);
            return null;
        });
        refused("elan3_putdma_main with a source of malloc'ed memory", "source", "0xffffffff", () ->
        {
            final E3DmaMain d = write(peer, buf, buf, 64, 0, 0);
            d.dma_source = elan3_main2elan(ctx, ctx.hostMalloc(64));
            elan3_putdma_main(ctx, d, scratch);
            return null;
        });
        refused("elan3_getdma_main with a remote cookie for VP nvp", "VP", Integer.toString(nvp), () ->
        {
            final E3DmaMain d = new E3DmaMain();
            d.dma_type = E3_DMA_TYPE(Elan3.DMA_BYTE, Elan3.DMA_READ, Elan3.DMA_NORMAL, 63);
            d.dma_size = 64;
            d.dma_source = elan3_main2elan(ctx, buf);
            d.dma_dest = elan3_main2elan(ctx, buf);
            d.dma_srcCookieVProc = elan3_remote_cookie(ctx, me, nvp);
            d.dma_destCookieVProc = elan3_local_cookie(ctx, me, nvp);
            elan3_getdma_main(ctx, d, scratch);
            return null;
        });
        final long va = elan3_allocVaddr(ctx, 4096, 4096);
        refused("elan3_setperm of -4096 bytes", "size", "-4096", () ->
            elan3_setperm(ctx, ctx.hostMalloc(4096), va, -4096, Elan3.ELAN_PERM_REMOTEALL));
        refused("elan3_waitevent_word with how = -3", "how", "-3", () ->
        {
            elan3_waitevent_word(ctx, ev[0], ev[1], -3);
            return null;
        });
        refused("elan3_allocVaddr aligned to 3000", "align", "3000", () -> elan3_allocVaddr(ctx, 3000, 8192));
        refused("elan3_free of a pointer inside an allocation", "0x" + Long.toHexString(buf + 8), "0x"
            + Long.toHexString(buf + 8), () ->
        {
            elan3_free(ctx, buf + 8);
            return null;
        });
        final long gone = elan3_allocMain(ctx, 64, 256);
        elan3_free(ctx, gone);
        refused("elan3_free twice", "0x" + Long.toHexString(gone), "0x" + Long.toHexString(gone), () ->
        {
            elan3_free(ctx, gone);
            return null;
        });
        refused("elan3_freeElan of a handle inside an allocation", "0x" + Long.toHexString(area + 4), "0x"
            + Long.toHexString(area + 4), () ->
        {
            elan3_freeElan(ctx, area + 4);
            return null;
        });
        refused("elan3_primeevent of an event not aligned", "ev|event", "0x" + Long.toHexString(area + 4), () ->
        {
            elan3_primeevent(ctx, area + 4, 1);
            return null;
        });
        refused("elan3_initevent_word on a malloc'ed word", "word", "0x", () ->
        {
            elan3_initevent_word(ctx, ev[0], ctx.hostMalloc(8));
            return null;
        });
        refused("E3_DMA_TYPE with a failCount of 64", "failCount", "64",
            () -> E3_DMA_TYPE(Elan3.DMA_BYTE, Elan3.DMA_WRITE, Elan3.DMA_NORMAL, 64));
        refused("E3_DMA_TYPE with a data type of 9", "dataType", "9",
            () -> E3_DMA_TYPE(9, Elan3.DMA_WRITE, Elan3.DMA_NORMAL, 63));
        refused("elan3_vp2location of VP -1", "VP", "-1", () -> elan3_vp2location(-1, cap));
        refused("elan3_waitevent_blk with how = -7", "how", "-7", () ->
        {
            elan3_waitevent_blk(ctx, ev[0], blocks, -7);
            return null;
        });
        refused("E3_DMA_TYPE with a direction of 2", "direction", "2",
            () -> E3_DMA_TYPE(Elan3.DMA_BYTE, 2, Elan3.DMA_NORMAL, 63));
        check(desc != 0, "allocElan");
        // the context still works
        rearm(ev, 1);
        elan3_setevent(ctx, ev[0]);
        elan3_waitevent_word(ctx, ev[0], ev[1], Elan3.ELAN_POLL_EVENT);
    }
}
