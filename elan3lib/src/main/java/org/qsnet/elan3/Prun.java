package org.qsnet.elan3;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.net.URL;
import java.net.URLClassLoader;
import java.security.CodeSource;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SplittableRandom;
import java.util.function.IntFunction;

import org.qsnet.fabric.QsnetException;
import org.qsnet.fabric.engine.Kernel;
import org.qsnet.fabric.engine.KernelContext;
import org.qsnet.fabric.engine.ProcessState;
import org.qsnet.fabric.engine.RunReport;
import org.qsnet.fabric.engine.SimulationException;
import org.qsnet.fabric.machine.Machine;
import org.qsnet.fabric.machine.PlatformProfile;
import org.qsnet.fabric.distributed.PartitionDriver;
import org.qsnet.fabric.network.Fabric;
import org.qsnet.fabric.network.Partitioning;
import org.qsnet.fabric.transport.Transport;

/**
 * The {@code prun} launcher: runs SPMD jobs on an emulated machine in this JVM. Each job gets a
 * capability (a random key, a context range, a node range, a block or cyclic bitmap) registered
 * with the drivers of its nodes; each process gets its {@code MyContext} and the environment a
 * legacy program reads. Several jobs can share one machine, each with its own capability.
 *
 * <p>A rank is a process: a program launched by its class ({@link Session#launch(Options, Class,
 * String...)}, {@link Program}, and {@code prun}) gets a class loader per rank, so its static
 * fields — a port's C globals — belong to one rank. A program given as an {@link ElanMain}
 * object (a lambda in a test) is already loaded: its ranks share the caller's classes.
 *
 * <p>A rank that throws ends the run, as {@code prun} ends a job when one of its processes dies:
 * {@link #FAILURE_END_DELAY_NS} of simulated time after the failure, every rank still running or
 * blocked (in any job of the session) is killed, and the run fails. A rank spinning on a peer that
 * failed therefore ends too. If every rank has ended by then, the failure ends nothing: the run
 * goes on to its last event and returns its report, which holds the failure
 * ({@link RunReport#throwIfFailed()}).
 *
 * <p>Failures are never hidden: when a rank throws, or a limit ({@link Session#run(long)}, the
 * wall-clock safety net of the {@link KernelContext}) ends a job, or the ranks deadlock, the run
 * fails with a {@link SimulationException} whose message names the failure first, then where each
 * rank is ({@link #whereEachRankIs(RunReport)}), and whose cause is the first failure.
 *
 * <pre>
 * Prun.Session s = new Prun.Session(PlatformProfile.pentium3He(), 1);
 * s.launch(new Prun.Options(2, 2, false, 0, Map.of()), Ping.class, "64");
 * RunReport r = s.run(10_000_000);   // at most 10 ms of simulated time
 * </pre>
 */
public final class Prun
{
    /**
     * Simulated time from a rank's failure to the end of its run (1 µs; a profile whose node link's
     * wire is longer takes that). RMS needs longer to kill a job; what matters is that the end is
     * one instant every partition of a distributed run can agree on, which needs at least the
     * lookahead (tens of ns).
     */
    public static final long FAILURE_END_DELAY_NS = 1_000;

    private Prun()
    {
    }

    /**
     * What {@code prun} is asked for.
     *
     * @param procs  {@code -n}: processes.
     * @param nodes  {@code -N}: nodes (0: one process per node).
     * @param cyclic {@code -m cyclic} (true) or block.
     * @param base   {@code -B}: first node.
     * @param env    extra environment ({@code LIBELAN_*} tunables).
     */
    public record Options(int procs, int nodes, boolean cyclic, int base, Map<String, String> env)
    {
        /**
         * Validates.
         */
        public Options
        {
            QsnetException.require(procs >= 1, "-n", procs, "must be at least 1");
            QsnetException.require(nodes >= 0, "-N", nodes, "must be at least 1 (or 0 for one process per node)");
            QsnetException.require(base >= 0, "-B", base, "must be at least 0");
            env = Map.copyOf(env);
        }

        /**
         * @return how many nodes from {@link #base} hold a rank, as {@link Session#launch} places
         * them: block placement fills a node with {@code ceil(procs / nodes)} ranks before the next
         * (so {@code -n 5 -N 4} leaves the fourth node empty), cyclic placement deals them round.
         */
        public int nodesWithRanks()
        {
            final int n = nodes == 0 ? procs : nodes;
            if (cyclic)
            {
                return Math.min(procs, n);
            }
            final int ppn = (procs + n - 1) / n;
            return (procs - 1) / ppn + 1;
        }
    }

    /**
     * A machine with its jobs.
     */
    public static final class Session
    {
        private final Kernel kernel;
        private final Machine machine;
        private final long seed;
        private final List<ElanProcess> processes = new ArrayList<>();
        /** Ranks launched, in every partition: a rank's process origin is the same in any partitioning. */
        private int ranksLaunched;
        private final Transport transport;
        private PartitionDriver driver;
        private int jobs;
        private int nextContext = ElanCapability.ELAN_USER_BASE_CONTEXT_NUM;

        /**
         * @param profile the platform.
         * @param seed    seed of the capability keys.
         */
        public Session(final PlatformProfile profile, final long seed)
        {
            this(profile, seed, KernelContext.DEFAULT);
        }

        /**
         * @param profile the platform.
         * @param seed    seed of the capability keys.
         * @param context how compute time is charged, and the wall-clock safety net
         *                ({@code prun --timeout}): a run that takes longer fails with a report of
         *                where each rank is.
         */
        public Session(final PlatformProfile profile, final long seed, final KernelContext context)
        {
            this.kernel = new Kernel(context);
            // a rank that throws ends the run, as prun ends a job when one of its processes dies
            this.kernel.endRunWhenAProcessFails(failureEndDelayNs(profile));
            this.machine = new Machine(kernel, profile);
            this.seed = seed;
            this.transport = null;
        }

