package legacy;

import static org.qsnet.elan.Elanlib.elan_allocMain;
import static org.qsnet.elan.Elanlib.elan_baseInit;
import static org.qsnet.elan.Elanlib.elan_clock;
import static org.qsnet.elan.Elanlib.elan_done;
import static org.qsnet.elan.Elanlib.elan_free;
import static org.qsnet.elan.Elanlib.elan_gallocQueue;
import static org.qsnet.elan.Elanlib.elan_generateCapability;
import static org.qsnet.elan.Elanlib.elan_getenvCap;
import static org.qsnet.elan.Elanlib.elan_gsync;
import static org.qsnet.tports.Tports.ELAN_TPORT_RXANY;
import static org.qsnet.tports.Tports.ELAN_TPORT_RXPROBE;
import static org.qsnet.tports.Tports.ELAN_TPORT_TXSYNC;
import static org.qsnet.tports.Tports.elan_tportBufFree;
import static org.qsnet.tports.Tports.elan_tportInit;
import static org.qsnet.tports.Tports.elan_tportRxPoll;
import static org.qsnet.tports.Tports.elan_tportRxStart;
import static org.qsnet.tports.Tports.elan_tportRxWait;
import static org.qsnet.tports.Tports.elan_tportTxStart;
import static org.qsnet.tports.Tports.elan_tportTxWait;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.qsnet.elan.ElanBase;
import org.qsnet.elan.ElanEvent;
import org.qsnet.elan.ElanQueue;
import org.qsnet.elan3.ElanCapability;
import org.qsnet.elan3.Rms;
import org.qsnet.tports.Tport;

/**
 * A communication library's network driver over Tports, ported call for call from the way the
 * NewMadeleine qsnet driver ({@code nmad/drivers/old/nm_qsnet.c}) and the Madeleine 3 Quadrics
 * driver ({@code mad3/.../mad_quadrics.c}) of jm-cc/pm2 drove libelan (read, not copied): no RMS
 * capability of their own, so a compact capability string goes to
 * {@code elan_generateCapability} before {@code elan_baseInit(0)} (skipped when
 * {@code LIBELAN_ECAP0} is already set); one port per track/channel on an
 * {@code elan_gallocQueue} with the base's tunables and flags 0. {@code args[0]} names the
 * scenario; rank 0 prints {@code ok <scenario>}.
 * <ul>
 * <li>{@code nmad}: the connect handshake — every rank sends every other its 16-byte address
 * record with tag 1 ({@code elan_tportTxStart} then {@code elan_tportTxWait}), and accepts as many
 * with any-sender exact-tag-1 receives, learning each peer from the sender {@code RxWait}
 * reports; then packets with tag 2, at most two sends and two receives pending, receives alternately
 * for a known peer (sender mask -1) and for anyone (the sender mapped back to its peer), each
 * request polled with {@code elan_done(ev, 0)} and then ended with the type's wait.</li>
 * <li>{@code mad3}: connection pairs, messages of one or two packets (the first at most 32 KiB,
 * received by an {@code ELAN_TPORT_RXANY} receive into a 32 KiB buffer, the rest by a receive for
 * that sender, any tag), every send waited for at once, every 1001st packet of a connection
 * {@code ELAN_TPORT_TXSYNC}: it must not complete while its receiver is busy elsewhere.</li>
 * <li>{@code mad3-probe}: the probing variant: a whole message in one packet, found by an
 * {@code RXANY | RXPROBE} receive (or by spinning on {@code elan_tportRxPoll}), then received by
 * sender.</li>
 * </ul>
 */
public final class MadeleineDriver
{
    static final int ADMIN_TAG = 1;
    static final int DATA_TAG = 2;
    static final int ADDRESS_BYTES = 16;
    static final int FIRST_PACKET = 32 * 1024;
    static final int ASYNC_PACKETS = 1000;
    static final int CONTEXT_OFFSET = 2;

    // C globals
    static ElanBase base;
    static Tport port;
    static int me;
    static int nvp;
    static String capString;

    private MadeleineDriver()
    {
    }

