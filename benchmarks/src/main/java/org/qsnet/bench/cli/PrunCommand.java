package org.qsnet.bench.cli;

import java.io.File;
import java.io.PrintStream;
import java.net.MalformedURLException;
import java.net.URL;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

import org.qsnet.elan3.Prun;
import org.qsnet.fabric.QsnetException;
import org.qsnet.fabric.engine.KernelContext;
import org.qsnet.fabric.engine.ProcessState;
import org.qsnet.fabric.engine.RunReport;
import org.qsnet.fabric.engine.SimulationException;
import org.qsnet.fabric.machine.PlatformProfile;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code prun}: runs an SPMD job on the embedded emulated machine, options as the real RMS prun.
 * Every argument after MAIN-CLASS goes to the program, options included, as RMS prun passes them.
 * Exit status: 0 when every rank finished normally, 1 when a rank threw, the job deadlocked or a
 * limit ended it, 2 for bad input.
 */
@Command(name = "prun", mixinStandardHelpOptions = true,
    description = {"Runs an SPMD job on an emulated QsNet machine in this JVM: every process runs MAIN-CLASS's "
        + "main(String[]) (or ElanMain) as a simulated process with its own capability and RMS_* environment.",
        "A rank is a process: each rank loads the program's classes (from CLASSPATH) in a class loader of its own, "
        + "so static fields (a port's C globals) belong to one rank; the emulator's library is shared.",
        "Every argument after MAIN-CLASS is the program's, options included.",
        "A rank that throws ends the job 1 us of simulated time later (as prun ends a job when a process dies): the ranks "
        + "still running or blocked are killed and where each was is printed; exit status 1."})
public final class PrunCommand implements Callable<Integer>
{
    @Option(names = "-n", required = true, description = "Number of processes.")
    int procs;

    @Option(names = "-N", description = "Number of nodes, at least 1 (default: one process per node).")
    Integer nodes;

    @Option(names = "-m", defaultValue = "block", description = "Process-to-node mapping: block or cyclic. Default: ${DEFAULT-VALUE}.")
    String mapping;

    @Option(names = "-B", defaultValue = "0", description = "First node. Default: ${DEFAULT-VALUE}.")
    int base;

    @Option(names = "-t", description = "Prefix every line the program prints on stdout or stderr with its rank.")
    boolean tag;

    @Option(names = "--profile", defaultValue = "pentium3-he", description = "Platform profile. Default: ${DEFAULT-VALUE}.")
    String profile;

    @Option(names = "--set", paramLabel = "NAME=VALUE", description = "Override a profile or fabric parameter, e.g. --set pciMHz=33.")
    Map<String, String> overrides = new LinkedHashMap<>();

    @Option(names = "--dim", description = "Tree dimension of the machine (default: the profile's).")
    Integer dim;

    @Option(names = "--timing", defaultValue = "exact", description = "exact (the wormhole model) or analytic (LogGP-style "
        + "formula, no contention: faster, for functional runs at scale). Default: ${DEFAULT-VALUE}.")
    String timing;

    @Option(names = {"-e", "--env"}, paramLabel = "NAME=VALUE", description = "Extra environment, e.g. LIBELAN_WAITTYPE=POLL.")
    Map<String, String> env = new LinkedHashMap<>();

    @Option(names = "--seed", defaultValue = "1", description = "Seed of the capability keys. Default: ${DEFAULT-VALUE}.")
    long seed;

    @Option(names = "--max-sim-us", paramLabel = "US", description = "End the job when its simulated time passes US "
        + "microseconds, with a report of where each rank is (exit status 1).")
    Double maxSimUs;

    @Option(names = "--timeout", paramLabel = "SECONDS", description = "Wall-clock safety net: end the job after SECONDS "
        + "of host time, with a report of where each rank is (exit status 1). Never part of a result.")
    Double timeoutSeconds;

    @Option(names = "--jvms", paramLabel = "N", description = "Run the job in N JVMs on this host, one partition of the "
        + "machine each (the job's nodes split evenly between them), joined through shared memory; this JVM is partition 0 "
        + "and writes the results. The simulated results are those of one JVM, bit for bit (--jvms 1 is one JVM, as "
        + "without the option).")
    Integer jvms;

    @Option(names = "--coordinator", paramLabel = "HOST:PORT", description = "Multi-host run: this process is one partition; "
        + "its rank and size come from the launcher it runs under (SLURM_PROCID/SLURM_NTASKS, OMPI_COMM_WORLD_RANK/SIZE, "
        + "PMI_RANK/PMI_SIZE or RMS_RANK/RMS_NPROCS). Partition 0 listens at HOST:PORT, the others meet it there; the job "
        + "key comes from QSNET_JOB_KEY (hex, at least 16 bytes), the job id from QSNET_JOB_ID (default 1).")
    String coordinator;

    @Option(names = "--bind", paramLabel = "HOST", defaultValue = "127.0.0.1", description = "Address this partition's "
        + "transport listens on in a --coordinator run (loopback unless told otherwise). Default: ${DEFAULT-VALUE}.")
    String bind;

    @Option(names = "--digest", description = "Also print the digest of every simulated event's key (the same for a run in "
        + "one JVM and in several).")
    boolean digest;

    @Mixin
    JvmPartitionOptions child;

    @Parameters(index = "0", paramLabel = "MAIN-CLASS", description = "The program: a class with main(String[]) or implementing ElanMain.")
    String mainClass;

    @Parameters(index = "1..*", paramLabel = "ARGS", description = "The program's arguments (all of them, options included).")
    List<String> args = new ArrayList<>();

