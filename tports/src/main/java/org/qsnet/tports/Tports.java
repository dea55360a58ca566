package org.qsnet.tports;

import org.qsnet.elan.ElanBase;
import org.qsnet.elan.ElanEvent;
import org.qsnet.elan.ElanQueue;
import org.qsnet.elan3.Elan3lib;
import org.qsnet.fabric.QsnetException;

/**
 * The C-named facade of the Tports calls of libelan (ELAN-API.md §2.6, libelan 1.4.8–1.4.14):
 * each method is the C call of the same name, with the catalog's arguments in the catalog's
 * order. Every start call returns the one {@link ElanEvent} type ({@code ELAN_EVENT *}) and every
 * test or wait takes it, so Tports events, puts and queue sends can share a list; the
 * out-parameters of {@code elan_tportRxWait} and {@code elan_tportRxPoll} are arrays whose element
 * 0 is written (null where C passes NULL). C types map as in {@link Elan3lib}.
 *
 * <pre>
 * import static org.qsnet.elan.Elanlib.*;
 * import static org.qsnet.tports.Tports.*;
 * ElanBase base = elan_baseInit(0);
 * ElanQueue q = elan_gallocQueue(base, base.allGroup);
 * Tport tp = elan_tportInit(base.state, q, base.tport_nslots, base.tport_smallmsg, base.tport_bigmsg,
 *     base.tport_stripemsg, base.waitType, base.retryCount, base.shm_key, base.shm_fifodepth,
 *     base.shm_fragsize, base.tport_flags);
 * ElanEvent rx = elan_tportRxStart(tp, 0, 0, 0, -1, TAG, buf, len);
 * int[] sender = new int[1];
 * long[] size = new long[1];
 * long data = elan_tportRxWait(rx, sender, null, size);
 * </pre>
 */
public final class Tports
{
    /** {@code ELAN_TPORT_TXSYNC}. */
    public static final int ELAN_TPORT_TXSYNC = Tport.TX_SYNC;
    /** {@code ELAN_TPORT_RXBUF}. */
    public static final int ELAN_TPORT_RXBUF = Tport.RX_BUF;
    /** {@code ELAN_TPORT_RXANY}. */
    public static final int ELAN_TPORT_RXANY = Tport.RX_ANY;
    /** {@code ELAN_TPORT_RXPROBE}. */
    public static final int ELAN_TPORT_RXPROBE = Tport.RX_PROBE;

    private Tports()
    {
    }

    /**
     * {@code elan_tportInit} (1.4.8 and later: 12 arguments).
     *
     * @see Tport#init(ElanBase, ElanQueue, int, int, int, int, long, int, int, int, int, int)
     * @return the port.
     */
    public static Tport elan_tportInit(final ElanBase state, final ElanQueue q, final int nslots, final int smallmsg,
        final int bigmsg, final int stripemsg, final long waitType, final int retryCount, final int shm_key,
        final int shm_fifodepth, final int shm_fragsize, final int flags)
    {
        return Tport.init(state, q, nslots, smallmsg, bigmsg, stripemsg, waitType, retryCount, shm_key, shm_fifodepth,
            shm_fragsize, flags);
    }

    /**
     * {@code elan_tportTxStart}.
     *
     * @see Tport#txStart(int, int, int, int, long, int)
     * @return the send event.
     */
    public static ElanEvent elan_tportTxStart(final Tport tp, final int flags, final int destVp, final int myVp,
        final int tag, final long buf, final long len)
    {
        return tp.txStart(flags, destVp, myVp, tag, buf, intLen(len));
    }

    /**
     * {@code elan_tportTxDone}.
     *
     * @see TxEvent#txDone()
     * @param e an event from {@link #elan_tportTxStart}.
     * @return whether the send has completed.
     */
    public static boolean elan_tportTxDone(final ElanEvent e)
    {
        return tx(e).txDone();
    }

    /**
     * {@code elan_tportTxWait}: waits for the send and consumes the event.
     *
     * @see TxEvent#txWait()
     * @param e an event from {@link #elan_tportTxStart}.
     */
    public static void elan_tportTxWait(final ElanEvent e)
    {
        tx(e).txWait();
    }

