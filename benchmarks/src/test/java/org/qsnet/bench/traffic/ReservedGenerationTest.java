package org.qsnet.bench.traffic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.qsnet.fabric.engine.Kernel;
import org.qsnet.fabric.machine.PlatformProfile;
import org.qsnet.fabric.network.FabricConfig;

/**
 * A busy traffic source reserves its next message's generation instead of scheduling it
 * ({@code TrafficExperiment.Node#scheduleNext}); the reserved event's work is done when the source
 * next reads its queue, at the event's own key. Checked against the same runs with every
 * generation an event: the same figures (every node's), the same digest of event keys (taken
 * reservations counted as events) and the same number of them, over workloads that exercise
 * every reader of a source's queue: acknowledgements, read requests answered from the queue,
 * ties at one instant (1 ns bursts of a hot spot), CRC retries, one and three virtual channels.
 */
class ReservedGenerationTest
{
    record Case(String name, TrafficSpec spec, double load)
    {
        @Override
        public String toString()
        {
            return name;
        }
    }

    static TrafficSpec spec(final Pattern p, final int nodes, final FabricConfig fabric, final int bytes,
        final boolean exponential, final double reads, final double ioLoad)
    {
        return new TrafficSpec(p, nodes, fabric, bytes, exponential, true, 10_000, 60_000, 0, reads,
            Math.max(1, nodes / 8), false, true, false, ioLoad, false, 7, false, PlatformProfile.pentium3He());
    }

    static Case[] cases()
    {
        final FabricConfig f64 = FabricConfig.elite(TrafficSpec.dimFor(64));
        return new Case[] {
            new Case("uniform 64, saturated", spec(Pattern.UNIFORM, 64, f64, 320, false, 0, 0), 1.0),
            new Case("uniform 64, reads, exponential sizes", spec(Pattern.UNIFORM, 64, f64, 2000, true, 0.3, 0), 1.0),
            new Case("uniform 64, half load", spec(Pattern.UNIFORM, 64, f64, 320, false, 0, 0), 0.5),
            new Case("hot spot 64, CRC errors, reads", spec(Pattern.HOTSPOT, 64, f64.withCrcErrorRate(0.02), 320, false,
                0.5, 0), 1.0),
            new Case("transpose 64, one virtual channel", spec(Pattern.TRANSPOSE, 64, f64.withVirtualChannels(1), 64,
                false, 0, 0), 1.0),
            new Case("uniform 64, three virtual channels", spec(Pattern.UNIFORM, 64, f64.withVirtualChannels(3), 320,
                true, 0.1, 0), 1.0),
            new Case("combined 64 with I/O", spec(Pattern.COMBINED, 64, f64, 320, false, 0, 0.8), 0.7),
            new Case("uniform 256", spec(Pattern.UNIFORM, 256, FabricConfig.elite(TrafficSpec.dimFor(256)), 320, false,
                0.05, 0), 1.0),
        };
    }

    @ParameterizedTest
    @MethodSource("cases")
    void shouldGiveTheFiguresAndEventKeysOfARunWithEveryGenerationAnEvent(final Case c)
    {
        final TrafficExperiment events = new TrafficExperiment(c.spec(), c.load(), null, false);
        final TrafficExperiment reserved = new TrafficExperiment(c.spec(), c.load(), null, true);
        final TrafficPoint expected = events.run();
        final TrafficPoint got = reserved.run();
        assertEquals(expected, got, c.name());
        final Kernel a = events.kernel();
        final Kernel b = reserved.kernel();
        assertEquals(a.traceSum(), b.traceSum(), "digest of event keys");
        assertEquals(a.tracedEvents(), b.tracedEvents(), "events, reserved ones taken included");
        assertTrue(b.eventCount() < a.eventCount(), "the reserved run dispatches fewer events: "
            + b.eventCount() + " against " + a.eventCount());
    }
}