    /**
     * @param args the scenario.
     */
    public static void main(final String[] args)
    {
        driverInit();
        switch (args[0])
        {
            case "nmad" -> nmad();
            case "mad3" -> mad3(false);
            case "mad3-probe" -> mad3(true);
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
        return (byte)(from * 41 + seq * 5 + i * 11 + (i >>> 12));
    }

    /** The capability string from the job's layout (block, contexts from 2), then the library. */
    static void driverInit()
    {
        final int rank = Integer.parseInt(Rms.getenv("RMS_RANK"));
        if (Rms.getenv("LIBELAN_ECAP0") == null)
        {
            final int nodes = Integer.parseInt(Rms.getenv("RMS_NNODES"));
            final int procs = Integer.parseInt(Rms.getenv("RMS_NPROCS"));
            final int node = Integer.parseInt(Rms.getenv("RMS_NODEID"));
            final int perNode = procs / nodes;
            capString = String.format(Locale.ROOT, "N%dC%d-%d-%dN%d-%dR1b", node, CONTEXT_OFFSET,
                CONTEXT_OFFSET + rank % perNode, CONTEXT_OFFSET + perNode - 1, 0, nodes - 1);
            check(elan_generateCapability(capString) == 0, "elan_generateCapability(\"" + capString + "\") failed");
            check(capString.equals(Rms.getenv("LIBELAN_ECAP0")), "LIBELAN_ECAP0 is " + Rms.getenv("LIBELAN_ECAP0")
                + " after elan_generateCapability(\"" + capString + "\")");
            final ElanCapability cap = new ElanCapability();
            check(elan_getenvCap(cap, 0) == 0 && cap.myContext == CONTEXT_OFFSET + rank % perNode,
                "elan_getenvCap gave MyContext " + cap.myContext);
        }
        base = elan_baseInit(0);
        check(base != null, "elan_baseInit failed");
        me = base.state.vp;
        nvp = base.state.nvp;
        check(me == rank, "vp " + me + ", RMS_RANK " + rank);
        final ElanQueue q = elan_gallocQueue(base, base.allGroup);
        check(q != null, "elan_gallocQueue failed");
        port = elan_tportInit(base.state, q, base.tport_nslots, base.tport_smallmsg, base.tport_bigmsg,
            base.tport_stripemsg, base.waitType, base.retryCount, base.shm_key, base.shm_fifodepth, base.shm_fragsize, 0);
        check(port != null, "elan_tportInit failed");
    }

    static long filled(final int seq, final int len)
    {
        final long b = elan_allocMain(base.state, 64, Math.max(8, len));
        check(b != 0, "elan_allocMain of " + len + " B failed");
        final byte[] d = new byte[len];
        for (int i = 0; i < len; i++)
        {
            d[i] = pattern(me, seq, i);
        }
        base.ctx().write(b, d, 0, len);
        return b;
    }

    static void checkData(final long data, final int from, final int seq, final int off, final int len)
    {
        final byte[] got = new byte[len];
        base.ctx().read(data, got, 0, len);
        for (int i = 0; i < len; i++)
        {
            check(got[i] == pattern(from, seq, off + i), "message " + seq + " from " + from + ": byte " + (off + i));
        }
    }

    // ------------------------------------------------------------------ NewMadeleine

    static final int PACKETS = 40;
    static final int[] NMAD_SIZES = {1, 16, 288, 289, 1000, 5000, 40_000, 70_000};
    static final int MAX_PACKET = 70_000;

    /** A pending request of the track: at most two of each kind. */
    static final class Request
    {
        ElanEvent ev;
        long buf;
        int gate;
        int order;
    }

    static void nmad()
    {
        // connect: my address record to everyone
        final long record = elan_allocMain(base.state, 8, ADDRESS_BYTES);
        final byte[] url = new byte[ADDRESS_BYTES];
        final byte[] digits = Integer.toString(me).getBytes(StandardCharsets.US_ASCII);
        System.arraycopy(digits, 0, url, 0, digits.length);
        base.ctx().write(record, url, 0, ADDRESS_BYTES);
        for (int d = 0; d < nvp; d++)
        {
            if (d != me)
            {
                final ElanEvent ev = elan_tportTxStart(port, 0, d, me, ADMIN_TAG, record, ADDRESS_BYTES);
                elan_tportTxWait(ev);
            }
        }
        // accept: as many from anyone; the gate of each is the sender RxWait names
        final int[] gateOf = new int[nvp];
        java.util.Arrays.fill(gateOf, -1);
        final long in = elan_allocMain(base.state, 8, ADDRESS_BYTES);
        for (int k = 0; k < nvp - 1; k++)
        {
            final int[] remote = new int[1];
            final int[] tag = new int[1];
            final long[] size = new long[1];
            final ElanEvent ev = elan_tportRxStart(port, 0, 0, 0, -1, ADMIN_TAG, in, ADDRESS_BYTES);
            elan_tportRxWait(ev, remote, tag, size);
            final byte[] got = new byte[ADDRESS_BYTES];
            base.ctx().read(in, got, 0, ADDRESS_BYTES);
            int n = 0;
            while (n < ADDRESS_BYTES && got[n] != 0)
            {
                n++;
            }
            final int named = Integer.parseInt(new String(got, 0, n, StandardCharsets.US_ASCII));
            check(tag[0] == ADMIN_TAG && size[0] == ADDRESS_BYTES, "address record: tag " + tag[0] + " size " + size[0]);
            check(named == remote[0], "the record names " + named + ", RxWait says sender " + remote[0]);
            check(gateOf[remote[0]] == -1, "two records from " + remote[0]);
            gateOf[remote[0]] = k;
        }
        final int[] peerOfGate = new int[nvp - 1];
        for (int p = 0; p < nvp; p++)
        {
            if (p != me)
            {
                check(gateOf[p] >= 0, "no record from " + p);
                peerOfGate[gateOf[p]] = p;
            }
        }
        // packets: to every peer in turn
        final List<int[]> toSend = new ArrayList<>();
        for (int k = 0; k < PACKETS; k++)
        {
            for (int g = 0; g < nvp - 1; g++)
            {
                toSend.add(new int[] {g, k});
            }
        }
        final int expected = PACKETS * (nvp - 1);
        final int[] claimed = new int[nvp];
        final int[] expectNext = new int[nvp];
        final Request[] sends = new Request[2];
        final Request[] recvs = new Request[2];
        int sent = 0;
        int received = 0;
        int posted = 0;
        while (sent < toSend.size() || received < expected || sends[0] != null || sends[1] != null)
        {
            for (int s = 0; s < 2; s++)
            {
                if (sends[s] == null && sent < toSend.size())
                {
                    final int[] gk = toSend.get(sent++);
                    final int peer = peerOfGate[gk[0]];
                    final int len = NMAD_SIZES[(gk[1] + me + peer) % NMAD_SIZES.length];
                    final Request r = new Request();
                    r.buf = filled(gk[1], len);
                    r.ev = elan_tportTxStart(port, 0, peer, me, DATA_TAG, r.buf, len);
                    sends[s] = r;
                }
                if (sends[s] != null && elan_done(sends[s].ev, 0))
                {
                    elan_tportTxWait(sends[s].ev);
                    elan_free(base.state, sends[s].buf);
                    sends[s] = null;
                }
            }
            for (int s = 0; s < 2; s++)
            {
                if (recvs[s] == null && posted < expected)
                {
                    final Request r = new Request();
                    r.buf = elan_allocMain(base.state, 64, MAX_PACKET);
                    check(r.buf != 0, "no memory for a receive");
                    r.order = posted;
                    r.gate = -1;
                    final Request other = recvs[1 - s];
                    // a receive for a known gate only when no receive for anyone is pending, which could take
                    // the packet it counts on
                    if (posted % 2 == 0 && (other == null || other.gate >= 0))
                    {
                        for (int i = 0; i < nvp - 1 && r.gate < 0; i++)
                        {
                            final int g = (posted / 2 + i) % (nvp - 1);
                            if (claimed[peerOfGate[g]] < PACKETS)
                            {
                                r.gate = g;
                            }
                        }
                    }
                    if (r.gate >= 0)
                    {
                        claimed[peerOfGate[r.gate]]++;
                        r.ev = elan_tportRxStart(port, 0, -1, peerOfGate[r.gate], -1, DATA_TAG, r.buf, MAX_PACKET);
                    }
                    else
                    {
                        r.ev = elan_tportRxStart(port, 0, 0, 0, -1, DATA_TAG, r.buf, MAX_PACKET);
                    }
                    recvs[s] = r;
                    posted++;
                }
            }
            // the pending receives in posting order, up to the first not done: a sender's packets match them in
            // that order, though a small one may complete before a big one matched earlier
            final int first = recvs[0] != null && recvs[1] != null && recvs[1].order < recvs[0].order ? 1 : 0;
            for (int j = 0; j < 2; j++)
            {
                final int s = (first + j) % 2;
                if (recvs[s] == null)
                {
                    continue;
                }
                if (!elan_done(recvs[s].ev, 0))
                {
                    break;
                }
                {
                    final int[] remote = new int[1];
                    elan_tportRxWait(recvs[s].ev, remote, null, null);
                    final Request r = recvs[s];
                    check(remote[0] >= 0 && remote[0] < nvp && remote[0] != me, "sender " + remote[0]);
                    if (r.gate >= 0)
                    {
                        check(peerOfGate[r.gate] == remote[0], "a receive for gate " + r.gate + " got sender " + remote[0]);
                    }
                    else
                    {
                        // a gate-less receive: the sender names the gate
                        check(gateOf[remote[0]] >= 0, "a packet from " + remote[0] + ", which never connected");
                        claimed[remote[0]]++;
                    }
                    final int k = expectNext[remote[0]]++;
                    final int len = NMAD_SIZES[(k + remote[0] + me) % NMAD_SIZES.length];
                    checkData(r.buf, remote[0], k, 0, len);
                    elan_free(base.state, r.buf);
                    recvs[s] = null;
                    received++;
                }
            }
        }
        for (int p = 0; p < nvp; p++)
        {
            check(p == me || expectNext[p] == PACKETS, expectNext[p] + " packets from " + p + ", expected " + PACKETS);
        }
    }

    // ------------------------------------------------------------------ Madeleine 3

    static final int MESSAGES = 1050;
    static final int[] MAD_SIZES = {1, 64, 300, 2000, 8, 40_000, 100, 4};
    static final int SLOW_PACKET = ASYNC_PACKETS + 1;

    static void mad3(final boolean probing)
    {
        final int peer = me ^ 1;
        if (peer >= nvp)
        {
            return;
        }
        final boolean sender = me % 2 == 0;
        final int messages = probing ? 60 : MESSAGES;
        if (sender)
        {
            int packets = 0;
            for (int k = 0; k < messages; k++)
            {
                final int len = MAD_SIZES[k % MAD_SIZES.length];
                final long buf = filled(k, len);
                int off = 0;
                final int first = probing ? len : Math.min(len, FIRST_PACKET);
                while (off < len)
                {
                    final int n = off == 0 ? first : len - off;
                    int flags = 0;
                    packets++;
                    if (packets > ASYNC_PACKETS)
                    {
                        packets = 0;
                        flags |= ELAN_TPORT_TXSYNC;
                    }
                    final long t0 = elan_clock(base.state);
                    elan_tportTxWait(elan_tportTxStart(port, flags, peer, me, 0, buf + off, n));
                    final long waited = elan_clock(base.state) - t0;
                    if (flags != 0)
                    {
                        // the receiver computes 500 us before it posts the receive this packet needs
                        check(waited > 300_000, "the TXSYNC packet was done after " + waited + " ns, before its match");
                    }
                    off += n;
                }
                elan_free(base.state, buf);
            }
            return;
        }
        final long firstBuf = elan_allocMain(base.state, 64, FIRST_PACKET);
        final long[] size = new long[1];
        final int[] from = new int[1];
        final int[] tag = new int[1];
        int packets = 0;
        for (int k = 0; k < messages; k++)
        {
            final int len = MAD_SIZES[k % MAD_SIZES.length];
            final long buf = elan_allocMain(base.state, 64, Math.max(8, len));
            if (probing)
            {
                if (k % 2 == 0)
                {
                    final ElanEvent probe = elan_tportRxStart(port, ELAN_TPORT_RXANY | ELAN_TPORT_RXPROBE, 0, 0, 0, 0, 0, 0);
                    elan_tportRxWait(probe, from, null, size);
                }
                else
                {
                    while (!elan_tportRxPoll(port, 0, 0, 0, 0, from, tag, size))
                    {
                        // spin
                    }
                    check(tag[0] == 0, "RxPoll: tag " + tag[0]);
                }
                check(from[0] == peer && size[0] == len, "message " + k + " announced from " + from[0] + ", " + size[0]
                    + " B");
                final long d = elan_tportRxWait(elan_tportRxStart(port, 0, -1, from[0], 0, 0, buf, len), null, null, size);
                check(d == buf && size[0] == len, "message " + k + ": " + size[0] + " B");
                checkData(buf, peer, k, 0, len);
                elan_free(base.state, buf);
                continue;
            }
            packets++;
            if (packets > ASYNC_PACKETS)
            {
                packets = 0;
                final long end = elan_clock(base.state) + 500_000;
                while (elan_clock(base.state) < end)
                {
                    // busy elsewhere
                }
            }
            final long data = elan_tportRxWait(elan_tportRxStart(port, ELAN_TPORT_RXANY, 0, 0, 0, 0, firstBuf, FIRST_PACKET),
                from, null, size);
            final int first = Math.min(len, FIRST_PACKET);
            check(from[0] == peer, "message " + k + " from " + from[0]);
            check(size[0] == first, "message " + k + ": first packet of " + size[0] + " B, expected " + first);
            final byte[] packet = new byte[first];
            base.ctx().read(data, packet, 0, first);
            base.ctx().write(buf, packet, 0, first);
            if (data != firstBuf)
            {
                elan_tportBufFree(port, data);
            }
            if (first < len)
            {
                packets++;
                if (packets > ASYNC_PACKETS)
                {
                    packets = 0;
                    final long end = elan_clock(base.state) + 500_000;
                    while (elan_clock(base.state) < end)
                    {
                        // busy elsewhere
                    }
                }
                final long d = elan_tportRxWait(elan_tportRxStart(port, 0, -1, from[0], 0, 0, buf + first, len - first), null,
                    null, size);
                check(d == buf + first && size[0] == len - first, "message " + k + ": second packet of " + size[0] + " B");
            }
            checkData(buf, peer, k, 0, len);
            elan_free(base.state, buf);
        }
    }
}
