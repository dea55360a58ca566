package legacy;

import static org.qsnet.elan.Elanlib.ELAN_POLL_EVENT;
import static org.qsnet.elan.Elanlib.elan_allocMain;
import static org.qsnet.elan.Elanlib.elan_baseInit;
import static org.qsnet.elan.Elanlib.elan_clock;
import static org.qsnet.elan.Elanlib.elan_free;
import static org.qsnet.elan.Elanlib.elan_gallocQueue;
import static org.qsnet.elan.Elanlib.elan_get;
import static org.qsnet.elan.Elanlib.elan_gsync;
import static org.qsnet.elan.Elanlib.elan_poll;
import static org.qsnet.elan.Elanlib.elan_put;
import static org.qsnet.tports.Tports.ELAN_TPORT_RXPROBE;
import static org.qsnet.tports.Tports.ELAN_TPORT_TXSYNC;
import static org.qsnet.tports.Tports.elan_tportInit;
import static org.qsnet.tports.Tports.elan_tportRxDone;
import static org.qsnet.tports.Tports.elan_tportRxStart;
import static org.qsnet.tports.Tports.elan_tportRxWait;
import static org.qsnet.tports.Tports.elan_tportTxDone;
import static org.qsnet.tports.Tports.elan_tportTxStart;
import static org.qsnet.tports.Tports.elan_tportTxWait;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.qsnet.elan.ElanBase;
import org.qsnet.elan.ElanEvent;
import org.qsnet.elan.ElanQueue;
import org.qsnet.elan3.Rms;
import org.qsnet.tports.Tport;

/**
 * A runtime's machine layer over Tports, ported call for call from the way Charm++'s Elan layer
 * drove libelan (charmplusplus/charm {@code src/arch/elan/machine.c}, read, not copied): one port
 * with twice {@code base->tport_nslots}; three classes of receive — a ring of short receives posted
 * with {@code tagMask 1} (so the short tag 0x1, a 4-byte notice 0x3 and a fetch request 0x5 all
 * land there and are told apart by the tag {@code elan_tportRxWait} reports), a ring of medium
 * receives with an exact tag 0x10, and one {@code ELAN_TPORT_RXPROBE} of tag 0x100 whose size
 * sizes the real receive; sends of at most 4 bytes waited for at once, others kept in a list that
 * a release loop tests with {@code elan_tportTxDone} and ends with {@code elan_tportTxWait}, at most
 * one outstanding per destination; {@code ELAN_TPORT_TXSYNC} above a threshold; sent and received
 * buffers reused from a pool. {@code args[0]} names the scenario; rank 0 prints {@code ok <scenario>}.
 * <ul>
 * <li>{@code pump}: every rank sends every other rank a schedule of sizes across all classes
 * (4 B to 700 kB) and pumps; each message is checked byte for byte, its sender, tag and size as
 * reported, and per sender and class the order of sending.</li>
 * <li>{@code blocking}: the same with blocking receives: an idle rank with nothing of its own in
 * flight waits in {@code elan_tportRxWait} on its next short receive, and every medium or bulk
 * message is preceded by a 4-byte notice (tag 0x3) that wakes it.</li>
 * <li>{@code fetch}: messages above the medium limit go as a fetch request (tag 0x5, the
 * sender's address); the receiver {@code elan_get}s the data, polls it with {@code elan_poll},
 * and {@code elan_put}s a completion word into the sender's memory, which the sender watches.</li>
 * <li>{@code sync-window}: a {@code TXSYNC} bulk send is not done while its receiver computes,
 * before its probe and receive, and completes after.</li>
 * <li>{@code misuse}: testing a send event after the release loop consumed it, or waiting on a
 * receive as a send, fails with a message naming the call.</li>
 * </ul>
 */
public final class CharmMachineLayer
{
    static final int SHORT_BYTES = 4080;
    static final int MEDIUM_BYTES = 65536;
    static final int SYNC_ABOVE = 10 * MEDIUM_BYTES;
    static final int TINY_BYTES = 4;

