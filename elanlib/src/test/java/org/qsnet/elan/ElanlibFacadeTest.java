package org.qsnet.elan;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.qsnet.elan.Elanlib.*;

import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.qsnet.elan3.Elan3;
import org.qsnet.elan3.Elan3lib;
import org.qsnet.elan3.ElanCapability;
import org.qsnet.elan3.ElanMain;
import org.qsnet.elan3.ElanProcess;
import org.qsnet.elan3.Prun;
import org.qsnet.fabric.QsnetException;
import org.qsnet.fabric.machine.PlatformProfile;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ElanlibFacadeTest
{
    private static void run(final int procs, final Map<String, String> env, final ElanMain main)
    {
        Prun.run(PlatformProfile.pentium3He(), new Prun.Options(procs, procs, false, 0, env), main).throwIfFailed();
    }

    @Test
    void shouldPortLegacyCallsLineForLine()
    {
        final AtomicInteger progressed = new AtomicInteger();
        final Object handle = new Object();
        run(2, Map.of(), (p, a) ->
        {
            final ElanBase base = elan_baseInit(0);
            final int me = base.state.vp();
            elan_addProgressFn(base, (h, ready) ->
            {
                assertSame(handle, h);
                return progressed.incrementAndGet();
            }, handle);
            assertEquals(0, elan_deviceCheck(base));
            assertTrue(elan_checkVersion("1.4"));
            assertEquals(1, elan_nRails(base));
            assertEquals(2, elan_nvps(base.capability()));
            final long m = elan_allocMain(base, 64, 64);
            assertEquals(m, elan_elan2main(base, elan_main2elan(base, m)));
            assertTrue(elan_addressable(base, m, 64));
            final long s = elan_allocElan(base, 64, 64);
            assertEquals(s, elan_elan2sdram(base, elan_sdram2elan(base, s)), "elan2sdram inverts sdram2elan");
            assertEquals(0, elan_elan2sdram(base, elan_main2elan(base, m)), "main memory is not SDRAM");
            final ElanCapability env = new ElanCapability();
            assertEquals(0, elan_getenvCap(env, 0));
            assertEquals(base.capability().lowContext, env.lowContext);
            final long a0 = elan_gallocMain(base, base.allGroup, 64, 64);
            final long a1 = elan_gallocMain(base, base.allGroup, 64, 64);
            final long qMem = elan_gallocElan(base, base.allGroup, 64, elan_pgvGlobalMemSize(base));
            assertTrue(qMem != 0);
            // the 1.4.8 put/get engine with a throttle of 1: the second doput waits for the first
            final ElanBase.PutGet pg = elan_putgetInit(base, qMem, 64, 0, 0, 1, 0);
            if (me == 0)
            {
                base.ctx().putInt(a0, 11);
                base.ctx().putInt(a1, 22);
                final ElanEvent ev = elan_putv(pg, new long[] {a0, a1, 0}, new long[] {a0, a1, 0}, new long[] {4, 4, 0}, 2, 1);
                elan_wait(ev, Elan3.ELAN_POLL_EVENT);
                final ElanEvent first = elan_doput(pg, a0, a0, 0, 4, 1, 0);
                final ElanEvent second = elan_doput(pg, a1, a1, 0, 4, 1, 0);
                // the throttle waited for the first put, and left its event to the program
                assertTrue(!first.isConsumed() && first.done(), "the throttle did not wait for the first put, or consumed its event");
                elan_wait(first, Elan3.ELAN_POLL_EVENT);
                elan_wait(second, Elan3.ELAN_POLL_EVENT);
            }
            elan_gsync(base.allGroup);
            if (me == 1)
            {
                assertEquals(11, base.ctx().getInt(a0));
                assertEquals(22, base.ctx().getInt(a1));
                final long b0 = elan_allocMain(base, 8, 8);
                final long b1 = elan_allocMain(base, 8, 8);
                final ElanEvent g = elan_getv(pg, new long[] {a0, a1}, new long[] {b0, b1}, new long[] {4, 4}, 2, 0);
                while (!elan_poll(g, 1))
                {
                    p.sim().advance(100);
                }
                assertTrue(elan_done(g, 0));
                elan_wait(g, Elan3.ELAN_POLL_EVENT);
                assertEquals(11, base.ctx().getInt(b0));
                assertEquals(22, base.ctx().getInt(b1));
            }
            // collectives take the group only
            final long buf = elan_gallocMain(base, base.allGroup, 64, 64);
            if (me == 1)
            {
                base.ctx().putInt(buf, 77);
            }
            elan_bcast(base.allGroup, buf, 4, 1, 0);
            assertEquals(77, base.ctx().getInt(buf));
            elan_hgsync(base.allGroup);
            elan_disable_network(base);
            elan_enable_network(base);
            elan_fini(base, base.allGroup, ElanBase.LIBELAN_FINI_GROUP);
        });
        assertTrue(progressed.get() > 0, "progress functions run while the library waits");
    }

    @Test
    void shouldUseTheCapabilityHelpersBeforeBaseInit()
    {
        run(4, Map.of(), (p, a) ->
        {
            // MPICH and NewMadeleine: generate the capability string, then elan_baseInit
            assertEquals(0, elan_generateCapability("N0C2-2-3N0-1R1b"));
            assertEquals("N0C2-2-3N0-1R1b", p.getenv("LIBELAN_ECAP0"), "exported for elan_baseInit");
            final ElanCapability cap = new ElanCapability();
            elan_nullcap(cap);
            assertEquals(0, elan_getenvCap(cap, 0));
            assertEquals(4, elan_nvps(cap));
            assertEquals(2, elan_maxlocal(cap));
            assertEquals(2, elan_nlocal(1, cap));
            final int[] vps = new int[4];
            assertEquals(2, elan_localvps(1, cap, vps, 4));
            assertArrayEquals(new int[] {2, 3, 0, 0}, vps);
            assertEquals(3, elan_location2vp(elan_vp2location(3, cap), cap));
            final int[] rails = new int[1];
            assertEquals(1, elan_nrails(cap));
            assertEquals(1, elan_rails(cap, rails));
            assertEquals(0, rails[0]);
            final StringBuilder text = new StringBuilder("old");
            final String dump = elan_capability_string(cap, text);
            assertEquals(dump, text.toString(), "the buffer's old content is replaced");
            assertTrue(text.toString().contains("ctx 2..3"), text.toString());
            // failures are statuses with errno, not exceptions
            assertEquals(-1, elan_generateCapability("N0C2"));
            assertEquals(Elan3lib.EINVAL, Elan3lib.errno());
            assertTrue(p.lastError().contains("does not match"), p.lastError());
            assertEquals(-1, elan_getenvCap(cap, 1));
            assertEquals(Elan3lib.ENODEV, Elan3lib.errno());
            final ElanBase base = elan_baseInit(0);
            assertEquals(4, base.nvp());
        });
    }

    @Test
    void shouldReturnNullWithErrnoWhenBaseInitFails()
    {
        run(1, Map.of("LIBELAN_TPORT_NSLOTS", "1"), (p, a) ->
        {
            assertNull(elan_baseInit(0));
            assertEquals(Elan3lib.EINVAL, Elan3lib.errno());
            assertEquals("LIBELAN_TPORT_NSLOTS 1 must be in 2..4096", p.lastError());
            // the Java API keeps its exception
            assertThrows(QsnetException.class, () -> ElanBase.baseInit(0));
        });
    }

    @Test
    void shouldKeepErrnoPerProcess()
    {
        run(2, Map.of(), (p, a) ->
        {
            if (p.rank() == 0)
            {
                assertEquals(-1, elan_generateCapability("bad"));
            }
            final ElanBase base = elan_baseInit(0);
            elan_gsync(base.allGroup);
            assertEquals(p.rank() == 0 ? Elan3lib.EINVAL : 0, Elan3lib.errno(), "rank " + p.rank() + "'s own errno");
        });
    }

    @Test
    void shouldExposeTheTunablesAsTypedFields()
    {
        run(1, Map.of("LIBELAN_TPORT_NSLOTS", "32", "LIBELAN_TPORT_SMALLMSG", "100", "LIBELAN_SHM_ENABLE", "0",
            "LIBELAN_GROUP_HWBCAST", "1"), (p, a) ->
        {
            final ElanBase base = elan_baseInit(0);
            assertSame(base, base.state);
            assertEquals(32, base.tport_nslots);
            assertEquals(100, base.tport_smallmsg);
            assertEquals(65536, base.tport_bigmsg);
            assertEquals(1 << 20, base.tport_fragsize);
            assertEquals(0, base.shm_enable);
            assertEquals(16, base.shm_fifodepth);
            assertEquals(8192, base.shm_fragsize);
            assertEquals(ElanBase.ELAN_HWBCAST, base.group_flags);
            assertEquals(63, base.retryCount);
            assertEquals(Elan3.ELAN_POLL_EVENT, base.waitType);
            assertEquals(64, base.putget_smallputsize);
            assertEquals(1 << 24, base.galloc_size);
            assertEquals(ElanBase.LIBELAN_HAVE_FINI, base.capabilities & ElanBase.LIBELAN_HAVE_FINI);
        });
    }

    @Test
    void shouldReduceInTheCatalogsArgumentOrderWithACReducer()
    {
        final int procs = 5;
        run(procs, Map.of(), (p, a) ->
        {
            final ElanBase base = elan_baseInit(0);
            final ElanGroup all = base.allGroup;
            // each element is an affine map x -> a x + b, two 64-bit words; the operator composes
            // them in group order (in first, then inout): associative, as any reduction operator
            // must be, but not commutative, so group order shows
            final long src = elan_gallocMain(base, all, 8, 3 * 16);
            final long dst = elan_gallocMain(base, all, 8, 3 * 16);
            for (int i = 0; i < 3; i++)
            {
                base.ctx().putLong(src + 16L * i, base.vp() + 2 + i);
                base.ctx().putLong(src + 16L * i + 8, (base.vp() + 1) * (i + 1));
            }
            final Object handle = "op";
            final ElanReducer op = (in, inout, count, h) ->
            {
                assertSame(handle, h);
                for (int i = 0; i < count[0]; i++)
                {
                    final long a1 = base.ctx().getLong(in + 16L * i);
                    final long b1 = base.ctx().getLong(in + 16L * i + 8);
                    final long a2 = base.ctx().getLong(inout + 16L * i);
                    final long b2 = base.ctx().getLong(inout + 16L * i + 8);
                    base.ctx().putLong(inout + 16L * i, a1 * a2);
                    base.ctx().putLong(inout + 16L * i + 8, a2 * b1 + b2);
                }
            };
            // (group, src, dst, dataTypeSize, nElem, fn, fnHandle, 0, 0, flags, root): a C call, unchanged
            elan_reduce(all, src, dst, 16, 3, op, handle, 0, 0, ElanBase.ELAN_RESULT_ALL | base.group_flags, 2);
            for (int i = 0; i < 3; i++)
            {
                long mul = 1;
                long add = 0;
                for (int v = 0; v < procs; v++)
                {
                    // apply VP v's map after the earlier ones
                    final long av = v + 2 + i;
                    mul = mul * av;
                    add = av * add + (long)(v + 1) * (i + 1);
                }
                assertEquals(mul, base.ctx().getLong(dst + 16L * i), "element " + i + " (a) at VP " + base.vp());
                assertEquals(add, base.ctx().getLong(dst + 16L * i + 8), "element " + i + " (b) at VP " + base.vp());
            }
            assertEquals("elan_reduce's 8th and 9th arguments 1, 0 must be 0 (their meaning is unknown; every known caller passes 0)",
                assertThrows(QsnetException.class, () -> elan_reduce(all, src, dst, 8, 3, op, handle, 1, 0, 0, 0)).getMessage());
        });
    }

    @Test
    void shouldRejectAQueueUsedTwice()
    {
        run(1, Map.of(), (p, a) ->
        {
            final ElanBase base = elan_baseInit(0);
            final ElanQueue q = elan_gallocQueue(base, base.allGroup);
            q.claim("elan_tportInit");
            final QsnetException e = assertThrows(QsnetException.class, () -> elan_queueRxInit(base, q, 4, 64, 0, 0));
            assertTrue(e.getMessage().endsWith("is already used by elan_tportInit"), e.getMessage());
            assertFalse(ElanProcess.current().lastError().contains("queue"), "a void call throws, it sets no errno");
        });
    }
}
