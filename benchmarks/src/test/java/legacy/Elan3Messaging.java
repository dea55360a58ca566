package legacy;

import static org.qsnet.elan3.Elan3lib.E3_RESET_BCOPY_BLOCK;
import static org.qsnet.elan3.Elan3lib.EVENT_BLK_READY;
import static org.qsnet.elan3.Elan3lib.elan3_addvp;
import static org.qsnet.elan3.Elan3lib.elan3_allocElan;
import static org.qsnet.elan3.Elan3lib.elan3_allocMain;
import static org.qsnet.elan3.Elan3lib.elan3_attach;
import static org.qsnet.elan3.Elan3lib.elan3_block_inputter;
import static org.qsnet.elan3.Elan3lib.elan3_elan2main;
import static org.qsnet.elan3.Elan3lib.elan3_init;
import static org.qsnet.elan3.Elan3lib.elan3_initevent_main;
import static org.qsnet.elan3.Elan3lib.elan3_local_cookie;
import static org.qsnet.elan3.Elan3lib.elan3_main2elan;
import static org.qsnet.elan3.Elan3lib.elan3_nvps;
import static org.qsnet.elan3.Elan3lib.elan3_primeevent;
import static org.qsnet.elan3.Elan3lib.elan3_process;
import static org.qsnet.elan3.Elan3lib.elan3_putdma_main;
import static org.qsnet.elan3.Elan3lib.elan3_read32_sdram;
import static org.qsnet.elan3.Elan3lib.elan3_sdram2elan;
import static org.qsnet.elan3.Elan3lib.elan3_set_required_mappings;
import static org.qsnet.elan3.Elan3lib.elan3_set_standard_mappings;
import static org.qsnet.elan3.Elan3lib.elan3_waitevent;
import static org.qsnet.elan3.Elan3lib.elan3_waitevent_blk;
import static org.qsnet.elan3.Elan3lib.elan3_write32_sdram;
import static org.qsnet.elan3.Elan3lib.perror;
import static org.qsnet.elan3.Elan3lib.rms_getcap;
import static org.qsnet.elan3.Elan3lib.rms_mycap;

import org.qsnet.elan3.E3DmaMain;
import org.qsnet.elan3.Elan3;
import org.qsnet.elan3.Elan3Context;
import org.qsnet.elan3.Elan3lib;
import org.qsnet.elan3.ElanCapability;

/**
 * An Elan3lib messaging library in the manner of LA-MPI's quadrics path, ported from ELAN-API.md
 * §1.5 flows 1, 4 and 5: attach with the RMS capability, an {@code E3_Queue} in SDRAM with its
 * slots in main memory, {@code q_event} a block-copy event ({@code elan3_initevent_main}) into a
 * main-memory block, senders issuing {@code DMA_QUEUED} descriptors with a window of outstanding
 * DMAs whose source events are block-copy events, and a consumer that polls
 * {@code EVENT_BLK_READY}, takes the slot at {@code q_fptr}, clears {@code E3_QUEUE_FULL} and
 * re-arms with {@code elan3_waitevent}. Every rank but 0 sends {@code args[0]} messages to rank 0,
 * whose queue of {@code args[1]} slots (default 64) they wrap many times.
 *
 * <p>Prints on rank 0: {@code lampi: received N messages from S senders, crc sum X, full Y}.
 */
public final class Elan3Messaging
{
    // C globals
    static Elan3Context ctx;
    static int me;
    static int nvp;
    static long queue;
    static long slots;
    static long qDoneSrc;
    static long qBlk;

    static final int SLOT_SIZE = 128;
    static final int HEADER = 16;
    static int nslots;
    static final int WINDOW = 4;

    private Elan3Messaging()
    {
    }

