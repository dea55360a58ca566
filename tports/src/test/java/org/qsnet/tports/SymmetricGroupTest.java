package org.qsnet.tports;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.qsnet.elan.ElanBase;
import org.qsnet.elan.ElanGroup;
import org.qsnet.elan3.Elan3;
import org.qsnet.elan3.Prun;
import org.qsnet.fabric.machine.PlatformProfile;

/**
 * Groups made after start-up work whatever each process allocated privately since: their
 * collective events and {@code elan_gallocElan} memory come from a symmetric Elan heap, as the
 * remote sets of the collectives need (an MPI's communicator split after Tports is in use).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SymmetricGroupTest
{
    @Test
    void shouldRunCollectivesOnAGroupMadeAfterPrivateElanAllocations()
    {
        final long[] gallocd = new long[5];
        final long[] sums = new long[5];
        Prun.run(PlatformProfile.pentium3He(), new Prun.Options(5, 5, false, 0, Map.of()), (p, a) ->
        {
            final ElanBase base = ElanBase.baseInit(0);
            final Tport tp = Tport.init(base);
            final int me = base.vp();
            // each process allocates a different amount of Elan memory privately
            base.allocElan(64, 64L * (me + 1) * 7);
            tp.txStart(0, (me + 1) % 5, me, 1, base.allocMain(64, 64), 8).txWait();
            tp.rxStart(0, 0, 0, -1, 1, base.allocMain(64, 64), 8).rxWait();
            // a new group of every process, in reverse order (every member calls, in the same order)
            final ElanGroup g = base.group(new int[] {4, 3, 2, 1, 0});
            gallocd[me] = base.gallocElan(g, 64, 256);
            final long buf = base.allocMain(64, 64);
            final long dst = base.allocMain(64, 64);
            for (int round = 0; round < 3; round++)
            {
                base.gsync(g);
                base.ctx().putLong(buf, me + 1);
                base.reduce(g, buf, dst, 1, 8, (in, inout, count, size) ->
                {
                    final java.nio.ByteBuffer x = java.nio.ByteBuffer.wrap(in).order(java.nio.ByteOrder.nativeOrder());
                    final java.nio.ByteBuffer y = java.nio.ByteBuffer.wrap(inout).order(java.nio.ByteOrder.nativeOrder());
                    y.putLong(0, y.getLong(0) + x.getLong(0));
                }, 0, ElanBase.ELAN_RESULT_ALL);
                // (a barrier first: back-to-back broadcasts from different roots race, see the README)
                base.gsync(g);
                base.bcast(g, dst, 8, g.size() - 1);
                sums[me] = base.ctx().getLong(dst);
            }
            base.waitAll(Elan3.ELAN_POLL_EVENT);
        }).throwIfFailed();
        for (int r = 0; r < 5; r++)
        {
            assertEquals(gallocd[0], gallocd[r], "elan_gallocElan gives one address to every member");
            assertEquals(15, sums[r], "allreduce then bcast on the new group at VP " + r);
        }
    }
}