        /**
         * One partition of a session simulated by several JVMs (or threads): every partition
         * launches the same jobs with the same options, and runs only the ranks on its nodes;
         * {@link #run()} runs the partitions together in conservative windows over
         * {@code transport}. The results are those of the same session in one JVM, bit for bit.
         *
         * @param profile   the platform.
         * @param seed      seed of the capability keys (the same in every partition).
         * @param context   how compute time is charged, and the wall-clock safety net.
         * @param transport this partition's endpoint of the job's transport; its partition and
         *                  partition count are this session's.
         */
        public Session(final PlatformProfile profile, final long seed, final KernelContext context, final Transport transport)
        {
            this(profile, seed, context, transport, new Partitioning(Objects.requireNonNull(transport, "transport")
                .partitionCount(), transport.partition(), nodeCountOf(profile)));
        }

        /**
         * {@link #Session(PlatformProfile, long, KernelContext, Transport)} with the nodes
         * {@code firstNode..firstNode+nodes-1} (a job's, as {@code prun -B} and {@code -N} place it)
         * split evenly between the partitions instead of the whole machine ({@link Partitioning#around}),
         * so that each JVM runs some of the job's ranks. The results are the same either way.
         *
         * @param profile   the platform.
         * @param seed      seed of the capability keys (the same in every partition).
         * @param context   how compute time is charged, and the wall-clock safety net.
         * @param transport this partition's endpoint of the job's transport.
         * @param firstNode the first node to split.
         * @param nodes     how many nodes to split.
         */
        public Session(final PlatformProfile profile, final long seed, final KernelContext context, final Transport transport,
            final int firstNode, final int nodes)
        {
            this(profile, seed, context, transport, Partitioning.around(Objects.requireNonNull(transport, "transport")
                .partitionCount(), transport.partition(), nodeCountOf(profile), firstNode, nodes));
        }

        private Session(final PlatformProfile profile, final long seed, final KernelContext context, final Transport transport,
            final Partitioning partitioning)
        {
            this.kernel = new Kernel(context);
            this.kernel.endRunWhenAProcessFails(failureEndDelayNs(profile));
            this.machine = new Machine(kernel, profile, partitioning);
            this.seed = seed;
            this.transport = transport;
        }

        /**
         * {@link #FAILURE_END_DELAY_NS}, or a partitioned run's lookahead (the node link's wire) if
         * a profile's is longer: the same in one JVM and in partitions, so the end is the same.
         */
        private static long failureEndDelayNs(final PlatformProfile profile)
        {
            return Math.max(FAILURE_END_DELAY_NS, profile.fabric().wireDelayNs());
        }

        /**
         * @param profile a platform.
         * @return the nodes of its machine ({@code k^dim}).
         */
        public static int nodeCountOf(final PlatformProfile profile)
        {
            int n = 1;
            for (int i = 0; i < profile.fabric().dim(); i++)
            {
                n *= profile.fabric().k();
            }
            return n;
        }

        /**
         * @return the machine.
         */
        public Machine machine()
        {
            return machine;
        }

        /**
         * @return the kernel.
         */
        public Kernel kernel()
        {
            return kernel;
        }

        /**
         * @return every process launched, in launch order.
         */
        public List<ElanProcess> processes()
        {
            return List.copyOf(processes);
        }

        /**
         * Launches a job whose ranks all run one program object: builds its capability, registers
         * it, spawns one simulated process per rank. The program's classes are the caller's, so
         * its ranks share their static fields; launch by class to give each rank its own.
         *
         * @param o    the options.
         * @param main the program.
         * @param args its arguments.
         * @return the job's index.
         */
        public int launch(final Options o, final ElanMain main, final String... args)
        {
            Objects.requireNonNull(main, "main");
            return launch(o, rank -> main, args);
        }

        /**
         * Launches a job of {@code mainClass} with a class loader per rank (see {@link Program#of(Class)}):
         * each rank has its own static fields, as each process had its own globals.
         *
         * @param o         the options.
         * @param mainClass a class with {@code public static void main(String[])} or implementing
         *                  {@link ElanMain}, outside the library's packages.
         * @param args      its arguments.
         * @return the job's index.
         */
        public int launch(final Options o, final Class<?> mainClass, final String... args)
        {
            return launch(o, Program.of(mainClass), args);
        }

        /**
         * Launches a job of {@code program} with a class loader per rank: each rank has its own
         * static fields, as each process had its own globals.
         *
         * @param o       the options.
         * @param program the program.
         * @param args    its arguments.
         * @return the job's index.
         */
        public int launch(final Options o, final Program program, final String... args)
        {
            final int job = jobs;
            return launch(o, rank -> program.forRank("job " + job + " rank " + rank), args);
        }

