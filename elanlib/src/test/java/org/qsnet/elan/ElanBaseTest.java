package org.qsnet.elan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.qsnet.elan3.Elan3;
import org.qsnet.elan3.ElanMain;
import org.qsnet.elan3.Prun;
import org.qsnet.fabric.QsnetException;
import org.qsnet.fabric.machine.PlatformProfile;

@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ElanBaseTest
{
    private static void run(final int procs, final Map<String, String> env, final ElanMain main)
    {
        final PlatformProfile p = PlatformProfile.alphaEs40();
        Prun.run(p, new Prun.Options(procs, Math.min(procs, 64), false, 0, env), main).throwIfFailed();
    }

    @Test
    void shouldPutAndGetWithSymmetricAddressesAndReuseSmallSourcesAtOnce()
    {
        run(2, Map.of(), (p, a) ->
        {
            final ElanBase base = ElanBase.baseInit(0);
            final int me = base.vp();
            final long buf = base.allocMain(64, 4096);
            final long small = base.allocMain(8, 8);
            final long got = base.allocMain(64, 4096);
            for (int i = 0; i < 1024; i++)
            {
                base.ctx().putInt(buf + 4L * i, me * 1_000_000 + i);
            }
            base.gsync(base.allGroup());
            if (me == 0)
            {
                base.ctx().putInt(small, 7);
                final ElanEvent e = base.put(small, small, 4, 1);
                base.ctx().putInt(small, 8);          // reusable at once: the 4 bytes were copied
                e.waitEvent(base.waitType());
                assertThrows(QsnetException.class, () -> e.waitEvent(base.waitType()), "consumed");
                final ElanEvent g = base.get(buf, got, 4096, 1);
                g.waitEvent(Elan3.ELAN_POLL_EVENT);
                for (int i = 0; i < 1024; i++)
                {
                    assertEquals(1_000_000 + i, base.ctx().getInt(got + 4L * i));
                }
            }
            base.gsync(base.allGroup());
            if (me == 1)
            {
                assertEquals(7, base.ctx().getInt(small));
            }
            assertEquals("outside the job's VPs 0..1", assertThrows(QsnetException.class, () -> base.put(buf, buf, 4, 5))
                .getMessage().replace("destVp 5 is ", ""));
        });
    }

    @ParameterizedTest(name = "{0} processes")
    @ValueSource(ints = {1, 2, 3, 7, 16, 64})
    void shouldHoldEveryoneInTheBarrierUntilTheLastArrives(final int procs)
    {
        final Map<Integer, Long> left = new ConcurrentHashMap<>();
        final Map<Integer, Long> leftHw = new ConcurrentHashMap<>();
        final long[] lastArrival = new long[2];
        run(procs, Map.of(), (p, a) ->
        {
            final ElanBase base = ElanBase.baseInit(0);
            p.sim().compute(1_000L * base.vp());
            synchronized (lastArrival)
            {
                lastArrival[0] = Math.max(lastArrival[0], p.nowNs());
            }
            base.gsync(base.allGroup());
            left.put(base.vp(), p.nowNs());
            // the hardware barrier too, with the last arrival now the first VP
            p.sim().compute(1_000L * (procs - base.vp()));
            synchronized (lastArrival)
            {
                lastArrival[1] = Math.max(lastArrival[1], p.nowNs());
            }
            base.hgsync(base.allGroup());
            leftHw.put(base.vp(), p.nowNs());
        });
        for (final long t : left.values())
        {
            assertTrue(t >= lastArrival[0], "left at " + t + " before the last arrival " + lastArrival[0]);
        }
        for (final long t : leftHw.values())
        {
            assertTrue(t >= lastArrival[1], "left hgsync at " + t + " before the last arrival " + lastArrival[1]);
        }
    }

    @ParameterizedTest(name = "{0} processes")
    @ValueSource(ints = {1, 2, 5, 16, 33, 64})
    void shouldBroadcastFromAnyRootAndReduceInGroupOrder(final int procs)
    {
        run(procs, Map.of(), (p, a) ->
        {
            final ElanBase base = ElanBase.baseInit(0);
            final ElanGroup all = base.allGroup();
            final long buf = base.gallocMain(all, 64, 256);
            for (int round = 0; round < 3; round++)
            {
                final int root = (round * 7) % procs;
                if (base.vp() == root)
                {
                    for (int i = 0; i < 64; i++)
                    {
                        base.ctx().putInt(buf + 4L * i, round * 100 + i);
                    }
                }
                base.bcast(all, buf, 256, root);
                for (int i = 0; i < 64; i++)
                {
                    assertEquals(round * 100 + i, base.ctx().getInt(buf + 4L * i), "round " + round + " word " + i);
                }
            }
            // an associative, non-commutative operator: composition of affine maps x -> a x + b,
            // (a1, b1) op (a2, b2) = (a1 a2, b1 a2 + b2), applied v0 op v1 op ... in group order
            final long m = 1_000_000_007L;
            final long src = base.gallocMain(all, 8, 16);
            final long dst = base.gallocMain(all, 8, 16);
            base.ctx().putLong(src, base.vp() + 2);
            base.ctx().putLong(src + 8, base.vp() + 1);
            base.reduce(all, src, dst, 1, 16, (in, inout, count, size) ->
            {
                final ByteBuffer x = ByteBuffer.wrap(inout).order(ByteOrder.LITTLE_ENDIAN);
                final ByteBuffer y = ByteBuffer.wrap(in).order(ByteOrder.LITTLE_ENDIAN);
                x.putLong(8, (x.getLong(8) * y.getLong(0) + y.getLong(8)) % m);
                x.putLong(0, x.getLong(0) * y.getLong(0) % m);
            }, 0, ElanBase.ELAN_RESULT_ALL);
            long ea = 2;
            long expected = 1;
            for (int v = 1; v < procs; v++)
            {
                expected = (expected * (v + 2) + v + 1) % m;
                ea = ea * (v + 2) % m;
            }
            assertEquals(ea, base.ctx().getLong(dst), "allreduce (a) at VP " + base.vp());
            assertEquals(expected, base.ctx().getLong(dst + 8), "allreduce (b) at VP " + base.vp());
        });
    }

    @Test
    void shouldReadTunablesFromTheEnvironmentAndRejectBadOnes()
    {
        run(1, Map.of("LIBELAN_WAITTYPE", "WAIT", "LIBELAN_RETRYCOUNT", "5"), (p, a) ->
        {
            final ElanBase base = ElanBase.baseInit(0);
            assertEquals(Elan3.ELAN_WAIT_EVENT, base.waitType());
            assertEquals(5, base.retryCount());
            assertTrue(ElanBase.version().startsWith("libelan 1.4"));
        });
        final QsnetException e = assertThrows(QsnetException.class,
            () -> run(1, Map.of("LIBELAN_WAITTYPE", "sometimes"), (p, a) -> ElanBase.baseInit(0)));
        assertTrue(e.getMessage().contains("LIBELAN_WAITTYPE sometimes must be POLL, WAIT or a spin count"), e.getMessage());
    }
}
