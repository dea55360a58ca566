package legacy;

import static org.qsnet.elan.Elanlib.ELAN_GLOBAL_DEST;
import static org.qsnet.elan.Elanlib.ELAN_LOCK_BUSY;
import static org.qsnet.elan.Elanlib.ELAN_LOCK_NORMAL;
import static org.qsnet.elan.Elanlib.ELAN_POLL_EVENT;
import static org.qsnet.elan.Elanlib.ELAN_RAIL_ALL;
import static org.qsnet.elan.Elanlib.ELAN_REDUCE_COMMUTE;
import static org.qsnet.elan.Elanlib.ELAN_RESULT_ALL;
import static org.qsnet.elan.Elanlib.ELAN_WAIT_EVENT;
import static org.qsnet.elan.Elanlib.elan_allocMain;
import static org.qsnet.elan.Elanlib.elan_baseInit;
import static org.qsnet.elan.Elanlib.elan_bcast;
import static org.qsnet.elan.Elanlib.elan_clock;
import static org.qsnet.elan.Elanlib.elan_gallocMain;
import static org.qsnet.elan.Elanlib.elan_gallocQueue;
import static org.qsnet.elan.Elanlib.elan_get;
import static org.qsnet.elan.Elanlib.elan_getv;
import static org.qsnet.elan.Elanlib.elan_gsync;
import static org.qsnet.elan.Elanlib.elan_hbcast;
import static org.qsnet.elan.Elanlib.elan_hgsync;
import static org.qsnet.elan.Elanlib.elan_link;
import static org.qsnet.elan.Elanlib.elan_lockInit;
import static org.qsnet.elan.Elanlib.elan_lockLock;
import static org.qsnet.elan.Elanlib.elan_lockUnLock;
import static org.qsnet.elan.Elanlib.elan_poll;
import static org.qsnet.elan.Elanlib.elan_put;
import static org.qsnet.elan.Elanlib.elan_putWaitAll;
import static org.qsnet.elan.Elanlib.elan_putgetInit;
import static org.qsnet.elan.Elanlib.elan_putv;
import static org.qsnet.elan.Elanlib.elan_queueMaxSlotSize;
import static org.qsnet.elan.Elanlib.elan_queueRxComplete;
import static org.qsnet.elan.Elanlib.elan_queueRxInit;
import static org.qsnet.elan.Elanlib.elan_queueRxPoll;
import static org.qsnet.elan.Elanlib.elan_queueRxWait;
import static org.qsnet.elan.Elanlib.elan_queueTx;
import static org.qsnet.elan.Elanlib.elan_queueTxInit;
import static org.qsnet.elan.Elanlib.elan_reduce;
import static org.qsnet.elan.Elanlib.elan_wait;

import org.qsnet.elan.ElanBase;
import org.qsnet.elan.ElanEvent;
import org.qsnet.elan.ElanQueue;

/**
 * Elanlib semantics a porting user relies on, written from ELAN-API.md §2.4–§2.10 only (a C
 * program's calls with its globals as static fields): a lock around a read-modify-write of a
 * counter at VP 0 (ARMCI), puts and gets with {@code elan_link}, {@code elan_poll} and the
 * small-put "source reusable at once" rule, vector puts and gets, barriers that nobody leaves
 * before the last member arrives (checked with the network clock), broadcasts from every root,
 * a reduce at a non-zero root, and a queue that a sender overruns while its receiver is busy.
 * {@code args[0]} names the scenario; rank 0 prints {@code ok <scenario>}.
 */
public final class ElanlibSemantics
{
    // C globals
    static ElanBase base;
    static int me;
    static int nvp;

    private ElanlibSemantics()
    {
    }