        private int launch(final Options o, final IntFunction<ElanMain> programOfRank, final String... args)
        {
            final int nodes = o.nodes() == 0 ? o.procs() : o.nodes();
            QsnetException.require(nodes <= o.procs(), "-N", nodes, "must be at most -n (" + o.procs() + ")");
            QsnetException.require(o.base() + nodes <= machine.nodeCount(), "-B + -N", (o.base() + nodes),
                "must be at most the machine's " + machine.nodeCount() + " nodes (" + machine.profile().name() + ")");
            final int ppn = (o.procs() + nodes - 1) / nodes;
            QsnetException.require(nextContext + ppn - 1 <= ElanCapability.ELAN_USER_TOP_CONTEXT_NUM, "contexts",
                nextContext + ppn - 1, "exhaust the user range 0x400..0x7ff");
            final int job = jobs++;
            final ElanCapability cap = new ElanCapability();
            final SplittableRandom rnd = new SplittableRandom(seed * 31 + job);
            for (int i = 0; i < 4; i++)
            {
                cap.userKey[i] = rnd.nextInt();
            }
            cap.type = (o.cyclic() ? ElanCapability.ELAN_CAP_TYPE_CYCLIC : ElanCapability.ELAN_CAP_TYPE_BLOCK)
                | ElanCapability.ELAN_CAP_TYPE_MULTI_RAIL | ElanCapability.ELAN_CAP_TYPE_BROADCASTABLE;
            cap.lowContext = nextContext;
            cap.highContext = nextContext + ppn - 1;
            nextContext += ppn;
            cap.lowNode = o.base();
            cap.highNode = o.base() + nodes - 1;
            cap.entries = o.procs();
            final int[] rankNode = new int[o.procs()];
            final int[] rankLocal = new int[o.procs()];
            for (int r = 0; r < o.procs(); r++)
            {
                rankNode[r] = o.cyclic() ? r % nodes : r / ppn;
                rankLocal[r] = o.cyclic() ? r / nodes : r % ppn;
                cap.setBit(rankNode[r] * ppn + rankLocal[r]);
            }
            for (int n = 0; n < nodes; n++)
            {
                machine.createCapability(o.base() + n, cap.lowContext, cap.highContext, cap.userKey);
            }
            for (int r = 0; r < o.procs(); r++)
            {
                final ElanCapability mine = cap.copy();
                mine.myContext = cap.lowContext + rankLocal[r];
                final int vp = mine.location2vp(new ElanLocation(rankNode[r], rankLocal[r]));
                final int node = o.base() + rankNode[r];
                final Map<String, String> env = new LinkedHashMap<>();
                env.put("RMS_NPROCS", Integer.toString(o.procs()));
                env.put("RMS_NNODES", Integer.toString(nodes));
                env.put("RMS_NODEID", Integer.toString(rankNode[r]));
                env.put("RMS_RANK", Integer.toString(vp));
                env.put("RMS_PROCID", Integer.toString(vp));
                env.put("RMS_JOBID", Integer.toString(job));
                env.put("RMS_MACHINE", machine.profile().name());
                env.put("RMS_RAILS", "1");
                env.put("LIBELAN_ECAP0", mine.toCompactString(node));
                env.putAll(o.env());
                final int globalIndex = ranksLaunched++;
                if (!machine.isLocal(node))
                {
                    // another partition runs this rank
                    continue;
                }
                final ElanMain main = programOfRank.apply(vp);
                final ElanProcess[] holder = new ElanProcess[1];
                final var sim = kernel.spawn(Fabric.PROCESS_ORIGIN_BASE + globalIndex,
                    "job " + job + " rank " + vp, self ->
                    {
                        ElanProcess.bind(holder[0]);
                        try
                        {
                            main.main(holder[0], args.clone());
                        }
                        finally
                        {
                            ElanProcess.bind(null);
                        }
                    });
                holder[0] = new ElanProcess(machine, sim, job, vp, node, mine, env);
                sim.attach(holder[0]);
                processes.add(holder[0]);
            }
            return job;
        }

        /**
         * Runs every job to completion.
         *
         * @return the outcome of every process (a rank that threw, with nobody left waiting for
         * it, is in the report, see {@link RunReport#throwIfFailed()}).
         * @throws SimulationException when processes are left blocked (a deadlock), a model event
         * failed or the wall-clock safety net fired: its message names any rank that threw first,
         * then where each rank is; its cause is the first rank's failure.
         */
        public RunReport run()
        {
            try
            {
                return transport == null ? kernel.run() : driver().run(Long.MAX_VALUE);
            }
            catch (final SimulationException e)
            {
                throw explained(e.getMessage(), e.report(), e);
            }
        }

        /**
         * Runs every job, for at most {@code maxSimNs} of simulated time ({@code prun --max-sim-us}):
         * a job that has not finished by then is ended, and the run fails with a report of where
         * each rank is.
         *
         * @param maxSimNs the simulated time limit, at least 0.
         * @return the outcome of every process, when all finished in time.
         * @throws SimulationException when the limit ended the job (or as {@link #run()}).
         */
        public RunReport run(final long maxSimNs)
        {
            QsnetException.require(maxSimNs >= 0, "maxSimNs", maxSimNs, "must be at least 0");
            final RunReport r;
            try
            {
                r = transport == null ? kernel.runUntil(maxSimNs) : driver().run(maxSimNs);
            }
            catch (final SimulationException e)
            {
                throw explained(e.getMessage(), e.report(), e);
            }
            boolean allEnded = true;
            for (final RunReport.Outcome o : r.outcomes())
            {
                allEnded &= o.state().isTerminal();
            }
            if (transport != null)
            {
                // every partition must take the same branch: the job has ended only if all its ranks have
                allEnded = driver().allAgree(allEnded);
            }
            if (allEnded)
            {
                // what the NIC still has to do (acknowledgements) completes as in run()
                return run();
            }
            final RunReport where = kernel.snapshot();
            kernel.shutdown();
            throw explained(String.format("simulated time limit of %.3f us reached (the job has not finished)",
                maxSimNs / 1000.0), where, null);
        }

        private PartitionDriver driver()
        {
            if (driver == null)
            {
                driver = new PartitionDriver(kernel, machine.fabric().remote(), transport);
            }
            return driver;
        }

        /**
         * @return the driver of this partition's windows, or null for a session in one JVM.
         */
        public PartitionDriver partitionDriver()
        {
            return transport == null ? null : driver();
        }

