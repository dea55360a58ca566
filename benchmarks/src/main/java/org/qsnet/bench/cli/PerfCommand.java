package org.qsnet.bench.cli;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

import org.qsnet.bench.report.Plots;
import org.qsnet.bench.report.Table;
import org.qsnet.bench.traffic.Pattern;
import org.qsnet.bench.traffic.TrafficExperiment;
import org.qsnet.bench.traffic.TrafficPoint;
import org.qsnet.bench.traffic.TrafficSpec;
import org.qsnet.fabric.QsnetException;
import org.qsnet.fabric.network.FabricConfig;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code qsnet perf}: the emulator's own cost on whole workloads (wall clock): slowdown (host
 * time / simulated time), host ns per packet-hop, events per second, and heap.
 */
@Command(name = "perf", mixinStandardHelpOptions = true,
    description = {"Measures the emulator's own cost on uniform traffic (or --pattern) at saturation (offered load 1.0): "
        + "slowdown = host time / simulated time, cpu_ms = the simulating thread's CPU time "
        + "(less disturbed by other load on the machine; it leaves out the collector's threads), host ns per "
        + "packet-hop, kernel events per host second, and heap: built (the fabric and its idle workload, after GC), peak during the run, live after it "
        + "(offered load 1.0 exceeds saturation, so source queues grow with the window). "
        + "Wall-clock figures: they vary by machine.",
        "Each case runs --repeat times; the table gives the median, and the fastest and slowest run's slowdown (slowdown_min, slowdown_max)."})
public final class PerfCommand implements Callable<Integer>
{
    @Option(names = "--nodes", split = ",", defaultValue = "64,1024,4096", description = "Network sizes. Default: ${DEFAULT-VALUE}.")
    int[] sizes;

    @Option(names = "--measure-us", defaultValue = "1000", description = "Simulated window per run, us. Default: ${DEFAULT-VALUE}.")
    double measureUs;

    @Option(names = "--warmup-runs", defaultValue = "2", description = "Unmeasured runs per case first, to warm the JIT. Default: ${DEFAULT-VALUE}.")
    int warmupRuns;

    @Option(names = "--warmup-ms", defaultValue = "2000", description = "The unmeasured runs go on (after --warmup-runs "
        + "of them; none with --warmup-runs 0) until this much host time has passed, as JMH warms up by time (a 64-node "
        + "run of 1000 us takes about 30 ms, and two of them leave the JIT still compiling), and then until the JIT is "
        + "quiet: its compilers busy for at most 1 %% of the last unmeasured run (in every JVM with --jvms), or "
        + Warmup.MAX_MS / 1000 + " s more have passed. 0..600000. Default: ${DEFAULT-VALUE}.")
    long warmupMs;

    @Option(names = "--partitions", split = ",", paramLabel = "N,...", description = "Instead: whole runs (10 us warm-up "
        + "and the window) of the same workload in each number of partitions (threads of this JVM, conservative windows "
        + "over the in-JVM transport): host time per simulated us, windows per second, the partitions' host time in "
        + "their windows' events and between windows (sums over the partitions), and whether the result equals the "
        + "first's.")
    int[] partitions;

    @Option(names = "--jvms", paramLabel = "N", defaultValue = "1", description = "Instead: the same whole runs in N "
        + "partitions, one per JVM of this host (this one and N-1 it starts, joined by shared memory; each run meets its "
        + "peers afresh, and the meeting is not timed). Excludes --partitions; compare with --partitions 1. Default: "
        + "${DEFAULT-VALUE}.")
    int jvms;

    @Mixin
    JvmPartitionOptions child;

    @Option(names = {"-p", "--pattern"}, defaultValue = "uniform", description = "Traffic pattern (as qsnet traffic's): "
        + "uniform, or neighbor to see what crossing partitions costs (node i sends to i + 1). Default: ${DEFAULT-VALUE}.")
    String pattern;

    @Option(names = "--timing", defaultValue = "exact", description = "exact (the wormhole model) or analytic (LogGP-style "
        + "formula, no contention: the functional mode, which partitions without replicating the network). Default: "
        + "${DEFAULT-VALUE}.")
    String timing;

