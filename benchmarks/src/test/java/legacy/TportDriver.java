package legacy;

import static org.qsnet.elan.Elanlib.elan_allocMain;
import static org.qsnet.elan.Elanlib.elan_baseInit;
import static org.qsnet.elan.Elanlib.elan_gallocQueue;
import static org.qsnet.elan.Elanlib.elan_gsync;
import static org.qsnet.tports.Tports.ELAN_TPORT_RXANY;
import static org.qsnet.tports.Tports.ELAN_TPORT_RXBUF;
import static org.qsnet.tports.Tports.ELAN_TPORT_RXPROBE;
import static org.qsnet.tports.Tports.ELAN_TPORT_TXSYNC;
import static org.qsnet.tports.Tports.elan_tportBufFree;
import static org.qsnet.tports.Tports.elan_tportInit;
import static org.qsnet.tports.Tports.elan_tportRxDone;
import static org.qsnet.tports.Tports.elan_tportRxPoll;
import static org.qsnet.tports.Tports.elan_tportRxStart;
import static org.qsnet.tports.Tports.elan_tportRxWait;
import static org.qsnet.tports.Tports.elan_tportTxDone;
import static org.qsnet.tports.Tports.elan_tportTxStart;
import static org.qsnet.tports.Tports.elan_tportTxWait;

import java.util.ArrayList;
import java.util.List;

import org.qsnet.elan.ElanBase;
import org.qsnet.elan.ElanEvent;
import org.qsnet.elan.ElanQueue;
import org.qsnet.tports.Tport;

/**
 * A Tports driver of a messaging middleware in the manner of NewMadeleine's and Madeleine's qsnet
 * drivers, ported from ELAN-API.md §2.6: {@code elan_tportInit} with the 12 arguments of 1.4.8
 * taken from the base's tunables, every rank sending to every other rank messages of many sizes
 * (inline, synchronous, fragmented; every third one {@code ELAN_TPORT_TXSYNC}), receives posted
 * with an exact sender or any sender and an exact tag, a probe phase ({@code ELAN_TPORT_RXPROBE}
 * for some peers, {@code elan_tportRxPoll} for the others, then a receive of the probed size), and
 * {@code ELAN_TPORT_RXANY | ELAN_TPORT_RXBUF} receives with all-zero masks for the rest. Every
 * send and receive event is kept in one list of {@code ELAN_EVENT} and completed by a loop polling
 * {@code elan_tportTxDone}/{@code elan_tportRxDone}, then {@code TxWait}/{@code RxWait}.
 *
 * <p>Prints per rank: {@code tports: rank R received N messages, B bytes, crc sum X}.
 */
public final class TportDriver
{
    // C globals
    static ElanBase base;
    static Tport tp;
    static int me;
    static int nvp;

    static final int[] SIZES = {0, 1, 8, 100, 287, 288, 1000, 4096, 20000, 70000};
    static final int PROBE_TAG = 100;
    static final int ANY_TAG = 200;

    /** What one event in the list stands for (C: a struct with the ELAN_EVENT * and the request). */
    record Req(ElanEvent ev, boolean send, int from, int tag, long buf, int len) {}

    private TportDriver()
    {
    }