    /**
     * @param args the scenario: lock, putget, barrier, coll or queue.
     */
    public static void main(final String[] args)
    {
        base = elan_baseInit(0);
        check(base != null, "elan_baseInit returned NULL");
        me = base.state.vp;
        nvp = base.state.nvp;
        switch (args[0])
        {
            case "lock" -> lock();
            case "putget" -> putget();
            case "barrier" -> barrier();
            case "coll" -> coll();
            case "queue" -> queue();
            case "clock" -> clock();
            case "hbcast" -> hbcast(args);
            case "bigcoll" -> bigcoll();
            default -> throw new IllegalArgumentException(args[0]);
        }
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

    /** Spins (calling the library, as a C program's compute loop would not need to) for {@code ns} of network time. */
    static void compute(final long ns)
    {
        final long end = elan_clock(base.state) + ns;
        while (elan_clock(base.state) < end)
        {
            // busy
        }
    }

    // ------------------------------------------------------------------ clock: §2.2

    /** A timer loop on {@code elan_clock} (Charm++'s wall timer) ends: reading the clock takes time. */
    static void clock()
    {
        final long start = elan_clock(base.state);
        long prev = start;
        long calls = 0;
        while (prev < start + 50_000)
        {
            final long now = elan_clock(base.state);
            check(now >= prev, "elan_clock went back from " + prev + " to " + now);
            prev = now;
            check(++calls < 1_000_000, "elan_clock still reads " + now + " ns after " + calls
                + " calls since it read " + start + " ns: a loop waiting 50 us on it never ends");
        }
        // and the network-synchronised clock agrees across processes: after a barrier nobody reads less
        // than what anyone read before it
        final long before = elan_gallocMain(base, base.allGroup, 64, 8);
        final long mine = elan_allocMain(base.state, 64, 8);
        base.ctx().putLong(mine, elan_clock(base.state));
        elan_gsync(base.allGroup);
        if (me == 0)
        {
            base.ctx().putLong(before, 0);
        }
        elan_gsync(base.allGroup);
        for (int v = 0; v < nvp; v++)
        {
            if (v == me)
            {
                // max into VP 0's word: a get, a compare, a put (one process at a time)
                final long tmp = elan_allocMain(base.state, 64, 8);
                elan_wait(elan_get(base.state, before, tmp, 8, 0), ELAN_WAIT_EVENT);
                base.ctx().putLong(tmp, Math.max(base.ctx().getLong(tmp), base.ctx().getLong(mine)));
                elan_wait(elan_put(base.state, tmp, before, 8, 0), ELAN_WAIT_EVENT);
            }
            elan_gsync(base.allGroup);
        }
        final long latest = elan_allocMain(base.state, 64, 8);
        elan_wait(elan_get(base.state, before, latest, 8, 0), ELAN_WAIT_EVENT);
        final long after = elan_clock(base.state);
        check(after > base.ctx().getLong(latest), "elan_clock reads " + after + " after barriers, less than "
            + base.ctx().getLong(latest) + " read before them");
    }

    // ------------------------------------------------------------------ lock: §2.10

    static final int ITERS = 15;

    static void lock()
    {
        final long lk = elan_gallocMain(base, base.allGroup, 64, 64);
        final long counter = elan_gallocMain(base, base.allGroup, 64, 16);
        final long log = elan_gallocMain(base, base.allGroup, 64, 4L * nvp * ITERS);
        final long local = elan_allocMain(base.state, 64, 16);
        elan_lockInit(base.state, lk, ELAN_LOCK_NORMAL);
        if (me == 0)
        {
            base.ctx().putLong(counter, 0);
            base.ctx().putLong(counter + 8, -1);
        }
        elan_gsync(base.allGroup);
        for (int i = 0; i < ITERS; i++)
        {
            elan_lockLock(base.state, lk, ELAN_LOCK_BUSY);
            // read-modify-write of VP 0's counter and owner word: no one else may be inside
            elan_wait(elan_get(base.state, counter, local, 16, 0), ELAN_WAIT_EVENT);
            final long n = base.ctx().getLong(local);
            final long owner = base.ctx().getLong(local + 8);
            check(owner == -1, "took the lock while VP " + owner + " holds it (iteration " + i + ", count " + n + ")");
            base.ctx().putLong(local + 8, me);
            elan_wait(elan_put(base.state, local + 8, counter + 8, 8, 0), ELAN_WAIT_EVENT);
            compute(2_000);
            base.ctx().putLong(local, n + 1);
            base.ctx().putLong(local + 8, -1);
            final long slot = elan_allocMain(base.state, 8, 4);
            base.ctx().putInt(slot, me);
            final ElanEvent a = elan_put(base.state, slot, log + 4 * n, 4, 0);
            final ElanEvent b = elan_put(base.state, local, counter, 16, 0);
            elan_wait(elan_link(a, b), ELAN_WAIT_EVENT);
            elan_lockUnLock(base.state, lk);
            compute(500);
        }
        elan_gsync(base.allGroup);
        if (me == 0)
        {
            final long n = base.ctx().getLong(counter);
            check(n == (long)nvp * ITERS, "counter " + n + " after " + nvp + " x " + ITERS + " locked increments");
            final int[] per = new int[nvp];
            final StringBuilder order = new StringBuilder();
            for (int i = 0; i < n; i++)
            {
                final int who = base.ctx().getInt(log + 4L * i);
                per[who]++;
                order.append(who);
            }
            for (int v = 0; v < nvp; v++)
            {
                check(per[v] == ITERS, "VP " + v + " logged " + per[v] + " times");
            }
            // while everyone contends, every process gets its first turn before anyone has had all of its own
            final int firstRound = order.substring(0, nvp).chars().distinct().toArray().length;
            System.out.println("lock order " + order + ", distinct in the first " + nvp + ": " + firstRound);
        }
    }

    // ------------------------------------------------------------------ putget: §2.4, §2.8

    static void putget()
    {
        final int peer = (me + 1) % nvp;
        final int from = (me - 1 + nvp) % nvp;
        final long sym = elan_gallocMain(base, base.allGroup, 64, 4096);
        final long src = elan_allocMain(base.state, 64, 4096);
        final long dst = elan_allocMain(base.state, 64, 4096);
        for (int i = 0; i < 1024; i++)
        {
            base.ctx().putInt(sym + 4L * i, me * 100_000 + i);
        }
        elan_gsync(base.allGroup);
        // a get of the peer's symmetric buffer, linked with a get of a part of it, polled then waited
        final ElanEvent g1 = elan_get(base.state, sym, dst, 4096, peer);
        final ElanEvent g2 = elan_get(base.state, sym + 400, src, 40, peer);
        final ElanEvent both = elan_link(g1, g2);
        long spins = 0;
        while (!elan_poll(both, ELAN_POLL_EVENT))
        {
            check(++spins < 10_000_000, "linked gets never complete");
        }
        for (int i = 0; i < 1024; i++)
        {
            check(base.ctx().getInt(dst + 4L * i) == peer * 100_000 + i, "get: word " + i + " is "
                + base.ctx().getInt(dst + 4L * i));
        }
        for (int i = 0; i < 10; i++)
        {
            check(base.ctx().getInt(src + 4L * i) == peer * 100_000 + 100 + i, "linked get: word " + i);
        }
        elan_gsync(base.allGroup);

        // a small put (<= 64 bytes): its source may be reused as soon as elan_put returns
        base.ctx().putLong(src, 0x1111_0000L + me);
        final ElanEvent p = elan_put(base.state, src, sym + 1024, 8, peer);
        base.ctx().putLong(src, 0xdead);
        elan_wait(p, ELAN_POLL_EVENT);
        // larger puts, completed together by elan_putWaitAll
        for (int k = 0; k < 4; k++)
        {
            final long s = elan_allocMain(base.state, 64, 512);
            for (int i = 0; i < 128; i++)
            {
                base.ctx().putInt(s + 4L * i, me * 1000 + k * 128 + i);
            }
            elan_put(base.state, s, sym + 2048 + 512L * k, 512, peer);
        }
        elan_putWaitAll(base.state, ELAN_WAIT_EVENT);
        elan_gsync(base.allGroup);
        check(base.ctx().getLong(sym + 1024) == 0x1111_0000L + from, "small put: got 0x"
            + Long.toHexString(base.ctx().getLong(sym + 1024)) + ", expected 0x" + Long.toHexString(0x1111_0000L + from)
            + " (the source was overwritten after elan_put returned)");
        for (int i = 0; i < 512; i++)
        {
            check(base.ctx().getInt(sym + 2048 + 4L * i) == from * 1000 + i, "putWaitAll: word " + i + " is "
                + base.ctx().getInt(sym + 2048 + 4L * i));
        }
        elan_gsync(base.allGroup);

        // vector put and get through a put/get control object
        final var pg = elan_putgetInit(base.state, elan_gallocMain(base, base.allGroup, 64, 64), 64, 0, 0, 8, 0);
        final long[] vs = {src, src + 100, src + 300};
        final long[] vd = {sym, sym + 1000, sym + 3000};
        final long[] vl = {12, 40, 4};
        for (int i = 0; i < 100; i++)
        {
            base.ctx().putInt(src + 4L * i, -(me * 1000 + i));
        }
        elan_gsync(base.allGroup);
        elan_wait(elan_putv(pg, vs, vd, vl, 3, peer), ELAN_WAIT_EVENT);
        elan_gsync(base.allGroup);
        check(base.ctx().getInt(sym) == -(from * 1000) && base.ctx().getInt(sym + 8) == -(from * 1000 + 2),
            "putv element 0");
        check(base.ctx().getInt(sym + 1000) == -(from * 1000 + 25) && base.ctx().getInt(sym + 1036) == -(from * 1000 + 34),
            "putv element 1");
        check(base.ctx().getInt(sym + 3000) == -(from * 1000 + 75), "putv element 2");
        check(base.ctx().getInt(sym + 12) == me * 100_000 + 3, "putv wrote past element 0's 12 bytes");
        // getv back from the peer: what its predecessor (me) put there
        final long back = elan_allocMain(base.state, 64, 64);
        elan_wait(elan_getv(pg, new long[] {sym, sym + 3000}, new long[] {back, back + 12}, new long[] {12, 4}, 2, peer),
            ELAN_WAIT_EVENT);
        check(base.ctx().getInt(back) == -(me * 1000) && base.ctx().getInt(back + 12) == -(me * 1000 + 75), "getv");
    }

    // ------------------------------------------------------------------ barrier: §2.9

    /** Each rank arrives later than the one before; nobody may leave before the last has arrived. */
    static void barrier()
    {
        final long arrive = elan_gallocMain(base, base.allGroup, 64, 8L * nvp);
        final long mine = elan_allocMain(base.state, 64, 8);
        final long lastBuf = elan_gallocMain(base, base.allGroup, 64, 8);
        for (int round = 0; round < 3; round++)
        {
            elan_gsync(base.allGroup);
            compute(5_000L * ((me + round) % nvp));
            final long in = elan_clock(base.state);
            final boolean hw = round == 1;
            if (hw)
            {
                elan_hgsync(base.allGroup);
            }
            else
            {
                elan_gsync(base.allGroup);
            }
            final long out = elan_clock(base.state);
            // the latest arrival: its compute was 5 us x (nvp - 1)
            base.ctx().putLong(mine, in);
            elan_wait(elan_put(base.state, mine, arrive + 8L * me, 8, 0), ELAN_WAIT_EVENT);
            elan_gsync(base.allGroup);
            if (me == 0)
            {
                long last = 0;
                for (int v = 0; v < nvp; v++)
                {
                    last = Math.max(last, base.ctx().getLong(arrive + 8L * v));
                }
                base.ctx().putLong(lastBuf, last);
            }
            elan_bcast(base.allGroup, lastBuf, 8, 0, 0);
            final long last = base.ctx().getLong(lastBuf);
            check(out >= last, (hw ? "elan_hgsync" : "elan_gsync") + " round " + round + ": left at " + out
                + " ns, before the last member arrived at " + last + " ns");
        }
    }

    // ------------------------------------------------------------------ coll: §2.9

    static void coll()
    {
        final int max = 5000;
        final long buf = elan_gallocMain(base, base.allGroup, 64, max);
        for (int root = 0; root < nvp; root++)
        {
            for (final int len : new int[] {0, 1, 7, 333, max})
            {
                final boolean hw = (root + len) % 2 == 1;
                final byte fill = (byte)(root * 31 + len);
                for (int i = 0; i < max; i++)
                {
                    base.ctx().raw().write(buf + i, new byte[] {me == root ? (byte)(fill + i) : (byte)0x77}, 0, 1);
                }
                if (hw)
                {
                    elan_hbcast(base.allGroup, buf, len, root, ELAN_GLOBAL_DEST);
                }
                else
                {
                    elan_bcast(base.allGroup, buf, len, root, 0);
                }
                final byte[] got = new byte[max];
                base.ctx().read(buf, got, 0, max);
                for (int i = 0; i < max; i++)
                {
                    final byte want = i < len || me == root ? (byte)(fill + i) : (byte)0x77;
                    check(got[i] == want, (hw ? "elan_hbcast" : "elan_bcast") + " of " + len + " B from root " + root + ": byte "
                        + i + " is " + got[i] + ", expected " + want);
                }
            }
        }
        // reduce: sum of longs at root nvp-1 only, then a max with ELAN_RESULT_ALL
        final long src = elan_allocMain(base.state, 64, 8 * 3);
        final long dst = elan_gallocMain(base, base.allGroup, 64, 8 * 3);
        for (int i = 0; i < 3; i++)
        {
            base.ctx().putLong(src + 8L * i, (me + 1) * (i + 1));
            base.ctx().putLong(dst + 8L * i, -5);
        }
        final int root = nvp - 1;
        elan_reduce(base.allGroup, src, dst, 8, 3, (in, inout, count, handle) ->
        {
            for (int i = 0; i < count[0]; i++)
            {
                base.ctx().putLong(inout + 8L * i, base.ctx().getLong(inout + 8L * i) + base.ctx().getLong(in + 8L * i));
            }
        }, null, 0, 0, ELAN_REDUCE_COMMUTE, root);
        final long tri = (long)nvp * (nvp + 1) / 2;
        if (me == root)
        {
            for (int i = 0; i < 3; i++)
            {
                check(base.ctx().getLong(dst + 8L * i) == tri * (i + 1), "reduce at root " + root + ": element " + i + " is "
                    + base.ctx().getLong(dst + 8L * i) + ", expected " + tri * (i + 1));
            }
        }
        elan_reduce(base.allGroup, src, dst, 8, 3, (in, inout, count, handle) ->
        {
            for (int i = 0; i < count[0]; i++)
            {
                base.ctx().putLong(inout + 8L * i, Math.max(base.ctx().getLong(inout + 8L * i), base.ctx().getLong(in + 8L * i)));
            }
        }, null, 0, 0, ELAN_REDUCE_COMMUTE | ELAN_RESULT_ALL, 0);
        for (int i = 0; i < 3; i++)
        {
            check(base.ctx().getLong(dst + 8L * i) == (long)nvp * (i + 1), "allreduce max: element " + i + " is "
                + base.ctx().getLong(dst + 8L * i));
        }
    }

    /**
     * Broadcasts as {@code args[1..]} say: {@code h<root>:<len>} for elan_hbcast, {@code b<root>:<len>}
     * for elan_bcast; every byte of every broadcast is checked.
     */
    static void hbcast(final String[] args)
    {
        final int max = 4096;
        final long buf = elan_gallocMain(base, base.allGroup, 64, max);
        for (int k = 1; k < args.length; k++)
        {
            final boolean hw = args[k].charAt(0) == 'h';
            final int root = Integer.parseInt(args[k].substring(1, args[k].indexOf(':')));
            final int len = Integer.parseInt(args[k].substring(args[k].indexOf(':') + 1));
            final byte[] want = new byte[len];
            for (int i = 0; i < len; i++)
            {
                want[i] = (byte)(k * 13 + i * 7 + root);
            }
            final byte[] junk = new byte[len];
            java.util.Arrays.fill(junk, (byte)0x77);
            base.ctx().write(buf, me == root ? want : junk, 0, len);
            if (hw)
            {
                elan_hbcast(base.allGroup, buf, len, root, ELAN_GLOBAL_DEST);
            }
            else
            {
                elan_bcast(base.allGroup, buf, len, root, 0);
            }
            final byte[] got = new byte[len];
            base.ctx().read(buf, got, 0, len);
            for (int i = 0; i < len; i++)
            {
                check(got[i] == want[i], args[k] + " (broadcast " + k + "): byte " + i + " is " + got[i] + ", expected "
                    + want[i]);
            }
        }
    }

    /**
     * Collectives of more than 64 KiB (the catalog gives them no size limit; libelan has
     * {@code group_maxsegs}): a 200000-byte elan_bcast, a 150000-byte elan_hbcast, and an
     * elan_reduce of 20000 longs at every member and at a non-zero root.
     */
    static void bigcoll()
    {
        final int len = 200_000;
        final long buf = elan_gallocMain(base, base.allGroup, 64, len);
        for (final boolean hw : new boolean[] {false, true})
        {
            final int root = hw ? 0 : nvp - 1;
            final int n = hw ? 150_000 : len;
            final byte[] data = new byte[n];
            for (int i = 0; i < n; i++)
            {
                data[i] = me == root ? (byte)(i * 7 + (i >> 11)) : (byte)0x55;
            }
            base.ctx().write(buf, data, 0, n);
            if (hw)
            {
                elan_hbcast(base.allGroup, buf, n, root, ELAN_GLOBAL_DEST);
            }
            else
            {
                elan_bcast(base.allGroup, buf, n, root, 0);
            }
            base.ctx().read(buf, data, 0, n);
            for (int i = 0; i < n; i++)
            {
                check(data[i] == (byte)(i * 7 + (i >> 11)), (hw ? "elan_hbcast" : "elan_bcast") + " of " + n + " B: byte " + i);
            }
        }
        final int elems = 20_000;
        final long src = elan_allocMain(base.state, 64, 8L * elems);
        final long dst = elan_gallocMain(base, base.allGroup, 64, 8L * elems);
        for (int i = 0; i < elems; i++)
        {
            base.ctx().putLong(src + 8L * i, (long)(me + 1) * i);
        }
        final long tri = (long)nvp * (nvp + 1) / 2;
        for (final int flags : new int[] {ELAN_REDUCE_COMMUTE | ELAN_RESULT_ALL, ELAN_REDUCE_COMMUTE})
        {
            final int root = flags == ELAN_REDUCE_COMMUTE ? Math.min(2, nvp - 1) : 0;
            elan_reduce(base.allGroup, src, dst, 8, elems, (in, inout, count, handle) ->
            {
                for (int i = 0; i < count[0]; i++)
                {
                    base.ctx().putLong(inout + 8L * i, base.ctx().getLong(inout + 8L * i) + base.ctx().getLong(in + 8L * i));
                }
            }, null, 0, 0, flags, root);
            if ((flags & ELAN_RESULT_ALL) != 0 || me == root)
            {
                for (int i = 0; i < elems; i++)
                {
                    check(base.ctx().getLong(dst + 8L * i) == tri * i, "reduce of " + elems + " longs (flags " + flags + ", root "
                        + root + "): element " + i + " is " + base.ctx().getLong(dst + 8L * i) + ", expected " + tri * i);
                }
            }
        }
    }

    // ------------------------------------------------------------------ queue: §2.7

    /** Every other rank sends 30 messages of varied sizes to rank 0's 4-slot queue while rank 0 computes. */
    static void queue()
    {
        final ElanQueue q = elan_gallocQueue(base, base.allGroup);
        final int slot = elan_queueMaxSlotSize(base.state);
        check(slot >= 64, "elan_queueMaxSlotSize " + slot);
        final ElanQueue.Rx rx = elan_queueRxInit(base.state, q, 4, slot, ELAN_RAIL_ALL, 0);
        final ElanQueue.Tx tx = elan_queueTxInit(base.state, q, ELAN_RAIL_ALL, 0);
        final int msgs = 30;
        elan_gsync(base.allGroup);
        if (me != 0)
        {
            check(!elan_queueRxPoll(rx, ELAN_POLL_EVENT), "a message in a queue nobody sends to");
            final long buf = elan_allocMain(base.state, 64, slot);
            for (int i = 0; i < msgs; i++)
            {
                final int len = 8 + (i * 37 + me * 11) % (slot - 8);
                base.ctx().putInt(buf, me);
                base.ctx().putInt(buf + 4, i);
                for (int b = 8; b < len; b++)
                {
                    base.ctx().raw().write(buf + b, new byte[] {(byte)(me + i + b)}, 0, 1);
                }
                final ElanEvent ev = elan_queueTx(tx, 0, buf, len, ELAN_RAIL_ALL);
                check(ev != null, "elan_queueTx returned NULL");
                elan_wait(ev, ELAN_WAIT_EVENT);
            }
            return;
        }
        // busy for a while: the 4 slots fill, the senders must wait (or retry), nothing may be lost
        compute(300_000);
        final int[] next = new int[nvp];
        final long in = elan_allocMain(base.state, 64, slot);
        for (int k = 0; k < msgs * (nvp - 1); k++)
        {
            final long p;
            if (k % 2 == 0)
            {
                p = elan_queueRxWait(rx, in, ELAN_WAIT_EVENT);
            }
            else
            {
                // NULL: a pointer into the slot, released with elan_queueRxComplete
                p = elan_queueRxWait(rx, 0, ELAN_WAIT_EVENT);
            }
            final int from = base.ctx().getInt(p);
            final int seq = base.ctx().getInt(p + 4);
            check(from >= 1 && from < nvp, "message " + k + " names sender " + from);
            check(seq == next[from], "from " + from + ": message " + seq + " arrived, expected " + next[from]
                + " (lost or reordered)");
            final int len = 8 + (seq * 37 + from * 11) % (slot - 8);
            final byte[] got = new byte[len];
            base.ctx().read(p, got, 0, len);
            for (int b = 8; b < len; b++)
            {
                check(got[b] == (byte)(from + seq + b), "from " + from + " message " + seq + ": byte " + b);
            }
            next[from]++;
            if (k % 2 == 1)
            {
                elan_queueRxComplete(rx);
            }
        }
        check(!elan_queueRxPoll(rx, ELAN_POLL_EVENT), "a message left over");
    }
}