        private static SimulationException explained(final String message, final RunReport r, final SimulationException e)
        {
            if (r == null)
            {
                return e;
            }
            String headline = message.lines().findFirst().orElse("");
            headline = headline.endsWith(":") ? headline.substring(0, headline.length() - 1) : headline;
            final StringBuilder sb = new StringBuilder();
            // the cause is the earliest failure (between failures at one instant, the earlier rank's):
            // the one a failed run's end names
            Throwable first = null;
            long firstAt = Long.MAX_VALUE;
            for (final RunReport.Outcome o : r.outcomes())
            {
                if (o.state() == ProcessState.FAILED)
                {
                    sb.append(o.name()).append(" failed: ").append(o.failure()).append("; then ");
                    if (o.finishedAtNs() < firstAt)
                    {
                        first = o.failure();
                        firstAt = o.finishedAtNs();
                    }
                }
            }
            sb.append(headline).append("; where each rank is:\n").append(whereEachRankIs(r));
            return new SimulationException(sb.toString(), first != null ? first : e == null ? null : e.getCause(), r);
        }
    }

    /**
     * A program launched by class: for every rank, a class loader of the rank's own defines the
     * program's classes, so their static fields — a port's C globals — belong to that rank, as
     * globals belonged to one process. Shared by all ranks, loaded once: the emulator's library
     * ({@code org.qsnet.fabric}, {@code elan3}, {@code elan}, {@code tports}, {@code mpi}), the
     * JDK, and whatever the program's class path does not hold (the emulator's dependencies).
     */
    public static final class Program
    {
        private final String className;
        private final RankClassLoader.Source source;
        private final ClassLoader parent;

        private Program(final String className, final RankClassLoader.Source source, final ClassLoader parent)
        {
            this.className = className;
            this.source = source;
            this.parent = parent;
        }

        /**
         * The program of a class the caller has loaded (a test's, a JMH benchmark's): every rank
         * loads its own copy of the classes of the same class path entry (directory or jar). When
         * that entry is the emulator's own jar (the bundled examples), only the classes of the main
         * class's package are per rank.
         *
         * @param mainClass a class with {@code public static void main(String[])} or implementing
         *                  {@link ElanMain} with a public no-argument constructor.
         * @return the program.
         */
        public static Program of(final Class<?> mainClass)
        {
            Objects.requireNonNull(mainClass, "mainClass");
            return named(mainClass.getName(), List.of(), mainClass.getClassLoader());
        }

        /**
         * The program {@code prun} runs: {@code className} from the user's class path
         * ({@code CLASSPATH}), else from {@code parent} (the launcher's own class path; then as
         * {@link #of(Class)}).
         *
         * @param className the main class's binary name.
         * @param classpath the user's class path entries (may be empty).
         * @param parent    the launcher's class loader, where the library is.
         * @return the program.
         */
        public static Program named(final String className, final List<URL> classpath, final ClassLoader parent)
        {
            Objects.requireNonNull(className, "className");
            final ClassLoader p = parent != null ? parent : Prun.class.getClassLoader();
            if (RankClassLoader.shared(className))
            {
                throw new QsnetException("MAIN-CLASS " + className + " is in a package of the emulator's library or the JDK,"
                    + " whose classes every rank shares: put the program in a package of its own");
            }
            final String path = className.replace('.', '/') + ".class";
            final URLClassLoader user = new URLClassLoader("user class path", classpath.toArray(URL[]::new), null);
            final RankClassLoader.Source source;
            if (user.findResource(path) != null)
            {
                source = new RankClassLoader.Source(user, null);
            }
            else
            {
                final Class<?> c;
                try
                {
                    c = Class.forName(className, false, p);
                }
                catch (final ClassNotFoundException | LinkageError e)
                {
                    throw new QsnetException("MAIN-CLASS " + className + " is not on the class path (add it with CLASSPATH)");
                }
                final CodeSource cs = c.getProtectionDomain().getCodeSource();
                final URL where = cs == null ? null : cs.getLocation();
                final CodeSource library = Prun.class.getProtectionDomain().getCodeSource();
                if (where == null || library != null && where.equals(library.getLocation()))
                {
                    final int dot = className.lastIndexOf('.');
                    source = new RankClassLoader.Source(p, dot < 0 ? className : className.substring(0, dot + 1));
                }
                else
                {
                    final List<URL> urls = new ArrayList<>(classpath);
                    urls.add(where);
                    source = new RankClassLoader.Source(new URLClassLoader("program class path", urls.toArray(URL[]::new),
                        null), null);
                }
            }
            final Program program = new Program(className, source, p);
            program.entry(program.load("probe"));
            return program;
        }

        /**
         * @return the main class's name.
         */
        public String className()
        {
            return className;
        }

        private Class<?> load(final String rank)
        {
            try
            {
                return Class.forName(className, false, new RankClassLoader(rank, source, parent));
            }
            catch (final ClassNotFoundException | LinkageError e)
            {
                throw new QsnetException("MAIN-CLASS " + className + " cannot be loaded: " + e, e);
            }
        }

        /** The program's entry: an ElanMain constructor, or a static main(String[]). */
        private Object entry(final Class<?> c)
        {
            if (ElanMain.class.isAssignableFrom(c))
            {
                try
                {
                    return c.getConstructor();
                }
                catch (final NoSuchMethodException e)
                {
                    throw new QsnetException("MAIN-CLASS " + className
                        + " implements ElanMain but has no public no-argument constructor");
                }
            }
            final Method main;
            try
            {
                main = c.getMethod("main", String[].class);
            }
            catch (final NoSuchMethodException e)
            {
                throw new QsnetException("MAIN-CLASS " + className
                    + " has no public static void main(String[]) and does not implement ElanMain");
            }
            if (!Modifier.isStatic(main.getModifiers()))
            {
                throw new QsnetException("MAIN-CLASS " + className + ": main(String[]) must be static");
            }
            return main;
        }