    /** The user's class path: CLASSPATH, as the {@code prun} script puts it after the emulator's jar. */
    String classpath = System.getenv("CLASSPATH");

    @Override
    public Integer call() throws Exception
    {
        QsnetException.require(nodes == null || nodes >= 1, "-N", nodes, "must be at least 1 (leave -N out for one process per node)");
        PlatformProfile p = FabricOptions.applyProfile(PlatformProfile.named(profile), overrides);
        if (dim != null)
        {
            p = p.withFabric(p.fabric().withDim(dim));
        }
        if (FabricOptions.analytic(timing))
        {
            p = p.withFabric(p.fabric().withAnalyticTiming(true));
        }
        final boolean cyclic = switch (mapping)
        {
            case "block" -> false;
            case "cyclic" -> true;
            default -> throw new QsnetException("-m '" + mapping + "' must be block or cyclic");
        };
        QsnetException.require(maxSimUs == null || maxSimUs >= 0, "--max-sim-us", maxSimUs, "must be at least 0");
        QsnetException.require(timeoutSeconds == null || timeoutSeconds > 0, "--timeout", timeoutSeconds, "must be more than 0 s");
        final Prun.Program program = Prun.Program.named(mainClass, userClasspath(classpath),
            Thread.currentThread().getContextClassLoader());
        final long watchdogNs = timeoutSeconds == null ? 0 : (long)(timeoutSeconds * 1e9);
        final KernelContext kernelContext = new KernelContext(KernelContext.ComputeMode.ZERO, 1.0, watchdogNs);
        // --jvms 1 is one JVM: the job runs as without the option (no partition driver, no windows)
        if ((jvms != null && jvms != 1) || coordinator != null)
        {
            return Distributed.run(this, p, kernelContext, program, cyclic);
        }
        final Prun.Session session = new Prun.Session(p, seed, kernelContext);
        session.launch(new Prun.Options(procs, nodes == null ? 0 : nodes, cyclic, base, env), program, args.toArray(new String[0]));
        final PrintStream out = System.out;
        final PrintStream err = System.err;
        if (tag)
        {
            System.setOut(Prun.labelled(out));
            System.setErr(Prun.labelled(err));
        }
        RunReport report;
        SimulationException stopped = null;
        try
        {
            report = maxSimUs == null ? session.run() : session.run(Math.round(maxSimUs * 1000));
        }
        catch (final SimulationException e)
        {
            stopped = e;
            report = e.report();
        }
        finally
        {
            if (tag)
            {
                System.out.close();
                System.err.close();
            }
            System.setOut(out);
            System.setErr(err);
        }
        // what a rank threw comes first, with its stack; then the deadlock or the limit
        boolean failed = stopped != null;
        if (report != null)
        {
            for (final RunReport.Outcome o : report.outcomes())
            {
                if (o.state() == ProcessState.FAILED)
                {
                    failed = true;
                    err.println("prun: " + o.name() + " failed:");
                    o.failure().printStackTrace(err);
                }
                else if (o.state() != ProcessState.DONE && stopped == null)
                {
                    failed = true;
                    err.println("prun: " + o.name() + " " + o.state());
                }
            }
        }
        if (stopped != null)
        {
            err.print("prun: " + stopped.getMessage() + (stopped.getMessage().endsWith("\n") ? "" : "\n"));
            if (report == null)
            {
                stopped.printStackTrace(err);
            }
        }
        err.printf("prun: %d processes on %s, simulated time %.3f us%n", procs, p.name(),
            (report == null ? session.kernel().nowNs() : report.endNs()) / 1000.0);
        if (p.fabric().analyticTiming())
        {
            err.println("prun: timing " + FabricOptions.ANALYTIC_LABEL);
        }
        if (digest)
        {
            err.printf("prun: %d events, digest %016x%n", session.kernel().tracedEvents(), session.kernel().traceSum());
        }
        return failed ? 1 : 0;
    }

    /** The entries of a class path string as URLs (directories and jars). */
    static List<URL> userClasspath(final String classpath)
    {
        final List<URL> urls = new ArrayList<>();
        if (classpath == null || classpath.isBlank())
        {
            return urls;
        }
        for (final String entry : classpath.split(File.pathSeparator))
        {
            if (entry.isBlank())
            {
                continue;
            }
            try
            {
                urls.add(new File(entry).toURI().toURL());
            }
            catch (final MalformedURLException e)
            {
                throw new QsnetException("CLASSPATH entry '" + entry + "' is not a path: " + e.getMessage());
            }
        }
        return urls;
    }

    /**
     * Runs {@code prun} without exiting the JVM: option parsing stops at MAIN-CLASS, so every
     * argument after it goes to the program.
     *
     * @param argv command line.
     * @return the exit status: 0 success, 1 a rank failed or the job was ended, 2 bad input.
     */
    public static int execute(final String... argv)
    {
        Distributed.argv = argv.clone();
        final CommandLine cl = new CommandLine(new PrunCommand());
        cl.setStopAtPositional(true);
        cl.setExecutionExceptionHandler((ex, cmd, parsed) ->
        {
            if (ex instanceof org.qsnet.fabric.transport.TransportException)
            {
                // another JVM of the job failed or never came: the job failed, the input was fine
                cmd.getErr().println("prun: " + ex.getMessage());
                return 1;
            }
            if (ex instanceof QsnetException)
            {
                cmd.getErr().println("prun: " + ex.getMessage());
                return 2;
            }
            throw ex;
        });
        return cl.execute(argv);
    }

    /**
     * Entry point of {@code ./prun}.
     *
     * @param argv command line.
     */
    public static void main(final String[] argv)
    {
        System.exit(execute(argv));
    }
}
