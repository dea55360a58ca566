package org.qsnet.bench.cli;

import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

import org.qsnet.bench.elan3.Calibration;
import org.qsnet.bench.report.Plots;
import org.qsnet.bench.report.Table;
import org.qsnet.fabric.machine.PlatformProfile;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code qsnet calibrate}: every Elan3lib-level figure of CALIBRATION.md, published vs emulated.
 */
@Command(name = "calibrate", mixinStandardHelpOptions = true,
    description = "Runs the Elan3lib, Elanlib and Tports experiments behind every CALIBRATION.md figure on its platform profile and prints "
        + "published vs emulated values and the difference (target: within 5 %%).")
public final class CalibrateCommand implements Callable<Integer>
{
    @Mixin
    PartitionOptions partitioning;

    @Option(names = "--profile", description = "Only this profile: pentium3-he, alpha-es40, xeon-gc.")
    String profile;

    @Mixin
    OutputOptions output;

    @Override
    public Integer call() throws Exception
    {
        return partitioning.run(this::experiment);
    }

    /** The experiment: alone, in partitions, or as this JVM's partition of a --jvms job ({@link PartitionOptions#run}). */
    private Integer experiment()
    {
        output.check();
        if (profile != null)
        {
            PlatformProfile.named(profile);
        }
        final List<Calibration.Result> results = Calibration.run(profile,
            r -> System.err.printf(Locale.ROOT, "%s: %s %.3f%n", r.target().profile(), r.target().figure(), r.emulated()));
        final Table t = new Table("calibration: the figures of CALIBRATION.md, published vs emulated")
            .fact("emulator", "qsnet " + BuildInfo.version())
            .fact("method", "latency: post of elan3_putdma_main to the destination word event seen by the polling host, "
                + "Elan->Elan buffers; bandwidth: one warm-up DMA, then 2 DMAs of 1 MB back to back, bytes / (last arrival - first post)");
        t.column("profile", "%s").column("figure", "%s").column("published", "%s").column("emulated", "%.3f")
            .column("unit", "%s").column("diff", "%s").column("ok", "%s");
        boolean all = true;
        for (final Calibration.Result r : results)
        {
            final var target = r.target();
            t.row(target.profile(), target.figure(), (target.bound() ? target.relation() + " " : "") + fmt(target.published()),
                r.emulated(), target.unit(), target.bound() ? "-" : String.format(Locale.ROOT, "%+.1f%%", 100 * r.difference()),
                r.ok() ? "yes" : "NO");
            all &= r.ok();
        }
        output.emit(t, System.out);
        if (output.plot != null)
        {
            final List<String> names = new java.util.ArrayList<>();
            final List<Double> diffs = new java.util.ArrayList<>();
            for (final Calibration.Result r : results)
            {
                if (!r.target().bound())
                {
                    names.add(r.target().profile() + ": " + r.target().figure());
                    diffs.add(100 * r.difference());
                }
            }
            Plots.bars(output.plot, "Calibration: emulated vs published (target within ±5 %)", "qsnet " + BuildInfo.version(),
                "emulated - published (% of published)", names, diffs);
        }
        return all ? 0 : 1;
    }

    private static String fmt(final double v)
    {
        return v == Math.rint(v) ? Long.toString((long)v) : Double.toString(v);
    }
}