    /**
     * @param args messages per sender (default 100), queue slots (default 64).
     */
    public static void main(final String[] args)
    {
        final int msgs = args.length > 0 ? Integer.parseInt(args[0]) : 100;
        nslots = args.length > 1 ? Integer.parseInt(args[1]) : 64;

        // §1.5 flow 1: attach
        final ElanCapability cap = new ElanCapability();
        final int[] capIndex = new int[1];
        if (rms_mycap(capIndex) < 0 || rms_getcap(capIndex[0], cap) < 0)
        {
            perror("rms_getcap");
            throw new IllegalStateException("rms_getcap failed");
        }
        ctx = elan3_init(0, 0x400000, 0x2000000, 0x200000, 0x200000);
        if (ctx == null)
        {
            perror("elan3_init");
            throw new IllegalStateException("elan3_init failed");
        }
        elan3_set_standard_mappings(ctx);
        elan3_set_required_mappings(ctx);
        elan3_block_inputter(ctx, 1);
        if (elan3_attach(ctx, cap) < 0)
        {
            perror("elan3_attach");
            throw new IllegalStateException("elan3_attach failed: " + Elan3lib.strerror(Elan3lib.errno()));
        }
        if (elan3_addvp(ctx, 0, cap) < 0)
        {
            perror("elan3_addvp");
            throw new IllegalStateException("elan3_addvp failed");
        }
        me = elan3_process(ctx);
        nvp = elan3_nvps(cap);

        // §1.5 flow 4: the input queue (every process lays it out alike, so its Elan address is the same everywhere)
        queue = elan3_allocElan(ctx, Elan3.E3_QUEUE_ALIGN, roundUp(Elan3.E3_QUEUE_SIZE, Elan3.E3_BLK_SIZE));
        slots = elan3_allocMain(ctx, Elan3.E3_BLK_ALIGN, (long)nslots * SLOT_SIZE);
        qDoneSrc = elan3_allocElan(ctx, Elan3.E3_BLK_ALIGN, Elan3.E3_BLK_SIZE);
        qBlk = elan3_allocMain(ctx, Elan3.E3_BLK_ALIGN, Elan3.E3_BLK_SIZE);
        final long base = elan3_main2elan(ctx, slots);
        final long top = elan3_main2elan(ctx, slots + (long)(nslots - 1) * SLOT_SIZE);
        elan3_write32_sdram(ctx.sdram, queue + Elan3.Q_STATE, Elan3.E3_QUEUE_LOCKED);
        elan3_write32_sdram(ctx.sdram, queue + Elan3.Q_SIZE, SLOT_SIZE);
        elan3_write32_sdram(ctx.sdram, queue + Elan3.Q_BASE, (int)base);
        elan3_write32_sdram(ctx.sdram, queue + Elan3.Q_TOP, (int)top);
        elan3_write32_sdram(ctx.sdram, queue + Elan3.Q_FPTR, (int)base);
        elan3_write32_sdram(ctx.sdram, queue + Elan3.Q_BPTR, (int)base);
        elan3_initevent_main(ctx, queue + Elan3.Q_EVENT, qDoneSrc, qBlk);
        E3_RESET_BCOPY_BLOCK(qBlk);
        elan3_primeevent(ctx, queue + Elan3.Q_EVENT, 1);
        elan3_write32_sdram(ctx.sdram, queue + Elan3.Q_STATE, 0);

        // §1.5 flow 5: completion without touching the NIC: one shared done block, one main block per request
        final long doneSrc = elan3_allocElan(ctx, Elan3.E3_BLK_ALIGN, Elan3.E3_BLK_SIZE);
        final long[] txEv = new long[WINDOW];
        final long[] txBlk = new long[WINDOW];
        final long[] msg = new long[WINDOW];
        final long scratch = elan3_allocElan(ctx, Elan3.E3_DMA_ALIGN, Elan3.E3_DMA_SIZE);
        for (int w = 0; w < WINDOW; w++)
        {
            txEv[w] = elan3_allocElan(ctx, Elan3.E3_EVENT_ALIGN, Elan3.E3_BLOCK_COPY_EVENT_SIZE);
            txBlk[w] = elan3_allocMain(ctx, Elan3.E3_BLK_ALIGN, Elan3.E3_BLK_SIZE);
            msg[w] = elan3_allocMain(ctx, 64, SLOT_SIZE);
            elan3_initevent_main(ctx, txEv[w], doneSrc, txBlk[w]);
        }
        elan3_block_inputter(ctx, 0);

        if (me == 0)
        {
            consume(msgs * (nvp - 1), base, top);
        }
        else
        {
            final E3DmaMain dma = new E3DmaMain();
            dma.dma_type = Elan3lib.E3_DMA_TYPE(Elan3.DMA_BYTE, Elan3.DMA_WRITE, Elan3.DMA_QUEUED, 63);
            dma.dma_size = SLOT_SIZE;
            dma.dma_dest = 0;
            dma.dma_destEvent = elan3_sdram2elan(ctx, ctx.sdram, queue);
            dma.dma_destCookieVProc = 0;
            dma.dma_srcCookieVProc = elan3_local_cookie(ctx, me, 0);
            final byte[] slot = new byte[SLOT_SIZE];
            for (int seq = 0; seq < msgs; seq++)
            {
                final int w = seq % WINDOW;
                if (seq >= WINDOW)
                {
                    // the buffer is free once its DMA's source event has copied the done block
                    elan3_waitevent_blk(ctx, txEv[w], txBlk[w], Elan3.ELAN_POLL_EVENT);
                }
                final int len = 1 + (seq * 37 + me * 11) % (SLOT_SIZE - HEADER);
                final byte[] data = Payload.bytes(me, 0, seq, len);
                java.util.Arrays.fill(slot, (byte)0);
                putInt(slot, 0, me);
                putInt(slot, 4, seq);
                putInt(slot, 8, len);
                putInt(slot, 12, (int)Payload.crc(data, 0, len));
                System.arraycopy(data, 0, slot, HEADER, len);
                ctx.write(msg[w], slot, 0, SLOT_SIZE);
                E3_RESET_BCOPY_BLOCK(txBlk[w]);
                elan3_primeevent(ctx, txEv[w], 1);
                dma.dma_source = elan3_main2elan(ctx, msg[w]);
                dma.dma_srcEvent = elan3_sdram2elan(ctx, ctx.sdram, txEv[w]);
                elan3_putdma_main(ctx, dma, scratch);
            }
            for (int seq = Math.max(0, msgs - WINDOW); seq < msgs; seq++)
            {
                final int w = seq % WINDOW;
                while (!EVENT_BLK_READY(txBlk[w]))
                {
                    // spin, as dmaThrottle does
                }
            }
        }
    }