        /**
         * Loads the program for one rank, in a class loader of its own. Its static initialisers run
         * in the rank, when its code first uses the class.
         */
        ElanMain forRank(final String rank)
        {
            final Class<?> c = load(rank);
            final Object entry = entry(c);
            final ClassLoader loader = c.getClassLoader();
            return (process, args) ->
            {
                Thread.currentThread().setContextClassLoader(loader);
                try
                {
                    if (entry instanceof Method main)
                    {
                        main.invoke(null, (Object)args);
                    }
                    else
                    {
                        ((ElanMain)((java.lang.reflect.Constructor<?>)entry).newInstance()).main(process, args);
                    }
                }
                catch (final InvocationTargetException e)
                {
                    // the program's own exception, with its own stack, is the rank's outcome
                    if (e.getCause() instanceof Exception x)
                    {
                        throw x;
                    }
                    if (e.getCause() instanceof Error x)
                    {
                        throw x;
                    }
                    throw e;
                }
            };
        }

        @Override
        public String toString()
        {
            return "program " + className;
        }
    }

    /**
     * Where each rank is, one line per process: its state and clock; for a rank still running or
     * blocked, the library call it is in and the line of the program that made it, and what it
     * waits for (in the user's terms: the event, the Tports receive and its tag, the barrier);
     * for a rank that threw, its exception and the program's line that threw.
     *
     * @param r a report.
     * @return the lines, each indented by two spaces and ended by a newline.
     */
    public static String whereEachRankIs(final RunReport r)
    {
        final StringBuilder sb = new StringBuilder();
        for (final RunReport.Outcome o : r.outcomes())
        {
            sb.append("  ").append(o.name()).append(": ").append(o.state());
            if (o.state().isTerminal() && o.finishedAtNs() >= 0)
            {
                sb.append(String.format(" at %.3f us", o.finishedAtNs() / 1000.0));
            }
            else if (!o.state().isTerminal())
            {
                sb.append(String.format(", clock %.3f us", o.clockNs() / 1000.0));
            }
            if (o.failure() != null)
            {
                sb.append(": ").append(o.failure());
                final List<StackTraceElement> stack = List.of(o.failure().getStackTrace());
                final int u = userFrame(stack);
                if (u >= 0)
                {
                    sb.append(", at ").append(frame(stack.get(u)));
                }
            }
            final int u = userFrame(o.stack());
            if (u >= 0)
            {
                for (int i = u - 1; i >= 0; i--)
                {
                    final StackTraceElement f = o.stack().get(i);
                    if (f.getClassName().startsWith("org.qsnet.") || f.getClassName().startsWith("mpi."))
                    {
                        final String cls = f.getClassName();
                        sb.append(", in ").append(cls.substring(cls.lastIndexOf('.') + 1)).append('.').append(f.getMethodName());
                        break;
                    }
                }
                sb.append(", called at ").append(frame(o.stack().get(u)));
            }
            if (o.state() == ProcessState.BLOCKED && !o.waitingFor().isEmpty())
            {
                sb.append(", waits for ").append(o.waitingFor());
            }
            sb.append('\n');
        }
        return sb.toString();
    }

    /** A frame as a stack trace shows it, without the class loader (the line names the rank). */
    private static String frame(final StackTraceElement f)
    {
        return f.getClassName() + "." + f.getMethodName() + "(" + (f.getFileName() == null ? "Unknown Source"
            : f.getFileName() + (f.getLineNumber() >= 0 ? ":" + f.getLineNumber() : "")) + ")";
    }

    /** The innermost frame of the program's own code (not the library's, not the JDK's), or -1. */
    private static int userFrame(final List<StackTraceElement> stack)
    {
        for (int i = 0; i < stack.size(); i++)
        {
            if (!RankClassLoader.shared(stack.get(i).getClassName()))
            {
                return i;
            }
        }
        return -1;
    }

    private static volatile int defaultPartitions = 1;

    /**
     * Makes {@link #run(PlatformProfile, Options, ElanMain, String...)} and
     * {@link #run(PlatformProfile, Options, Class, String...)} run their jobs in {@code partitions}
     * partitions of this JVM (see {@link #runPartitioned}): {@code qsnet <experiment> --partitions N}.
     * The results are the same; only the emulator's own work is split.
     *
     * @param partitions partitions, at least 1 (1: the plain run).
     */
    public static void partitionsByDefault(final int partitions)
    {
        QsnetException.require(partitions >= 1, "partitions", partitions, "must be at least 1");
        defaultPartitions = partitions;
    }

    /**
     * @return the partitions {@link #run} uses (1 unless {@link #partitionsByDefault} said otherwise).
     */
    public static int defaultPartitions()
    {
        return defaultPartitions;
    }

