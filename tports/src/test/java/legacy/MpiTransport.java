package legacy;

import static org.qsnet.elan.Elanlib.ELAN_POLL_EVENT;
import static org.qsnet.elan.Elanlib.ELAN_RAIL_ALL;
import static org.qsnet.elan.Elanlib.ELAN_REDUCE_COMMUTE;
import static org.qsnet.elan.Elanlib.ELAN_RESULT_ALL;
import static org.qsnet.elan.Elanlib.elan_allocMain;
import static org.qsnet.elan.Elanlib.elan_baseInit;
import static org.qsnet.elan.Elanlib.elan_disable_network;
import static org.qsnet.elan.Elanlib.elan_done;
import static org.qsnet.elan.Elanlib.elan_enable_network;
import static org.qsnet.elan.Elanlib.elan_gallocQueue;
import static org.qsnet.elan.Elanlib.elan_get;
import static org.qsnet.elan.Elanlib.elan_gsync;
import static org.qsnet.elan.Elanlib.elan_poll;
import static org.qsnet.elan.Elanlib.elan_put;
import static org.qsnet.elan.Elanlib.elan_queueMaxSlotSize;
import static org.qsnet.elan.Elanlib.elan_queueRxComplete;
import static org.qsnet.elan.Elanlib.elan_queueRxInit;
import static org.qsnet.elan.Elanlib.elan_queueRxPoll;
import static org.qsnet.elan.Elanlib.elan_queueRxWait;
import static org.qsnet.elan.Elanlib.elan_queueTx;
import static org.qsnet.elan.Elanlib.elan_queueTxInit;
import static org.qsnet.elan.Elanlib.elan_reduce;
import static org.qsnet.tports.Tports.ELAN_TPORT_RXANY;
import static org.qsnet.tports.Tports.ELAN_TPORT_RXBUF;
import static org.qsnet.tports.Tports.elan_tportBufFree;
import static org.qsnet.tports.Tports.elan_tportInit;
import static org.qsnet.tports.Tports.elan_tportRxStart;
import static org.qsnet.tports.Tports.elan_tportRxWait;
import static org.qsnet.tports.Tports.elan_tportTxDone;
import static org.qsnet.tports.Tports.elan_tportTxStart;
import static org.qsnet.tports.Tports.elan_tportTxWait;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

import org.qsnet.elan.ElanBase;
import org.qsnet.elan.ElanEvent;
import org.qsnet.elan.ElanQueue;
import org.qsnet.tports.Tport;

/**
 * An MPI transport over Elanlib, ported call for call from the way Open MPI's {@code btl_elan}
 * drove libelan (open-mpi/ompi {@code ompi/mca/btl/elan}, read, not copied). Start-up:
 * {@code elan_baseInit(0)}, a check of {@code base->state}, the VP of every rank by an
 * {@code elan_reduce} with a max operator ({@code ELAN_RESULT_ALL}), a port on a
 * {@code elan_gallocQueue} whose {@code bigmsg} is the eager limit and whose wait type is
 * {@code ELAN_POLL_EVENT}, a second global queue with {@code elan_queueRxInit} /
 * {@code elan_queueTxInit}, a list of eager receives posted {@code ELAN_TPORT_RXBUF |
 * ELAN_TPORT_RXANY} with all-zero masks, then {@code elan_enable_network}. A fragment up to a
 * queue slot goes by {@code elan_queueTx}, a larger one by {@code elan_tportTxStart}; progress
 * tests only the head of each list — {@code elan_queueRxPoll}/{@code elan_queueRxWait}/
 * {@code elan_queueRxComplete}, {@code elan_done} then {@code elan_tportRxWait} (sender NULL) on the
 * oldest receive, freeing a system buffer with {@code elan_tportBufFree} and reposting, and
 * {@code elan_poll(ev, 0)} on the oldest send and RDMA. {@code elan_disable_network} at the end.
 * {@code args[0]} names the scenario; rank 0 prints {@code ok <scenario>}.
 * <ul>
 * <li>{@code btl}: every rank sends every other rank fragments of every size class (queue, eager
 * tport) and a put and a get through an RDMA window whose address travels in a fragment; sends are
 * completed by {@code elan_poll} alone (no {@code elan_tportTxWait}), as the later BTL did; tag,
 * length, bytes and per-path order checked.</li>
 * <li>{@code btl-early}: the earlier BTL: receives first posted with flags 0, then reposted
 * {@code RXBUF | RXANY}; a send is tested with {@code elan_tportTxDone} right after
 * {@code elan_tportTxStart}, waited for with {@code elan_tportTxWait} when done, otherwise kept and
 * tested again later.</li>
 * <li>{@code stream}: one rank streams many thousand eager fragments to another, each completed by
 * {@code elan_poll} alone: the sender's resources must not run out.</li>
 * </ul>
 */