    @Option(names = "--repeat", defaultValue = "3", description = "Runs per case, 1..100. Default: ${DEFAULT-VALUE}.")
    int repeat;

    @Mixin
    OutputOptions output;

    @Override
    public Integer call() throws Exception
    {
        QsnetException.require(sizes != null && sizes.length > 0, "--nodes", "", "must list at least one network size");
        for (final int n : sizes)
        {
            QsnetException.require(n >= 2 && n <= 4096, "--nodes value", n, "must be in 2..4096");
        }
        QsnetException.require(measureUs >= 1 && measureUs <= 1e6, "--measure-us", measureUs, "must be in 1..1000000 (1 s simulated)");
        QsnetException.require(warmupRuns >= 0 && warmupRuns <= 100, "--warmup-runs", warmupRuns, "must be in 0..100");
        QsnetException.require(repeat >= 1 && repeat <= 100, "--repeat", repeat, "must be in 1..100");
        QsnetException.require(warmupMs >= 0 && warmupMs <= 600_000, "--warmup-ms", warmupMs, "must be in 0..600000");
        output.check();
        FabricOptions.analytic(timing);
        Pattern.parse(pattern);
        if (jvms > 1)
        {
            QsnetException.require(partitions == null, "--jvms", jvms, "and --partitions exclude each other");
        }
        return child.run(jvms, 1, job -> job != null ? partitionedInJvms(job) : partitions != null ? partitioned() : whole());
    }

    private int whole()
    {
        final Table t = new Table("emulator performance: " + Pattern.parse(pattern).label() + " traffic at saturation (median of " + repeat + " runs)")
            .fact("emulator", "qsnet " + BuildInfo.version())
            .fact("jvm", System.getProperty("java.vm.name") + " " + System.getProperty("java.version"))
            .fact("host cpus", Runtime.getRuntime().availableProcessors())
            .fact("window", measureUs + " us simulated after 10 us warm-up; " + (warmupRuns == 0 ? "no unmeasured runs"
                : warmupRuns + " unmeasured runs first, and more until " + warmupMs + " ms of host time have passed and the JIT"
                + " is quiet"));
        if (FabricOptions.analytic(timing))
        {
            t.fact("timing", FabricOptions.ANALYTIC_LABEL);
        }
        t.column("nodes", "%d").column("sim_us", "%.0f").column("host_ms", "%.1f").column("cpu_ms", "%.1f")
            .column("slowdown", "%.1f").column("packets", "%d").column("packet_hops", "%d").column("ns_per_hop", "%.1f")
            .column("events_per_s", "%.3g").column("built_heap_MB", "%.1f").column("peak_heap_MB", "%.1f")
            .column("live_heap_MB", "%.1f").column("slowdown_min", "%.1f").column("slowdown_max", "%.1f");
        final double[] px = new double[sizes.length];
        final double[] slowdown = new double[sizes.length];
        int pi = 0;
        for (final int nodes : sizes)
        {
            final double[] host = new double[repeat];
            final double[] cpu = new double[repeat];
            final java.lang.management.ThreadMXBean threads = java.lang.management.ManagementFactory.getThreadMXBean();
            long packets = 0;
            long hops = 0;
            long events = 0;
            double built = 0;
            double peak = 0;
            double live = 0;
            final Warmup warmup = new Warmup();
            for (int r = -warmupRuns; r < repeat; r++)
            {
                System.gc();
                resetPeaks();
                warmup.runStarts();
                final TrafficSpec spec = new TrafficSpec(Pattern.parse(pattern), nodes, fabric(nodes),
                    320, false, true, 10_000, Math.round(measureUs * 1000), 0, 0, 1, false, true, false, 0, false, 1, false, org.qsnet.fabric.machine.PlatformProfile.pentium3He());
                final TrafficExperiment e = new TrafficExperiment(spec, 1.0);
                System.gc();
                built = Math.max(built, usedHeapBytes() / 1e6);
                e.runTo(spec.warmupNs());
                e.fabric().resetStats();
                final long ev0 = e.kernel().eventCount();
                final long c0 = threads.getCurrentThreadCpuTime();
                final long t0 = System.nanoTime();
                e.runTo(spec.warmupNs() + spec.measureNs());
                final long wall = System.nanoTime() - t0;
                final long threadCpu = threads.getCurrentThreadCpuTime() - c0;
                if (r < 0)
                {
                    if (r == -1 && !warmup.done(true))
                    {
                        // warm up for longer: the last unmeasured run again
                        r--;
                    }
                    continue;
                }
                host[r] = wall;
                cpu[r] = threadCpu;
                packets = e.fabric().deliveredPackets();
                hops = e.fabric().packetHops();
                events = e.kernel().eventCount() - ev0;
                peak = Math.max(peak, peakHeapBytes() / 1e6);
                System.gc();
                live = Math.max(live, usedHeapBytes() / 1e6);
                System.err.printf(Locale.ROOT, "%d nodes run %d: %.1f ms host for %.0f us simulated%n", nodes, r + 1,
                    host[r] / 1e6, spec.measureNs() / 1e3);
                java.lang.ref.Reference.reachabilityFence(e);
            }
            Arrays.sort(host);
            Arrays.sort(cpu);
            final double med = host[repeat / 2];
            final double simNs = measureUs * 1000;
            t.row(nodes, measureUs, med / 1e6, cpu[repeat / 2] / 1e6, med / simNs, packets, hops, med / hops, events / (med / 1e9), built, peak, live,
                host[0] / simNs, host[repeat - 1] / simNs);
            px[pi] = nodes;
            slowdown[pi] = med / simNs;
            pi++;
        }
        output.emit(t, System.out);
        if (output.plot != null)
        {
            Plots.lines(output.plot, "Emulator slowdown, " + Pattern.parse(pattern).label() + " traffic at saturation", "wall clock, JDK "
                + System.getProperty("java.version"), "nodes (log)", "host time / simulated time (log)",
                List.of(new Plots.Series("slowdown", px, slowdown)), true, true);
        }
        return 0;
    }