    /**
     * What a session run in several partitions gave: the ranks' outcomes merged in launch order
     * (the same as one JVM's report), and the digest of every event key summed over the partitions
     * (equal to {@link org.qsnet.fabric.engine.Kernel#traceSum()} of the same run in one JVM).
     *
     * @param report       every rank's outcome; its time is the latest partition's.
     * @param traceSum     the sum of the partitions' event-key digests.
     * @param tracedEvents events in that digest.
     * @param windows      synchronous windows run.
     * @param linkErrors   the fabric's CRC retries and every partition's NICs' refusals and duplicates.
     */
    public record PartitionedResult(RunReport report, long traceSum, long tracedEvents, long windows,
        org.qsnet.fabric.machine.LinkErrorStats linkErrors)
    {
        /**
         * Compares this run with the same session run in one JVM.
         *
         * @param oneJvm     the report of the run in one JVM.
         * @param oneJvmKernel its kernel (for its event digest).
         * @return null if they are the same run (every rank's state and finishing time, the final
         * time, the digest and number of events), else the first difference.
         */
        public String differenceFrom(final RunReport oneJvm, final Kernel oneJvmKernel)
        {
            if (oneJvm.outcomes().size() != report.outcomes().size())
            {
                return "ranks: " + oneJvm.outcomes().size() + " in one JVM, " + report.outcomes().size() + " here";
            }
            for (int i = 0; i < report.outcomes().size(); i++)
            {
                final RunReport.Outcome a = oneJvm.outcomes().get(i);
                final RunReport.Outcome b = report.outcomes().get(i);
                if (!a.name().equals(b.name()) || a.state() != b.state() || a.finishedAtNs() != b.finishedAtNs())
                {
                    return "rank " + a.name() + ": " + a.state() + " at " + a.finishedAtNs() + " ns in one JVM, " + b.name()
                        + " " + b.state() + " at " + b.finishedAtNs() + " ns here";
                }
            }
            if (oneJvm.endNs() != report.endNs())
            {
                return "end: " + oneJvm.endNs() + " ns in one JVM, " + report.endNs() + " ns here";
            }
            if (oneJvmKernel.tracedEvents() != tracedEvents || oneJvmKernel.traceSum() != traceSum)
            {
                return "events: " + oneJvmKernel.tracedEvents() + " (digest " + Long.toHexString(oneJvmKernel.traceSum())
                    + ") in one JVM, " + tracedEvents + " (digest " + Long.toHexString(traceSum) + ") here";
            }
            return null;
        }
    }

    /**
     * Runs a session in {@code partitions} partitions of this JVM, one thread each, joined by the
     * in-JVM transport: every partition builds the same machine, {@code launcher} launches the same
     * jobs in each, and each runs the ranks on its nodes. The result is that of one JVM, bit for bit.
     *
     * @param profile    the platform.
     * @param partitions partitions, at least 1 and at most the machine's nodes.
     * @param launcher   launches the jobs in a session (called once per partition).
     * @return the merged result.
     * @throws SimulationException the first partition's failure (the others are aborted).
     */
    public static PartitionedResult runPartitioned(final PlatformProfile profile, final int partitions,
        final java.util.function.Consumer<Session> launcher)
    {
        QsnetException.require(partitions >= 1, "partitions", partitions, "must be at least 1");
        final byte[] key = new byte[16];
        new java.security.SecureRandom().nextBytes(key);
        final List<org.qsnet.fabric.transport.local.LocalTransport> transports =
            org.qsnet.fabric.transport.local.LocalTransport.createJob(new org.qsnet.fabric.transport.TransportContext()
                .jobId(System.identityHashCode(key)).jobKey(key).partition(0, partitions));
        final Session[] sessions = new Session[partitions];
        final RunReport[] reports = new RunReport[partitions];
        try
        {
            org.qsnet.fabric.distributed.PartitionThreads.run(transports, part ->
            {
                sessions[part] = new Session(profile, 1, KernelContext.DEFAULT, transports.get(part));
                launcher.accept(sessions[part]);
                try
                {
                    reports[part] = sessions[part].driver().run(Long.MAX_VALUE);
                }
                catch (final SimulationException e)
                {
                    // a deadlock is found by every partition, each reporting its own processes
                    reports[part] = e.report();
                    throw e;
                }
            });
        }
        catch (final SimulationException e)
        {
            // the first partition's own failure (PartitionThreads prefers it to the others' reports
            // of it), with where every rank of every partition is: each partition's report holds
            // only its own ranks
            final boolean all = java.util.Arrays.stream(reports).allMatch(Objects::nonNull)
                && java.util.Arrays.stream(sessions).allMatch(Objects::nonNull);
            throw Session.explained(e.getMessage(), all ? merge(sessions, reports) : e.report(), e);
        }
        final RunReport merged = merge(sessions, reports);
        // the network (and its CRC count) is replicated in every partition, unless analytic timing
        // splits it (Fabric.countsWholeNetwork); each NIC lives in one
        org.qsnet.fabric.machine.LinkErrorStats errors = sessions[0].machine().linkErrorStats();
        final boolean whole = sessions[0].machine().fabric().countsWholeNetwork();
        for (int p = 1; p < partitions; p++)
        {
            final org.qsnet.fabric.machine.LinkErrorStats e = sessions[p].machine().linkErrorStats();
            errors = new org.qsnet.fabric.machine.LinkErrorStats(errors.crcRetries() + (whole ? 0 : e.crcRetries()),
                errors.outOfOrderRefusals() + e.outOfOrderRefusals(), errors.duplicatesDiscarded() + e.duplicatesDiscarded());
        }
        return new PartitionedResult(merged, merged.traceHash(), merged.eventCount(), sessions[0].partitionDriver().windows(),
            errors);
    }

    /** Every partition's outcomes in launch order (by origin), the latest end, the summed event digest. */
    private static RunReport merge(final Session[] sessions, final RunReport[] reports)
    {
        final java.util.TreeMap<Integer, RunReport.Outcome> byOrigin = new java.util.TreeMap<>();
        long sum = 0;
        long events = 0;
        long now = 0;
        for (int p = 0; p < sessions.length; p++)
        {
            final Kernel k = sessions[p].kernel();
            final List<org.qsnet.fabric.engine.SimProcess> procs = k.processes();
            final List<RunReport.Outcome> outcomes = reports[p].outcomes();
            for (int i = 0; i < procs.size(); i++)
            {
                byOrigin.put(procs.get(i).origin().id(), outcomes.get(i));
            }
            sum += k.traceSum();
            events += k.tracedEvents();
            now = Math.max(now, reports[p].endNs());
        }
        return new RunReport(now, events, sum, new ArrayList<>(byOrigin.values()));
    }

