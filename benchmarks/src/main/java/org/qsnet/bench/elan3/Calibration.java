package org.qsnet.bench.elan3;

import java.util.ArrayList;
import java.util.List;
import java.util.function.ToDoubleFunction;

import org.qsnet.bench.elan3.PingExperiment.Placement;
import org.qsnet.fabric.machine.PlatformProfile;

/**
 * The figures of CALIBRATION.md that the Elan3lib level can reproduce, each with the experiment
 * that measures it on the emulator.
 */
public final class Calibration
{
    /** MB/s per MiB/s. */
    private static final double MIB = 1.048576;
    private static final int BW_SIZE = 1 << 20;
    private static final int BW_REPS = 2;

    /**
     * One published figure.
     *
     * @param profile   the platform it was measured on.
     * @param figure    what it is.
     * @param published the published value.
     * @param unit      its unit.
     * @param relation   {@code "~"}: within 5 %; {@code "<"}: below the published bound ("below 280");
     *                   {@code ">"}: above it ("a visible step").
     * @param measure   how the emulator measures it.
     */
    public record Target(String profile, String figure, double published, String unit, String relation,
        ToDoubleFunction<PlatformProfile> measure)
    {
        /**
         * @return whether the published figure is a bound rather than a value.
         */
        public boolean bound()
        {
            return !relation.equals("~");
        }
    }

    /**
     * The outcome of one target.
     *
     * @param target   the target.
     * @param emulated the emulator's value.
     */
    public record Result(Target target, double emulated)
    {
        /**
         * @return relative difference, emulated vs published.
         */
        public double difference()
        {
            return (emulated - target.published()) / target.published();
        }

        /**
         * @return whether the emulated value is within 5 % (or below an upper bound).
         */
        public boolean ok()
        {
            return switch (target.relation())
            {
                case "<" -> emulated < target.published();
                case ">" -> emulated > target.published();
                default -> Math.abs(difference()) <= 0.05;
            };
        }
    }

    private Calibration()
    {
    }

    private static double lat(final PlatformProfile p, final int size)
    {
        return PingExperiment.latencyNs(p, size, Placement.ELAN, Placement.ELAN) / 1000.0;
    }

    private static double bw(final PlatformProfile p, final Placement s, final Placement d, final boolean bidi)
    {
        return PingExperiment.bandwidthMBs(p, BW_SIZE, BW_REPS, s, d, bidi);
    }