    static final int TAG_SHORT = 0x1;
    static final int TAG_NOTICE = 0x3;
    static final int TAG_FETCH = 0x5;
    static final int TAG_MEDIUM = 0x10;
    static final int TAG_BULK = 0x100;

    static final int SHORT_RING = 8;
    static final int MEDIUM_RING = 4;
    static final int PER_PAIR = 14;
    static final int[] SIZES = {4, 8, 100, 288, 289, 320, 4080, 4081, 20_000, 65_535, 65_536, 200_000, 700_000, 3};

    // C globals
    static ElanBase base;
    static Tport port;
    static int me;
    static int nvp;
    static boolean blockingReceives;
    static boolean fetchLarge;

    /** One message this rank sends: its buffer, its event once started. */
    static final class Outgoing
    {
        int dest;
        int seq;
        int len;
        long buf;
        ElanEvent ev;
        boolean started;
        /** fetch: the request's buffer, the word the receiver sets when it has the data. */
        long request;
        long doneWord;
    }

    /** A fetch this rank serves as receiver: get, then put of the completion word. */
    static final class Fetch
    {
        int src;
        int seq;
        int len;
        long buf;
        long remoteDone;
        ElanEvent ev;
        boolean putting;
    }

    static final List<Outgoing> sent = new ArrayList<>();
    static final List<Fetch> fetches = new ArrayList<>();
    static boolean[] outstanding;
    static final Map<Integer, ArrayDeque<Long>> pool = new HashMap<>();

    static final long[] shortBuf = new long[SHORT_RING];
    static final ElanEvent[] shortRx = new ElanEvent[SHORT_RING];
    static final boolean[] shortPosted = new boolean[SHORT_RING];
    static int shortNext;
    static int shortPost;
    static final long[] mediumBuf = new long[MEDIUM_RING];
    static final ElanEvent[] mediumRx = new ElanEvent[MEDIUM_RING];
    static final boolean[] mediumPosted = new boolean[MEDIUM_RING];
    static int mediumNext;
    static int mediumPost;
    static ElanEvent bulkRx;
    static long bulkBuf;
    static boolean bulkProbed;
    static int bulkFrom;
    static int bulkLen;
    static int noticesPending;

    static int[][] lastSeq;
    static int received;
    static int expected;
    static long receivedBytes;

    private CharmMachineLayer()
    {
    }

