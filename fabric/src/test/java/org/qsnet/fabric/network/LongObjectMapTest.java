package org.qsnet.fabric.network;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;
import org.qsnet.fabric.QsnetException;

/**
 * The open-addressing map of packets in flight answers as a {@code HashMap} does through
 * insertions, replacements, removals (which shift entries back over the hole) and growth, with the
 * keys packets really have ({@code node << 40 | sequence}: long runs of colliding low bits) and
 * random ones.
 */
class LongObjectMapTest
{
    @Test
    void shouldAnswerAsAHashMapThroughPutsRemovesAndGrowth()
    {
        for (final boolean packetKeys : new boolean[] {true, false})
        {
            final SplittableRandom random = new SplittableRandom(packetKeys ? 7 : 11);
            final LongObjectMap<Long> map = new LongObjectMap<>(2);
            final Map<Long, Long> reference = new HashMap<>();
            final List<Long> live = new ArrayList<>();
            final long[] nextSeq = new long[64];
            for (int step = 0; step < 200_000; step++)
            {
                final int op = random.nextInt(10);
                if (op < 5 || live.isEmpty())
                {
                    final int node = random.nextInt(64);
                    final long key = packetKeys ? ((long)node << 40) | nextSeq[node]++ : random.nextLong();
                    final Long value = random.nextLong();
                    final boolean fresh = !reference.containsKey(key);
                    assertEquals(reference.put(key, value), map.put(key, value), "put " + key);
                    if (fresh)
                    {
                        live.add(key);
                    }
                }
                else if (op < 9)
                {
                    final int at = random.nextInt(live.size());
                    final long key = live.get(at);
                    live.set(at, live.get(live.size() - 1));
                    live.remove(live.size() - 1);
                    assertEquals(reference.remove(key), map.remove(key), "remove " + key);
                    assertNull(map.get(key), "get after remove " + key);
                }
                else
                {
                    final long absent = random.nextLong();
                    if (!reference.containsKey(absent))
                    {
                        assertNull(map.get(absent), "get of an absent key");
                        assertNull(map.remove(absent), "remove of an absent key");
                    }
                }
                assertEquals(reference.size(), map.size(), "size at step " + step);
                if (step % 20_000 == 0)
                {
                    for (final Map.Entry<Long, Long> e : reference.entrySet())
                    {
                        assertEquals(e.getValue(), map.get(e.getKey()), "get " + e.getKey() + " at step " + step);
                    }
                }
            }
            for (final Map.Entry<Long, Long> e : reference.entrySet())
            {
                assertEquals(e.getValue(), map.get(e.getKey()), "get " + e.getKey() + " at the end");
            }
            map.clear();
            assertEquals(0, map.size());
            assertTrue(reference.keySet().stream().allMatch(k -> map.get(k) == null), "empty after clear");
        }
    }

    @Test
    void shouldRefuseANullValueAndABadCapacityByName()
    {
        final LongObjectMap<String> map = new LongObjectMap<>();
        assertTrue(assertThrows(QsnetException.class, () -> map.put(5, null)).getMessage().contains("key 5"));
        assertTrue(assertThrows(QsnetException.class, () -> new LongObjectMap<String>(12)).getMessage()
            .contains("capacity"));
    }
}