    /**
     * @return every Elan3lib-level target of CALIBRATION.md.
     */
    public static List<Target> targets()
    {
        final List<Target> t = new ArrayList<>();
        for (final String prof : new String[] {"pentium3-he", "alpha-es40"})
        {
            final boolean p3 = prof.equals("pentium3-he");
            t.add(new Target(prof, "Elan3lib latency 0 B", p3 ? 1.9 : 2.2, "us", "~", p -> lat(p, 0)));
            t.add(new Target(prof, "Elan3lib latency 1 B", 2.4, "us", "~", p -> lat(p, 1)));
            t.add(new Target(prof, "Elan3lib latency 64 B", 2.4, "us", "~", p -> lat(p, 64)));
            t.add(new Target(prof, "peak bandwidth Elan->Elan", 335, "MB/s", "~",
                p -> bw(p, Placement.ELAN, Placement.ELAN, false)));
        }
        t.add(new Target("pentium3-he", "bandwidth main->Elan", 321, "MB/s", "~",
            p -> bw(p, Placement.MAIN, Placement.ELAN, false)));
        t.add(new Target("pentium3-he", "bandwidth Elan->main", 317, "MB/s", "~",
            p -> bw(p, Placement.ELAN, Placement.MAIN, false)));
        t.add(new Target("pentium3-he", "bidirectional main->Elan, per direction", 280, "MB/s", "~",
            p -> bw(p, Placement.MAIN, Placement.ELAN, true)));
        t.add(new Target("pentium3-he", "bidirectional Elan->Elan, per direction (below 280)", 280, "MB/s", "<",
            p -> bw(p, Placement.ELAN, Placement.ELAN, true)));
        t.add(new Target("pentium3-he", "bidirectional main->main, per direction", 160, "MB/s", "~",
            p -> bw(p, Placement.MAIN, Placement.MAIN, true)));
        for (final int n : new int[] {2, 16})
        {
            t.add(new Target("pentium3-he", "hot-spot read, aggregate, " + n + " nodes (flat)", 314, "MB/s", "~",
                p -> HotspotExperiment.aggregateMBs(p, n, true, Placement.MAIN, 65536, 4)));
            t.add(new Target("pentium3-he", "hot-spot write, aggregate, " + n + " nodes (flat)", 307, "MB/s", "~",
                p -> HotspotExperiment.aggregateMBs(p, n, false, Placement.MAIN, 65536, 4)));
        }
        t.add(new Target("pentium3-he", "Tports latency, 8 B", 4.4, "us", "~",
            p -> ElanlibExperiment.tportLatencyNs(p, 8) / 1000.0));
        t.add(new Target("pentium3-he", "Tports latency step 287 -> 288 B (inline -> synchronous), at least", 0.5, "us", ">",
            p -> (ElanlibExperiment.tportLatencyNs(p, 288) - ElanlibExperiment.tportLatencyNs(p, 287)) / 1000.0));
        t.add(new Target("pentium3-he", "MPI latency, 8 B (ping-pong / 2)", 5.0, "us", "~",
            p -> org.qsnet.bench.mpi.MpiExperiment.latencyNs(p, 8, 20) / 1000.0));
        t.add(new Target("alpha-es40", "MPI latency, 8 B (ping-pong / 2)", 5.5, "us", "~",
            p -> org.qsnet.bench.mpi.MpiExperiment.latencyNs(p, 8, 20) / 1000.0));
        t.add(new Target("pentium3-he", "MPI asymptotic bandwidth, 1 MB messages, window of 4", 307, "MB/s", "~",
            p -> org.qsnet.bench.mpi.MpiExperiment.bandwidthMBs(p, 1 << 20, 4, 2)));
        t.add(new Target("alpha-es40", "bandwidth main->main", 200, "MB/s", "~",
            p -> bw(p, Placement.MAIN, Placement.MAIN, false)));
        t.add(new Target("alpha-es40", "bidirectional Elan->Elan, per direction", 280, "MB/s", "~",
            p -> bw(p, Placement.ELAN, Placement.ELAN, true)));
        t.add(new Target("alpha-es40", "bidirectional main->main, per direction", 80, "MB/s", "~",
            p -> bw(p, Placement.MAIN, Placement.MAIN, true)));
        t.add(new Target("xeon-gc", "latency both ways at once / one way (not worse; bound 1.05)", 1.05, "ratio", "<",
            p ->
            {
                final long[] l = OsuExperiment.bidirectionalLatencyNs(p);
                return (double)l[1] / l[0];
            }));
        t.add(new Target("xeon-gc", "Elanlib put latency, 8 B", 2.0, "us", "~",
            p -> ElanlibExperiment.putLatencyNs(p, 8) / 1000.0));
        t.add(new Target("xeon-gc", "Elanlib put bandwidth, 64 KB, window of 8", 314, "MiB/s", "~",
            p -> ElanlibExperiment.putBandwidthMBs(p, 65536, 8, 4) / MIB));
        t.add(new Target("xeon-gc", "bidirectional main->main, both directions", 319, "MiB/s", "~",
            p -> 2 * bw(p, Placement.MAIN, Placement.MAIN, true) / MIB));
        return t;
    }

    /**
     * Measures targets.
     *
     * @param profileFilter a profile name, or null for all.
     * @param progress      called after each result, may be null.
     * @return one result per target.
     */
    public static List<Result> run(final String profileFilter, final java.util.function.Consumer<Result> progress)
    {
        final List<Result> out = new ArrayList<>();
        for (final Target t : targets())
        {
            if (profileFilter == null || profileFilter.equals(t.profile()))
            {
                final Result r = new Result(t, t.measure().applyAsDouble(PlatformProfile.named(t.profile())));
                out.add(r);
                if (progress != null)
                {
                    progress.accept(r);
                }
            }
        }
        return out;
    }
}
