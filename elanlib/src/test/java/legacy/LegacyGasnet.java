package legacy;

import static org.qsnet.elan.Elanlib.ELAN_GLOBAL_DEST;
import static org.qsnet.elan.Elanlib.ELAN_POLL_EVENT;
import static org.qsnet.elan.Elanlib.ELAN_RAIL_ALL;
import static org.qsnet.elan.Elanlib.LIBELAN_QUEUEREUSEBUF;
import static org.qsnet.elan.Elanlib.elan_addProgressFn;
import static org.qsnet.elan.Elanlib.elan_addressable;
import static org.qsnet.elan.Elanlib.elan_allocMain;
import static org.qsnet.elan.Elanlib.elan_baseInit;
import static org.qsnet.elan.Elanlib.elan_checkVersion;
import static org.qsnet.elan.Elanlib.elan_clock;
import static org.qsnet.elan.Elanlib.elan_free;
import static org.qsnet.elan.Elanlib.elan_gallocFree;
import static org.qsnet.elan.Elanlib.elan_gallocMain;
import static org.qsnet.elan.Elanlib.elan_gallocQueue;
import static org.qsnet.elan.Elanlib.elan_get;
import static org.qsnet.elan.Elanlib.elan_gsync;
import static org.qsnet.elan.Elanlib.elan_hbcast;
import static org.qsnet.elan.Elanlib.elan_hgsync;
import static org.qsnet.elan.Elanlib.elan_main2elan;
import static org.qsnet.elan.Elanlib.elan_mainQueueInit;
import static org.qsnet.elan.Elanlib.elan_poll;
import static org.qsnet.elan.Elanlib.elan_put;
import static org.qsnet.elan.Elanlib.elan_queueHaveReq;
import static org.qsnet.elan.Elanlib.elan_queueMaxSlotSize;
import static org.qsnet.elan.Elanlib.elan_queueReq;
import static org.qsnet.elan.Elanlib.elan_queueRxComplete;
import static org.qsnet.elan.Elanlib.elan_queueRxInit;
import static org.qsnet.elan.Elanlib.elan_queueRxPoll;
import static org.qsnet.elan.Elanlib.elan_queueRxWait;
import static org.qsnet.elan.Elanlib.elan_queueTx;
import static org.qsnet.elan.Elanlib.elan_queueTxInit;
import static org.qsnet.elan.Elanlib.elan_queueWait;
import static org.qsnet.elan.Elanlib.elan_version;
import static org.qsnet.elan.Elanlib.elan_wait;
import static org.qsnet.elan3.Elan3lib.elan3_clearperm_main;

import org.qsnet.elan.ElanBase;
import org.qsnet.elan.ElanEvent;
import org.qsnet.elan.ElanQueue;

/**
 * The GASNet elan conduit's use of Elanlib, call for call through the C facade (an outside round
 * driven by the conduit's core, extended and barrier code; the program is our own). {@code args[0]}
 * names the scenario; rank 0 prints {@code ok <scenario>}.
 * <ul>
 * <li>{@code startup}: what the conduit's init checks and does: {@code elan_version} parsed as
 * {@code "libelan %d.%d"}, {@code elan_checkVersion} of that very string, {@code elan_queueMaxSlotSize(NULL)}
 * equal to 320 (the conduit's compile-time queue message size), the binary search with
 * {@code elan_addressable} for the length of the Elan-mapped region from a start (sizes up to 4 GB),
 * an {@code elan_hbcast} of a private structure with flags 0, and the bootstrap exchange: a put into
 * a {@code elan_gallocMain} table at rank 0 waited with {@code base->waitType}, {@code elan_gsync},
 * {@code elan_hbcast} of the table with {@code ELAN_GLOBAL_DEST}, {@code elan_gsync},
 * {@code elan_gallocFree}.</li>
 * <li>{@code am} / {@code am-mainqueue}: active messages over one {@code elan_gallocQueue} queue
 * with {@code base->tport_nslots} slots of 320 bytes: requests of three kinds (header only; payload
 * in the message; payload first {@code elan_put} into a {@code elan_gallocMain} segment, waited by
 * {@code elan_poll(evt, iterations)} around the progress loop, from a bounce buffer from
 * {@code elan_allocMain} when {@code elan_addressable} refuses the source — a source range with a
 * page unmapped by {@code elan3_clearperm_main}) each answered by a reply sent from inside the
 * handler. The split API ({@code elan_queueTxInit} with {@code LIBELAN_QUEUEREUSEBUF},
 * {@code elan_queueTx} polled to completion with {@code elan_poll} and never waited,
 * {@code elan_queueRxPoll(rx, 0)}, {@code elan_queueRxWait(rx, NULL, ELAN_POLL_EVENT)} run from the
 * slot without {@code elan_queueRxComplete}); or the main queue ({@code elan_mainQueueInit},
 * {@code elan_queueHaveReq}, {@code elan_queueWait}, {@code elan_queueReq}). Every request and reply
 * in order per sender, intact; every long payload in place before its message.</li>
 * <li>{@code putget}: the extended API: gets and puts of 1 B to 70 KB between every pair, each
 * event completed by {@code elan_poll(evt, 1)} alone (never {@code elan_wait}), with bounce buffers
 * for destinations and sources {@code elan_addressable} refuses, and implicit-handle batches of 300
 * outstanding events swept with {@code elan_poll(evt, 1)}; every byte checked. Polling an incomplete
 * event makes simulated time pass, more for more iterations.</li>
 * <li>{@code barrier}: the conduit's barrier: state in {@code elan_gallocMain} memory, a poll
 * function added with {@code elan_addProgressFn} that serves active messages while the library
 * waits; anonymous barriers ({@code elan_hgsync}), named ones ({@code elan_hbcast} of the root's id
 * with {@code ELAN_GLOBAL_DEST}, on a mismatch an {@code elan_put} of the flag to every member
 * including itself, waited with {@code elan_wait(…, ELAN_POLL_EVENT)}, then {@code elan_hgsync});
 * a mismatch seen by every member; and a member whose request needs a reply from a member already
 * inside {@code elan_hgsync}.</li>
 * <li>{@code rxcomplete}: the other receive idioms (Open MPI's BTL and MPICH's nemesis module):
 * {@code elan_queueRxWait(rx, NULL, how)} then {@code elan_queueRxComplete}, and a copy-out
 * {@code elan_queueRxWait} followed by {@code elan_queueRxComplete}; then a release of nothing,
 * refused naming the call.</li>
 * <li>{@code polled-sends}: thousands of {@code elan_queueTx} sends each completed by {@code elan_poll}
 * alone (the conduit and MPICH's module never wait for them), in a small Elan heap
 * ({@code LIBELAN_ALLOCELAN_SIZE}): every one lands, in order, and nothing runs out.</li>
 * </ul>
 */
