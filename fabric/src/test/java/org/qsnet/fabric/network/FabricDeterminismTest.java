package org.qsnet.fabric.network;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.qsnet.fabric.engine.Kernel;
import org.qsnet.fabric.engine.RunReport;

@Timeout(value = 120, unit = TimeUnit.SECONDS)
class FabricDeterminismTest
{
    /** 64 simulated processes, each sending seeded-random packets and waiting for each ack. */
    private static long[] run(final long seed)
    {
        final Kernel k = new Kernel();
        final Fabric f = new Fabric(k, FabricConfig.elite(3).withSeed(seed).withCrcErrorRate(0.01));
        final RecordingEndpoint[] eps = new RecordingEndpoint[64];
        for (int i = 0; i < 64; i++)
        {
            eps[i] = new RecordingEndpoint(i, 20);
            f.attach(i, eps[i]);
        }
        for (int i = 0; i < 64; i++)
        {
            final int node = i;
            k.spawn(Fabric.PROCESS_ORIGIN_BASE + i, "vp " + i, self ->
            {
                final SplittableRandom rnd = new SplittableRandom(seed * 1000 + node);
                for (int m = 0; m < 30; m++)
                {
                    self.compute(rnd.nextInt(500));
                    final int before = eps[node].acked.size();
                    final Packet p = Packet.unicast(node, rnd.nextInt(64), 1 + rnd.nextInt(320));
                    f.port(node).inject(p);
                    self.awaitUntil(() -> eps[node].acked.size() > before, eps[node].ackSignal);
                }
            });
        }
        final RunReport r = k.run().throwIfFailed();
        return new long[] {r.traceHash(), r.endNs(), r.eventCount()};
    }

    @Test
    void shouldGiveIdenticalTraceForSameSeedAndDifferentTraceForOtherSeed()
    {
        final long[] a = run(7);
        final long[] b = run(7);
        final long[] c = run(8);
        assertEquals(a[0], b[0], "same seed, same event trace hash");
        assertEquals(a[1], b[1], "same seed, same end time");
        assertEquals(a[2], b[2]);
        assertNotEquals(a[0], c[0], "another seed, another trace");
    }
}
