package org.qsnet.elan3;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

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

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class Elan3ContextTest
{
    private static final PlatformProfile P3 = PlatformProfile.pentium3He();

    private static void run(final int procs, final ElanMain main)
    {
        Prun.run(P3, new Prun.Options(procs, procs, false, 0, Map.of()), main).throwIfFailed();
    }

    private static E3DmaMain put(final Elan3Context ctx, final int peer, final long src, final long dst, final long size,
        final long destEvent, final long srcEvent)
    {
        final E3DmaMain d = new E3DmaMain();
        d.dma_type = Elan3.E3_DMA_TYPE(Elan3.DMA_BYTE, Elan3.DMA_WRITE, Elan3.DMA_NORMAL, 0);
        d.dma_size = size;
        d.dma_source = src;
        d.dma_dest = dst;
        d.dma_destEvent = destEvent;
        d.dma_destCookieVProc = peer;
        d.dma_srcEvent = srcEvent;
        d.dma_srcCookieVProc = ctx.localCookie(ctx.process(), peer);
        return d;
    }

    @Test
    void shouldTakeExactlyTheSumOfItsMechanismsForAZeroBytePut()
    {
        final long[] t = new long[2];
        run(2, (p, a) ->
        {
            final Elan3Context ctx = Elan3Context.open();
            final long ev = ctx.allocElan(8, 16);
            final long word = ctx.allocMain(8, 8);
            final long scratch = ctx.allocElan(32, 32);
            final long buf = ctx.sdram2elan(ctx.allocElan(64, 64));
            ctx.initeventWord(ev, word);
            ctx.blockInputter(0);
            for (int i = 0; i < 2; i++)
            {
                ctx.putInt(word, 0);
                ctx.primeevent(ev, 1);
                final E3DmaMain d = put(ctx, 1 - ctx.process(), buf, buf, 0, ctx.sdram2elan(ev), 0);
                final boolean sender = ctx.process() == 0;
                p.sim().advance(10_000L * (i + 1) - p.nowNs());
                if (sender)
                {
                    ctx.putdmaMain(d, scratch);
                }
                else
                {
                    ctx.waitEventWord(ev, word, Elan3.ELAN_POLL_EVENT);
                    t[i] = p.nowNs() - 10_000L * (i + 1);
                }
            }
        });
        // the second ping (TLB warm), step by step on pentium3-he; every term is a profile parameter:
        final long host = P3.hostCallNs() + 9 * P3.pioWriteNs();                  // putdma_main: 8 descriptor words + command
        final long command = P3.cmdProcNs() + P3.sdramNs(32);                      // check, read descriptor
        final long dma = P3.dmaStartNs() + P3.dmaPacketNs();                       // start the DMA, build the packet
        final long wire = 2 * 20 + 35 + (58 * 2500 + 999) / 1000;                 // 2 links, Elite, 58-byte packet
        final long input = P3.inputPacketNs() + P3.sdramNs(0);                     // accept, (empty) write
        final long event = P3.eventNs() + P3.sdramNs(8) + P3.sdramNs(4)            // count in SDRAM, read the word
            + P3.pciWriteSetupNs() + P3.pciBytesNs(4);                             // write it across PCI
        final long seen = P3.hostPollNs();                                         // the poll that sees it
        assertEquals(host + command + dma + wire + input + event + seen, t[1]);
        assertEquals(1916, t[1]);
        // the first ping also walks the page table for the destination page (a TLB miss): the walker's
        // cycles and one SDRAM read per level; the page is in SDRAM, so its entry is loaded already
        assertEquals(t[1] + P3.tableWalkNs() + 3 * P3.sdramNs(8), t[0]);
    }

    @Test
    void shouldLetTheDriverLoadAHostPageEntryOnTheNicsFirstTouchOnly()
    {
        // a 64-byte put into main memory, three times: into a fresh page, into it again, into a second
        // fresh page
        final long[] t = new long[3];
        final long[] loads = new long[1];
        run(2, (p, a) ->
        {
            final Elan3Context ctx = Elan3Context.open();
            final long ev = ctx.allocElan(8, 16);
            final long word = ctx.allocMain(8, 8);
            final long scratch = ctx.allocElan(32, 32);
            final long src = ctx.sdram2elan(ctx.allocElan(64, 64));
            final long main = ctx.allocMain(8192, 3 * 8192);
            final long[] dest = {ctx.main2elan(main), ctx.main2elan(main), ctx.main2elan(main + 8192)};
            ctx.initeventWord(ev, word);
            ctx.blockInputter(0);
            for (int i = 0; i < 3; i++)
            {
                ctx.putInt(word, 0);
                ctx.primeevent(ev, 1);
                final E3DmaMain d = put(ctx, 1 - ctx.process(), src, dest[i], 64, ctx.sdram2elan(ev), 0);
                p.sim().advance(20_000L * (i + 1) - p.nowNs());
                if (ctx.process() == 0)
                {
                    ctx.putdmaMain(d, scratch);
                }
                else
                {
                    ctx.waitEventWord(ev, word, Elan3.ELAN_POLL_EVENT);
                    t[i] = p.nowNs() - 20_000L * (i + 1);
                    loads[0] = ctx.hardware().nic().pteLoads();
                }
            }
        });
        final long walk = P3.tableWalkNs() + 3 * P3.sdramNs(8);
        final long fault = P3.interruptNs() + P3.driverNs() + 3 * P3.pioWriteNs();
        // the first put also misses on its source page (in SDRAM: a walk, no fault); at the receiver a
        // fresh host page: miss, walk, trap, the driver loads the entry, walk again
        assertEquals(t[1] + walk + walk + fault + walk, t[0], "first touch of a host page");
        // the second page misses and faults like the first did; the source page is in the TLB now
        assertEquals(t[1] + walk + fault + walk, t[2], "second fresh page");
        assertEquals(2, loads[0], "entries the driver loaded at the receiver");
    }

    @Test
    void shouldMoveDataBothWaysWithPutAndGetAndFireEventsWhereTheCatalogSays()
    {
        run(2, (p, a) ->
        {
            final Elan3Context ctx = Elan3Context.open();
            final int me = ctx.process();
            final long buf = ctx.allocMain(64, 10_000);
            final long in = ctx.allocMain(64, 10_000);
            final long rxEv = ctx.allocElan(8, 16);
            final long rxWord = ctx.allocMain(8, 8);
            final long txEv = ctx.allocElan(8, 16);
            final long txWord = ctx.allocMain(8, 8);
            final long scratch = ctx.allocElan(32, 32);
            for (int i = 0; i < 2500; i++)
            {
                ctx.putInt(buf + 4L * i, me * 100_000 + i);
            }
            ctx.initeventWord(rxEv, rxWord);
            ctx.primeevent(rxEv, 1);
            ctx.initeventWord(txEv, txWord);
            ctx.primeevent(txEv, 1);
            ctx.blockInputter(0);
            p.sim().advance(5_000);
            if (me == 0)
            {
                // get: read rank 1's buffer into ours; the source event fires at rank 1
                final E3DmaMain d = new E3DmaMain();
                d.dma_type = Elan3.E3_DMA_TYPE(Elan3.DMA_BYTE, Elan3.DMA_READ, Elan3.DMA_NORMAL, 0);
                d.dma_size = 10_000;
                d.dma_source = ctx.main2elan(buf);
                d.dma_dest = ctx.main2elan(in);
                d.dma_destEvent = ctx.sdram2elan(rxEv);
                d.dma_srcEvent = ctx.sdram2elan(txEv);
                d.dma_destCookieVProc = ctx.localCookie(0, 1);
                d.dma_srcCookieVProc = ctx.remoteCookie(0, 1);
                ctx.getdmaMain(d, scratch);
                ctx.waitEventWord(rxEv, rxWord, Elan3.ELAN_POLL_EVENT);
                for (int i = 0; i < 2500; i++)
                {
                    assertEquals(100_000 + i, ctx.getInt(in + 4L * i));
                }
                assertTrue(!ctx.eventWordReady(txWord), "a read's source event fires at the remote side");
            }
            else
            {
                ctx.waitEventWord(txEv, txWord, Elan3.ELAN_POLL_EVENT);
                assertTrue(!ctx.eventWordReady(rxWord));
            }
        });
    }

    @Test
    void shouldChargeAnInterruptForABlockingWaitAndOnlyAPollForASpin()
    {
        final long[] seen = new long[2];
        for (final long how : new long[] {Elan3.ELAN_POLL_EVENT, Elan3.ELAN_WAIT_EVENT})
        {
            run(2, (p, a) ->
            {
                final Elan3Context ctx = Elan3Context.open();
                final long ev = ctx.allocElan(8, 16);
                final long word = ctx.allocMain(8, 8);
                final long scratch = ctx.allocElan(32, 32);
                final long buf = ctx.sdram2elan(ctx.allocElan(64, 64));
                ctx.initeventWord(ev, word);
                ctx.primeevent(ev, 1);
                ctx.blockInputter(0);
                p.sim().advance(10_000 - p.nowNs());
                if (ctx.process() == 0)
                {
                    ctx.putdmaMain(put(ctx, 1, buf, buf, 64, ctx.sdram2elan(ev), 0), scratch);
                }
                else
                {
                    ctx.waitEventWord(ev, word, how);
                    seen[how == Elan3.ELAN_POLL_EVENT ? 0 : 1] = p.nowNs();
                }
            });
        }
        assertEquals(P3.blockingWakeNs() - P3.hostPollNs(), seen[1] - seen[0]);
    }

    @Test
    void shouldCopyTheDoneBlockIntoHostMemoryAndCountSets()
    {
        run(1, (p, a) ->
        {
            final Elan3Context ctx = Elan3Context.open();
            final long ev = ctx.allocElan(8, 16);
            final long done = ctx.allocElan(64, 64);
            final long blk = ctx.allocMain(64, 64);
            for (int i = 0; i < 16; i++)
            {
                ctx.write32Sdram(done + 4L * i, 0x1000 + i);
                ctx.putInt(blk + 4L * i, 0xdead0000 + i);
            }
            ctx.initeventMain(ev, done, blk);
            ctx.primeevent(ev, 2);
            for (int i = 0; i < 16; i++)
            {
                assertEquals(0xdead0000 + i, ctx.getInt(blk + 4L * i), "the consumer's block is the program's to reset");
            }
            ctx.resetBcopyBlock(blk);
            ctx.blockInputter(0);
            ctx.setevent(ev);
            p.sim().advance(20_000);
            assertTrue(!ctx.eventBlkReady(blk), "one set of two: not fired");
            ctx.setevent(ev);
            ctx.waitEventBlk(ev, blk, Elan3.ELAN_POLL_EVENT);
            // the program's words, and the done word elan3_initevent_main put last
            for (int i = 0; i < 15; i++)
            {
                assertEquals(0x1000 + i, ctx.getInt(blk + 4L * i));
            }
            assertEquals(1, ctx.getInt(blk + 60));
            ctx.resetBcopyBlock(blk);
            assertTrue(!ctx.eventBlkReady(blk));
        });
    }

    @Test
    void shouldIssueAChainedDmaWhenItsEventFires()
    {
        run(2, (p, a) ->
        {
            final Elan3Context ctx = Elan3Context.open();
            final int me = ctx.process();
            final long trigger = ctx.allocElan(8, 16);
            final long rxEv = ctx.allocElan(8, 16);
            final long rxWord = ctx.allocMain(8, 8);
            final long dma = ctx.allocElan(32, 32);
            final long src = ctx.allocMain(64, 64);
            final long dst = ctx.allocMain(64, 64);
            ctx.putInt(src, 0xC0FFEE);
            ctx.initeventWord(rxEv, rxWord);
            ctx.primeevent(rxEv, 1);
            ctx.initevent(trigger);
            ctx.blockInputter(0);
            p.sim().advance(5_000);
            if (me == 0)
            {
                ctx.copyDmaToSdram(put(ctx, 1, ctx.main2elan(src), ctx.main2elan(dst), 4, ctx.sdram2elan(rxEv), 0), dma);
                ctx.waitdmaevent0(dma, trigger, 0, 3);
                ctx.setevent(trigger);
                ctx.setevent(trigger);
                ctx.setevent(trigger);
            }
            else
            {
                ctx.waitEventWord(rxEv, rxWord, Elan3.ELAN_POLL_EVENT);
                assertEquals(0xC0FFEE, ctx.getInt(dst));
            }
        });
    }

    @Test
    void shouldManageMemoryAndTranslations()
    {
        run(1, (p, a) ->
        {
            final Elan3Context ctx = Elan3Context.open();
            final long m = ctx.allocMain(4096, 100);
            assertEquals(0, (m - Elan3.HOST_MAIN_BASE) % 4096);
            final long e = ctx.allocElan(64, 100);
            assertEquals(0, ctx.sdram2elan(e) % 64);
            assertEquals(m, ctx.elan2main(ctx.main2elan(m)));
            assertEquals(Elan3.HOST_SDRAM_BASE + e, ctx.elan2main(ctx.sdram2elan(e)));
            ctx.free(m);
            assertEquals(m, ctx.allocMain(4096, 100), "first fit gives the freed range again");
            final long unmapped = ctx.hostMalloc(8192);
            assertTrue(!ctx.addressable(unmapped, 8192));
            assertEquals(Elan3.ELAN_BAD_ADDR, ctx.main2elan(unmapped));
            final long va = ctx.allocVaddr(8192, 8192);
            assertEquals(0, ctx.setperm(unmapped, va, 8192, Elan3.ELAN_PERM_REMOTEALL));
            assertTrue(ctx.addressable(unmapped, 8192));
            assertEquals(va + 8, ctx.main2elan(unmapped + 8));
            ctx.clearpermMain(unmapped, 8192);
            assertEquals(Elan3.ELAN_BAD_ADDR, ctx.main2elan(unmapped));
            ctx.write32Sdram(e, 77);
            assertEquals(77, ctx.read32Sdram(e));
            ctx.zeroByteSdram(e, 4);
            assertEquals(0, ctx.read32Sdram(e));
            final long src = ctx.allocMain(64, 64);
            for (int i = 0; i < 16; i++)
            {
                ctx.putInt(src + 4L * i, i + 1);
            }
            ctx.blkcopy64ToSdram(src, ctx.allocElan(64, 64), 64);
            assertEquals(0, ctx.allocMain(0, 1L << 30), "a full heap returns NULL");
            assertEquals(0, ctx.allocElan(0, 1L << 30));
        });
    }

    @Test
    void shouldRejectMisuseClearly()
    {
        final List<String> errors = Collections.synchronizedList(new ArrayList<>());
        run(2, (p, a) ->
        {
            final Elan3Context ctx = Elan3Context.open();
            final int me = ctx.process();
            final long scratch = ctx.allocElan(32, 32);
            final long buf = ctx.allocMain(64, 256);
            final long ro = ctx.hostMalloc(8192);
            final long roVa = ctx.allocVaddr(8192, 8192);
            ctx.setperm(ro, roVa, 8192, Elan3.ELAN_PERM_REMOTEREAD);
            ctx.blockInputter(0);
            p.sim().advance(5_000);
            if (me == 0)
            {
                errors.add(assertThrows(QsnetException.class,
                    () -> ctx.putdmaMain(put(ctx, 7, ctx.main2elan(buf), ctx.main2elan(buf), 8, 0, 0), scratch)).getMessage());
                errors.add(assertThrows(QsnetException.class,
                    () -> ctx.putdmaMain(put(ctx, 1, 0x7000_0000L, ctx.main2elan(buf), 8, 0, 0), scratch)).getMessage());
                errors.add(assertThrows(QsnetException.class, () -> ctx.putdma(scratch + 4)).getMessage());
                final E3DmaMain q = put(ctx, 1, ctx.main2elan(buf), 0, 400, 0, 0);
                q.dma_type = Elan3.E3_DMA_TYPE(Elan3.DMA_BYTE, Elan3.DMA_WRITE, Elan3.DMA_QUEUED, 0);
                errors.add(assertThrows(QsnetException.class, () -> ctx.putdmaMain(q, scratch)).getMessage());
                // remote faults reach the initiator in its next blocking call
                ctx.putdmaMain(put(ctx, 1, ctx.main2elan(buf), roVa, 8, 0, 0), scratch);
                errors.add(assertThrows(MemoryFault.class, () -> p.sim().advance(50_000)).getMessage());
                ctx.putdmaMain(put(ctx, 1, ctx.main2elan(buf), 0x3000_0000L, 8, 0, 0), scratch);
                errors.add(assertThrows(MemoryFault.class, () -> p.sim().advance(50_000)).getMessage());
                final ElanCapability forged = ctx.capability();
                forged.userKey[0] ^= 1;
                errors.add(assertThrows(QsnetException.class, () -> ctx.attach(forged)).getMessage());
                ctx.detach();
                errors.add(assertThrows(QsnetException.class, () -> ctx.allocMain(0, 8)).getMessage());
            }
            else
            {
                p.sim().advance(200_000);
            }
        });
        assertEquals(8, errors.size(), errors.toString());
        assertEquals("VP 7 is outside the capability (VPs 0..1) or a hole", errors.get(0));
        assertTrue(errors.get(1).contains("DMA source at Elan address 0x70000000 is not mapped"), errors.get(1));
        assertTrue(errors.get(2).contains("is not aligned to 32 bytes"), errors.get(2));
        assertTrue(errors.get(3).contains("dma_size 400 of a queued DMA must be at most one packet (320 bytes)"), errors.get(3));
        assertTrue(errors.get(4).contains("needs rights remote-write but context 0x400 on node 1 grants read,remote-read"),
            errors.get(4));
        assertTrue(errors.get(5).contains("DMA destination at Elan address 0x30000000 is not mapped in context 0x400 on node 1"),
            errors.get(5));
        assertTrue(errors.get(6).contains("already attached"), errors.get(6));
        assertTrue(errors.get(7).contains("was detached"), errors.get(7));
    }

    @Test
    void shouldRefuseAnAttachWithAWrongKeyOrAnotherContext()
    {
        final List<String> errors = Collections.synchronizedList(new ArrayList<>());
        run(1, (p, a) ->
        {
            final Elan3Context ctx = Elan3Context.init();
            final ElanCapability cap = Rms.getcap();
            final ElanCapability wrong = cap.copy();
            wrong.userKey[2] ^= 0x40;
            errors.add(assertThrows(QsnetException.class, () -> ctx.attach(wrong)).getMessage());
            final ElanCapability other = cap.copy();
            other.myContext = 0x300;
            errors.add(assertThrows(QsnetException.class, () -> ctx.attach(other)).getMessage());
            assertEquals(0, ctx.attach(cap));
        });
        assertTrue(errors.get(0).contains("(wrong key)"), errors.get(0));
        assertTrue(errors.get(1).contains("MyContext 0x300 is outside the capability's contexts 0x400..0x400"), errors.get(1));
    }

    @Test
    void shouldConsumeAQueuedDmaInputQueueInOrderEvenWhenItFills()
    {
        final int messages = 20;
        final List<Integer> got = Collections.synchronizedList(new ArrayList<>());
        run(2, (p, a) ->
        {
            final Elan3Context ctx = Elan3Context.open();
            final int me = ctx.process();
            final int slots = 4;
            final int slotSize = 64;
            // receiver's queue: header in SDRAM, slots in main memory, q_event a block copy (same addresses on both)
            final long q = ctx.allocElan(Elan3.E3_QUEUE_ALIGN, Elan3.E3_QUEUE_SIZE);
            final long slotMem = ctx.allocMain(64, slots * slotSize);
            final long done = ctx.allocElan(64, 64);
            final long blk = ctx.allocMain(64, 64);
            final long src = ctx.allocMain(64, slotSize);
            final long scratch = ctx.allocElan(32, 32);
            final long base = ctx.main2elan(slotMem);
            final long top = base + (slots - 1) * slotSize;
            ctx.write32Sdram(q + Elan3.Q_STATE, Elan3.E3_QUEUE_LOCKED);
            ctx.write32Sdram(q + Elan3.Q_SIZE, slotSize);
            ctx.write32Sdram(q + Elan3.Q_BASE, (int)base);
            ctx.write32Sdram(q + Elan3.Q_TOP, (int)top);
            ctx.write32Sdram(q + Elan3.Q_FPTR, (int)base);
            ctx.write32Sdram(q + Elan3.Q_BPTR, (int)base);
            ctx.write32Sdram(done + 60, 1);
            ctx.initeventMain(q + Elan3.Q_EVENT, done, blk);
            ctx.primeevent(q + Elan3.Q_EVENT, 1);
            ctx.write32Sdram(q + Elan3.Q_STATE, 0);
            ctx.blockInputter(0);
            p.sim().advance(5_000);
            if (me == 0)
            {
                for (int m = 0; m < messages; m++)
                {
                    ctx.putInt(src, m);
                    final E3DmaMain d = put(ctx, 1, ctx.main2elan(src), 0, slotSize, ctx.sdram2elan(q), 0);
                    d.dma_type = Elan3.E3_DMA_TYPE(Elan3.DMA_BYTE, Elan3.DMA_WRITE, Elan3.DMA_QUEUED, 63);
                    ctx.putdmaMain(d, scratch);
                    // the data is read by the NIC later: give it time before reusing the source (the
                    // first read of src's page also waits for the driver to load its entry: ~3.2 us)
                    p.sim().advance(m == 0 ? 8_000 : 3_000);
                }
            }
            else
            {
                long fptr = base;
                for (int m = 0; m < messages; m++)
                {
                    // the consumer loop of ELAN-API.md flow 4; slow, so that the queue fills
                    while (ctx.read32Sdram(q + Elan3.Q_BPTR) == (int)fptr
                        && (ctx.read32Sdram(q + Elan3.Q_STATE) & Elan3.E3_QUEUE_FULL) == 0)
                    {
                        ctx.waitEventBlk(q + Elan3.Q_EVENT, blk, Elan3.ELAN_POLL_EVENT);
                        ctx.resetBcopyBlock(blk);
                        ctx.waitevent(q + Elan3.Q_EVENT);
                    }
                    got.add(ctx.getInt(ctx.elan2main(fptr)));
                    fptr = fptr >= top ? base : fptr + slotSize;
                    ctx.write32Sdram(q + Elan3.Q_FPTR, (int)fptr);
                    final int state = ctx.read32Sdram(q + Elan3.Q_STATE);
                    if ((state & Elan3.E3_QUEUE_FULL) != 0)
                    {
                        ctx.write32Sdram(q + Elan3.Q_STATE, state & ~Elan3.E3_QUEUE_FULL);
                    }
                    p.sim().compute(10_000);
                }
            }
        });
        final List<Integer> expected = new ArrayList<>();
        for (int m = 0; m < messages; m++)
        {
            expected.add(m);
        }
        assertEquals(expected, got);
    }

    @Test
    void shouldBroadcastToAContiguousRangeAndRefuseHoles()
    {
        final int[] received = new int[4];
        run(4, (p, a) ->
        {
            final Elan3Context ctx = Elan3Context.open();
            final int me = ctx.process();
            final long buf = ctx.allocMain(64, 256);
            final long ev = ctx.allocElan(8, 16);
            final long word = ctx.allocMain(8, 8);
            final long scratch = ctx.allocElan(32, 32);
            ctx.initeventWord(ev, word);
            ctx.primeevent(ev, 1);
            final int bvp = ctx.allocateBcastVp();
            assertEquals(4, bvp);
            assertEquals(0, ctx.addBcastVp(bvp, 0, 3));
            assertEquals(-1, ctx.addBcastVp(bvp + 1, 2, 9), "a range beyond the VPs is refused");
            ctx.blockInputter(0);
            p.sim().advance(5_000);
            if (me == 2)
            {
                ctx.putInt(buf, 4242);
                final E3DmaMain d = put(ctx, 0, ctx.main2elan(buf), ctx.main2elan(buf), 256, ctx.sdram2elan(ev), 0);
                d.dma_type = Elan3.E3_DMA_TYPE(Elan3.DMA_BYTE, Elan3.DMA_WRITE, Elan3.DMA_NORMAL_BROADCAST, 0);
                d.dma_destCookieVProc = bvp;
                ctx.putdmaMain(d, scratch);
            }
            ctx.waitEventWord(ev, word, Elan3.ELAN_POLL_EVENT);
            received[me] = ctx.getInt(buf);
        });
        assertArrayEquals(new int[] {4242, 4242, 4242, 4242}, received);
    }

    @Test
    void shouldAddAtomicallyAcrossTheNetworkAndReturnOldValues()
    {
        final List<Integer> olds = Collections.synchronizedList(new ArrayList<>());
        final int[] total = new int[1];
        run(4, (p, a) ->
        {
            final Elan3Context ctx = Elan3Context.open();
            final int me = ctx.process();
            final long counter = ctx.allocMain(8, 8);
            final long result = ctx.allocMain(8, 8);
            final long ev = ctx.allocElan(8, 16);
            final long word = ctx.allocMain(8, 8);
            ctx.initeventWord(ev, word);
            ctx.primeevent(ev, 1);
            ctx.blockInputter(0);
            p.sim().advance(5_000);
            if (me != 0)
            {
                ctx.atomicFetchAdd(0, ctx.main2elan(counter), me * 10, result, ev);
                ctx.waitEventWord(ev, word, Elan3.ELAN_POLL_EVENT);
                olds.add(ctx.getInt(result));
            }
            else
            {
                p.sim().advance(50_000);
                total[0] = ctx.getInt(counter);
            }
        });
        assertEquals(60, total[0]);
        assertEquals(3, olds.stream().distinct().count());
        assertTrue(olds.contains(0));
        assertNotEquals(0, olds.stream().mapToInt(Integer::intValue).sum());
    }
}
