package org.qsnet.elan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.qsnet.elan.Elanlib.*;

import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.qsnet.elan3.Elan3;
import org.qsnet.elan3.ElanCapability;
import org.qsnet.elan3.Prun;
import org.qsnet.fabric.model.PlatformProfile;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ElanlibFacadeTest
{
    @Test
    void shouldPortLegacyCallsLineForLine()
    {
        final AtomicInteger progressed = new AtomicInteger();
        Prun.run(PlatformProfile.pentium3He(), new Prun.Options(2, 2, false, 0, Map.of()), (p, a) ->
        {
            final ElanBase base = elan_baseInit(0);
            final int me = base.vp();
            elan_addProgressFn(base, progressed::incrementAndGet);
            assertEquals(0, elan_deviceCheck(base));
            assertTrue(elan_checkVersion("1.4"));
            assertEquals(1, elan_nRails(base));
            assertEquals(2, elan_nvps(base));
            final long m = elan_allocMain(base, 64, 64);
            assertEquals(m, elan_elan2main(base, elan_main2elan(base, m)));
            assertTrue(elan_addressable(base, m, 64));
            final ElanCapability env = elan_getenvCap(base, 0);
            assertEquals(base.capability().lowContext, env.lowContext);
            final ElanCapability gen = elan_generateCapability(base, "N0C1024-1024-1024N0-1R1b");
            assertEquals(2, gen.nvps());
            final long a0 = elan_gallocMain(base, base.allGroup(), 64, 64);
            final long a1 = elan_gallocMain(base, base.allGroup(), 64, 64);
            final long e = elan_gallocElan(base, base.allGroup(), 64, 64);
            assertTrue(e != 0);
            if (me == 0)
            {
                base.ctx().putInt(a0, 11);
                base.ctx().putInt(a1, 22);
                final ElanEvent ev = elan_putv(base, new long[] {a0, a1}, new long[] {a0, a1}, new long[] {4, 4}, 1);
                elan_wait(ev, Elan3.ELAN_POLL_EVENT);
                // a throttle of 1: the second doput waits for the first
                final ElanBase.PutGet pg = elan_putgetInit(base, 64, 1);
                final ElanEvent first = elan_doput(base, pg, a0, a0, 4, 1);
                final ElanEvent second = elan_doput(base, pg, a1, a1, 4, 1);
                assertTrue(first.isConsumed(), "the throttle waited for the first put");
                elan_wait(second, Elan3.ELAN_POLL_EVENT);
            }
            elan_gsync(base, base.allGroup());
            if (me == 1)
            {
                assertEquals(11, base.ctx().getInt(a0));
                assertEquals(22, base.ctx().getInt(a1));
                final long b0 = elan_allocMain(base, 8, 8);
                final long b1 = elan_allocMain(base, 8, 8);
                final ElanEvent g = elan_getv(base, new long[] {a0, a1}, new long[] {b0, b1}, new long[] {4, 4}, 0);
                while (!elan_poll(g, 1))
                {
                    p.sim().advance(100);
                }
                assertTrue(elan_done(g, 0));
                elan_wait(g, Elan3.ELAN_POLL_EVENT);
                assertEquals(11, base.ctx().getInt(b0));
            }
            elan_disable_network(base);
            elan_enable_network(base);
            elan_fini(base, base.allGroup());
        }).throwIfFailed();
        assertTrue(progressed.get() > 0, "progress functions run while the library waits");
    }
}
