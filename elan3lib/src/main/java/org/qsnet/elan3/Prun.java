package org.qsnet.elan3;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import org.qsnet.fabric.QsnetException;
import org.qsnet.fabric.engine.Kernel;
import org.qsnet.fabric.engine.RunReport;
import org.qsnet.fabric.model.Fabric;
import org.qsnet.fabric.model.Machine;
import org.qsnet.fabric.model.PlatformProfile;

/**
 * The {@code prun} launcher: runs SPMD jobs on an emulated machine in this JVM. Each job gets a
 * capability (a random key, a context range, a node range, a block or cyclic bitmap) registered
 * with the drivers of its nodes; each process gets its {@code MyContext} and the environment a
 * legacy program reads. Several jobs can share one machine, each with its own capability.
 *
 * <pre>
 * Prun.Session s = new Prun.Session(PlatformProfile.pentium3He(), 1);
 * s.launch(new Prun.Options(2, 2, false, 0, Map.of()), Ping::main, "64");
 * RunReport r = s.run();
 * </pre>
 */
public final class Prun
{
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
        private int jobs;
        private int nextContext = ElanCapability.ELAN_USER_BASE_CONTEXT_NUM;

        /**
         * @param profile the platform.
         * @param seed    seed of the capability keys.
         */
        public Session(final PlatformProfile profile, final long seed)
        {
            this.kernel = new Kernel();
            this.machine = new Machine(kernel, profile);
            this.seed = seed;
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
         * Launches a job: builds its capability, registers it, spawns one simulated process per rank.
         *
         * @param o    the options.
         * @param main the program.
         * @param args its arguments.
         * @return the job's index.
         */
        public int launch(final Options o, final ElanMain main, final String... args)
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
                final int globalIndex = processes.size();
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
         * @return the outcome of every process.
         */
        public RunReport run()
        {
            return kernel.run();
        }
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
        final Session s = new Session(profile, 1);
        s.launch(o, main, args);
        return s.run();
    }

    /**
     * A stream that prefixes every line printed by an emulated process with its rank ({@code prun -t}).
     * Lines are assembled byte by byte and labelled with the process that completes them; only one
     * simulated process runs at a time.
     *
     * @param out the real stream.
     * @return the labelling stream.
     */
    public static PrintStream labelled(final PrintStream out)
    {
        final java.io.OutputStream lines = new java.io.OutputStream()
        {
            private final java.io.ByteArrayOutputStream line = new java.io.ByteArrayOutputStream();

            @Override
            public void write(final int b)
            {
                line.write(b);
                if (b == '\n')
                {
                    final ElanProcess p = ElanProcess.currentOrNull();
                    if (p != null)
                    {
                        out.print(p.rank() + ": ");
                    }
                    out.write(line.toByteArray(), 0, line.size());
                    out.flush();
                    line.reset();
                }
            }
        };
        return new PrintStream(lines, true);
    }
}