    /** Whole runs in 1, 2, 4... partitions: the distributed simulation's own cost. */
    private int partitioned()
    {
        final Table t = partitionedTable("partitions are threads of this JVM joined by the in-JVM transport", true);
        for (final int nodes : sizes)
        {
            TrafficPoint first = null;
            for (final int p : partitions)
            {
                QsnetException.require(p >= 1 && p <= nodes, "--partitions", p, "must be in 1.." + nodes);
                final Runs runs = new Runs(repeat);
                TrafficPoint pt = null;
                final Warmup warmup = new Warmup();
                for (int r = -warmupRuns; r < repeat; r++)
                {
                    final TrafficSpec spec = spec(nodes);
                    System.gc();
                    warmup.runStarts();
                    final long t0 = System.nanoTime();
                    final TrafficExperiment.Partitioned run = TrafficExperiment.partitioned(spec, 1.0, p, f -> { });
                    final long wall = System.nanoTime() - t0;
                    if (r == -1 && !warmup.done(true))
                    {
                        r--;
                    }
                    if (r >= 0)
                    {
                        runs.add(r, wall, run);
                        pt = run.point();
                        System.err.printf(Locale.ROOT, "%d nodes, %d partitions, run %d: %.1f ms host%n", nodes, p, r + 1,
                            wall / 1e6);
                    }
                }
                first = first == null ? pt : first;
                runs.row(t, nodes, p, String.valueOf(pt.equals(first)));
            }
        }
        output.emit(t, System.out);
        return 0;
    }