    /**
     * @param args unused.
     */
    public static void main(final String[] args)
    {
        base = elan_baseInit(0);
        me = base.state.vp;
        nvp = base.state.nvp;
        final ElanQueue q = elan_gallocQueue(base, base.allGroup);
        tp = elan_tportInit(base.state, q, base.tport_nslots, base.tport_smallmsg, base.tport_bigmsg, base.tport_stripemsg,
            base.waitType, base.retryCount, base.shm_key, base.shm_fifodepth, base.shm_fragsize, base.tport_flags);
        if (tp == null)
        {
            throw new IllegalStateException("elan_tportInit failed");
        }
        final List<Req> pending = new ArrayList<>();

        // receives first: even sizes from an exact sender, odd sizes from any sender (the tag is exact)
        for (int from = 0; from < nvp; from++)
        {
            if (from == me)
            {
                continue;
            }
            for (int k = 0; k < SIZES.length; k++)
            {
                final long buf = elan_allocMain(base.state, 64, Math.max(1, SIZES[k]));
                final ElanEvent ev = k % 2 == 0
                    ? elan_tportRxStart(tp, 0, -1, from, -1, k, buf, SIZES[k])
                    : elan_tportRxStart(tp, 0, 0, 0, -1, k, buf, SIZES[k]);
                pending.add(new Req(ev, false, k % 2 == 0 ? from : -1, k, buf, SIZES[k]));
            }
        }
        elan_gsync(base.allGroup);

        // sends: every size to every peer, then a probed message and an RXANY message
        for (int i = 1; i < nvp; i++)
        {
            final int to = (me + i) % nvp;
            for (int k = 0; k < SIZES.length; k++)
            {
                pending.add(send(k % 3 == 0 ? ELAN_TPORT_TXSYNC : 0, to, k, SIZES[k]));
            }
            pending.add(send(0, to, PROBE_TAG, probeSize(me)));
            pending.add(send(0, to, ANY_TAG, anySize(me, to)));
        }

        // probe phase: learn the size, then receive exactly that much
        final int[] sender = new int[1];
        final int[] tag = new int[1];
        final long[] size = new long[1];
        for (int from = 0; from < nvp; from++)
        {
            if (from == me)
            {
                continue;
            }
            if (from % 2 == 0)
            {
                final ElanEvent probe = elan_tportRxStart(tp, ELAN_TPORT_RXPROBE, -1, from, -1, PROBE_TAG, 0, 0);
                elan_tportRxWait(probe, sender, tag, size);
            }
            else
            {
                while (!elan_tportRxPoll(tp, -1, from, -1, PROBE_TAG, sender, tag, size))
                {
                    // spin until the message is there
                }
            }
            if (sender[0] != from || tag[0] != PROBE_TAG || size[0] != probeSize(from))
            {
                throw new IllegalStateException("rank " + me + ": probe for " + from + " saw sender " + sender[0] + " tag "
                    + tag[0] + " size " + size[0]);
            }
            final long buf = elan_allocMain(base.state, 64, size[0]);
            pending.add(new Req(elan_tportRxStart(tp, 0, -1, from, -1, PROBE_TAG, buf, size[0]), false, from, PROBE_TAG,
                buf, (int)size[0]));
        }
        // now only the ANY_TAG messages are unmatched: catch them with RXANY and all-zero masks
        for (int i = 1; i < nvp; i++)
        {
            final long buf = elan_allocMain(base.state, 64, 512);
            pending.add(new Req(elan_tportRxStart(tp, ELAN_TPORT_RXANY | ELAN_TPORT_RXBUF, 0, 0, 0, 0, buf, 512), false, -1,
                ANY_TAG, buf, 512));
        }

        // one completion loop over one list of ELAN_EVENT
        long crcSum = 0;
        long bytes = 0;
        int received = 0;
        while (!pending.isEmpty())
        {
            for (int i = 0; i < pending.size(); i++)
            {
                final Req r = pending.get(i);
                if (r.send())
                {
                    if (elan_tportTxDone(r.ev()))
                    {
                        elan_tportTxWait(r.ev());
                        pending.remove(i--);
                    }
                }
                else if (elan_tportRxDone(r.ev()))
                {
                    final long data = elan_tportRxWait(r.ev(), sender, tag, size);
                    final int from = sender[0];
                    final int t = tag[0];
                    final int len = (int)size[0];
                    final int want = t == PROBE_TAG ? probeSize(from) : t == ANY_TAG ? anySize(from, me)
                        : t >= 0 && t < SIZES.length ? SIZES[t] : -1;
                    if (r.from() >= 0 && from != r.from() || r.tag() != t || len != want)
                    {
                        throw new IllegalStateException("rank " + me + ": receive for sender " + r.from() + " tag " + r.tag()
                            + " got sender " + from + " tag " + t + " size " + len + " (expected size " + want + ")");
                    }
                    final byte[] got = new byte[len];
                    base.ctx().read(data, got, 0, len);
                    final long crc = Payload.crc(got, 0, len);
                    if (crc != Payload.crc(from, me, t, len))
                    {
                        throw new IllegalStateException("rank " + me + ": message tag " + t + " of " + len + " B from " + from
                            + ": checksum mismatch");
                    }
                    if (data != r.buf())
                    {
                        elan_tportBufFree(tp, data);
                    }
                    crcSum += crc;
                    bytes += len;
                    received++;
                    pending.remove(i--);
                }
            }
        }
        elan_gsync(base.allGroup);
        System.out.printf("tports: rank %d received %d messages, %d bytes, crc sum %x%n", me, received, bytes, crcSum);
    }

    private static Req send(final int flags, final int to, final int tag, final int len)
    {
        final long buf = elan_allocMain(base.state, 64, Math.max(1, len));
        base.ctx().write(buf, Payload.bytes(me, to, tag, len), 0, len);
        final ElanEvent ev = elan_tportTxStart(tp, flags, to, me, tag, buf, len);
        if (ev == null)
        {
            throw new IllegalStateException("elan_tportTxStart failed");
        }
        return new Req(ev, true, me, tag, buf, len);
    }

    static int probeSize(final int from)
    {
        return 300 + 50 * from;
    }

    static int anySize(final int from, final int to)
    {
        return 16 + 8 * from + to;
    }
}
