package org.qsnet.bench.cli;

import java.io.PrintStream;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

import org.qsnet.elan3.ElanMain;
import org.qsnet.elan3.Prun;
import org.qsnet.fabric.QsnetException;
import org.qsnet.fabric.engine.ProcessState;
import org.qsnet.fabric.engine.RunReport;
import org.qsnet.fabric.model.PlatformProfile;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code prun}: runs an SPMD job on the embedded emulated machine, options as the real RMS prun.
 */
@Command(name = "prun", mixinStandardHelpOptions = true,
    description = {"Runs an SPMD job on an emulated QsNet machine in this JVM: every process runs MAIN-CLASS's "
        + "main(String[]) (or ElanMain) as a simulated process with its own capability and RMS_* environment.",
        "Static fields of MAIN-CLASS are shared by the ranks (one JVM): keep per-rank state in locals."})
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

    @Option(names = "-t", description = "Prefix every line of output with the rank.")
    boolean tag;

    @Option(names = "--profile", defaultValue = "pentium3-he", description = "Platform profile. Default: ${DEFAULT-VALUE}.")
    String profile;

    @Option(names = "--set", paramLabel = "NAME=VALUE", description = "Override a profile or fabric parameter, e.g. --set pciMHz=33.")
    Map<String, String> overrides = new LinkedHashMap<>();

    @Option(names = "--dim", description = "Tree dimension of the machine (default: the profile's).")
    Integer dim;

    @Option(names = {"-e", "--env"}, paramLabel = "NAME=VALUE", description = "Extra environment, e.g. LIBELAN_WAITTYPE=POLL.")
    Map<String, String> env = new LinkedHashMap<>();

    @Option(names = "--seed", defaultValue = "1", description = "Seed of the capability keys. Default: ${DEFAULT-VALUE}.")
    long seed;

    @Parameters(index = "0", paramLabel = "MAIN-CLASS", description = "The program: a class with main(String[]) or implementing ElanMain.")
    String mainClass;

    @Parameters(index = "1..*", paramLabel = "ARGS", description = "The program's arguments.")
    List<String> args = new ArrayList<>();

    @Override
    public Integer call() throws Exception
    {
        QsnetException.require(nodes == null || nodes >= 1, "-N", nodes, "must be at least 1 (leave -N out for one process per node)");
        PlatformProfile p = FabricOptions.applyProfile(PlatformProfile.named(profile), overrides);
        if (dim != null)
        {
            p = p.withFabric(p.fabric().withDim(dim));
        }
        final boolean cyclic = switch (mapping)
        {
            case "block" -> false;
            case "cyclic" -> true;
            default -> throw new QsnetException("-m '" + mapping + "' must be block or cyclic");
        };
        final ElanMain program = load(mainClass);
        final Prun.Session session = new Prun.Session(p, seed);
        session.launch(new Prun.Options(procs, nodes == null ? 0 : nodes, cyclic, base, env), program, args.toArray(new String[0]));
        final PrintStream out = System.out;
        if (tag)
        {
            System.setOut(Prun.labelled(out));
        }
        final RunReport report;
        try
        {
            report = session.run();
        }
        finally
        {
            System.setOut(out);
        }
        int failed = 0;
        for (final RunReport.Outcome o : report.outcomes())
        {
            if (o.state() != ProcessState.DONE)
            {
                failed++;
                System.err.println("prun: " + o.name() + " " + o.state() + (o.failure() == null ? "" : ": " + o.failure()));
                if (o.failure() != null)
                {
                    o.failure().printStackTrace();
                }
            }
        }
        System.err.printf("prun: %d processes on %s, simulated time %.3f us%n", procs, p.name(), report.endNs() / 1000.0);
        return failed == 0 ? 0 : 1;
    }

    static ElanMain load(final String name)
    {
        final Class<?> c;
        try
        {
            c = Class.forName(name, true, Thread.currentThread().getContextClassLoader());
        }
        catch (final ClassNotFoundException e)
        {
            throw new QsnetException("MAIN-CLASS " + name + " is not on the class path (add it with CLASSPATH)");
        }
        if (ElanMain.class.isAssignableFrom(c))
        {
            try
            {
                final ElanMain m = (ElanMain)c.getDeclaredConstructor().newInstance();
                return m;
            }
            catch (final ReflectiveOperationException e)
            {
                throw new QsnetException("MAIN-CLASS " + name + " implements ElanMain but has no public no-argument constructor");
            }
        }
        final Method main;
        try
        {
            main = c.getMethod("main", String[].class);
        }
        catch (final NoSuchMethodException e)
        {
            throw new QsnetException("MAIN-CLASS " + name + " has no public static void main(String[])");
        }
        if (!Modifier.isStatic(main.getModifiers()))
        {
            throw new QsnetException("MAIN-CLASS " + name + ": main(String[]) must be static");
        }
        return (process, a) ->
        {
            try
            {
                main.invoke(null, (Object)a);
            }
            catch (final java.lang.reflect.InvocationTargetException e)
            {
                if (e.getCause() instanceof Exception ex)
                {
                    throw ex;
                }
                throw e;
            }
        };
    }

    /**
     * Entry point of {@code ./prun}.
     *
     * @param argv command line.
     */
    public static void main(final String[] argv)
    {
        final CommandLine cl = new CommandLine(new PrunCommand());
        cl.setExecutionExceptionHandler((ex, cmd, parsed) ->
        {
            if (ex instanceof QsnetException)
            {
                cmd.getErr().println("prun: " + ex.getMessage());
                return 2;
            }
            throw ex;
        });
        System.exit(cl.execute(argv));
    }
}
