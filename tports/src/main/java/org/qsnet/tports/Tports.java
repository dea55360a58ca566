package org.qsnet.tports;

import org.qsnet.elan.ElanBase;

/**
 * The C-named facade of the Tports calls of libelan; out-parameters of
 * {@code elan_tportRxWait} and {@code elan_tportRxPoll} come back in a {@link Tport.RxResult}.
 *
 * <pre>
 * import static org.qsnet.tports.Tports.*;
 * Tport tp = elan_tportInit(base, 64, 288, 65536, 0, Elan3.ELAN_POLL_EVENT, 63, 0, 0, 0, 0);
 * RxEvent rx = elan_tportRxStart(tp, 0, 0, 0, -1, TAG, buf, len);
 * Tport.RxResult r = elan_tportRxWait(rx);        // r.sender(), r.tag(), r.size(), r.data()
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

    /** @see Tport#init(ElanBase, int, int, int, int, long, int, int, int, int, int) @return the port. */
    public static Tport elan_tportInit(final ElanBase state, final int nslots, final int smallmsg, final int bigmsg,
        final int stripemsg, final long waitType, final int retryCount, final int shmKey, final int shmFifoDepth,
        final int shmFragSize, final int flags)
    {
        return Tport.init(state, nslots, smallmsg, bigmsg, stripemsg, waitType, retryCount, shmKey, shmFifoDepth,
            shmFragSize, flags);
    }

    /** @see Tport#txStart(int, int, int, int, long, int) @return the event. */
    public static TxEvent elan_tportTxStart(final Tport tp, final int flags, final int destVp, final int myVp, final int tag,
        final long buf, final int len)
    {
        return tp.txStart(flags, destVp, myVp, tag, buf, len);
    }

    /** @see TxEvent#txDone() @return whether complete. */
    public static boolean elan_tportTxDone(final TxEvent e)
    {
        return e.txDone();
    }

    /** @see TxEvent#txWait() */
    public static void elan_tportTxWait(final TxEvent e)
    {
        e.txWait();
    }

    /** @see Tport#rxStart(int, int, int, int, int, long, int) @return the event. */
    public static RxEvent elan_tportRxStart(final Tport tp, final int flags, final int senderMask, final int senderSel,
        final int tagMask, final int tagSel, final long buf, final int len)
    {
        return tp.rxStart(flags, senderMask, senderSel, tagMask, tagSel, buf, len);
    }

    /** @see RxEvent#rxDone() @return whether complete. */
    public static boolean elan_tportRxDone(final RxEvent e)
    {
        return e.rxDone();
    }

    /** @see RxEvent#rxWait() @return sender, tag, size and data address. */
    public static Tport.RxResult elan_tportRxWait(final RxEvent e)
    {
        return e.rxWait();
    }

    /** @see Tport#rxPoll(int, int, int, int) @return the waiting message, or null. */
    public static Tport.RxResult elan_tportRxPoll(final Tport tp, final int senderMask, final int senderSel,
        final int tagMask, final int tagSel)
    {
        return tp.rxPoll(senderMask, senderSel, tagMask, tagSel);
    }

    /** @see Tport#bufFree(long) */
    public static void elan_tportBufFree(final Tport tp, final long buf)
    {
        tp.bufFree(buf);
    }

    /** @see Tport#getStats() @return the counters. */
    public static Tport.TportStats elan_tportGetStats(final Tport tp)
    {
        return tp.getStats();
    }
}