    /**
     * The same whole runs, this JVM one partition of {@code job} (--jvms): partition 0 times each
     * run from the meeting's end to the gathered outcome and prints the table; the others print
     * nothing.
     */
    private int partitionedInJvms(final JvmJob job) throws Exception
    {
        final Table t = partitionedTable("partitions are " + jvms + " JVMs of this host joined by shared memory; each run "
            + "meets its peers afresh, not timed", false);
        int index = 0;
        for (final int nodes : sizes)
        {
            QsnetException.require(jvms <= nodes, "--jvms", jvms, "must be at most the node count " + nodes);
            final Runs runs = new Runs(repeat);
            final Warmup warmup = new Warmup();
            for (int r = -warmupRuns; r < repeat; r++)
            {
                final TrafficSpec spec = spec(nodes);
                System.gc();
                warmup.runStarts();
                try (org.qsnet.fabric.transport.Transport transport = job.open(index++))
                {
                    final long t0 = System.nanoTime();
                    // after the last unmeasured run every JVM says whether it is warm: all go on alike
                    final boolean last = r == -1;
                    final TrafficExperiment.JobPart part = TrafficExperiment.partitionOfJob(spec, 1.0, transport,
                        f -> { }, last ? warmup::vote : null);
                    final long wall = System.nanoTime() - t0;
                    final TrafficExperiment.Partitioned run = part.result();
                    if (last && !part.allAgreed())
                    {
                        r--;
                    }
                    else if (last && job.partition == 0)
                    {
                        System.err.printf(Locale.ROOT, "perf: every JVM done warming up after %d unmeasured runs%n",
                            warmup.runs());
                    }
                    if (run != null && r >= 0)
                    {
                        runs.add(r, wall, run);
                        System.err.printf(Locale.ROOT, "%d nodes, %d JVMs, run %d: %.1f ms host%n", nodes, jvms, r + 1,
                            wall / 1e6);
                    }
                }
            }
            if (job.partition == 0)
            {
                runs.row(t, nodes, jvms, null);
            }
        }
        if (job.partition == 0)
        {
            output.emit(t, System.out);
        }
        return 0;
    }

    private TrafficSpec spec(final int nodes)
    {
        return new TrafficSpec(Pattern.parse(pattern), nodes, fabric(nodes), 320, false, true, 10_000,
            Math.round(measureUs * 1000), 0, 0, 1, false, true, false, 0, false, 1, false,
            org.qsnet.fabric.machine.PlatformProfile.pentium3He());
    }

    /** The partitioned table's columns ({@code same_result}: whether a row's result equals its size's first). */
    private Table partitionedTable(final String how, final boolean sameResult)
    {
        final Table t = new Table("distributed simulation: " + Pattern.parse(pattern).label() + " traffic at saturation, whole runs (median of " + repeat
            + " runs)")
            .fact("emulator", "qsnet " + BuildInfo.version())
            .fact("jvm", System.getProperty("java.vm.name") + " " + System.getProperty("java.version"))
            .fact("host cpus", Runtime.getRuntime().availableProcessors())
            .fact("run", "10 us warm-up + " + measureUs + " us simulated; " + how + "; " + warmupRuns
                + " unmeasured runs first" + (warmupRuns == 0 ? "" : ", and more until " + warmupMs
                + " ms of host time have passed and the JIT is quiet"));
        if (FabricOptions.analytic(timing))
        {
            t.fact("timing", FabricOptions.ANALYTIC_LABEL);
        }
        t.column("nodes", "%d").column("partitions", "%d").column("sim_us", "%.0f").column("host_ms", "%.1f")
            .column("host_us_per_sim_us", "%.1f").column("windows", "%d").column("windows_per_s", "%.3g")
            .column("dispatch_ms", "%.1f").column("exchange_ms", "%.1f");
        if (sameResult)
        {
            t.column("same_result", "%s");
        }
        return t;
    }

    /**
     * When the unmeasured runs may stop (a case's, from its first run): once {@code --warmup-ms} of
     * host time has passed and the JIT has gone quiet — its compilers busy for at most 1 % of the last
     * unmeasured run (plus 1 ms: the count is in milliseconds) — or {@link #MAX_MS} after that. Host
     * time decides only how long the tool warms up, never a simulated result.
     */
    private final class Warmup
    {
        static final long MAX_MS = 60_000;
        private final java.lang.management.CompilationMXBean jit = java.lang.management.ManagementFactory.getCompilationMXBean();
        private final long startNs = System.nanoTime(); // wall-clock: the tool's warm-up length only
        private long runStartNs;
        private long runStartCompileMs;
        private int runs;

        void runStarts()
        {
            runs++;
            runStartNs = System.nanoTime(); // wall-clock: the tool's warm-up length only
            runStartCompileMs = compileMs();
        }

        private long compileMs()
        {
            return jit != null && jit.isCompilationTimeMonitoringSupported() ? jit.getTotalCompilationTime() : 0;
        }

