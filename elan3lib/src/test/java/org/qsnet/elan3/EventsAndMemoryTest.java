package org.qsnet.elan3;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.qsnet.elan3.Elan3lib.EVENT_BLK_READY;
import static org.qsnet.elan3.Elan3lib.E3_RESET_BCOPY_BLOCK;
import static org.qsnet.elan3.Elan3lib.elan3_addressable;
import static org.qsnet.elan3.Elan3lib.elan3_allocElan;
import static org.qsnet.elan3.Elan3lib.elan3_allocMain;
import static org.qsnet.elan3.Elan3lib.elan3_block_inputter;
import static org.qsnet.elan3.Elan3lib.elan3_getdma_main;
import static org.qsnet.elan3.Elan3lib.elan3_initevent_main;
import static org.qsnet.elan3.Elan3lib.elan3_initevent_word;
import static org.qsnet.elan3.Elan3lib.elan3_local_cookie;
import static org.qsnet.elan3.Elan3lib.elan3_main2elan;
import static org.qsnet.elan3.Elan3lib.elan3_primeevent;
import static org.qsnet.elan3.Elan3lib.elan3_putdma_main;
import static org.qsnet.elan3.Elan3lib.elan3_read32_sdram;
import static org.qsnet.elan3.Elan3lib.elan3_remote_cookie;
import static org.qsnet.elan3.Elan3lib.elan3_set_standard_mappings;
import static org.qsnet.elan3.Elan3lib.elan3_setevent;
import static org.qsnet.elan3.Elan3lib.elan3_waitevent;
import static org.qsnet.elan3.Elan3lib.elan3_waitevent_blk;
import static org.qsnet.elan3.Elan3lib.elan3_waitevent_word;
import static org.qsnet.elan3.Elan3lib.elan3_write32_sdram;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.qsnet.fabric.QsnetException;
import org.qsnet.fabric.machine.PlatformProfile;
import org.qsnet.fabric.memory.MemoryFault;
import org.qsnet.fabric.nic.E3;