    /** This JVM's endpoint of each run of a job in several JVMs, in order; null: the jobs run here alone. */
    private static volatile IntFunction<Transport> jvmEndpoints;
    /** Runs made through {@link #jvmEndpoints} since it was set: every JVM of the job counts alike. */
    private static int jvmRuns;

    /**
     * Makes {@link #runJob} (and so {@link #run(PlatformProfile, Options, RankResults, ElanMain, String...)})
     * run each job as this JVM's partition of a job spread over several JVMs
     * ({@code qsnet <experiment> --jvms N}): run {@code i} of this JVM (from 0) meets its peers
     * through {@code endpointOfRun.apply(i)}, which it closes after the run. Every JVM of the job
     * must make the same runs in the same order.
     *
     * @param endpointOfRun this JVM's endpoint of each run, or null to run the jobs here again.
     */
    public static synchronized void jvmPartitionsByDefault(final IntFunction<Transport> endpointOfRun)
    {
        jvmEndpoints = endpointOfRun;
        jvmRuns = 0;
    }

    private static void refuseJvms()
    {
        if (jvmEndpoints != null)
        {
            throw new QsnetException("this experiment reads its ranks' results from their Java objects, which live in "
                + "other JVMs with --jvms: it runs in one JVM (or --partitions) only; its ranks must record their results "
                + "in RankResults (Prun.runJob) to run in several");
        }
    }

    /**
     * Runs one job on a fresh machine, however this JVM is told to (alone, in partitions that are
     * threads of this JVM, or as its partition of a job over several JVMs), and returns when every
     * rank has finished. The ranks record what they measured in {@code results}; after the run it
     * holds every rank's records, in every JVM of the job.
     *
     * @param profile  the platform.
     * @param results  where the ranks record their figures.
     * @param launcher launches the jobs in a session (once per partition).
     * @return the run: every rank's outcome (in every JVM), events, link errors.
     */
    public static PartitionedResult runJob(final PlatformProfile profile, final RankResults results,
        final java.util.function.Consumer<Session> launcher)
    {
        Objects.requireNonNull(results, "results");
        final IntFunction<Transport> endpoints = jvmEndpoints;
        if (endpoints != null)
        {
            final int run;
            synchronized (Prun.class)
            {
                run = jvmRuns++;
            }
            try (Transport t = endpoints.apply(run))
            {
                return runPartitioned(profile, t, results, launcher);
            }
        }
        if (defaultPartitions > 1)
        {
            return runPartitioned(profile, defaultPartitions, launcher);
        }
        final Session s = new Session(profile, 1);
        launcher.accept(s);
        final RunReport r = s.run();
        return new PartitionedResult(r, s.kernel().traceSum(), s.kernel().tracedEvents(), 0, s.machine().linkErrorStats());
    }

    /**
     * Runs one job on a fresh machine ({@link #runJob}) and returns when every rank has finished.
     *
     * @param profile the platform.
     * @param o       the options.
     * @param results where the ranks record their figures; after the run, every rank's.
     * @param main    the program.
     * @param args    its arguments.
     * @return the outcome of every rank.
     */
    public static RunReport run(final PlatformProfile profile, final Options o, final RankResults results,
        final ElanMain main, final String... args)
    {
        return runJob(profile, results, s -> s.launch(o, main, args)).report();
    }