public final class MpiTransport
{
    static final int EAGER_LIMIT = 32 * 1024;
    static final int HDR = 8;
    static final int POSTED = 16;
    static final int WINDOW = 4096;
    static final int MAX_FRAGS = 64;

    // C globals
    static ElanBase base;
    static Tport tport;
    static ElanQueue.Rx rxq;
    static ElanQueue.Tx txq;
    static int me;
    static int nvp;
    static int[] vpOf;
    static int queueMax;
    static boolean early;

    /** A fragment: a host buffer with room for the queue header before the payload. */
    static final class Frag
    {
        long mem;
        long posted;
        int len;
        ElanEvent ev;
        boolean queue;
    }

    static final ArrayDeque<Frag> recvList = new ArrayDeque<>();
    static final List<Frag> sendList = new ArrayList<>();
    static final List<ElanEvent> rdmaList = new ArrayList<>();
    static final ArrayDeque<Frag> freeFrags = new ArrayDeque<>();

    static int[][] lastSeq;
    static int received;
    static long window;
    static long[] peerWindow;
    static int finsReceived;

    private MpiTransport()
    {
    }

    /**
     * @param args the scenario.
     */
    public static void main(final String[] args)
    {
        early = args[0].equals("btl-early");
        addProcs();
        switch (args[0])
        {
            case "btl", "btl-early" -> exchange();
            case "stream" -> stream();
            case "flood" -> flood();
            default -> throw new IllegalArgumentException(args[0]);
        }
        // every peer has finished sending before the network is turned off
        elan_gsync(base.allGroup);
        elan_disable_network(base.state);
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
        return (byte)(from * 29 + seq * 13 + i * 3 + (i >>> 10));
    }

