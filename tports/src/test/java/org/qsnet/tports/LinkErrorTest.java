package org.qsnet.tports;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.zip.CRC32;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.qsnet.elan.ElanBase;
import org.qsnet.elan.ElanQueue;
import org.qsnet.elan3.E3DmaMain;
import org.qsnet.elan3.Elan3;
import org.qsnet.elan3.Elan3Context;
import org.qsnet.elan3.ElanMain;
import org.qsnet.elan3.Prun;
import org.qsnet.fabric.engine.RunReport;
import org.qsnet.fabric.machine.PlatformProfile;

/**
 * Link errors lose nothing, at every layer: with {@code crcErrorRate} set, every payload a user
 * hands to Elan3lib, Elanlib or Tports arrives whole, once, in order, and no completion is
 * signalled before its data is in place. Each test checksums what arrives.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class LinkErrorTest
{
    private static PlatformProfile lossy(final double rate)
    {
        final PlatformProfile p = PlatformProfile.pentium3He();
        return p.withFabric(p.fabric().withCrcErrorRate(rate));
    }

    private static RunReport run(final double rate, final int procs, final ElanMain main)
    {
        return Prun.run(lossy(rate), new Prun.Options(procs, procs, false, 0, Map.of()), main).throwIfFailed();
    }

    private static byte[] pattern(final int seed, final int len)
    {
        final byte[] b = new byte[len];
        new SplittableRandom(seed).nextBytes(b);
        return b;
    }

    private static long crc(final byte[] b)
    {
        final CRC32 c = new CRC32();
        c.update(b);
        return c.getValue();
    }

    @ParameterizedTest(name = "crcErrorRate {0}")
    @ValueSource(doubles = {1e-3, 1e-2, 0.2})
    void shouldFireTheDestinationEventOfAMultiPacketDmaOnlyWhenAllItsDataHasLanded(final double rate)
    {
        final int dmas = 300;
        final int size = 2048;
        final int[] bad = new int[1];
        run(rate, 2, (p, a) ->
        {
            final Elan3Context ctx = Elan3Context.open();
            final int me = ctx.process();
            final long src = ctx.allocMain(64, size);
            final long dst = ctx.allocMain(64, size);
            final long ev = ctx.allocElan(Elan3.E3_EVENT_ALIGN, Elan3.E3_BLOCK_COPY_EVENT_SIZE);
            final long word = ctx.allocMain(8, 8);
            final long txEv = ctx.allocElan(Elan3.E3_EVENT_ALIGN, Elan3.E3_BLOCK_COPY_EVENT_SIZE);
            final long txWord = ctx.allocMain(8, 8);
            final long scratch = ctx.allocElan(Elan3.E3_DMA_ALIGN, Elan3.E3_DMA_SIZE);
            ctx.initeventWord(ev, word);
            ctx.initeventWord(txEv, txWord);
            ctx.blockInputter(0);
            for (int i = 0; i < dmas; i++)
            {
                ctx.raw().putInt(word, 0);
                ctx.primeevent(ev, 1);
                ctx.raw().putInt(txWord, 0);
                ctx.primeevent(txEv, 1);
                p.sim().advance(20_000L * (i + 1) - p.nowNs());
                if (me == 0)
                {
                    final byte[] data = pattern(i, size);
                    ctx.write(src, data, 0, size);
                    final E3DmaMain d = new E3DmaMain();
                    d.dma_type = Elan3.E3_DMA_TYPE(Elan3.DMA_BYTE, Elan3.DMA_WRITE, Elan3.DMA_NORMAL, 0);
                    d.dma_size = size;
                    d.dma_source = ctx.main2elan(src);
                    d.dma_dest = ctx.main2elan(dst);
                    d.dma_destEvent = ctx.sdram2elan(ev);
                    d.dma_srcEvent = ctx.sdram2elan(txEv);
                    d.dma_destCookieVProc = 1;
                    ctx.putdmaMain(d, scratch);
                    ctx.waitEventWord(txEv, txWord, Elan3.ELAN_POLL_EVENT);
                }
                else
                {
                    ctx.waitEventWord(ev, word, Elan3.ELAN_POLL_EVENT);
                    final byte[] got = new byte[size];
                    ctx.read(dst, got, 0, size);
                    if (crc(got) != crc(pattern(i, size)))
                    {
                        bad[0]++;
                    }
                }
            }
        });
        assertEquals(0, bad[0], "DMAs whose destination event fired before all their data had landed");
    }

    @ParameterizedTest(name = "crcErrorRate {0}")
    @ValueSource(doubles = {1e-3, 1e-2, 0.2})
    void shouldDeliverEveryTportsMessageWholeOnceAndInOrder(final double rate)
    {
        final int messages = 2000;
        final long[] sent = new long[messages];
        final long[] got = new long[messages];
        final int[] order = new int[messages];
        final SplittableRandom sizes = new SplittableRandom(7);
        final int[] len = new int[messages];
        for (int i = 0; i < messages; i++)
        {
            len[i] = 8 + sizes.nextInt(2040);
        }
        run(rate, 2, (p, a) ->
        {
            final ElanBase base = ElanBase.baseInit(0);
            final Tport tp = Tport.init(base);
            final long buf = base.allocMain(64, 4096);
            for (int i = 0; i < messages; i++)
            {
                if (base.vp() == 0)
                {
                    final byte[] data = pattern(1000 + i, len[i]);
                    base.ctx().write(buf, data, 0, len[i]);
                    sent[i] = crc(data);
                    tp.txStart(0, 1, 0, 5, buf, len[i]).txWait();
                }
                else
                {
                    final Tport.RxResult r = tp.rxStart(0, 0, 0, -1, 5, buf, 4096).rxWait();
                    final byte[] data = new byte[r.size()];
                    base.ctx().read(buf, data, 0, r.size());
                    got[i] = crc(data);
                    order[i] = r.size();
                }
            }
        });
        int corrupt = 0;
        for (int i = 0; i < messages; i++)
        {
            assertEquals(len[i], order[i], "message " + i + " arrived out of order, lost or duplicated");
            if (sent[i] != got[i])
            {
                corrupt++;
            }
        }
        assertEquals(0, corrupt, "corrupted messages");
        assertTrue(messages > 0);
    }

    @ParameterizedTest(name = "crcErrorRate {0}")
    @ValueSource(doubles = {1e-3, 1e-2, 0.2})
    void shouldKeepPipelinedTportsMessagesOfEveryProtocolWholeAndInOrder(final double rate)
    {
        // inline (< 288 B), synchronous, and fragmented (above tport_fragsize) messages, many in
        // flight at once, so a retried packet has later ones to be overtaken by
        final int[] len = {8, 100, 287, 288, 1000, 2047, 5000, 70_000, 8, 300, 150_000, 16, 4096};
        final int rounds = 12;
        final int n = len.length * rounds;
        final long[] sent = new long[n];
        final long[] got = new long[n];
        final int[] sizes = new int[n];
        run(rate, 2, (p, a) ->
        {
            final ElanBase base = ElanBase.baseInit(0);
            final Tport tp = Tport.init(base);
            final long[] bufs = new long[n];
            for (int i = 0; i < n; i++)
            {
                bufs[i] = base.allocMain(64, len[i % len.length]);
            }
            if (base.vp() == 0)
            {
                final java.util.List<TxEvent> txs = new java.util.ArrayList<>();
                for (int i = 0; i < n; i++)
                {
                    final int l = len[i % len.length];
                    final byte[] data = pattern(5000 + i, l);
                    base.ctx().raw().write(bufs[i], data, 0, l);
                    sent[i] = crc(data);
                    txs.add(tp.txStart(i % 3 == 0 ? Tport.TX_SYNC : 0, 1, 0, 9, bufs[i], l));
                }
                for (final TxEvent tx : txs)
                {
                    tx.txWait();
                }
            }
            else
            {
                final java.util.List<RxEvent> rxs = new java.util.ArrayList<>();
                for (int i = 0; i < n; i++)
                {
                    rxs.add(tp.rxStart(0, 0, 0, -1, 9, bufs[i], len[i % len.length]));
                }
                for (int i = 0; i < n; i++)
                {
                    final Tport.RxResult r = rxs.get(i).rxWait();
                    final byte[] data = new byte[r.size()];
                    base.ctx().raw().read(bufs[i], data, 0, r.size());
                    got[i] = crc(data);
                    sizes[i] = r.size();
                }
            }
        });
        for (int i = 0; i < n; i++)
        {
            assertEquals(len[i % len.length], sizes[i], "message " + i + " arrived out of order, lost or duplicated");
            assertEquals(sent[i], got[i], "message " + i + " of " + sizes[i] + " bytes corrupted");
        }
    }

    @ParameterizedTest(name = "crcErrorRate {0}")
    @ValueSource(doubles = {1e-3, 1e-2, 0.2})
    void shouldKeepElanlibPutsGetsQueuesAndCollectivesWhole(final double rate)
    {
        final int size = 20_000;
        final int[] errors = new int[1];
        final java.util.List<Integer> queued = java.util.Collections.synchronizedList(new java.util.ArrayList<>());
        final RunReport report = run(rate, 4, (p, a) ->
        {
            final ElanBase base = ElanBase.baseInit(0);
            final int me = base.vp();
            final int n = base.nvp();
            final long buf = base.allocMain(64, size);
            final long in = base.allocMain(64, size);
            final ElanQueue q = base.gallocQueue(base.allGroup());
            final ElanQueue.Rx rx = me == 0 ? q.queueRxInit(8, 64, 0, 0) : null;
            final ElanQueue.Tx tx = me != 0 ? q.queueTxInit(0, ElanQueue.LIBELAN_QUEUEREUSEBUF) : null;
            base.gsync(base.allGroup());
            for (int round = 0; round < 5; round++)
            {
                // put to the next VP, get from the previous one
                final byte[] mine = pattern(100 * round + me, size);
                base.ctx().raw().write(buf, mine, 0, size);
                base.gsync(base.allGroup());
                base.put(buf, in, size, (me + 1) % n).waitEvent(Elan3.ELAN_POLL_EVENT);
                base.gsync(base.allGroup());
                if (!java.util.Arrays.equals(read(base, in, size), pattern(100 * round + (me + n - 1) % n, size)))
                {
                    errors[0]++;
                }
                base.gsync(base.allGroup());
                base.get(buf, in, size, (me + n - 1) % n).waitEvent(Elan3.ELAN_POLL_EVENT);
                if (!java.util.Arrays.equals(read(base, in, size), pattern(100 * round + (me + n - 1) % n, size)))
                {
                    errors[0]++;
                }
                base.gsync(base.allGroup());
                // broadcast from a rotating root
                final int root = round % n;
                if (me == root)
                {
                    base.ctx().raw().write(in, pattern(7_000 + round, size), 0, size);
                }
                base.bcast(base.allGroup(), in, size, root);
                if (!java.util.Arrays.equals(read(base, in, size), pattern(7_000 + round, size)))
                {
                    errors[0]++;
                }
                // allreduce of longs: sum of (vp + 1) * (i + round)
                final int count = 64;
                final java.nio.ByteBuffer v = java.nio.ByteBuffer.allocate(count * 8).order(java.nio.ByteOrder.LITTLE_ENDIAN);
                for (int i = 0; i < count; i++)
                {
                    v.putLong((long)(me + 1) * (i + round));
                }
                base.ctx().raw().write(buf, v.array(), 0, count * 8);
                base.reduce(base.allGroup(), buf, in, count, 8, LinkErrorTest::sumLongs, 0, ElanBase.ELAN_RESULT_ALL);
                final java.nio.ByteBuffer r = java.nio.ByteBuffer.wrap(read(base, in, count * 8)).order(java.nio.ByteOrder.LITTLE_ENDIAN);
                for (int i = 0; i < count; i++)
                {
                    if (r.getLong() != (long)n * (n + 1) / 2 * (i + round))
                    {
                        errors[0]++;
                        break;
                    }
                }
                // queued messages to VP 0, many outstanding
                if (me != 0)
                {
                    final java.util.List<org.qsnet.elan.ElanEvent> evs = new java.util.ArrayList<>();
                    for (int i = 0; i < 10; i++)
                    {
                        base.ctx().raw().putInt(buf, me * 1000 + round * 10 + i);
                        evs.add(tx.queueTx(0, buf, 64));
                    }
                    for (final org.qsnet.elan.ElanEvent e : evs)
                    {
                        e.waitEvent(Elan3.ELAN_POLL_EVENT);
                    }
                }
                else
                {
                    for (int i = 0; i < 10 * (n - 1); i++)
                    {
                        rx.queueRxWait(in, Elan3.ELAN_POLL_EVENT);
                        queued.add(base.ctx().raw().getInt(in));
                    }
                }
                base.gsync(base.allGroup());
            }
        });
        assertEquals(0, errors[0], "puts, gets, broadcasts or reductions that delivered wrong data");
        assertEquals(5 * 10 * 3, queued.size());
        for (int sender = 1; sender <= 3; sender++)
        {
            final int s = sender;
            final java.util.List<Integer> mine = queued.stream().filter(x -> x / 1000 == s).toList();
            for (int i = 0; i < mine.size(); i++)
            {
                assertEquals(s * 1000 + (i / 10) * 10 + i % 10, mine.get(i), "queue order of VP " + s + ": " + mine);
            }
        }
        assertTrue(rate < 0.1 || report.toString().length() > 0);
    }

    private static byte[] read(final ElanBase base, final long addr, final int len)
    {
        final byte[] b = new byte[len];
        base.ctx().raw().read(addr, b, 0, len);
        return b;
    }

    private static void sumLongs(final byte[] in, final byte[] inout, final int count, final int elementSize)
    {
        final java.nio.ByteBuffer a = java.nio.ByteBuffer.wrap(in).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        final java.nio.ByteBuffer b = java.nio.ByteBuffer.wrap(inout).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < count; i++)
        {
            b.putLong(i * 8, b.getLong(i * 8) + a.getLong(i * 8));
        }
    }
}