        /** @return the runs started so far. */
        int runs()
        {
            return runs;
        }

        /** @return whether {@code --warmup-ms} and {@link #MAX_MS} more have passed. */
        boolean capped()
        {
            // wall-clock: the tool's warm-up length only
            return System.nanoTime() - startNs >= (warmupMs + MAX_MS) * 1_000_000L;
        }

        /**
         * With --jvms, this JVM's vote after an unmeasured run: warm, or past the cap (said on stderr).
         *
         * @return whether this JVM may stop warming up.
         */
        boolean vote()
        {
            if (done(false))
            {
                return true;
            }
            if (capped())
            {
                System.err.println("perf: the JIT still compiles after " + (warmupMs + MAX_MS) / 1000
                    + " s of warm-up; measuring anyway");
                return true;
            }
            return false;
        }

        /**
         * @param alone whether this JVM decides alone: reaching the cap ({@link #capped()}) ends the
         *              warm-up, and the end is reported (with --jvms each JVM votes, {@link #vote()},
         *              and all go on until every one says yes).
         * @return whether the last unmeasured run (just ended) may be the last.
         */
        boolean done(final boolean alone)
        {
            final long now = System.nanoTime(); // wall-clock: the tool's warm-up length only
            final long runMs = (now - runStartNs) / 1_000_000L;
            final boolean quiet = compileMs() - runStartCompileMs <= 1 + runMs / 100;
            final boolean timeUp = now - startNs >= warmupMs * 1_000_000L;
            if (timeUp && !quiet && alone && capped())
            {
                System.err.println("perf: the JIT still compiles after " + (warmupMs + MAX_MS) / 1000
                    + " s of warm-up; measuring anyway");
                return true;
            }
            if (timeUp && quiet && alone)
            {
                System.err.printf(Locale.ROOT, "perf: warm after %d unmeasured runs, %.1f s (the JIT quiet)%n", runs,
                    (now - startNs) / 1e9);
            }
            return timeUp && quiet;
        }
    }

    /** The measured runs of one case: host time, and the partitions' dispatching and exchange. */
    private final class Runs
    {
        final double[] host;
        final double[] dispatch;
        final double[] exchange;
        long windows;

        Runs(final int n)
        {
            host = new double[n];
            dispatch = new double[n];
            exchange = new double[n];
        }

        void add(final int r, final long wallNs, final TrafficExperiment.Partitioned run)
        {
            host[r] = wallNs;
            dispatch[r] = run.dispatchNs() / 1e6;
            exchange[r] = run.exchangeNs() / 1e6;
            windows = run.windows();
        }

        /** Adds the medians' row; {@code same} null: no same_result column. */
        void row(final Table t, final int nodes, final int partitionCount, final String same)
        {
            Arrays.sort(host);
            Arrays.sort(dispatch);
            Arrays.sort(exchange);
            final double med = host[repeat / 2];
            final double simUs = 10 + measureUs;
            final Object[] cells = {nodes, partitionCount, simUs, med / 1e6, med / 1e3 / simUs, windows,
                windows / (med / 1e9), dispatch[repeat / 2], exchange[repeat / 2], same};
            t.row(same == null ? Arrays.copyOf(cells, cells.length - 1) : cells);
        }
    }

    private FabricConfig fabric(final int nodes)
    {
        return FabricConfig.elite(TrafficSpec.dimFor(nodes)).withAnalyticTiming(FabricOptions.analytic(timing));
    }

    private static List<MemoryPoolMXBean> heapPools()
    {
        final List<MemoryPoolMXBean> pools = new ArrayList<>();
        for (final MemoryPoolMXBean p : ManagementFactory.getMemoryPoolMXBeans())
        {
            if (p.getType() == MemoryType.HEAP)
            {
                pools.add(p);
            }
        }
        return pools;
    }

    private static void resetPeaks()
    {
        for (final MemoryPoolMXBean p : heapPools())
        {
            p.resetPeakUsage();
        }
    }

    private static long peakHeapBytes()
    {
        long sum = 0;
        for (final MemoryPoolMXBean p : heapPools())
        {
            sum += p.getPeakUsage().getUsed();
        }
        return sum;
    }

    private static long usedHeapBytes()
    {
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }
}