    static void addProcs()
    {
        base = elan_baseInit(0);
        check(base != null, "elan_baseInit failed");
        check(base.state != null, "no state");
        me = base.state.vp;
        nvp = base.state.nvp;
        // every rank's VP, by a max-reduce of an array where each rank fills its own slot
        final long vps = elan_allocMain(base.state, 8, 4L * nvp);
        for (int i = 0; i < nvp; i++)
        {
            base.ctx().putInt(vps + 4L * i, i == me ? me : 0);
        }
        elan_reduce(base.allGroup, vps, vps, 4, nvp, (in, inout, count, handle) ->
        {
            for (int i = 0; i < count[0]; i++)
            {
                final int a = base.ctx().getInt(in + 4L * i);
                final int b = base.ctx().getInt(inout + 4L * i);
                base.ctx().putInt(inout + 4L * i, Math.max(a, b));
            }
        }, null, 0, 0, ELAN_REDUCE_COMMUTE | ELAN_RESULT_ALL | base.group_flags, 0);
        vpOf = new int[nvp];
        for (int i = 0; i < nvp; i++)
        {
            vpOf[i] = base.ctx().getInt(vps + 4L * i);
            check(vpOf[i] == i, "the reduce gave rank " + i + " VP " + vpOf[i]);
        }
        final ElanQueue tq = elan_gallocQueue(base, base.allGroup);
        check(tq != null, "elan_gallocQueue failed");
        tport = elan_tportInit(base.state, tq, early ? base.tport_nslots : POSTED, base.tport_smallmsg, EAGER_LIMIT,
            base.tport_stripemsg, ELAN_POLL_EVENT, base.retryCount, base.shm_key, base.shm_fifodepth, base.shm_fragsize, 0);
        check(tport != null, "elan_tportInit failed");
        final ElanQueue gq = elan_gallocQueue(base, base.allGroup);
        check(gq != null, "elan_gallocQueue failed");
        queueMax = elan_queueMaxSlotSize(base.state) - HDR;
        // the BTL passed the payload limit (the slot less its header) as slotSize, yet sent header and
        // payload; the emulated queue takes no message above its slot size, so the slots here hold both
        rxq = elan_queueRxInit(base.state, gq, POSTED, queueMax + HDR, ELAN_RAIL_ALL, 0);
        txq = elan_queueTxInit(base.state, gq, ELAN_RAIL_ALL, 0);
        for (int i = 0; i < POSTED; i++)
        {
            final Frag f = frag();
            f.ev = elan_tportRxStart(tport, early ? 0 : ELAN_TPORT_RXBUF | ELAN_TPORT_RXANY, 0, 0, 0, 0, f.posted,
                EAGER_LIMIT);
            recvList.addLast(f);
        }
        elan_enable_network(base.state);
        lastSeq = new int[nvp][2];
        for (final int[] l : lastSeq)
        {
            java.util.Arrays.fill(l, -1);
        }
    }

    static Frag frag()
    {
        if (!freeFrags.isEmpty())
        {
            return freeFrags.pollFirst();
        }
        final Frag f = new Frag();
        f.mem = elan_allocMain(base.state, 64, HDR + EAGER_LIMIT);
        check(f.mem != 0, "no memory for a fragment");
        f.posted = f.mem + HDR;
        return f;
    }

    // ------------------------------------------------------------------ payloads: seq, kind, then the pattern

    static final int KIND_DATA = 0;
    static final int KIND_WINDOW = 1;
    static final int KIND_FIN = 2;

    static void fill(final long p, final int seq, final int kind, final int len)
    {
        final byte[] b = new byte[len];
        for (int i = 0; i < len; i++)
        {
            b[i] = pattern(me, seq, i);
        }
        base.ctx().write(p, b, 0, len);
        base.ctx().putInt(p, seq);
        base.ctx().putInt(p + 4, kind);
    }

    /** The BTL tag a fragment carries: the upper layer's, from the sequence number. */
    static int tagFor(final int seq)
    {
        return 64 + seq % 3;
    }

    // ------------------------------------------------------------------ send

    /** Sends {@code len} payload bytes (at least 16) to {@code dest}. */
    static void send(final int dest, final int seq, final int kind, final int len, final long extra)
    {
        // the fragment free list is bounded: when it is exhausted the upper layer progresses and retries
        while (sendList.size() >= MAX_FRAGS)
        {
            progress();
        }
        final Frag f = frag();
        f.len = len;
        fill(f.posted, seq, kind, len);
        if ((kind & 0xff) != KIND_DATA)
        {
            base.ctx().putLong(f.posted + 8, extra);
        }
        final int tag = tagFor(seq);
        if (len <= queueMax)
        {
            base.ctx().putInt(f.mem, tag);
            base.ctx().putInt(f.mem + 4, len);
            f.ev = elan_queueTx(txq, vpOf[dest], f.mem, len + HDR, ELAN_RAIL_ALL);
            f.queue = true;
        }
        else
        {
            f.ev = elan_tportTxStart(tport, 0, vpOf[dest], me, tag, f.posted, len);
            check(f.ev != null, "elan_tportTxStart failed");
            f.queue = false;
        }
        if (early && !f.queue)
        {
            if (elan_tportTxDone(f.ev))
            {
                elan_tportTxWait(f.ev);
                freeFrags.addLast(f);
                return;
            }
        }
        else if (elan_poll(f.ev, 0))
        {
            freeFrags.addLast(f);
            return;
        }
        sendList.add(f);
    }

