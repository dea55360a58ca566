package org.qsnet.elan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.qsnet.elan3.Prun;
import org.qsnet.fabric.QsnetException;
import org.qsnet.fabric.machine.PlatformProfile;

/**
 * Back-to-back collectives with no barrier between them: broadcasts from random roots, reductions
 * (with and without {@code ELAN_RESULT_ALL}), barriers, hardware barriers and broadcasts, on
 * {@code allGroup} and on a group of every VP in reverse order, each rank delayed at random before
 * each call so that members are in different collectives at once; every payload is checked.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class ElanCollectiveSequenceTest
{
    private static final int OPS = 50;
    private static final int MAX_LEN = 3000;

    private static void run(final int procs, final org.qsnet.elan3.ElanMain main)
    {
        Prun.run(PlatformProfile.alphaEs40(), new Prun.Options(procs, procs, false, 0, Map.of()), main).throwIfFailed();
    }

    private static byte payload(final int op, final int root, final int i)
    {
        return (byte)(op * 31 + root * 7 + i * 13 + (i >> 8));
    }

    /** Runs the sequence on a group; returns how many collectives this member checked. */
    private static int sequence(final ElanBase base, final ElanGroup g, final long seed, final boolean hardware)
    {
        final Random shared = new Random(seed);              // the same calls on every member
        final Random skew = new Random(seed * 1_000_003L + base.vp()); // different delays per member
        final int n = g.size();
        final int me = g.self();
        final long buf = base.allocMain(64, MAX_LEN);
        final long src = base.allocMain(8, 8 * 4);
        final long dst = base.allocMain(8, 8 * 4);
        int checked = 0;
        for (int op = 0; op < OPS; op++)
        {
            final int kind = shared.nextInt(hardware ? 6 : 4);
            final int root = shared.nextInt(n);
            final int len = 1 + shared.nextInt(MAX_LEN);
            base.ctx().owner().sim().advance(skew.nextInt(4) * 1_500L);
            switch (kind)
            {
                case 0, 4 ->
                {
                    final byte[] mine = new byte[len];
                    for (int i = 0; me == root && i < len; i++)
                    {
                        mine[i] = payload(op, root, i);
                    }
                    base.ctx().raw().write(buf, mine, 0, len);
                    if (kind == 0)
                    {
                        base.bcast(g, buf, len, root);
                    }
                    else
                    {
                        base.hbcast(g, buf, len, root);
                    }
                    final byte[] got = new byte[len];
                    base.ctx().raw().read(buf, got, 0, len);
                    for (int i = 0; i < len; i++)
                    {
                        if (got[i] != payload(op, root, i))
                        {
                            throw new AssertionError("member " + me + ", op " + op + ": bcast of " + len + " B from root " + root
                                + " differs at byte " + i);
                        }
                    }
                }
                case 1, 2 ->
                {
                    final boolean all = kind == 1;
                    for (int i = 0; i < 4; i++)
                    {
                        base.ctx().raw().putLong(src + 8L * i, (long)(g.vp(me) + 1) * (op + 1) + i);
                        base.ctx().raw().putLong(dst + 8L * i, -1);
                    }
                    base.reduce(g, src, dst, 4, 8, (in, inout, count, size) ->
                    {
                        final java.nio.ByteBuffer a = java.nio.ByteBuffer.wrap(in).order(java.nio.ByteOrder.nativeOrder());
                        final java.nio.ByteBuffer b = java.nio.ByteBuffer.wrap(inout).order(java.nio.ByteOrder.nativeOrder());
                        for (int i = 0; i < count; i++)
                        {
                            b.putLong(8 * i, b.getLong(8 * i) + a.getLong(8 * i));
                        }
                    }, root, all ? ElanBase.ELAN_RESULT_ALL : 0);
                    if (all || me == root)
                    {
                        long vpSum = 0;
                        for (int m = 0; m < n; m++)
                        {
                            vpSum += g.vp(m) + 1;
                        }
                        for (int i = 0; i < 4; i++)
                        {
                            assertEquals(vpSum * (op + 1) + (long)n * i, base.ctx().raw().getLong(dst + 8L * i),
                                "member " + me + ", op " + op + ": reduce to " + (all ? "all" : "root " + root) + ", element " + i);
                        }
                    }
                }
                case 3 -> base.gsync(g);
                default -> base.hgsync(g);
            }
            checked++;
        }
        return checked;
    }

    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {7, 16})
    void shouldRunBackToBackCollectivesFromRandomRootsOnAllGroup(final int procs)
    {
        final Map<Integer, Integer> done = new ConcurrentHashMap<>();
        run(procs, (p, a) ->
        {
            final ElanBase base = ElanBase.baseInit(0);
            done.put(base.vp(), sequence(base, base.allGroup(), 42 + procs, true));
        });
        assertEquals(procs, done.size());
        done.values().forEach(c -> assertEquals(OPS, c));
    }

    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {7, 16})
    void shouldRunBackToBackCollectivesFromRandomRootsOnAReversedGroup(final int procs)
    {
        final Map<Integer, Integer> done = new ConcurrentHashMap<>();
        run(procs, (p, a) ->
        {
            final ElanBase base = ElanBase.baseInit(0);
            final int[] reversed = new int[procs];
            for (int i = 0; i < procs; i++)
            {
                reversed[i] = procs - 1 - i;
            }
            final ElanGroup g = base.group(reversed);
            // hbcast and hgsync fall back to the software collectives on a non-contiguous group
            done.put(base.vp(), sequence(base, g, 7 + procs, true));
            // and allGroup after it, interleaved with nothing between
            sequence(base, base.allGroup(), 99 + procs, false);
        });
        assertEquals(procs, done.size());
        done.values().forEach(c -> assertEquals(OPS, c));
    }

    @ParameterizedTest(name = "analytic timing: {0}")
    @org.junit.jupiter.params.provider.ValueSource(booleans = {false, true})
    void shouldRunTheSequenceAsInOneJvmInTwoAndFourPartitions(final boolean analytic)
    {
        // 16 nodes, every one a rank: hardware broadcasts and barriers span the partitions (with
        // analytic timing a broadcast's tail runs only where its source and recipients live)
        final PlatformProfile machine = PlatformProfile.alphaEs40().withFabric(PlatformProfile.alphaEs40().fabric().withDim(2)
            .withAnalyticTiming(analytic));
        final Prun.Options o = new Prun.Options(16, 16, false, 0, Map.of());
        final org.qsnet.elan3.ElanMain main = (p, a) ->
        {
            final ElanBase base = ElanBase.baseInit(0);
            assertEquals(OPS, sequence(base, base.allGroup(), 5, true));
        };
        final Prun.Session one = new Prun.Session(machine, 1);
        one.launch(o, main);
        final org.qsnet.fabric.engine.RunReport single = one.run().throwIfFailed();
        for (final int partitions : new int[] {2, 4})
        {
            final Prun.PartitionedResult many = Prun.runPartitioned(machine, partitions, s -> s.launch(o, main));
            many.report().throwIfFailed();
            org.junit.jupiter.api.Assertions.assertNull(many.differenceFrom(single, one.kernel()),
                "1 partition against " + partitions);
        }
    }

    @Test
    void shouldBroadcastAtOnceAfterAnAllreduce()
    {
        final Map<Integer, Long> got = new ConcurrentHashMap<>();
        run(5, (p, a) ->
        {
            final ElanBase base = ElanBase.baseInit(0);
            final long src = base.allocMain(8, 8);
            final long dst = base.allocMain(8, 8);
            final long buf = base.allocMain(8, 8);
            base.ctx().raw().putLong(src, base.vp());
            base.reduce(base.allGroup(), src, dst, 1, 8, (in, inout, count, size) ->
            {
                final java.nio.ByteBuffer x = java.nio.ByteBuffer.wrap(in).order(java.nio.ByteOrder.nativeOrder());
                final java.nio.ByteBuffer y = java.nio.ByteBuffer.wrap(inout).order(java.nio.ByteOrder.nativeOrder());
                y.putLong(0, y.getLong(0) + x.getLong(0));
            }, 0, ElanBase.ELAN_RESULT_ALL);
            assertEquals(0 + 1 + 2 + 3 + 4, base.ctx().raw().getLong(dst));
            base.ctx().raw().putLong(buf, base.vp() == 4 ? 0x5eed : 0);
            base.bcast(base.allGroup(), buf, 8, 4);
            got.put(base.vp(), base.ctx().raw().getLong(buf));
        });
        assertEquals(5, got.size());
        got.values().forEach(v -> assertEquals(0x5eed, v));
    }

    @Test
    void shouldMakeAGroupOfSomeRanksWhetherOrNotTheOthersCall()
    {
        final Map<Integer, Long> sums = new ConcurrentHashMap<>();
        run(8, (p, a) ->
        {
            final ElanBase base = ElanBase.baseInit(0);
            final int me = base.vp();
            final int[] evens = {0, 2, 4, 6};
            final int[] odds = {1, 3, 5, 7};
            // every process calls: the non-members get a group they are not in
            final ElanGroup e = base.group(evens);
            final long src = base.gallocMain(base.allGroup(), 8, 8);
            final long dst = base.gallocMain(base.allGroup(), 8, 8);
            base.ctx().raw().putLong(src, me);
            final ElanBase.Reducer sum = (in, inout, count, size) ->
            {
                final java.nio.ByteBuffer x = java.nio.ByteBuffer.wrap(in).order(java.nio.ByteOrder.nativeOrder());
                final java.nio.ByteBuffer y = java.nio.ByteBuffer.wrap(inout).order(java.nio.ByteOrder.nativeOrder());
                y.putLong(0, y.getLong(0) + x.getLong(0));
            };
            if (me % 2 == 0)
            {
                base.reduce(e, src, dst, 1, 8, sum, 0, ElanBase.ELAN_RESULT_ALL);
                sums.put(me, base.ctx().raw().getLong(dst));
            }
            else
            {
                assertEquals(-1, e.self());
                final QsnetException x = assertThrows(QsnetException.class, () -> base.gsync(e));
                assertTrue(x.getMessage().contains("does not contain this process's VP " + me), x.getMessage());
                // only the members call: the odd ranks make a group of their own
                final ElanGroup o = base.group(odds);
                base.reduce(o, src, dst, 1, 8, sum, 3, ElanBase.ELAN_RESULT_ALL);
                sums.put(me, base.ctx().raw().getLong(dst));
            }
            base.gsync(base.allGroup());
        });
        for (int v = 0; v < 8; v++)
        {
            assertEquals(v % 2 == 0 ? 0 + 2 + 4 + 6 : 1 + 3 + 5 + 7, sums.get(v), "VP " + v);
        }
    }
}
