package org.qsnet.tports;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.qsnet.elan.ElanBase;
import org.qsnet.elan3.ElanMain;
import org.qsnet.elan3.Prun;
import org.qsnet.fabric.QsnetException;
import org.qsnet.fabric.machine.PlatformProfile;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class TportCancelTest
{
    private static void run(final int procs, final int nodes, final ElanMain main)
    {
        Prun.run(PlatformProfile.pentium3He(), new Prun.Options(procs, nodes, false, 0, Map.of()), main).throwIfFailed();
    }

    /** A cancelled receive never takes the message: the next matching receive does, and the buffer stays as it was. */
    @ParameterizedTest(name = "{0} bytes")
    @ValueSource(ints = {8, 1000})
    void shouldWithdrawAnUnmatchedReceiveSoTheMessageGoesToTheNextOne(final int len)
    {
        for (final int nodes : new int[] {2, 1})
        {
            run(2, nodes, (p, a) ->
            {
                final ElanBase base = ElanBase.baseInit(0);
                final Tport tp = Tport.init(base);
                final long buf = base.allocMain(64, 1024);
                final long other = base.allocMain(64, 1024);
                if (base.vp() == 1)
                {
                    base.ctx().putInt(buf, 0x5eed);
                    final RxEvent first = tp.rxStart(0, -1, 0, -1, 7, buf, len);
                    final long before = p.nowNs();
                    assertTrue(tp.rxCancel(first), "an unmatched receive is withdrawn");
                    assertTrue(p.nowNs() > before, "the cancel costs simulated time");
                    assertTrue(first.cancelled());
                    assertTrue(first.rxDone(), "a withdrawn receive's event is complete");
                    assertEquals(new Tport.RxResult(-1, 0, 0, 0), first.rxWait());
                    // tell VP 0 to send now; the message must reach the second receive
                    base.ctx().putInt(other, 0);
                    tp.txStart(0, 0, 1, 1, other, 4).txWait();
                    final Tport.RxResult r = tp.rxStart(0, -1, 0, -1, 7, other, len).rxWait();
                    assertEquals(len, r.size());
                    assertEquals(0xabcd, base.ctx().getInt(other));
                    assertEquals(0x5eed, base.ctx().getInt(buf), "the cancelled receive's buffer is untouched");
                }
                else
                {
                    tp.rxStart(0, -1, 1, -1, 1, buf, 4).rxWait();
                    base.ctx().putInt(buf, 0xabcd);
                    tp.txStart(0, 1, 0, 7, buf, len).txWait();
                }
            });
        }
    }

    @Test
    void shouldNotWithdrawAReceiveAMessageHasMatched()
    {
        run(2, 2, (p, a) ->
        {
            final ElanBase base = ElanBase.baseInit(0);
            final Tport tp = Tport.init(base);
            final long buf = base.allocMain(64, 64);
            if (base.vp() == 0)
            {
                base.ctx().putInt(buf, 99);
                tp.txStart(0, 1, 0, 3, buf, 4).txWait();
            }
            else
            {
                p.sim().advance(50_000);
                final RxEvent rx = tp.rxStart(0, -1, 0, -1, 3, buf, 4);
                assertFalse(tp.rxCancel(rx), "the buffered message matched at the post");
                assertFalse(rx.cancelled());
                assertEquals(new Tport.RxResult(0, 3, 4, buf), rx.rxWait());
                assertEquals(99, base.ctx().getInt(buf));
                assertThrows(QsnetException.class, () -> tp.rxCancel(rx), "a consumed receive cannot be cancelled");
            }
        });
    }

    @Test
    void shouldWithdrawAnRxBufReceiveWithoutHandingOutABuffer()
    {
        run(1, 1, (p, a) ->
        {
            final ElanBase base = ElanBase.baseInit(0);
            final Tport tp = Tport.init(base);
            for (int i = 0; i < 3; i++)
            {
                final RxEvent rx = tp.rxStart(Tport.RX_BUF, -1, 0, -1, 1, 0, 0);
                assertTrue(tp.rxCancel(rx));
                assertEquals(new Tport.RxResult(-1, 0, 0, 0), rx.rxWait());
            }
        });
    }
}
