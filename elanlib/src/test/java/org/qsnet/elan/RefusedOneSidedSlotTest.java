package org.qsnet.elan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Collection;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.qsnet.elan3.Prun;
import org.qsnet.fabric.QsnetException;
import org.qsnet.fabric.machine.PlatformProfile;

/** A refused put or get leaves no slot behind (found by a review of e3db046): a small put whose source the CPU cannot read, a get from unmapped memory. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class RefusedOneSidedSlotTest
{
    private static int slots(final ElanBase base) throws ReflectiveOperationException
    {
        final var f = ElanBase.class.getDeclaredField("oneSided");
        f.setAccessible(true);
        final Object os = f.get(base);
        int n = 0;
        for (final String name : new String[] {"free", "busy"})
        {
            final var g = OneSided.class.getDeclaredField(name);
            g.setAccessible(true);
            n += ((Collection<?>)g.get(os)).size();
        }
        return n;
    }

    @Test
    void aSmallPutFromAnAddressOutsideTheProcessLeavesNoSlotBehind()
    {
        Prun.run(PlatformProfile.xeonGc(), new Prun.Options(2, 2, false, 0, Map.of()), (p, a) ->
        {
            final ElanBase base = ElanBase.baseInit(0);
            final int me = base.vp();
            final long heap = base.ctx().hostMalloc(8192);
            base.gsync(base.allGroup());
            base.put(heap, heap, 8, 1 - me).waitEvent(base.waitType());
            base.gsync(base.allGroup());
            try
            {
                final int before = slots(base);
                assertThrows(QsnetException.class, () -> base.put(Long.MAX_VALUE / 2, heap, 8, 1 - me));
                assertEquals(before, slots(base), "put slots after a refused small put");
                final long gone = base.ctx().hostMalloc(8192);
                base.ctx().clearpermMain(gone, 8192);
                assertThrows(QsnetException.class, () -> base.get(gone, heap, 8, 1 - me));
                assertEquals(before, slots(base), "slots after a refused get");
            }
            catch (final ReflectiveOperationException e)
            {
                throw new IllegalStateException(e);
            }
            base.gsync(base.allGroup());
        }).throwIfFailed();
    }
}