    // ------------------------------------------------------------------ progress

    static int progress()
    {
        int n = 0;
        if (elan_queueRxPoll(rxq, 0))
        {
            final long slot = elan_queueRxWait(rxq, 0, 0);
            final int tag = base.ctx().getInt(slot);
            final int len = base.ctx().getInt(slot + 4);
            deliver(slot + HDR, tag, len, 0);
            elan_queueRxComplete(rxq);
            n++;
        }
        final Frag r = recvList.peekFirst();
        if (r != null && elan_done(r.ev, 0))
        {
            final int[] tag = new int[1];
            final long[] length = new long[1];
            final long data = elan_tportRxWait(r.ev, null, tag, length);
            recvList.pollFirst();
            deliver(data, tag[0], (int)length[0], 1);
            if (data != r.posted)
            {
                elan_tportBufFree(tport, data);
            }
            r.ev = elan_tportRxStart(tport, ELAN_TPORT_RXBUF | ELAN_TPORT_RXANY, 0, 0, 0, 0, r.posted, EAGER_LIMIT);
            recvList.addLast(r);
            n++;
        }
        while (!sendList.isEmpty())
        {
            final Frag f = sendList.get(0);
            final boolean done;
            if (early && !f.queue)
            {
                done = elan_tportTxDone(f.ev);
                if (done)
                {
                    elan_tportTxWait(f.ev);
                }
            }
            else
            {
                done = elan_poll(f.ev, 0);
            }
            if (!done)
            {
                break;
            }
            sendList.remove(0);
            freeFrags.addLast(f);
            n++;
        }
        while (!rdmaList.isEmpty() && elan_poll(rdmaList.get(0), 0))
        {
            rdmaList.remove(0);
            n++;
        }
        return n;
    }

    static int from(final long data)
    {
        return base.ctx().getInt(data + 4) >>> 8;
    }

    static void deliver(final long data, final int tag, final int len, final int path)
    {
        final int seq = base.ctx().getInt(data);
        final int kindAndSender = base.ctx().getInt(data + 4);
        final int kind = kindAndSender & 0xff;
        final int src = kindAndSender >>> 8;
        check(src >= 0 && src < nvp && src != me, "a fragment names sender " + src);
        check(tag == tagFor(seq), "fragment " + seq + " from " + src + " came with tag " + tag + ", sent with " + tagFor(seq));
        check(path == (len <= queueMax ? 0 : 1), "a " + len + "-byte fragment came by path " + path);
        final byte[] got = new byte[len];
        base.ctx().read(data, got, 0, len);
        final int from = kind == KIND_DATA ? 8 : 16;
        for (int i = from; i < len; i++)
        {
            check(got[i] == pattern(src, seq, i), "fragment " + seq + " (" + len + " B) from " + src + ": byte " + i);
        }
        check(seq > lastSeq[src][path], "fragment " + seq + " from " + src + " by path " + path + " after "
            + lastSeq[src][path]);
        lastSeq[src][path] = seq;
        if (kind == KIND_WINDOW)
        {
            peerWindow[src] = base.ctx().getLong(data + 8);
        }
        else if (kind == KIND_FIN)
        {
            finsReceived++;
        }
        received++;
    }

    // ------------------------------------------------------------------ the exchange

    static final int[] SIZES = {16, 100, 312, 313, 4000, 20_000, 32 * 1024, 17, 300};