public final class LegacyGasnet
{
    // C globals
    static ElanBase base;
    static int me;
    static int nvp;

    // the AM layer
    static final int MAXQ = 320;
    static final int HDR = 24;
    static final int POLLITERS = 4;
    static final int REQUEST = 1;
    static final int REPLY = 2;
    static final int SHORT = 0;
    static final int MEDIUM = 1;
    static final int LONG = 2;
    static final int LMAX = 8192;
    /** The Elan MMU's page. */
    static final int PAGE = 8192;
    static boolean useMainQueue;
    static ElanQueue.Tx tx;
    static ElanQueue.Rx rx;
    static ElanQueue.Main mq;
    static long copyOut;
    static long seg;
    static long longSrc;
    static int perPeer;
    static int served;
    static int replies;
    static int bounced;
    static int[] nextRequest;
    static int[] nextReply;
    static int[][] expectedSum;
    static int barrierPolls;

    private LegacyGasnet()
    {
    }

    /**
     * @param args the scenario.
     */
    public static void main(final String[] args)
    {
        base = elan_baseInit(0);
        me = base.state.vp;
        nvp = base.state.nvp;
        switch (args[0])
        {
            case "startup" -> startup();
            case "am" -> am(false);
            case "am-mainqueue" -> am(true);
            case "putget" -> putget();
            case "barrier" -> barrier();
            case "rxcomplete" -> rxcomplete();
            case "polled-sends" -> polledSends();
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

    static byte pattern(final int from, final int k, final int i)
    {
        return (byte)(from * 31 + k * 13 + i * 5 + (i >>> 9));
    }

    static void fill(final long at, final int from, final int k, final int len)
    {
        final byte[] b = new byte[len];
        for (int i = 0; i < len; i++)
        {
            b[i] = pattern(from, k, i);
        }
        base.ctx().write(at, b, 0, len);
    }

    static String verify(final long at, final int from, final int k, final int len)
    {
        final byte[] got = new byte[len];
        base.ctx().read(at, got, 0, len);
        for (int i = 0; i < len; i++)
        {
            if (got[i] != pattern(from, k, i))
            {
                return "byte " + i + " of " + len + " is " + got[i] + ", expected " + pattern(from, k, i);
            }
        }
        return null;
    }

    static void compute(final long ns)
    {
        final long end = elan_clock(base.state) + ns;
        while (elan_clock(base.state) < end)
        {
            // busy
        }
    }

    // ------------------------------------------------------------------ start-up

    static long mappedLength(final long from, final long low, final long high)
    {
        if (low == high)
        {
            return 0;
        }
        final long sz = (low + (high - low) / 2 + 4095) & -4096L;
        if (elan_addressable(base.state, from, sz))
        {
            final long more = mappedLength(from, sz, high);
            return more != 0 ? more : sz;
        }
        return sz == high ? 0 : mappedLength(from, low, sz);
    }

    static void startup()
    {
        final String ver = elan_version();
        check(elan_checkVersion(ver), "elan_checkVersion(elan_version()) refused the library's own version \"" + ver + "\"");
        final java.util.regex.Matcher m = java.util.regex.Pattern.compile("^libelan (\\d+)\\.(\\d+)").matcher(ver);
        check(m.find() && Integer.parseInt(m.group(1)) == 1 && Integer.parseInt(m.group(2)) == 4, "version " + ver);
        check(!elan_checkVersion("1.3") && !elan_checkVersion("1.4.1") && elan_checkVersion("1.4"), "elan_checkVersion of numbers");
        check(elan_queueMaxSlotSize(null) == MAXQ, "elan_queueMaxSlotSize(NULL) is not " + MAXQ);
        check(elan_queueMaxSlotSize(base.state) == MAXQ, "elan_queueMaxSlotSize(state) is not " + MAXQ);

        // the conduit's search for how far the Elan mapping runs from a start (its remappable area)
        final long region = elan_allocMain(base.state, 4096, 16 * 4096);
        final long len = mappedLength(region, 0, 0xffffffffL);
        check(len >= 16 * 4096, "mapped length from an elan_allocMain block is " + len);
        check(elan_addressable(base.state, region, len), "not addressable over the length found");
        check(!elan_addressable(base.state, region, len + 4096), "addressable beyond the length found");
        check(elan_main2elan(base.state, region + len - 1) == elan_main2elan(base.state, region) + len - 1,
            "the mapping found is not contiguous");

        // GASNet clears host pages (4 KB on x86): one cleared inside an 8 KB Elan page takes the Elan page
        final long pages = elan_allocMain(base.state, PAGE, 3 * PAGE);
        elan3_clearperm_main(base.ctx(), pages + PAGE + 4096, 4096);
        check(!elan_addressable(base.state, pages + PAGE, 16), "elan_addressable accepts the first half of an Elan page whose "
            + "second half was cleared (the MMU no longer maps it)");
        check(elan_addressable(base.state, pages, PAGE) && elan_addressable(base.state, pages + 2 * PAGE, PAGE),
            "the Elan pages around the cleared one");
        check(!elan_addressable(base.state, pages, 3 * PAGE), "elan_addressable accepts three pages with a hole");

        // a private (static) structure broadcast from 0 with flags 0: same address on every rank
        final long info = elan_allocMain(base.state, 64, 16);
        base.ctx().putInt(info, me == 0 ? 0x5eed : -1);
        base.ctx().putInt(info + 8, me == 0 ? (int)len : -1);
        elan_hbcast(base.allGroup, info, 16, 0, 0);
        check(base.ctx().getInt(info) == 0x5eed, "elan_hbcast with flags 0 delivered " + base.ctx().getInt(info));

        // the bootstrap exchange, twice (the table freed and allocated again)
        for (int round = 0; round < 2; round++)
        {
            final int item = 12 + 4 * round;
            final long src = elan_allocMain(base.state, 8, item);
            fill(src, me, round, item);
            final long temp = elan_gallocMain(base, base.allGroup, 64, (long)nvp * item);
            check(temp != 0, "elan_gallocMain");
            final ElanEvent evt = elan_put(base.state, src, temp + (long)me * item, item, 0);
            elan_wait(evt, base.waitType);
            elan_gsync(base.allGroup);
            elan_hbcast(base.allGroup, temp, (long)nvp * item, 0, ELAN_GLOBAL_DEST);
            elan_gsync(base.allGroup);
            for (int r = 0; r < nvp; r++)
            {
                final String bad = verify(temp + (long)r * item, r, round, item);
                check(bad == null, "bootstrap exchange round " + round + ", rank " + r + "'s entry: " + bad);
            }
            elan_gallocFree(base, temp);
            elan_free(base.state, src);
        }
    }

    // ------------------------------------------------------------------ active messages

    static void amInit(final boolean main, final int nSlots)
    {
        useMainQueue = main;
        final ElanQueue q = elan_gallocQueue(base, base.allGroup);
        check(q != null, "elan_gallocQueue");
        if (main)
        {
            mq = elan_mainQueueInit(base.state, q, nSlots, MAXQ, 0);
        }
        else
        {
            tx = elan_queueTxInit(base.state, q, ELAN_RAIL_ALL, LIBELAN_QUEUEREUSEBUF);
            rx = elan_queueRxInit(base.state, q, nSlots, MAXQ, ELAN_RAIL_ALL, 0);
        }
        copyOut = elan_allocMain(base.state, 64, MAXQ + 8);
        nextRequest = new int[nvp];
        nextReply = new int[nvp];
    }

    /** gasnetc_AMPoll: serves what is waiting; returns the number of messages served. */
    static int amPoll()
    {
        int n = 0;
        for (;;)
        {
            final long msg;
            if (useMainQueue)
            {
                if (!elan_queueHaveReq(mq))
                {
                    break;
                }
                elan_queueWait(mq, copyOut, ELAN_POLL_EVENT);
                msg = copyOut;
            }
            else
            {
                if (!elan_queueRxPoll(rx, 0))
                {
                    break;
                }
                // run from the slot: no copy-out, and no elan_queueRxComplete (as the conduit)
                msg = elan_queueRxWait(rx, 0, ELAN_POLL_EVENT);
                check(msg != 0, "elan_queueRxWait(rx, NULL) returned NULL");
            }
            handle(msg);
            n++;
        }
        return n;
    }

    static void amSend(final int dest, final long msg, final int len)
    {
        if (useMainQueue)
        {
            elan_queueReq(mq, dest, msg, len);
            return;
        }
        final ElanEvent evt = elan_queueTx(tx, dest, msg, len, ELAN_RAIL_ALL);
        check(evt != null, "elan_queueTx returned NULL");
        while (!elan_poll(evt, POLLITERS))
        {
            amPoll();
        }
    }

    static int sum(final long at, final int len)
    {
        final byte[] b = new byte[len];
        base.ctx().read(at, b, 0, len);
        int s = 0;
        for (final byte x : b)
        {
            s = s * 31 + x;
        }
        return s;
    }

    static void handle(final long msg)
    {
        // the header and the payload are read before anything else runs (a nested poll may take the slot's successor)
        final int kind = base.ctx().getInt(msg);
        final int cat = base.ctx().getInt(msg + 4);
        final int src = base.ctx().getInt(msg + 8);
        final int seq = base.ctx().getInt(msg + 12);
        final int nbytes = base.ctx().getInt(msg + 16);
        final int arg = base.ctx().getInt(msg + 20);
        check(src >= 0 && src < nvp && src != me, "message from " + src);
        if (kind == REPLY)
        {
            check(seq == nextReply[src], "reply from " + src + " has seq " + seq + ", expected " + nextReply[src] + " (lost or reordered)");
            check(arg == expectedSum[src][seq], "reply from " + src + " to request " + seq + " says the handler saw checksum "
                + arg + ", expected " + expectedSum[src][seq]);
            nextReply[src]++;
            replies++;
            return;
        }
        check(kind == REQUEST, "message kind " + kind + " from " + src);
        check(seq == nextRequest[src], "request from " + src + " has seq " + seq + ", expected " + nextRequest[src]
            + " (lost or reordered)");
        nextRequest[src]++;
        int seen = 0;
        if (cat == MEDIUM)
        {
            final String bad = verify(msg + HDR, src, seq, nbytes);
            check(bad == null, "medium request " + seq + " from " + src + ": " + bad);
            seen = sum(msg + HDR, nbytes);
        }
        else if (cat == LONG)
        {
            final long at = seg + ((long)src * perPeer + seq) * LMAX;
            final byte[] got = new byte[nbytes];
            base.ctx().read(at, got, 0, nbytes);
            for (int i = 0; i < nbytes; i++)
            {
                check(got[i] == pattern(src, 0, arg + i), "long request " + seq + " from " + src + ": byte " + i + " of " + nbytes
                    + " is " + got[i] + " (the put had not landed before the message)");
            }
            seen = sum(at, nbytes);
        }
        served++;
        // the reply, sent from inside the handler
        final long r = elan_allocMain(base.state, 8, HDR);
        base.ctx().putInt(r, REPLY);
        base.ctx().putInt(r + 4, SHORT);
        base.ctx().putInt(r + 8, me);
        base.ctx().putInt(r + 12, seq);
        base.ctx().putInt(r + 16, 0);
        base.ctx().putInt(r + 20, seen);
        amSend(src, r, HDR);
        elan_free(base.state, r);
    }

    static void am(final boolean main)
    {
        perPeer = main ? 12 : 40;
        // the blocking elan_queueReq serves nothing while it waits: with every rank sending at once,
        // queues that could fill would deadlock the main-queue variant (the conduit's option has the hazard)
        final int nSlots = main ? Math.max(base.tport_nslots, 2 * (nvp - 1) * perPeer + 2) : base.tport_nslots;
        amInit(main, nSlots);
        seg = elan_gallocMain(base, base.allGroup, 64, (long)nvp * perPeer * LMAX);
        check(seg != 0, "elan_gallocMain of the segment");
        // the long payloads' source: three pages, the middle one taken out of the Elan mapping
        longSrc = elan_allocMain(base.state, PAGE, 3 * PAGE);
        fill(longSrc, me, 0, 3 * PAGE);
        elan3_clearperm_main(base.ctx(), longSrc + PAGE, PAGE);
        check(!elan_addressable(base.state, longSrc, 3 * PAGE), "elan_addressable accepts a range with an unmapped page");
        check(elan_addressable(base.state, longSrc, PAGE), "the first page is no longer addressable");
        expectedSum = new int[nvp][perPeer];
        final long msg = elan_allocMain(base.state, 64, MAXQ);
        elan_gsync(base.allGroup);
        for (int i = 0; i < perPeer; i++)
        {
            for (int k = 1; k < nvp; k++)
            {
                final int dest = (me + k) % nvp;
                amPoll();
                final int cat = i % 3;
                int nbytes = 0;
                int arg = 0;
                if (cat == MEDIUM)
                {
                    nbytes = 1 + (i * 37 + me * 11 + dest) % (MAXQ - HDR);
                    fill(msg + HDR, me, i, nbytes);
                    expectedSum[dest][i] = sum(msg + HDR, nbytes);
                }
                else if (cat == LONG)
                {
                    // within the first page, across the hole, within the last page, or small
                    final int[][] shapes = {{100, 2000}, {PAGE - 1500, 3000}, {2 * PAGE + 10, 4000}, {PAGE - 30, 60}};
                    final int[] s = shapes[(i / 3 + dest) % shapes.length];
                    arg = s[0];
                    nbytes = s[1];
                    final long from = longSrc + arg;
                    final long dst = seg + ((long)me * perPeer + i) * LMAX;
                    long bounce = 0;
                    final ElanEvent putevt;
                    if (nbytes <= base.putget_smallputsize || elan_addressable(base.state, from, nbytes))
                    {
                        putevt = elan_put(base.state, from, dst, nbytes, dest);
                    }
                    else
                    {
                        bounce = elan_allocMain(base.state, 64, nbytes);
                        check(bounce != 0, "elan_allocMain of a bounce buffer");
                        final byte[] b = new byte[nbytes];
                        base.ctx().read(from, b, 0, nbytes);
                        base.ctx().write(bounce, b, 0, nbytes);
                        putevt = elan_put(base.state, bounce, dst, nbytes, dest);
                        bounced++;
                    }
                    // the put must be complete before the message that announces it
                    while (!elan_poll(putevt, POLLITERS))
                    {
                        amPoll();
                    }
                    if (bounce != 0)
                    {
                        elan_free(base.state, bounce);
                    }
                    final byte[] b = new byte[nbytes];
                    base.ctx().read(from, b, 0, nbytes);
                    int sm = 0;
                    for (final byte x : b)
                    {
                        sm = sm * 31 + x;
                    }
                    expectedSum[dest][i] = sm;
                }
                base.ctx().putInt(msg, REQUEST);
                base.ctx().putInt(msg + 4, cat);
                base.ctx().putInt(msg + 8, me);
                base.ctx().putInt(msg + 12, i);
                base.ctx().putInt(msg + 16, nbytes);
                base.ctx().putInt(msg + 20, arg);
                amSend(dest, msg, HDR + (cat == MEDIUM ? nbytes : 0));
            }
        }
        final int expected = (nvp - 1) * perPeer;
        while (served < expected || replies < expected)
        {
            amPoll();
        }
        check(nvp < 2 || bounced > 0, "no long payload took the bounce-buffer path");
        for (int r = 0; r < nvp; r++)
        {
            check(r == me || nextRequest[r] == perPeer && nextReply[r] == perPeer, "from " + r + ": " + nextRequest[r]
                + " requests, " + nextReply[r] + " replies");
        }
    }

    // ------------------------------------------------------------------ put/get (extended API)

    static void putget()
    {
        final int[] sizes = {1, 8, 63, 64, 65, 100, 4096, 70000};
        final int region = 80 * 1024;
        final long segment = elan_gallocMain(base, base.allGroup, 64, (long)nvp * region);
        check(segment != 0, "elan_gallocMain");
        // my region of every rank's segment holds my pattern; gets read it there
        for (int r = 0; r < nvp; r++)
        {
            fill(segment + (long)me * region, me, 7, region);
        }
        // private memory, part of it out of the Elan mapping (a destination or source for bounce buffers)
        final long priv = elan_allocMain(base.state, PAGE, 32 * PAGE);
        final long privHole = priv + PAGE;
        elan3_clearperm_main(base.ctx(), privHole, PAGE);
        elan_gsync(base.allGroup);
        int bouncedGets = 0;
        int bouncedPuts = 0;
        for (int k = 1; k < nvp; k++)
        {
            final int peer = (me + k) % nvp;
            final long remote = segment + (long)peer * region;
            for (final int n : sizes)
            {
                for (final boolean throughHole : new boolean[] {false, true})
                {
                    // gasnete_get_nb_bulk
                    final long dest = throughHole ? privHole - Math.min(n, 2048) / 2 : priv + 2 * PAGE;
                    base.ctx().write(dest, new byte[n], 0, n);
                    final ElanEvent evt;
                    long bounce = 0;
                    if (elan_addressable(base.state, dest, n))
                    {
                        evt = elan_get(base.state, remote, dest, n, peer);
                    }
                    else
                    {
                        bounce = elan_allocMain(base.state, 64, 64 + n);
                        evt = elan_get(base.state, remote, bounce + 64, n, peer);
                        bouncedGets++;
                    }
                    while (!elan_poll(evt, 1))
                    {
                        // gasnet_wait_syncnb: poll the network meanwhile
                    }
                    if (bounce != 0)
                    {
                        final byte[] b = new byte[n];
                        base.ctx().read(bounce + 64, b, 0, n);
                        base.ctx().write(dest, b, 0, n);
                        elan_free(base.state, bounce);
                    }
                    final String bad = verify(dest, peer, 7, n);
                    check(bad == null, "get of " + n + " from " + peer + (throughHole ? " through a bounce buffer" : "") + ": " + bad);
                }
            }
        }
        check(nvp < 2 || bouncedGets > 0, "no get took the bounce-buffer path");
        elan_gsync(base.allGroup);

        // gasnete_put_nb / put_nb_bulk into my region of every peer's segment: small puts go straight
        // from any memory, others from addressable memory or through a bounce buffer
        final long[] src = {priv + 10 * PAGE, privHole - 3000};
        for (int k = 1; k < nvp; k++)
        {
            final int peer = (me + k) % nvp;
            final long remote = segment + (long)me * region;
            for (final int n : sizes)
            {
                for (int which = 0; which < src.length; which++)
                {
                    final long from = src[which];
                    if (which == 1 && n <= base.putget_smallputsize)
                    {
                        continue;
                    }
                    fill(from, me, 40 + n % 17, n);
                    final ElanEvent evt;
                    long bounce = 0;
                    if (n <= base.putget_smallputsize || elan_addressable(base.state, from, n))
                    {
                        evt = elan_put(base.state, from, remote, n, peer);
                    }
                    else
                    {
                        bounce = elan_allocMain(base.state, 64, 64 + n);
                        final byte[] b = new byte[n];
                        base.ctx().read(from, b, 0, n);
                        base.ctx().write(bounce + 64, b, 0, n);
                        evt = elan_put(base.state, bounce + 64, remote, n, peer);
                        bouncedPuts++;
                    }
                    while (!elan_poll(evt, 1))
                    {
                        // poll
                    }
                    if (bounce != 0)
                    {
                        elan_free(base.state, bounce);
                    }
                    // check it there with a get (the put is complete once its event is)
                    final long back = priv + 19 * PAGE;
                    final ElanEvent g = elan_get(base.state, remote, back, n, peer);
                    while (!elan_poll(g, 1))
                    {
                        // poll
                    }
                    final String bad = verify(back, me, 40 + n % 17, n);
                    check(bad == null, "put of " + n + " to " + peer + (bounce != 0 ? " from a bounce buffer" : "") + ": " + bad);
                }
            }
        }
        check(nvp < 2 || bouncedPuts > 0, "no put took the bounce-buffer path");
        elan_gsync(base.allGroup);

        // implicit-handle batches: up to 300 outstanding events, swept with elan_poll(evt, 1) only
        final int batch = 300;
        final int piece = 64;
        final long out = priv + 28 * PAGE;
        for (int k = 1; k < nvp; k++)
        {
            final int peer = (me + k) % nvp;
            final long remote = segment + (long)me * region;
            fill(out, me, 90 + k, batch * piece / 4);
            final ElanEvent[] lst = new ElanEvent[batch];
            int cnt = 0;
            for (int i = 0; i < batch; i++)
            {
                final int n = 1 + i % piece;
                lst[cnt++] = elan_put(base.state, out + (long)(i % (batch / 4)), remote + (long)i * piece, n, peer);
            }
            while (cnt > 0)
            {
                for (int i = 0; i < cnt; i++)
                {
                    if (elan_poll(lst[i], 1))
                    {
                        lst[i--] = lst[--cnt];
                    }
                }
            }
            final ElanEvent[] gl = new ElanEvent[batch];
            final long in = priv + 29 * PAGE;
            for (int i = 0; i < batch; i++)
            {
                gl[i] = elan_get(base.state, remote + (long)i * piece, in + (long)i * 16, 1 + i % 16, peer);
            }
            for (int left = batch; left > 0;)
            {
                for (int i = 0; i < batch; i++)
                {
                    if (gl[i] != null && elan_poll(gl[i], 1))
                    {
                        gl[i] = null;
                        left--;
                    }
                }
            }
            final byte[] expect = new byte[batch * piece / 4];
            base.ctx().read(out, expect, 0, expect.length);
            for (int i = 0; i < batch; i++)
            {
                final byte[] got = new byte[1 + i % 16];
                base.ctx().read(in + (long)i * 16, got, 0, got.length);
                for (int j = 0; j < got.length; j++)
                {
                    check(got[j] == expect[i % (batch / 4) + j], "batched put " + i + " to " + peer + ", byte " + j);
                }
            }
        }
        elan_gsync(base.allGroup);

        // elan_poll(evt, n) tests n times: an incomplete event costs simulated time, more for more
        if (nvp > 1)
        {
            final int peer = (me + 1) % nvp;
            final long big = elan_allocMain(base.state, 64, 70000);
            final ElanEvent a = elan_get(base.state, segment + (long)peer * region, big, 70000, peer);
            final long t0 = elan_clock(base.state);
            final boolean once = elan_poll(a, 1);
            final long t1 = elan_clock(base.state);
            final boolean twenty = elan_poll(a, 20);
            final long t2 = elan_clock(base.state);
            final boolean forty = elan_poll(a, 40);
            final long t3 = elan_clock(base.state);
            check(!once && !twenty && !forty, "a 70000-byte get completed within 61 polls");
            // each costs the clock read plus its polls: 19 and 20 more polls, in exact proportion
            final long d1 = t1 - t0;
            final long d20 = t2 - t1;
            final long d40 = t3 - t2;
            check(d20 > d1 && (d40 - d20) * 19 == (d20 - d1) * 20, "elan_poll(evt, 1), (evt, 20), (evt, 40) took " + d1 + ", "
                + d20 + ", " + d40 + " ns (with a clock read each): not one poll's cost per iteration");
            long spins = 0;
            while (!elan_poll(a, 1))
            {
                spins++;
            }
            check(spins > 0 && elan_clock(base.state) > t3, "the poll loop did not make time pass");
            final String bad = verify(big, peer, 7, 70000);
            check(bad == null, "the 70000-byte get: " + bad);
        }
    }

    // ------------------------------------------------------------------ barrier

    static final int ANONYMOUS = 1;
    static final int MISMATCH = 2;
    static long barrierState;
    static int phase;
    static boolean blocking;

    static int barrierPoll(final Object handle, final int[] ready)
    {
        if (blocking)
        {
            barrierPolls++;
            blocking = false;
            amPoll();
            blocking = true;
        }
        return 0;
    }

    /** gasnet_barrier_notify then gasnet_barrier_wait; returns whether a mismatch was reported. */
    static boolean barrier(final int id, final int flags)
    {
        final long mine = barrierState + (phase + 2) * 8L;
        base.ctx().putInt(mine, id);
        base.ctx().putInt(mine + 4, flags);
        blocking = true;
        if ((flags & ANONYMOUS) != 0)
        {
            elan_hgsync(base.allGroup);
        }
        else
        {
            final long bcast = barrierState + phase * 8L;
            if (me == 0)
            {
                base.ctx().putInt(bcast, base.ctx().getInt(mine));
                base.ctx().putInt(bcast + 4, base.ctx().getInt(mine + 4));
            }
            elan_hbcast(base.allGroup, bcast, 8, 0, ELAN_GLOBAL_DEST);
            if (base.ctx().getInt(bcast) != id)
            {
                base.ctx().putInt(mine + 4, MISMATCH);
                for (int i = 0; i < nvp; i++)
                {
                    elan_wait(elan_put(base.state, mine + 4, mine + 4, 4, i), ELAN_POLL_EVENT);
                }
            }
            elan_hgsync(base.allGroup);
        }
        blocking = false;
        final int p = phase;
        phase = 1 - phase;
        final int f = base.ctx().getInt(barrierState + (p + 2) * 8L + 4);
        return (f & MISMATCH) != 0 || f != flags;
    }

    static void barrier()
    {
        amInit(false, base.tport_nslots);
        expectedSum = new int[nvp][1];
        perPeer = 1;
        barrierState = elan_gallocMain(base, base.allGroup, 64, 6 * 8);
        check(barrierState != 0, "elan_gallocMain of the barrier state");
        base.ctx().write(barrierState, new byte[48], 0, 48);
        elan_addProgressFn(base.state, LegacyGasnet::barrierPoll, null);
        elan_gsync(base.allGroup);
        for (int i = 0; i < 4; i++)
        {
            check(!barrier(0, ANONYMOUS), "anonymous barrier " + i + " reported a mismatch");
            check(!barrier(100 + i, 0), "named barrier " + i + " (every rank id " + (100 + i) + ") reported a mismatch");
        }
        final boolean mismatch = barrier(me == nvp - 1 ? 999 : 5, 0);
        check(nvp < 2 || mismatch, "a named barrier with rank " + (nvp - 1) + "'s id different was not a mismatch here");
        // the flags box is reset by the next notify
        check(!barrier(6, 0), "the named barrier after a mismatch reported one");

        // a request that needs its reply from a member already waiting in elan_hgsync
        if (nvp > 1)
        {
            if (me != 0)
            {
                compute(40_000L * me);
                final long msg = elan_allocMain(base.state, 64, HDR);
                base.ctx().putInt(msg, REQUEST);
                base.ctx().putInt(msg + 4, SHORT);
                base.ctx().putInt(msg + 8, me);
                base.ctx().putInt(msg + 12, 0);
                base.ctx().putInt(msg + 16, 0);
                base.ctx().putInt(msg + 20, 0);
                amSend(0, msg, HDR);
                while (replies < 1)
                {
                    amPoll();
                }
            }
            final int before = barrierPolls;
            check(!barrier(0, ANONYMOUS), "the anonymous barrier with requests reported a mismatch");
            if (me == 0)
            {
                check(served == nvp - 1, "rank 0 served " + served + " requests inside the barrier, expected " + (nvp - 1));
                check(barrierPolls > before, "the poll function never ran inside elan_hgsync");
            }
        }
    }

    // ------------------------------------------------------------------ other receive idioms

    static void rxcomplete()
    {
        final ElanQueue q = elan_gallocQueue(base, base.allGroup);
        final ElanQueue.Tx t = elan_queueTxInit(base.state, q, ELAN_RAIL_ALL, 0);
        final ElanQueue.Rx r = elan_queueRxInit(base.state, q, 4, 128, ELAN_RAIL_ALL, 0);
        final int msgs = 10;
        elan_gsync(base.allGroup);
        if (me != 0)
        {
            final long buf = elan_allocMain(base.state, 64, 128);
            for (int i = 0; i < msgs; i++)
            {
                fill(buf, me, i, 100);
                base.ctx().putInt(buf, me);
                base.ctx().putInt(buf + 4, i);
                final ElanEvent e = elan_queueTx(t, 0, buf, 100, ELAN_RAIL_ALL);
                while (!elan_poll(e, 1))
                {
                    // poll
                }
            }
        }
        else
        {
            final int[] next = new int[nvp];
            final long pkt = elan_allocMain(base.state, 64, 128);
            for (int k = 0; k < msgs * (nvp - 1); k++)
            {
                final long at;
                if (k % 2 == 0)
                {
                    // Open MPI's BTL: from the slot, then released
                    while (!elan_queueRxPoll(r, ELAN_POLL_EVENT))
                    {
                        // poll
                    }
                    at = elan_queueRxWait(r, 0, 0);
                }
                else
                {
                    // MPICH's nemesis module: copied out, then elan_queueRxComplete all the same
                    at = elan_queueRxWait(r, pkt, 1);
                    check(at == pkt, "elan_queueRxWait with a buffer returned " + at + ", not the buffer");
                }
                final int from = base.ctx().getInt(at);
                final int seq = base.ctx().getInt(at + 4);
                check(from >= 1 && from < nvp && seq == next[from], "message " + k + " from " + from + " seq " + seq);
                final byte[] got = new byte[100];
                base.ctx().read(at, got, 0, 100);
                for (int i = 8; i < 100; i++)
                {
                    check(got[i] == pattern(from, seq, i), "message " + seq + " from " + from + ", byte " + i);
                }
                next[from]++;
                elan_queueRxComplete(r);
            }
            String refused = null;
            try
            {
                elan_queueRxComplete(r);
            }
            catch (final RuntimeException e)
            {
                refused = e.getMessage();
            }
            check(refused != null && refused.contains("elan_queueRxComplete"), "a release of nothing: " + refused);
        }
    }

    // ------------------------------------------------------------------ sends completed by polling alone

    static void polledSends()
    {
        final int msgs = 3000;
        amInit(false, base.tport_nslots);
        elan_gsync(base.allGroup);
        if (me != 0)
        {
            final long buf = elan_allocMain(base.state, 64, 64);
            for (int i = 0; i < msgs; i++)
            {
                base.ctx().putInt(buf, me);
                base.ctx().putInt(buf + 4, i);
                final ElanEvent e = elan_queueTx(tx, 0, buf, 8 + i % 56, ELAN_RAIL_ALL);
                check(e != null, "elan_queueTx " + i + " returned NULL");
                while (!elan_poll(e, POLLITERS))
                {
                    // poll
                }
            }
            return;
        }
        final int[] next = new int[nvp];
        for (int k = 0; k < msgs * (nvp - 1); k++)
        {
            while (!elan_queueRxPoll(rx, 0))
            {
                // poll
            }
            final long at = elan_queueRxWait(rx, 0, ELAN_POLL_EVENT);
            final int from = base.ctx().getInt(at);
            final int seq = base.ctx().getInt(at + 4);
            check(from >= 1 && from < nvp && seq == next[from], "message " + k + " from " + from + " seq " + seq);
            next[from]++;
        }
    }
}