    /** The consumer loop of §1.5 flow 4. */
    private static void consume(final int total, final long base, final long top)
    {
        final int[] next = new int[nvp];
        final byte[] slot = new byte[SLOT_SIZE];
        long fptr = base;
        long crcSum = 0;
        int full = 0;
        for (int got = 0; got < total; got++)
        {
            while (!EVENT_BLK_READY(qBlk))
            {
                // spin on main memory: the NIC's block copy lands here
            }
            ctx.read(elan3_elan2main(ctx, fptr), slot, 0, SLOT_SIZE);
            final int from = getInt(slot, 0);
            final int seq = getInt(slot, 4);
            final int len = getInt(slot, 8);
            final long crc = getInt(slot, 12) & 0xFFFFFFFFL;
            if (from < 1 || from >= nvp || seq != next[from] || len < 1 || len > SLOT_SIZE - HEADER)
            {
                throw new IllegalStateException("message " + got + ": from " + from + " seq " + seq + " len " + len
                    + ", expected seq " + (from >= 1 && from < nvp ? next[from] : -1));
            }
            if (Payload.crc(slot, HEADER, len) != crc || crc != Payload.crc(from, 0, seq, len))
            {
                throw new IllegalStateException("message " + seq + " from " + from + ": payload checksum mismatch");
            }
            next[from]++;
            crcSum += crc;
            fptr = fptr == top ? base : fptr + SLOT_SIZE;
            final int state = elan3_read32_sdram(ctx.sdram, queue + Elan3.Q_STATE);
            E3_RESET_BCOPY_BLOCK(qBlk);
            elan3_write32_sdram(ctx.sdram, queue + Elan3.Q_FPTR, (int)fptr);
            if ((state & Elan3.E3_QUEUE_FULL) != 0)
            {
                full++;
                elan3_write32_sdram(ctx.sdram, queue + Elan3.Q_STATE, state & ~Elan3.E3_QUEUE_FULL);
            }
            elan3_waitevent(ctx, queue + Elan3.Q_EVENT);
        }
        System.out.printf("lampi: received %d messages from %d senders, crc sum %x, full %d%n", total, nvp - 1, crcSum,
            full);
    }

    private static long roundUp(final long n, final long to)
    {
        return (n + to - 1) / to * to;
    }

    private static void putInt(final byte[] b, final int off, final int v)
    {
        b[off] = (byte)v;
        b[off + 1] = (byte)(v >>> 8);
        b[off + 2] = (byte)(v >>> 16);
        b[off + 3] = (byte)(v >>> 24);
    }

    private static int getInt(final byte[] b, final int off)
    {
        return b[off] & 0xFF | (b[off + 1] & 0xFF) << 8 | (b[off + 2] & 0xFF) << 16 | (b[off + 3] & 0xFF) << 24;
    }
}
