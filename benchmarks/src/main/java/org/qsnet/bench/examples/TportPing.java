package org.qsnet.bench.examples;

import static org.qsnet.elan.Elanlib.*;
import static org.qsnet.tports.Tports.*;

import org.qsnet.elan.ElanBase;
import org.qsnet.elan.ElanQueue;
import org.qsnet.tports.Tport;

/**
 * A Tports ping-pong written with the C-named calls, as a port of legacy libelan code keeps them.
 *
 * <pre>./prun -n 2 -t org.qsnet.bench.examples.TportPing 8 100</pre>
 */
public final class TportPing
{
    private TportPing()
    {
    }

    /**
     * @param args message size (default 0) and iterations (default 100).
     */
    public static void main(final String[] args)
    {
        final int size = args.length > 0 ? Integer.parseInt(args[0]) : 0;
        final int iterations = args.length > 1 ? Integer.parseInt(args[1]) : 100;
        final ElanBase base = elan_baseInit(0);
        final ElanQueue q = elan_gallocQueue(base, base.allGroup);
        final Tport tp = elan_tportInit(base.state, q, base.tport_nslots, base.tport_smallmsg, base.tport_bigmsg,
            base.tport_stripemsg, base.waitType, base.retryCount, base.shm_key, base.shm_fifodepth, base.shm_fragsize,
            base.tport_flags);
        final int me = base.state.vp;
        final int peer = 1 - me;
        final long buf = elan_allocMain(base, 64, Math.max(64, size));
        elan_gsync(base.allGroup);
        final long start = elan_clock(base);
        for (int i = 0; i < iterations; i++)
        {
            if (me == 0)
            {
                elan_tportTxWait(elan_tportTxStart(tp, 0, peer, me, 7, buf, size));
                elan_tportRxWait(elan_tportRxStart(tp, 0, -1, peer, -1, 7, buf, size), null, null, null);
            }
            else
            {
                final int[] tag = new int[1];
                final long[] got = new long[1];
                elan_tportRxWait(elan_tportRxStart(tp, 0, -1, peer, -1, 7, buf, size), null, tag, got);
                elan_tportTxWait(elan_tportTxStart(tp, 0, peer, me, tag[0], buf, got[0]));
            }
        }
        if (me == 0)
        {
            System.out.printf("%d bytes: %.3f us half round trip%n", size, (elan_clock(base) - start) / 1000.0 / iterations / 2);
        }
    }
}