    static void exchange()
    {
        window = elan_allocMain(base.state, 64, (long)WINDOW * nvp);
        base.ctx().write(window, new byte[WINDOW * nvp], 0, WINDOW * nvp);
        peerWindow = new long[nvp];
        int seq = 0;
        int expected = 0;
        // the window's address first, to everyone
        for (int d = 0; d < nvp; d++)
        {
            if (d != me)
            {
                send(d, seq, KIND_WINDOW | me << 8, 40, window);
                expected++;
            }
        }
        seq++;
        for (int round = 0; round < 3; round++)
        {
            for (final int len : SIZES)
            {
                for (int d = 0; d < nvp; d++)
                {
                    if (d != me)
                    {
                        send(d, seq, KIND_DATA | me << 8, len, 0);
                        expected++;
                    }
                }
                seq++;
                progress();
            }
        }
        while (received < expected)
        {
            progress();
        }
        // RDMA: a put into my slot of every peer's window, a get of its slot of my window... of theirs
        final long src = elan_allocMain(base.state, 64, WINDOW);
        final byte[] mine = new byte[WINDOW];
        for (int i = 0; i < WINDOW; i++)
        {
            mine[i] = pattern(me, 999, i);
        }
        base.ctx().write(src, mine, 0, WINDOW);
        for (int d = 0; d < nvp; d++)
        {
            if (d != me)
            {
                rdmaList.add(elan_put(base.state, src, peerWindow[d] + (long)WINDOW * me, WINDOW, vpOf[d]));
            }
        }
        while (!rdmaList.isEmpty() || !sendList.isEmpty())
        {
            progress();
        }
        // the puts are complete: tell every peer
        for (int d = 0; d < nvp; d++)
        {
            if (d != me)
            {
                send(d, seq, KIND_FIN | me << 8, 24, 0);
                expected++;
            }
        }
        seq++;
        while (finsReceived < nvp - 1 || received < expected)
        {
            progress();
        }
        final byte[] got = new byte[WINDOW];
        for (int s = 0; s < nvp; s++)
        {
            if (s == me)
            {
                continue;
            }
            base.ctx().read(window + (long)WINDOW * s, got, 0, WINDOW);
            for (int i = 0; i < WINDOW; i++)
            {
                check(got[i] == pattern(s, 999, i), "rank " + s + "'s put into my window: byte " + i);
            }
        }
        // a get of what the next rank put into the following rank's window
        final int peer = (me + 1) % nvp;
        final int writer = (me + 2) % nvp;
        if (peer != me && writer != peer)
        {
            final long dst = elan_allocMain(base.state, 64, WINDOW);
            rdmaList.add(elan_get(base.state, peerWindow[peer] + (long)WINDOW * writer, dst, WINDOW, vpOf[peer]));
            while (!rdmaList.isEmpty())
            {
                progress();
            }
            base.ctx().read(dst, got, 0, WINDOW);
            for (int i = 0; i < WINDOW; i++)
            {
                check(got[i] == pattern(writer, 999, i), "get of rank " + writer + "'s put at rank " + peer + ": byte " + i);
            }
        }
        while (!sendList.isEmpty())
        {
            progress();
        }
    }

    // ------------------------------------------------------------------ a flood of queue fragments

    static final int FLOOD = 200;

    /** Every rank sends every other {@code FLOOD} fragments that fit a queue slot, as fast as it can. */
    static void flood()
    {
        int expected = 0;
        for (int k = 0; k < FLOOD; k++)
        {
            for (int d = 0; d < nvp; d++)
            {
                if (d != me)
                {
                    send(d, k, KIND_DATA | me << 8, 16 + k * 37 % 297, 0);
                    expected++;
                }
            }
            progress();
        }
        while (received < expected || !sendList.isEmpty())
        {
            progress();
        }
    }

    // ------------------------------------------------------------------ a long stream

    static final int STREAM = 6000;

    static void stream()
    {
        if (me == 1)
        {
            for (int k = 0; k < STREAM; k++)
            {
                send(0, k, KIND_DATA | me << 8, k % 2 == 0 ? 1000 : 8000, 0);
                progress();
            }
            while (!sendList.isEmpty())
            {
                progress();
            }
            return;
        }
        if (me == 0)
        {
            while (received < STREAM)
            {
                progress();
            }
        }
    }
}