    /**
     * {@code elan_tportRxStart}.
     *
     * @see Tport#rxStart(int, int, int, int, int, long, int)
     * @return the receive event.
     */
    public static ElanEvent elan_tportRxStart(final Tport tp, final int flags, final int senderMask, final int senderSel,
        final int tagMask, final int tagSel, final long buf, final long len)
    {
        return tp.rxStart(flags, senderMask, senderSel, tagMask, tagSel, buf, intLen(len));
    }

    /**
     * {@code elan_tportRxDone}.
     *
     * @see RxEvent#rxDone()
     * @param e an event from {@link #elan_tportRxStart}.
     * @return whether the receive has completed.
     */
    public static boolean elan_tportRxDone(final ElanEvent e)
    {
        return rx(e).rxDone();
    }

    /**
     * {@code elan_tportRxWait}: waits for the message and consumes the event.
     *
     * @see RxEvent#rxWait()
     * @param e      an event from {@link #elan_tportRxStart}.
     * @param sender {@code int *}: receives the sender's VP, or null.
     * @param tag    {@code int *}: receives the tag, or null.
     * @param size   {@code ELAN_SIZE_T *}: receives the size, or null.
     * @return the host address of the data (the posted buffer, or a system buffer with RXBUF, to
     *     free with {@link #elan_tportBufFree}); 0 for RXPROBE.
     */
    public static long elan_tportRxWait(final ElanEvent e, final int[] sender, final int[] tag, final long[] size)
    {
        final Tport.RxResult r = rx(e).rxWait();
        out(r, sender, tag, size);
        return r.data();
    }

    /**
     * {@code elan_tportRxPoll}: whether a matching message waits, without posting a receive.
     *
     * @see Tport#rxPoll(int, int, int, int)
     * @param sender {@code int *}: receives the waiting message's sender, or null.
     * @param tag    {@code int *}: its tag, or null.
     * @param size   {@code size *}: its size, or null.
     * @return whether one waits (the out-parameters are written only then).
     */
    public static boolean elan_tportRxPoll(final Tport tp, final int senderMask, final int senderSel, final int tagMask,
        final int tagSel, final int[] sender, final int[] tag, final long[] size)
    {
        final Tport.RxResult r = tp.rxPoll(senderMask, senderSel, tagMask, tagSel);
        if (r == null)
        {
            return false;
        }
        out(r, sender, tag, size);
        return true;
    }

    /** @see Tport#bufFree(long) */
    public static void elan_tportBufFree(final Tport tp, final long buf)
    {
        tp.bufFree(buf);
    }

    /**
     * {@code elan_tportGetStats}: copies the port's counters into {@code stats}.
     *
     * @see Tport#getStats()
     * @param tp    the port.
     * @param stats {@code ELAN_TPORTSTATS *}: the record filled.
     */
    public static void elan_tportGetStats(final Tport tp, final Tport.TportStats stats)
    {
        tp.getStats().copyInto(stats);
    }

    private static void out(final Tport.RxResult r, final int[] sender, final int[] tag, final long[] size)
    {
        if (sender != null)
        {
            sender[0] = r.sender();
        }
        if (tag != null)
        {
            tag[0] = r.tag();
        }
        if (size != null)
        {
            size[0] = r.size();
        }
    }

    private static TxEvent tx(final ElanEvent e)
    {
        if (e instanceof TxEvent t)
        {
            return t;
        }
        throw new QsnetException("event " + e + " is not a Tports send (from elan_tportTxStart): wait on it with elan_wait");
    }

    private static RxEvent rx(final ElanEvent e)
    {
        if (e instanceof RxEvent r)
        {
            return r;
        }
        throw new QsnetException("event " + e + " is not a Tports receive (from elan_tportRxStart): wait on it with elan_wait");
    }

    private static int intLen(final long len)
    {
        QsnetException.require(len >= 0 && len <= Integer.MAX_VALUE, "len", len, "must be in 0.." + Integer.MAX_VALUE);
        return (int)len;
    }
}