    /**
     * @param args the scenario.
     */
    public static void main(final String[] args)
    {
        base = elan_baseInit(0);
        check(base != null, "elan_baseInit failed");
        elan_gsync(base.allGroup);
        final ElanQueue q = elan_gallocQueue(base, base.allGroup);
        check(q != null, "elan_gallocQueue failed");
        port = elan_tportInit(base.state, q, base.tport_nslots * 2, base.tport_smallmsg, base.tport_bigmsg, 10_000_000,
            base.waitType, base.retryCount, base.shm_key, base.shm_fifodepth, base.shm_fragsize, 0);
        check(port != null, "elan_tportInit failed");
        elan_gsync(base.allGroup);
        me = base.state.vp;
        nvp = base.state.nvp;
        check(me == Integer.parseInt(Rms.getenv("RMS_RANK")), "vp " + me + " is not RMS_RANK " + Rms.getenv("RMS_RANK"));
        outstanding = new boolean[nvp];
        lastSeq = new int[nvp][4];
        for (final int[] l : lastSeq)
        {
            java.util.Arrays.fill(l, -1);
        }
        switch (args[0])
        {
            case "pump" -> exchange();
            case "blocking" ->
            {
                blockingReceives = true;
                exchange();
            }
            case "fetch" ->
            {
                fetchLarge = true;
                exchange();
            }
            case "sync-window" -> syncWindow();
            case "misuse" -> misuse();
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

    static byte pattern(final int from, final int seq, final int i)
    {
        return (byte)(from * 37 + seq * 11 + i * 7 + (i >>> 8));
    }

    // ------------------------------------------------------------------ buffers

    static long alloc(final int len)
    {
        final ArrayDeque<Long> free = pool.get(len);
        if (free != null && !free.isEmpty())
        {
            return free.pollFirst();
        }
        final long b = elan_allocMain(base.state, 64, Math.max(8, len));
        check(b != 0, "elan_allocMain of " + len + " B failed");
        return b;
    }

    static void release(final long buf, final int len)
    {
        pool.computeIfAbsent(len, k -> new ArrayDeque<>()).addLast(buf);
    }

    /** Fills a message: the sequence number in the first 4 bytes (all of a tiny message), then the pattern. */
    static void fill(final long buf, final int seq, final int len)
    {
        final byte[] b = new byte[len];
        for (int i = 0; i < len; i++)
        {
            b[i] = pattern(me, seq, i);
        }
        base.ctx().write(buf, b, 0, len);
        if (len >= 4)
        {
            base.ctx().putInt(buf, seq);
        }
    }

    static int checkMessage(final long data, final int from, final int len)
    {
        final int seq = base.ctx().getInt(data);
        final byte[] got = new byte[len];
        base.ctx().read(data, got, 0, len);
        for (int i = 4; i < len; i++)
        {
            check(got[i] == pattern(from, seq, i), "message " + seq + " (" + len + " B) from " + from + ": byte " + i + " is "
                + got[i] + ", expected " + pattern(from, seq, i));
        }
        received++;
        receivedBytes += len;
        return seq;
    }

    static int sizeOf(final int from, final int to, final int seq)
    {
        return SIZES[(seq + from + 2 * to) % SIZES.length];
    }

    static int classOf(final int len)
    {
        return len <= SHORT_BYTES ? 0 : len < MEDIUM_BYTES ? 1 : 2;
    }

    // ------------------------------------------------------------------ the exchange

    static void exchange()
    {
        final ArrayDeque<Outgoing> unsent = new ArrayDeque<>();
        for (int seq = 0; seq < PER_PAIR; seq++)
        {
            for (int d = 0; d < nvp; d++)
            {
                if (d != me)
                {
                    final Outgoing o = new Outgoing();
                    o.dest = d;
                    o.seq = seq;
                    o.len = sizeOf(me, d, seq);
                    unsent.addLast(o);
                }
            }
        }
        expected = PER_PAIR * (nvp - 1);
        while (!unsent.isEmpty() || !sent.isEmpty() || received < expected || !fetches.isEmpty())
        {
            sendQueued(unsent);
            final boolean got = pump();
            releaseSent();
            serveFetches();
            if (!got && blockingReceives && unsent.isEmpty() && sent.isEmpty() && fetches.isEmpty() && received < expected
                && noticesPending == 0)
            {
                blockOnShort();
            }
        }
        check(received == expected, received + " messages received, expected " + expected);
    }

    static void sendQueued(final ArrayDeque<Outgoing> unsent)
    {
        final int n = unsent.size();
        for (int i = 0; i < n; i++)
        {
            final Outgoing o = unsent.pollFirst();
            if (outstanding[o.dest])
            {
                unsent.addLast(o);
                continue;
            }
            if (o.len <= TINY_BYTES)
            {
                // a tiny message: sent and waited for at once
                final long b = alloc(o.len);
                fill(b, o.seq, o.len);
                elan_tportTxWait(elan_tportTxStart(port, 0, o.dest, me, TAG_SHORT, b, o.len));
                release(b, o.len);
                continue;
            }
            start(o);
            sent.add(o);
            outstanding[o.dest] = true;
        }
    }

    static void start(final Outgoing o)
    {
        o.buf = alloc(o.len);
        fill(o.buf, o.seq, o.len);
        final int cls = classOf(o.len);
        if (cls == 2 && fetchLarge)
        {
            o.doneWord = alloc(8);
            base.ctx().putLong(o.doneWord, 0);
            o.request = alloc(32);
            base.ctx().putInt(o.request, o.seq);
            base.ctx().putInt(o.request + 4, o.len);
            base.ctx().putLong(o.request + 8, o.buf);
            base.ctx().putLong(o.request + 16, o.doneWord);
            o.ev = elan_tportTxStart(port, 0, o.dest, me, TAG_FETCH, o.request, 32);
            o.started = true;
            return;
        }
        if (cls > 0 && blockingReceives)
        {
            // wake a receiver that may be asleep on a short receive
            final long notice = alloc(4);
            base.ctx().putInt(notice, 0);
            elan_tportTxWait(elan_tportTxStart(port, 0, o.dest, me, TAG_NOTICE, notice, 4));
            release(notice, 4);
        }
        final int tag = cls == 0 ? TAG_SHORT : cls == 1 ? TAG_MEDIUM : TAG_BULK;
        o.ev = elan_tportTxStart(port, o.len > SYNC_ABOVE ? ELAN_TPORT_TXSYNC : 0, o.dest, me, tag, o.buf, o.len);
        o.started = true;
    }

    static void releaseSent()
    {
        for (int i = 0; i < sent.size(); i++)
        {
            final Outgoing o = sent.get(i);
            boolean done = false;
            if (o.request != 0)
            {
                if (o.ev != null && elan_tportTxDone(o.ev))
                {
                    elan_tportTxWait(o.ev);
                    o.ev = null;
                    release(o.request, 32);
                }
                done = o.ev == null && base.ctx().getLong(o.doneWord) == 1;
                if (done)
                {
                    release(o.doneWord, 8);
                }
            }
            else if (elan_tportTxDone(o.ev))
            {
                elan_tportTxWait(o.ev);
                done = true;
            }
            if (done)
            {
                // the buffer goes back to the pool and is overwritten by a later message
                base.ctx().write(o.buf, new byte[Math.min(o.len, 64)], 0, Math.min(o.len, 64));
                release(o.buf, o.len);
                outstanding[o.dest] = false;
                sent.remove(i--);
            }
        }
    }

    /** One pass over the three classes of receive; returns whether anything arrived. */
    static boolean pump()
    {
        boolean got = false;
        for (int k = 0; k < SHORT_RING; k++)
        {
            final int i = shortPost;
            if (shortPosted[i])
            {
                break;
            }
            shortBuf[i] = alloc(SHORT_BYTES);
            shortRx[i] = elan_tportRxStart(port, 0, 0, 0, 1, TAG_SHORT, shortBuf[i], SHORT_BYTES);
            shortPosted[i] = true;
            shortPost = (i + 1) % SHORT_RING;
        }
        for (int k = 0; k < MEDIUM_RING; k++)
        {
            final int i = mediumPost;
            if (mediumPosted[i])
            {
                break;
            }
            mediumBuf[i] = alloc(MEDIUM_BYTES);
            mediumRx[i] = elan_tportRxStart(port, 0, 0, 0, -1, TAG_MEDIUM, mediumBuf[i], MEDIUM_BYTES);
            mediumPosted[i] = true;
            mediumPost = (i + 1) % MEDIUM_RING;
        }
        if (bulkRx == null)
        {
            bulkRx = elan_tportRxStart(port, ELAN_TPORT_RXPROBE, 0, 0, -1, TAG_BULK, 0, 0);
            bulkProbed = false;
        }
        final int[] src = new int[1];
        final int[] tag = new int[1];
        final long[] size = new long[1];
        if (!bulkProbed && elan_tportRxDone(bulkRx))
        {
            final long d = elan_tportRxWait(bulkRx, src, tag, size);
            check(d == 0 && tag[0] == TAG_BULK && size[0] >= MEDIUM_BYTES, "probe: data " + d + " tag " + tag[0] + " size "
                + size[0]);
            bulkBuf = alloc((int)size[0]);
            bulkFrom = src[0];
            bulkLen = (int)size[0];
            bulkRx = elan_tportRxStart(port, 0, 0, 0, -1, TAG_BULK, bulkBuf, size[0]);
            bulkProbed = true;
        }
        if (bulkProbed && elan_tportRxDone(bulkRx))
        {
            final long d = elan_tportRxWait(bulkRx, src, tag, size);
            // the any-sender receive takes the message the probe saw
            check(src[0] == bulkFrom && size[0] == bulkLen, "probed " + bulkLen + " B from " + bulkFrom + ", received "
                + size[0] + " B from " + src[0]);
            delivered(d, src[0], tag[0], (int)size[0], 2);
            release(bulkBuf, (int)size[0]);
            bulkRx = null;
            got = true;
        }
        while (mediumPosted[mediumNext] && elan_tportRxDone(mediumRx[mediumNext]))
        {
            final long d = elan_tportRxWait(mediumRx[mediumNext], src, tag, size);
            check(d == mediumBuf[mediumNext], "a medium message was not received into its buffer");
            delivered(d, src[0], tag[0], (int)size[0], 1);
            release(mediumBuf[mediumNext], MEDIUM_BYTES);
            mediumPosted[mediumNext] = false;
            mediumNext = (mediumNext + 1) % MEDIUM_RING;
            got = true;
        }
        while (shortPosted[shortNext] && elan_tportRxDone(shortRx[shortNext]))
        {
            takeShort(src, tag, size);
            got = true;
        }
        return got;
    }

    /** Waits in {@code elan_tportRxWait} on the next short receive, as an idle rank with blocking receives does. */
    static void blockOnShort()
    {
        if (!shortPosted[shortNext])
        {
            return;
        }
        takeShort(new int[1], new int[1], new long[1]);
    }

    static void takeShort(final int[] src, final int[] tag, final long[] size)
    {
        final int i = shortNext;
        final long d = elan_tportRxWait(shortRx[i], src, tag, size);
        check(d == shortBuf[i], "a short message was not received into its buffer");
        check((tag[0] & 1) == 1, "tagMask 1 caught tag " + tag[0]);
        shortPosted[i] = false;
        shortNext = (i + 1) % SHORT_RING;
        switch (tag[0])
        {
            case TAG_SHORT -> delivered(d, src[0], tag[0], (int)size[0], 0);
            case TAG_NOTICE ->
            {
                check(blockingReceives && size[0] == 4, "a notice of " + size[0] + " B");
                noticesPending++;
            }
            case TAG_FETCH ->
            {
                check(fetchLarge && size[0] == 32, "a fetch request of " + size[0] + " B");
                final Fetch f = new Fetch();
                f.src = src[0];
                f.seq = base.ctx().getInt(d);
                f.len = base.ctx().getInt(d + 4);
                final long remote = base.ctx().getLong(d + 8);
                f.remoteDone = base.ctx().getLong(d + 16);
                f.buf = alloc(f.len);
                f.ev = elan_get(base.state, remote, f.buf, f.len, f.src);
                fetches.add(f);
            }
            default -> check(false, "unexpected tag " + tag[0] + " from " + src[0]);
        }
        release(shortBuf[i], SHORT_BYTES);
    }

    static void delivered(final long data, final int src, final int tag, final int len, final int cls)
    {
        check(src >= 0 && src < nvp && src != me, "sender " + src);
        check(classOf(len) == cls || len <= TINY_BYTES && cls == 0, "a " + len + "-byte message came as class " + cls
            + " (tag " + tag + ")");
        final int seq = len < 4 ? nextTinySeq(src, len) : checkMessage(data, src, len);
        if (len < 4)
        {
            received++;
        }
        check(sizeOf(src, me, seq) == len, "message " + seq + " from " + src + " is " + len + " B, expected "
            + sizeOf(src, me, seq));
        check(seq > lastSeq[src][cls], "message " + seq + " from " + src + " (class " + cls + ") after " + lastSeq[src][cls]);
        lastSeq[src][cls] = seq;
        if (blockingReceives && cls > 0)
        {
            noticesPending--;
        }
    }

    /** A message under 4 bytes carries no sequence number: the next one of its size in the schedule. */
    static int nextTinySeq(final int src, final int len)
    {
        for (int s = lastSeq[src][0] + 1; s < PER_PAIR; s++)
        {
            if (sizeOf(src, me, s) == len)
            {
                return s;
            }
        }
        check(false, "no " + len + "-byte message left from " + src);
        return -1;
    }

    static void serveFetches()
    {
        for (int i = 0; i < fetches.size(); i++)
        {
            final Fetch f = fetches.get(i);
            if (!elan_poll(f.ev, ELAN_POLL_EVENT))
            {
                continue;
            }
            if (!f.putting)
            {
                final int seq = checkMessage(f.buf, f.src, f.len);
                check(seq == f.seq, "fetched message " + seq + ", request said " + f.seq);
                check(seq > lastSeq[f.src][2], "fetched " + seq + " from " + f.src + " after " + lastSeq[f.src][2]);
                lastSeq[f.src][2] = seq;
                release(f.buf, f.len);
                final long one = alloc(8);
                base.ctx().putLong(one, 1);
                f.buf = one;
                f.ev = elan_put(base.state, one, f.remoteDone, 8, f.src);
                f.putting = true;
            }
            else
            {
                release(f.buf, 8);
                fetches.remove(i--);
            }
        }
    }

    // ------------------------------------------------------------------ TXSYNC window

    static void syncWindow()
    {
        final int len = 700_000;
        if (me == 1)
        {
            final long b = alloc(len);
            fill(b, 0, len);
            final ElanEvent tx = elan_tportTxStart(port, ELAN_TPORT_TXSYNC, 0, me, TAG_BULK, b, len);
            final long t0 = elan_clock(base.state);
            int tests = 0;
            while (elan_clock(base.state) - t0 < 400_000)
            {
                check(!elan_tportTxDone(tx), "a TXSYNC send was done before its receiver probed or posted");
                tests++;
            }
            check(tests > 10, "only " + tests + " tests in 400 us");
            while (!elan_tportTxDone(tx))
            {
                // the release loop
            }
            elan_tportTxWait(tx);
            return;
        }
        if (me != 0)
        {
            return;
        }
        final long end = elan_clock(base.state) + 800_000;
        while (elan_clock(base.state) < end)
        {
            // compute
        }
        final ElanEvent probe = elan_tportRxStart(port, ELAN_TPORT_RXPROBE, 0, 0, -1, TAG_BULK, 0, 0);
        final long[] size = new long[1];
        final int[] src = new int[1];
        elan_tportRxWait(probe, src, null, size);
        check(src[0] == 1 && size[0] == len, "probe: sender " + src[0] + " size " + size[0]);
        final long buf = alloc(len);
        final long d = elan_tportRxWait(elan_tportRxStart(port, 0, -1, 1, -1, TAG_BULK, buf, len), null, null, null);
        checkMessage(d, 1, len);
    }

    // ------------------------------------------------------------------ misuse

    static void misuse()
    {
        if (me == 1)
        {
            final long b = alloc(16);
            fill(b, 0, 16);
            final ElanEvent tx = elan_tportTxStart(port, 0, 0, me, TAG_SHORT, b, 16);
            while (!elan_tportTxDone(tx))
            {
                // spin
            }
            elan_tportTxWait(tx);
            // a handle kept after the release loop consumed it
            try
            {
                elan_tportTxDone(tx);
                check(false, "elan_tportTxDone of a consumed send event returned");
            }
            catch (final RuntimeException e)
            {
                check(String.valueOf(e.getMessage()).contains("consumed by elan_tportTxWait"),
                    "the error does not name the call that consumed the event: " + e.getMessage());
            }
            return;
        }
        if (me != 0)
        {
            return;
        }
        final long b = alloc(SHORT_BYTES);
        final ElanEvent rx = elan_tportRxStart(port, 0, 0, 0, 1, TAG_SHORT, b, SHORT_BYTES);
        try
        {
            elan_tportTxWait(rx);
            check(false, "elan_tportTxWait of a receive returned");
        }
        catch (final RuntimeException e)
        {
            check(String.valueOf(e.getMessage()).contains("not a Tports send"), "the error does not say why: "
                + e.getMessage());
        }
        final int[] src = new int[1];
        final long[] size = new long[1];
        elan_tportRxWait(rx, src, null, size);
        check(src[0] == 1 && size[0] == 16, "after the misuse: sender " + src[0] + " size " + size[0]);
        checkMessage(b, 1, 16);
        elan_free(base.state, b);
    }
}