/**
 * Events and memory as libelan3 had them (issue 8, section 3), through the C facade: a queued-DMA
 * consumer that re-arms {@code q_event} with {@code elan3_waitevent} loses no arrival; the done
 * pattern comes from {@code elan3_initevent_main}; host-allocator memory is DMA-able under the
 * standard mappings for every size, or for none; a DMA that runs past its allocation is refused.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class EventsAndMemoryTest
{
    private static final PlatformProfile P3 = PlatformProfile.pentium3He();

    private static void run(final int procs, final ElanMain main)
    {
        Prun.run(P3, new Prun.Options(procs, procs, false, 0, Map.of()), main).throwIfFailed();
    }

    private static E3DmaMain dma(final Elan3Context ctx, final int opcode, final int peer, final long src, final long dst,
        final long size, final long destEvent, final long srcEvent)
    {
        final E3DmaMain d = new E3DmaMain();
        d.dma_type = Elan3.E3_DMA_TYPE(Elan3.DMA_BYTE, Elan3.DMA_WRITE, opcode, 63);
        d.dma_size = size;
        d.dma_source = src;
        d.dma_dest = dst;
        d.dma_destEvent = destEvent;
        d.dma_destCookieVProc = peer;
        d.dma_srcEvent = srcEvent;
        d.dma_srcCookieVProc = elan3_local_cookie(ctx, ctx.process(), peer);
        return d;
    }

    /** The receive queue of LA-MPI's {@code quadricsInitQueueInfo}, with the same calls in the same order. */
    private record Queue(long q, long doneBlk, long rcvBlk, long base, long top, int slotSize)
    {
        static Queue init(final Elan3Context ctx, final int nSlots, final int slotSize)
        {
            final long q = elan3_allocElan(ctx, Elan3.E3_QUEUE_ALIGN, Elan3.E3_QUEUE_SIZE);
            // the source E3_Event_Blk: allocated, never written by the program
            final long doneBlk = elan3_allocElan(ctx, Elan3.E3_BLK_ALIGN, Elan3.E3_BLK_SIZE);
            final long rcvBlk = elan3_allocMain(ctx, Elan3.E3_BLK_ALIGN, Elan3.E3_BLK_SIZE);
            final long slots = elan3_allocMain(ctx, Elan3.E3_BLK_ALIGN, (long)slotSize * nSlots);
            final long base = elan3_main2elan(ctx, slots);
            final long top = base + (long)(nSlots - 1) * slotSize;
            elan3_write32_sdram(ctx.sdram, q + Elan3.Q_STATE, Elan3.E3_QUEUE_LOCKED);
            elan3_write32_sdram(ctx.sdram, q + Elan3.Q_SIZE, slotSize);
            elan3_write32_sdram(ctx.sdram, q + Elan3.Q_BPTR, (int)base);
            elan3_write32_sdram(ctx.sdram, q + Elan3.Q_FPTR, (int)base);
            elan3_write32_sdram(ctx.sdram, q + Elan3.Q_BASE, (int)base);
            elan3_write32_sdram(ctx.sdram, q + Elan3.Q_TOP, (int)top);
            elan3_initevent_main(ctx, q + Elan3.Q_EVENT, doneBlk, rcvBlk);
            E3_RESET_BCOPY_BLOCK(rcvBlk);
            elan3_primeevent(ctx, q + Elan3.Q_EVENT, 1);
            elan3_write32_sdram(ctx.sdram, q + Elan3.Q_STATE, 0);
            return new Queue(q, doneBlk, rcvBlk, base, top, slotSize);
        }
    }

    @Test
    void shouldSeeEveryMessageOfThreeSendersWrappingA512SlotQueue()
    {
        final int senders = 3;
        final int perSender = 300;
        final List<Long> got = Collections.synchronizedList(new ArrayList<>());
        run(1 + senders, (p, a) ->
        {
            final Elan3Context ctx = Elan3Context.open();
            final int me = ctx.process();
            final Queue rq = Queue.init(ctx, 512, 64);
            final long src = elan3_allocMain(ctx, 64, 64);
            final long txEv = elan3_allocElan(ctx, Elan3.E3_EVENT_ALIGN, Elan3.E3_BLOCK_COPY_EVENT_SIZE);
            final long txWord = elan3_allocMain(ctx, 8, 8);
            final long scratch = elan3_allocElan(ctx, Elan3.E3_DMA_ALIGN, Elan3.E3_DMA_SIZE);
            elan3_initevent_word(ctx, txEv, txWord);
            elan3_block_inputter(ctx, 0);
            p.sim().advance(5_000);
            if (me != 0)
            {
                for (int m = 0; m < perSender; m++)
                {
                    ctx.putLong(src, ((long)me << 32) | m);
                    ctx.putInt(txWord, 0);
                    elan3_primeevent(ctx, txEv, 1);
                    elan3_putdma_main(ctx, dma(ctx, Elan3.DMA_QUEUED, 0, elan3_main2elan(ctx, src), 0, 64,
                        ctx.sdram2elan(rq.q()), ctx.sdram2elan(txEv)), scratch);
                    elan3_waitevent_word(ctx, txEv, txWord, Elan3.ELAN_POLL_EVENT);
                }
                return;
            }
            // LA-MPI's consumer (path.cc): one slot per ready block, then reset, move q_fptr, clear
            // FULL, and re-arm q_event with elan3_waitevent; slow enough that arrivals pile up between waits
            long fptr = rq.base();
            for (int n = 0; n < senders * perSender; n++)
            {
                elan3_waitevent_blk(ctx, rq.q() + Elan3.Q_EVENT, rq.rcvBlk(), Elan3.ELAN_POLL_EVENT);
                got.add(ctx.getLong(ctx.elan2main(fptr)));
                fptr = fptr >= rq.top() ? rq.base() : fptr + rq.slotSize();
                final int state = elan3_read32_sdram(ctx.sdram, rq.q() + Elan3.Q_STATE);
                E3_RESET_BCOPY_BLOCK(rq.rcvBlk());
                elan3_write32_sdram(ctx.sdram, rq.q() + Elan3.Q_FPTR, (int)fptr);
                if ((state & Elan3.E3_QUEUE_FULL) != 0)
                {
                    elan3_write32_sdram(ctx.sdram, rq.q() + Elan3.Q_STATE, state & ~Elan3.E3_QUEUE_FULL);
                }
                elan3_waitevent(ctx, rq.q() + Elan3.Q_EVENT);
                p.sim().compute(1_000);
            }
            p.sim().advance(100_000);
            assertFalse(EVENT_BLK_READY(rq.rcvBlk()), "no arrival beyond the messages sent");
        });
        assertEquals(senders * perSender, got.size());
        final int[] next = new int[senders + 1];
        for (final long m : got)
        {
            final int sender = (int)(m >>> 32);
            assertEquals(next[sender]++, (int)m, "message order from sender " + sender);
        }
        for (int s = 1; s <= senders; s++)
        {
            assertEquals(perSender, next[s], "messages from sender " + s);
        }
    }

    @Test
    void shouldWriteTheDonePatternIntoTheSourceBlockAndLeaveTheConsumersBlockToTheProgram()
    {
        run(1, (p, a) ->
        {
            final Elan3Context ctx = Elan3Context.open();
            final long ev = elan3_allocElan(ctx, Elan3.E3_EVENT_ALIGN, Elan3.E3_BLOCK_COPY_EVENT_SIZE);
            final long doneBlk = elan3_allocElan(ctx, Elan3.E3_BLK_ALIGN, Elan3.E3_BLK_SIZE);
            final long rcvBlk = elan3_allocMain(ctx, Elan3.E3_BLK_ALIGN, Elan3.E3_BLK_SIZE);
            for (int i = 0; i < 16; i++)
            {
                ctx.putInt(rcvBlk + 4L * i, 0x5a5a_0000 | i);
            }
            elan3_initevent_main(ctx, ev, doneBlk, rcvBlk);
            assertEquals(E3.EVENT_WORD_FIRED, elan3_read32_sdram(ctx.sdram, doneBlk + 60), "the done word");
            for (int i = 0; i < 16; i++)
            {
                assertEquals(0x5a5a_0000 | i, ctx.getInt(rcvBlk + 4L * i), "word " + i + " of the consumer's block");
            }
            E3_RESET_BCOPY_BLOCK(rcvBlk);
            assertFalse(EVENT_BLK_READY(rcvBlk));
            elan3_primeevent(ctx, ev, 1);
            elan3_block_inputter(ctx, 0);
            // LA-MPI's driver work-around: set the event once and wait for the copy (init.cc)
            elan3_setevent(ctx, ev);
            elan3_waitevent_blk(ctx, ev, rcvBlk, Elan3.ELAN_POLL_EVENT);
            assertTrue(EVENT_BLK_READY(rcvBlk));
            assertThrows(QsnetException.class, () -> elan3_initevent_main(ctx, ev, doneBlk + 8, rcvBlk), "not E3_BLK_ALIGNed");
        });
    }

    @Test
    void shouldMakeHostMallocMemoryDmaAbleForEverySizeOnlyUnderTheStandardMappings()
    {
        final int[] sizes = {8, 64, 65, 4096};
        final List<String> refused = Collections.synchronizedList(new ArrayList<>());
        run(2, (p, a) ->
        {
            final Elan3Context ctx = Elan3Context.open();
            final int me = ctx.process();
            final long before = ctx.hostMalloc(8192);
            final long scratch = elan3_allocElan(ctx, Elan3.E3_DMA_ALIGN, Elan3.E3_DMA_SIZE);
            final long txEv = elan3_allocElan(ctx, Elan3.E3_EVENT_ALIGN, Elan3.E3_BLOCK_COPY_EVENT_SIZE);
            final long txWord = elan3_allocMain(ctx, 8, 8);
            final long rxEv = elan3_allocElan(ctx, Elan3.E3_EVENT_ALIGN, Elan3.E3_BLOCK_COPY_EVENT_SIZE);
            final long rxWord = elan3_allocMain(ctx, 8, 8);
            elan3_initevent_word(ctx, txEv, txWord);
            elan3_initevent_word(ctx, rxEv, rxWord);
            // every put lands in its own piece of the peer's buffers: one arrival each
            elan3_primeevent(ctx, rxEv, 2 * sizes.length);
            // without the standard mappings: not addressable, whatever the size
            for (final int n : sizes)
            {
                assertFalse(elan3_addressable(ctx, before, n), n + " bytes");
            }
            assertEquals(Elan3.ELAN_BAD_ADDR, elan3_main2elan(ctx, before));
            assertEquals(1, elan3_set_standard_mappings(ctx));
            final long after = ctx.hostMalloc(8192);
            elan3_block_inputter(ctx, 0);
            p.sim().advance(5_000);
            for (final long m : new long[] {before, after})
            {
                for (final int n : sizes)
                {
                    assertTrue(elan3_addressable(ctx, m, n), n + " bytes");
                }
            }
            if (me == 0)
            {
                for (final long m : new long[] {before, after})
                {
                    long at = m;
                    for (final int n : sizes)
                    {
                        for (int i = 0; i < n; i++)
                        {
                            ctx.write(at + i, new byte[] {(byte)(n * 31 + i + (m == before ? 0 : 7))}, 0, 1);
                        }
                        ctx.putInt(txWord, 0);
                        elan3_primeevent(ctx, txEv, 1);
                        elan3_putdma_main(ctx, dma(ctx, Elan3.DMA_NORMAL, 1, elan3_main2elan(ctx, at),
                            elan3_main2elan(ctx, at), n, ctx.sdram2elan(rxEv), ctx.sdram2elan(txEv)), scratch);
                        elan3_waitevent_word(ctx, txEv, txWord, Elan3.ELAN_POLL_EVENT);
                        at += n;
                    }
                }
            }
            else
            {
                elan3_waitevent_word(ctx, rxEv, rxWord, Elan3.ELAN_POLL_EVENT);
                for (final long m : new long[] {before, after})
                {
                    long at = m;
                    for (final int n : sizes)
                    {
                        final byte[] got = new byte[n];
                        ctx.read(at, got, 0, n);
                        for (int i = 0; i < n; i++)
                        {
                            assertEquals((byte)(n * 31 + i + (m == before ? 0 : 7)), got[i], "byte " + i + " of " + n);
                        }
                        at += n;
                    }
                }
            }
            // memory the Elan cannot reach is refused at every size alike
            ctx.clearpermMain(after, 8192);
            for (final int n : sizes)
            {
                assertFalse(elan3_addressable(ctx, after, n));
                refused.add(assertThrows(QsnetException.class, () -> elan3_putdma_main(ctx,
                    dma(ctx, Elan3.DMA_NORMAL, 1 - me, elan3_main2elan(ctx, after), elan3_main2elan(ctx, before), n, 0, 0),
                    scratch)).getMessage());
            }
        });
        assertEquals(8, refused.size());
        for (final String m : refused)
        {
            assertTrue(m.contains("DMA source at Elan address 0xffffffff is not mapped"), m);
        }
    }

    @Test
    void shouldRefuseADmaThatRunsPastTheEndOfItsAllocation()
    {
        final List<String> errors = Collections.synchronizedList(new ArrayList<>());
        final byte[][] neighbour = new byte[2][];
        run(2, (p, a) ->
        {
            final Elan3Context ctx = Elan3Context.open();
            final int me = ctx.process();
            // two allocations side by side, the same addresses on both processes
            final long buf = elan3_allocMain(ctx, 64, 64);
            final long next = elan3_allocMain(ctx, 64, 64);
            final long sdramBuf = elan3_allocElan(ctx, 64, 64);
            final long sdramNext = elan3_allocElan(ctx, 64, 64);
            final long big = elan3_allocMain(ctx, 64, 256);
            final long scratch = elan3_allocElan(ctx, Elan3.E3_DMA_ALIGN, Elan3.E3_DMA_SIZE);
            assertEquals(buf + 64, next, "the allocations are neighbours");
            assertEquals(sdramBuf + 64, sdramNext, "the allocations are neighbours");
            for (int i = 0; i < 64; i++)
            {
                ctx.write(next + i, new byte[] {(byte)(0x70 + me)}, 0, 1);
            }
            elan3_block_inputter(ctx, 0);
            p.sim().advance(5_000);
            final long bufVa = elan3_main2elan(ctx, buf);
            final long bigVa = elan3_main2elan(ctx, big);
            final long sdramVa = ctx.sdram2elan(sdramBuf);
            if (me == 0)
            {
                // local source, main and SDRAM: refused by the command processor at issue
                errors.add(assertThrows(MemoryFault.class,
                    () -> elan3_putdma_main(ctx, dma(ctx, Elan3.DMA_NORMAL, 1, bufVa, bigVa, 128, 0, 0), scratch)).getMessage());
                errors.add(assertThrows(MemoryFault.class,
                    () -> elan3_putdma_main(ctx, dma(ctx, Elan3.DMA_NORMAL, 1, sdramVa, bigVa, 65, 0, 0), scratch))
                    .getMessage());
                // local destination of a get: refused at issue
                final E3DmaMain get = dma(ctx, Elan3.DMA_NORMAL, 1, bigVa, bufVa, 100, 0, 0);
                get.dma_type = Elan3.E3_DMA_TYPE(Elan3.DMA_BYTE, Elan3.DMA_READ, Elan3.DMA_NORMAL, 63);
                get.dma_srcCookieVProc = elan3_remote_cookie(ctx, 0, 1);
                get.dma_destCookieVProc = elan3_local_cookie(ctx, 0, 1);
                errors.add(assertThrows(MemoryFault.class, () -> elan3_getdma_main(ctx, get, scratch)).getMessage());
                // remote destination: refused by the peer's inputter; the fault reaches this process
                elan3_putdma_main(ctx, dma(ctx, Elan3.DMA_NORMAL, 1, bigVa, bufVa, 100, 0, 0), scratch);
                errors.add(assertThrows(MemoryFault.class, () -> p.sim().advance(50_000)).getMessage());
                // remote source of a get
                final E3DmaMain get2 = dma(ctx, Elan3.DMA_NORMAL, 1, bufVa, bigVa, 100, 0, 0);
                get2.dma_type = Elan3.E3_DMA_TYPE(Elan3.DMA_BYTE, Elan3.DMA_READ, Elan3.DMA_NORMAL, 63);
                get2.dma_srcCookieVProc = elan3_remote_cookie(ctx, 0, 1);
                get2.dma_destCookieVProc = elan3_local_cookie(ctx, 0, 1);
                elan3_getdma_main(ctx, get2, scratch);
                errors.add(assertThrows(MemoryFault.class, () -> p.sim().advance(50_000)).getMessage());
                // within the allocation: fine
                elan3_putdma_main(ctx, dma(ctx, Elan3.DMA_NORMAL, 1, bigVa, bufVa, 64, 0, 0), scratch);
                p.sim().advance(50_000);
            }
            else
            {
                p.sim().advance(200_000);
            }
            neighbour[me] = new byte[64];
            ctx.read(next, neighbour[me], 0, 64);
        });
        assertEquals(5, errors.size(), errors.toString());
        assertTrue(errors.get(0).contains("DMA source of 128 bytes at Elan address 0x") && errors.get(0).contains(
            "runs 64 bytes past the end of its allocation"), errors.get(0));
        assertTrue(errors.get(1).contains("runs 1 bytes past the end of its allocation"), errors.get(1));
        assertTrue(errors.get(2).contains("DMA destination of 100 bytes") && errors.get(2).contains("runs 36 bytes past"),
            errors.get(2));
        assertTrue(errors.get(3).contains("DMA destination of 100 bytes") && errors.get(3).contains("on node 1"), errors.get(3));
        assertTrue(errors.get(4).contains("DMA source (remote read) of 100 bytes") && errors.get(4).contains("on node 1"),
            errors.get(4));
        for (int me = 0; me < 2; me++)
        {
            for (int i = 0; i < 64; i++)
            {
                assertEquals((byte)(0x70 + me), neighbour[me][i], "byte " + i + " of the neighbour at VP " + me);
            }
        }
    }
}
