package legacy;

import org.qsnet.elan.ElanBase;
import org.qsnet.tports.Tport;

/**
 * A classic porting bug: rank 0 receives tag 7 from rank 1, rank 1 sends tag 9 synchronously.
 * Neither completes.
 */
public final class TportMismatch
{
    private TportMismatch()
    {
    }

    /**
     * @param args unused.
     */
    public static void main(final String[] args)
    {
        final ElanBase base = ElanBase.baseInit(0);
        final Tport tp = Tport.init(base);
        final long buf = base.allocMain(64, 1000);
        if (base.vp() == 0)
        {
            tp.rxStart(0, -1, 1, -1, 7, buf, 64).rxWait();
        }
        else
        {
            tp.txStart(Tport.TX_SYNC, 0, 1, 9, buf, 1000).txWait();
        }
    }
}