    /**
     * Runs this JVM's partition of a session spread over several JVMs (every JVM calls it with
     * the same profile and launcher): the partitions run together in conservative windows, then
     * each sends the others its ranks' outcomes, events, link errors and {@code results}
     * ({@link PartitionDriver#allGather}). Every JVM returns the same merged result, the one the
     * session gives in one JVM.
     *
     * @param profile   the platform.
     * @param transport this JVM's endpoint of the job.
     * @param results   where this partition's ranks record their figures; after the run, every rank's.
     * @param launcher  launches the jobs in the session.
     * @return the merged result.
     * @throws SimulationException this partition's failure, or a peer's (every partition fails alike).
     */
    public static PartitionedResult runPartitioned(final PlatformProfile profile, final Transport transport,
        final RankResults results, final java.util.function.Consumer<Session> launcher)
    {
        final Session s = new Session(profile, 1, KernelContext.DEFAULT, transport);
        launcher.accept(s);
        final RunReport r = s.run();
        final java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
        try (java.io.DataOutputStream o = new java.io.DataOutputStream(bytes))
        {
            final org.qsnet.fabric.machine.LinkErrorStats e = s.machine().linkErrorStats();
            o.writeLong(s.kernel().traceSum());
            o.writeLong(s.kernel().tracedEvents());
            o.writeLong(r.endNs());
            o.writeLong(e.crcRetries());
            o.writeLong(e.outOfOrderRefusals());
            o.writeLong(e.duplicatesDiscarded());
            final List<org.qsnet.fabric.engine.SimProcess> procs = s.kernel().processes();
            o.writeInt(r.outcomes().size());
            for (int i = 0; i < r.outcomes().size(); i++)
            {
                final RunReport.Outcome out = r.outcomes().get(i);
                o.writeInt(procs.get(i).origin().id());
                o.writeUTF(out.name());
                o.writeUTF(out.state().name());
                o.writeLong(out.finishedAtNs());
                o.writeUTF(out.failure() == null ? "" : clip(String.valueOf(out.failure())));
                o.writeUTF(out.waitingFor() == null ? "" : clip(out.waitingFor()));
            }
            final byte[] mine = results.encode();
            o.writeInt(mine.length);
            o.write(mine);
        }
        catch (final java.io.IOException e)
        {
            throw new java.io.UncheckedIOException(e);
        }
        final byte[][] all = s.partitionDriver().allGather(bytes.toByteArray());
        final java.util.TreeMap<Integer, RunReport.Outcome> byOrigin = new java.util.TreeMap<>();
        final List<org.qsnet.fabric.engine.SimProcess> local = s.kernel().processes();
        for (int i = 0; i < local.size(); i++)
        {
            byOrigin.put(local.get(i).origin().id(), r.outcomes().get(i));
        }
        long sum = 0;
        long events = 0;
        long end = 0;
        long crc = 0;
        long refused = 0;
        long duplicates = 0;
        final boolean whole = s.machine().fabric().countsWholeNetwork();
        for (int p = 0; p < all.length; p++)
        {
            try (java.io.DataInputStream in = new java.io.DataInputStream(new java.io.ByteArrayInputStream(all[p])))
            {
                sum += in.readLong();
                events += in.readLong();
                end = Math.max(end, in.readLong());
                final long partitionCrc = in.readLong();
                // the network (and its CRC count) is replicated in every partition, unless analytic
                // timing splits it (Fabric.countsWholeNetwork); each NIC lives in one
                crc = whole ? (p == 0 ? partitionCrc : crc) : crc + partitionCrc;
                refused += in.readLong();
                duplicates += in.readLong();
                final int n = in.readInt();
                for (int i = 0; i < n; i++)
                {
                    final int origin = in.readInt();
                    final String name = in.readUTF();
                    final ProcessState state = ProcessState.valueOf(in.readUTF());
                    final long finished = in.readLong();
                    final String failure = in.readUTF();
                    final String waiting = in.readUTF();
                    if (p != transport.partition())
                    {
                        byOrigin.put(origin, new RunReport.Outcome(name, state, finished,
                            failure.isEmpty() ? null : new SimulationException("partition " + p + ": " + failure, null),
                            waiting));
                    }
                }
                final byte[] theirs = new byte[in.readInt()];
                in.readFully(theirs);
                if (p != transport.partition())
                {
                    results.merge(theirs);
                }
            }
            catch (final java.io.IOException e)
            {
                throw new java.io.UncheckedIOException(e);
            }
        }
        return new PartitionedResult(new RunReport(end, events, sum, new ArrayList<>(byOrigin.values())), sum, events,
            s.partitionDriver().windows(), new org.qsnet.fabric.machine.LinkErrorStats(crc, refused, duplicates));
    }

    private static String clip(final String s)
    {
        return s.length() > 2000 ? s.substring(0, 2000) + "..." : s;
    }

    /**
     * Runs one job on a fresh machine and returns when every rank has finished.
     *
     * @param profile the platform.
     * @param o       the options.
     * @param main    the program.
     * @param args    its arguments.
     * @return the outcome of every rank.
     */
    public static RunReport run(final PlatformProfile profile, final Options o, final ElanMain main, final String... args)
    {
        refuseJvms();
        if (defaultPartitions > 1)
        {
            return runPartitioned(profile, defaultPartitions, s -> s.launch(o, main, args)).report();
        }
        final Session s = new Session(profile, 1);
        s.launch(o, main, args);
        return s.run();
    }

    /**
     * Runs one job of {@code mainClass} on a fresh machine, each rank with its own static fields
     * (see {@link Program#of(Class)}), and returns when every rank has finished.
     *
     * @param profile   the platform.
     * @param o         the options.
     * @param mainClass the program.
     * @param args      its arguments.
     * @return the outcome of every rank.
     */
    public static RunReport run(final PlatformProfile profile, final Options o, final Class<?> mainClass, final String... args)
    {
        refuseJvms();
        if (defaultPartitions > 1)
        {
            final Program program = Program.of(mainClass);
            return runPartitioned(profile, defaultPartitions, s -> s.launch(o, program, args)).report();
        }
        final Session s = new Session(profile, 1);
        s.launch(o, mainClass, args);
        return s.run();
    }

    /**
     * A stream that prefixes every line printed by an emulated process with its rank
     * ({@code prun -t}), for {@code System.out} and {@code System.err} alike. Each process has its
     * own line buffer, so a line a rank prints in pieces around library calls (which let other
     * ranks run) is not mixed with theirs; text printed outside any process passes unlabelled.
     * Closing the stream writes out unfinished lines and leaves {@code out} open.
     *
     * @param out the real stream.
     * @return the labelling stream.
     */
    public static PrintStream labelled(final PrintStream out)
    {
        final OutputStream lines = new OutputStream()
        {
            private final Map<ElanProcess, ByteArrayOutputStream> partial = new HashMap<>();
            private final ByteArrayOutputStream unlabelled = new ByteArrayOutputStream();

            @Override
            public void write(final int b)
            {
                final ElanProcess p = ElanProcess.currentOrNull();
                final ByteArrayOutputStream line = p == null ? unlabelled
                    : partial.computeIfAbsent(p, k -> new ByteArrayOutputStream());
                line.write(b);
                if (b == '\n')
                {
                    emit(p, line);
                }
            }

            private void emit(final ElanProcess p, final ByteArrayOutputStream line)
            {
                if (p != null)
                {
                    out.print(p.rank() + ": ");
                }
                out.write(line.toByteArray(), 0, line.size());
                out.flush();
                line.reset();
            }

            @Override
            public void close()
            {
                for (final Map.Entry<ElanProcess, ByteArrayOutputStream> e : partial.entrySet())
                {
                    if (e.getValue().size() > 0)
                    {
                        e.getValue().write('\n');
                        emit(e.getKey(), e.getValue());
                    }
                }
                if (unlabelled.size() > 0)
                {
                    emit(null, unlabelled);
                }
                out.flush();
            }
        };
        return new PrintStream(lines, true);
    }
}
