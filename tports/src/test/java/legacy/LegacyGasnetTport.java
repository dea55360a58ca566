package legacy;

import static org.qsnet.elan.Elanlib.elan_allocMain;
import static org.qsnet.elan.Elanlib.elan_baseInit;
import static org.qsnet.elan.Elanlib.elan_done;
import static org.qsnet.elan.Elanlib.elan_gallocQueue;
import static org.qsnet.elan.Elanlib.elan_gsync;
import static org.qsnet.tports.Tports.ELAN_TPORT_RXANY;
import static org.qsnet.tports.Tports.ELAN_TPORT_RXBUF;
import static org.qsnet.tports.Tports.elan_tportBufFree;
import static org.qsnet.tports.Tports.elan_tportInit;
import static org.qsnet.tports.Tports.elan_tportRxDone;
import static org.qsnet.tports.Tports.elan_tportRxStart;
import static org.qsnet.tports.Tports.elan_tportRxWait;
import static org.qsnet.tports.Tports.elan_tportTxDone;
import static org.qsnet.tports.Tports.elan_tportTxStart;

import org.qsnet.elan.ElanBase;
import org.qsnet.elan.ElanEvent;
import org.qsnet.elan.ElanQueue;
import org.qsnet.tports.Tport;

/**
 * The GASNet elan conduit's Tports path for medium messages too big for a queue slot, call for call:
 * {@code elan_tportInit} (the 1.4.8 form, with the base's fields and a larger {@code bigmsg}), a FIFO
 * of receives posted with {@code ELAN_TPORT_RXBUF | ELAN_TPORT_RXANY} and all-zero masks into the
 * conduit's own buffers, checked at the head with {@code elan_done(evt, 0) && elan_tportRxDone},
 * taken with {@code elan_tportRxWait} (a system buffer given back with {@code elan_tportBufFree})
 * and posted again; a FIFO of send buffers reused once {@code elan_tportTxDone} says so, never
 * waited ("illegal to call TxWait after successful TxDone"), the progress loop run while none is
 * free. Every rank sends 400 B to 8 KB messages to every other; each arrives intact and in order
 * per sender. {@code args[0]} is {@code tport-medium}; rank 0 prints {@code ok tport-medium}.
 */
public final class LegacyGasnetTport
{
    static ElanBase base;
    static Tport tport;
    static int me;
    static int nvp;

    static final int BUFSIZE = 8192 + 64;
    static final int PER_PEER = 40;

    static int nslots;
    static long[] rxBuf;
    static ElanEvent[] rxEvent;
    static int rxHead;
    static long[] txBuf;
    static ElanEvent[] txEvent;
    static int[] next;
    static int received;
    static int systemBuffers;

    private LegacyGasnetTport()
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
        if (!args[0].equals("tport-medium"))
        {
            throw new IllegalArgumentException(args[0]);
        }
        medium();
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
        return (byte)(from * 7 + seq * 29 + i * 3 + (i >>> 8));
    }

    static void post(final int i)
    {
        rxEvent[i] = elan_tportRxStart(tport, ELAN_TPORT_RXBUF | ELAN_TPORT_RXANY, 0, 0, 0, 0, rxBuf[i], BUFSIZE);
        check(rxEvent[i] != null, "elan_tportRxStart returned NULL");
    }

    /** The head of the receive FIFO, if it completed: checked, given back, posted again. */
    static boolean poll()
    {
        final int i = rxHead;
        if (!(elan_done(rxEvent[i], 0) && elan_tportRxDone(rxEvent[i])))
        {
            return false;
        }
        final int[] sender = new int[1];
        final int[] tag = new int[1];
        final long[] size = new long[1];
        final long buf = elan_tportRxWait(rxEvent[i], sender, tag, size);
        final int from = base.ctx().getInt(buf);
        final int seq = base.ctx().getInt(buf + 4);
        check(from == sender[0] && tag[0] == 0, "sender " + sender[0] + " tag " + tag[0] + " for a message from " + from);
        check(from != me && seq == next[from], "message from " + from + " seq " + seq + ", expected " + next[from]);
        final int len = (int)size[0];
        check(len == 400 + (seq * 331 + from * 97) % 7800, "message " + seq + " from " + from + " has " + len + " bytes");
        final byte[] got = new byte[len];
        base.ctx().read(buf, got, 0, len);
        for (int k = 8; k < len; k++)
        {
            check(got[k] == pattern(from, seq, k), "message " + seq + " from " + from + ", byte " + k + " of " + len);
        }
        next[from]++;
        received++;
        if (buf != rxBuf[i])
        {
            systemBuffers++;
            elan_tportBufFree(tport, buf);
        }
        post(i);
        rxHead = (rxHead + 1) % nslots;
        return true;
    }

    /** A send buffer whose last send is done (reaped with elan_tportTxDone only), polling while none is. */
    static int txBuffer()
    {
        for (;;)
        {
            for (int i = 0; i < nslots; i++)
            {
                if (txEvent[i] == null)
                {
                    return i;
                }
                if (elan_tportTxDone(txEvent[i]))
                {
                    txEvent[i] = null;
                    return i;
                }
            }
            poll();
        }
    }

    static void medium()
    {
        final ElanQueue q = elan_gallocQueue(base, base.allGroup);
        check(q != null, "elan_gallocQueue");
        tport = elan_tportInit(base.state, q, base.tport_nslots, base.tport_smallmsg, BUFSIZE, base.tport_stripemsg,
            base.waitType, base.retryCount, base.shm_key, base.shm_fifodepth, base.shm_fragsize, base.tport_flags);
        check(tport != null, "elan_tportInit");
        nslots = Math.min(base.tport_nslots, 16);
        rxBuf = new long[nslots];
        rxEvent = new ElanEvent[nslots];
        txBuf = new long[nslots];
        txEvent = new ElanEvent[nslots];
        next = new int[nvp];
        for (int i = 0; i < nslots; i++)
        {
            rxBuf[i] = elan_allocMain(base.state, 64, BUFSIZE);
            txBuf[i] = elan_allocMain(base.state, 64, BUFSIZE);
            post(i);
        }
        elan_gsync(base.allGroup);
        for (int seq = 0; seq < PER_PEER; seq++)
        {
            for (int k = 1; k < nvp; k++)
            {
                final int dest = (me + k) % nvp;
                while (poll())
                {
                    // serve what waits first, as the conduit's request path does
                }
                final int t = txBuffer();
                final int len = 400 + (seq * 331 + me * 97) % 7800;
                final byte[] b = new byte[len];
                for (int i = 8; i < len; i++)
                {
                    b[i] = pattern(me, seq, i);
                }
                base.ctx().write(txBuf[t], b, 0, len);
                base.ctx().putInt(txBuf[t], me);
                base.ctx().putInt(txBuf[t] + 4, seq);
                txEvent[t] = elan_tportTxStart(tport, 0, dest, me, 0, txBuf[t], len);
                check(txEvent[t] != null, "elan_tportTxStart returned NULL");
            }
        }
        while (received < PER_PEER * (nvp - 1))
        {
            poll();
        }
        for (int i = 0; i < nslots; i++)
        {
            while (txEvent[i] != null && !elan_tportTxDone(txEvent[i]))
            {
                poll();
            }
        }
    }
}
