package org.qsnet.bench.cli;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.qsnet.elan3.Prun;
import org.qsnet.fabric.QsnetException;
import org.qsnet.fabric.distributed.PartitionDriver;
import org.qsnet.fabric.distributed.Rendezvous;
import org.qsnet.fabric.engine.KernelContext;
import org.qsnet.fabric.engine.ProcessState;
import org.qsnet.fabric.engine.RunReport;
import org.qsnet.fabric.engine.SimProcess;
import org.qsnet.fabric.machine.PlatformProfile;
import org.qsnet.fabric.transport.LauncherRank;
import org.qsnet.fabric.transport.Transport;
import org.qsnet.fabric.transport.TransportContext;
import org.qsnet.fabric.transport.netty.NettyTransport;
import org.qsnet.fabric.transport.shm.ShmTransport;

/**
 * {@code prun --jvms N} and {@code prun --coordinator HOST:PORT}: the job's machine split into
 * partitions, one per JVM, run together in conservative windows (see
 * {@link org.qsnet.fabric.distributed.PartitionDriver}); partition 0 gathers every partition's
 * outcome and writes the job's result, so nothing of a finished job is lost.
 *
 * <pre>
 *   --jvms N:          this JVM (partition 0) starts N-1 JVMs on this host with the same command and
 *                      a hidden --partition p; they meet in a fresh shared-memory directory
 *   --coordinator H:P: each process is the partition its launcher's rank says (srun, mpirun, RMS);
 *                      they meet over TCP (Netty) after a rendezvous at H:P, all authenticated by
 *                      the job key in QSNET_JOB_KEY
 * </pre>
 */
final class Distributed
{
    /** The command line prun was started with (for the JVMs it starts). */
    static String[] argv = new String[0];

    private static final String KEY_ENV = "QSNET_JOB_KEY";

    private Distributed()
    {
    }

    static int run(final PrunCommand c, final PlatformProfile profile, final KernelContext kernelContext,
        final Prun.Program program, final boolean cyclic) throws Exception
    {
        QsnetException.require(c.jvms == null || c.coordinator == null, "--jvms", c.jvms, "and --coordinator exclude each other");
        if (c.coordinator != null)
        {
            return runCoordinated(c, profile, kernelContext, program, cyclic);
        }
        final int n = c.jvms;
        QsnetException.require(n >= 1, "--jvms", n, "must be at least 1");
        int nodes = 1;
        for (int i = 0; i < profile.fabric().dim(); i++)
        {
            nodes *= profile.fabric().k();
        }
        QsnetException.require(n <= nodes, "--jvms", n, "must be at most the machine's " + nodes + " nodes");
        return JvmJob.run(n, c.child.partition, c.child.shmDir, c.child.jobId, PrunCommand.class.getName(), argv, true, job ->
        {
            try (Transport t = job.open(0))
            {
                return runPartition(c, profile, kernelContext, program, cyclic, t);
            }
        });
    }

    /**
     * Removes what killed {@code --jvms} jobs left in the temporary directory: their ring files
     * whose creator is dead ({@link ShmTransport#sweepStale}), then their directories once empty and
     * more than a minute old (a younger empty one may be a job that is starting).
     */
    static void sweepStaleJobDirectories()
    {
        final Path tmp = Path.of(System.getProperty("java.io.tmpdir"));
        try (var dirs = Files.newDirectoryStream(tmp, "qsnet-job-*"))
        {
            for (final Path d : dirs)
            {
                if (!Files.isDirectory(d) || !Files.isWritable(d))
                {
                    continue;
                }
                ShmTransport.sweepStale(d);
                final boolean old = Files.getLastModifiedTime(d).toMillis() < System.currentTimeMillis() - 60_000; // wall-clock: housekeeping only
                try (var left = Files.list(d))
                {
                    if (old && left.findAny().isEmpty())
                    {
                        Files.deleteIfExists(d);
                    }
                }
            }
        }
        catch (final IOException | RuntimeException e)
        {
            // housekeeping: never a reason to fail the job
        }
    }

    /** One partition of a --coordinator job: rank and size from the launcher, TCP between partitions. */
    private static int runCoordinated(final PrunCommand c, final PlatformProfile profile, final KernelContext kernelContext,
        final Prun.Program program, final boolean cyclic) throws Exception
    {
        final Map<String, String> env = System.getenv();
        final LauncherRank rank = LauncherRank.fromEnvironment(env);
        final String hex = env.get(KEY_ENV);
        QsnetException.require(hex != null && hex.length() >= 32, KEY_ENV, hex == null ? "unset" : "(" + hex.length() / 2 + " bytes)",
            "must hold the job key, at least 16 bytes in hex, the same in every process of the job");
        final byte[] key = HexFormat.of().parseHex(hex);
        final long jobId = Long.parseLong(env.getOrDefault("QSNET_JOB_ID", "1"));
        final int colon = c.coordinator.lastIndexOf(':');
        QsnetException.require(colon > 0, "--coordinator", c.coordinator, "must be HOST:PORT");
        final InetSocketAddress at = new InetSocketAddress(c.coordinator.substring(0, colon),
            Integer.parseInt(c.coordinator.substring(colon + 1)));
        final TransportContext context = new TransportContext().jobId(jobId).jobKey(key).partition(rank.rank(), rank.size());
        try (NettyTransport t = NettyTransport.open(context, new InetSocketAddress(c.bind, 0)))
        {
            final List<InetSocketAddress> all = Rendezvous.exchange(at, rank.rank(), rank.size(), jobId, key,
                t.localAddress(), context.connectTimeoutMs());
            t.connect(all);
            System.err.printf("prun: partition %d of %d connected (%s rank %d)%n", rank.rank(), rank.size(), rank.launcher(),
                rank.rank());
            return runPartition(c, profile, kernelContext, program, cyclic, t);
        }
    }

    private static int runPartition(final PrunCommand c, final PlatformProfile profile, final KernelContext kernelContext,
        final Prun.Program program, final boolean cyclic, final Transport t) throws IOException
    {
        // the nodes that hold the job's ranks split evenly between the JVMs, so that each runs some
        final Prun.Options options = new Prun.Options(c.procs, c.nodes == null ? 0 : c.nodes, cyclic, c.base, c.env);
        final Prun.Session session = new Prun.Session(profile, c.seed, kernelContext, t, c.base, options.nodesWithRanks());
        session.launch(options, program, c.args.toArray(new String[0]));
        final PrintStream out = System.out;
        final PrintStream err = System.err;
        if (c.tag)
        {
            System.setOut(Prun.labelled(out));
            System.setErr(Prun.labelled(err));
        }
        RunReport report = null;
        String stopped = null;
        try
        {
            report = c.maxSimUs == null ? session.run() : session.run(Math.round(c.maxSimUs * 1000));
        }
        catch (final RuntimeException e)
        {
            stopped = String.valueOf(e.getMessage());
            if (e instanceof org.qsnet.fabric.engine.SimulationException se)
            {
                report = se.report();
            }
        }
        finally
        {
            if (c.tag)
            {
                System.out.flush();
                System.err.flush();
            }
            System.setOut(out);
            System.setErr(err);
        }
        final PartitionDriver driver = session.partitionDriver();
        final byte[] mine = encode(session, report, stopped, driver.windows());
        byte[][] all;
        try
        {
            all = driver.gather(mine);
        }
        catch (final RuntimeException e)
        {
            err.println("prun: partition " + t.partition() + ": " + e.getMessage());
            return 1;
        }
        if (all == null)
        {
            return stopped == null && allDone(report) ? 0 : 1;
        }
        return summarise(c, profile, all, err);
    }

    private static boolean allDone(final RunReport r)
    {
        if (r == null)
        {
            return false;
        }
        for (final RunReport.Outcome o : r.outcomes())
        {
            if (o.state() != ProcessState.DONE)
            {
                return false;
            }
        }
        return true;
    }

    /** A partition's result: its ranks' outcomes (by process origin), its events and why it stopped. */
    private static byte[] encode(final Prun.Session session, final RunReport report, final String stopped, final long windows)
        throws IOException
    {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        final DataOutputStream o = new DataOutputStream(bytes);
        o.writeLong(session.kernel().traceSum());
        o.writeLong(session.kernel().tracedEvents());
        o.writeLong(report == null ? session.kernel().nowNs() : report.endNs());
        o.writeLong(windows);
        o.writeUTF(stopped == null ? "" : truncate(stopped));
        final List<SimProcess> procs = session.kernel().processes();
        final List<RunReport.Outcome> outcomes = report == null ? List.of() : report.outcomes();
        o.writeInt(outcomes.size());
        for (int i = 0; i < outcomes.size(); i++)
        {
            final RunReport.Outcome r = outcomes.get(i);
            o.writeInt(procs.get(i).origin().id());
            o.writeUTF(r.name());
            o.writeUTF(r.state().name());
            o.writeLong(r.finishedAtNs());
            o.writeUTF(r.failure() == null ? "" : truncate(String.valueOf(r.failure())));
            o.writeUTF(r.waitingFor() == null ? "" : truncate(r.waitingFor()));
        }
        return bytes.toByteArray();
    }

    private static String truncate(final String s)
    {
        return s.length() > 2000 ? s.substring(0, 2000) + "..." : s;
    }

    /** How many nodes from {@code -B} hold a rank of the job ({@link Prun.Options#nodesWithRanks}). */
    private static int nodesWithRanks(final PrunCommand c)
    {
        return new Prun.Options(c.procs, c.nodes == null ? 0 : c.nodes, "cyclic".equals(c.mapping), c.base, java.util.Map.of())
            .nodesWithRanks();
    }

    /** The partitions that hold none of the job's nodes (as {@link #runPartition} splits them), listed, or "". */
    static String partitionsWithoutRanks(final PrunCommand c, final PlatformProfile profile, final int partitions)
    {
        final int machineNodes = Prun.Session.nodeCountOf(profile);
        final int jobNodes = nodesWithRanks(c);
        final org.qsnet.fabric.network.Partitioning split = org.qsnet.fabric.network.Partitioning.around(partitions, 0,
            machineNodes, c.base, jobNodes);
        final boolean[] used = new boolean[partitions];
        for (int n = c.base; n < Math.min(machineNodes, c.base + jobNodes); n++)
        {
            used[split.ownerOf(n)] = true;
        }
        final StringBuilder sb = new StringBuilder();
        for (int p = 0; p < partitions; p++)
        {
            if (!used[p])
            {
                sb.append(sb.length() == 0 ? "" : ", ").append(p);
            }
        }
        return sb.toString();
    }

    /** Partition 0: the job's result from every partition's. */
    private static int summarise(final PrunCommand c, final PlatformProfile profile, final byte[][] all, final PrintStream err)
        throws IOException
    {
        long sum = 0;
        long events = 0;
        long end = 0;
        long windows = 0;
        boolean failed = false;
        final TreeMap<Integer, String[]> ranks = new TreeMap<>();
        for (int p = 0; p < all.length; p++)
        {
            final DataInputStream in = new DataInputStream(new ByteArrayInputStream(all[p]));
            sum += in.readLong();
            events += in.readLong();
            end = Math.max(end, in.readLong());
            windows = Math.max(windows, in.readLong());
            final String stopped = in.readUTF();
            if (!stopped.isEmpty())
            {
                failed = true;
                err.println("prun: partition " + p + ": " + stopped);
            }
            final int n = in.readInt();
            for (int i = 0; i < n; i++)
            {
                ranks.put(in.readInt(), new String[] {in.readUTF(), in.readUTF(), Long.toString(in.readLong()), in.readUTF(),
                    in.readUTF()});
            }
        }
        for (final String[] r : ranks.values())
        {
            if (ProcessState.valueOf(r[1]) == ProcessState.FAILED)
            {
                failed = true;
                err.println("prun: " + r[0] + " failed: " + r[3]);
            }
            else if (ProcessState.valueOf(r[1]) != ProcessState.DONE)
            {
                failed = true;
                err.println("prun: " + r[0] + " " + r[1] + (r[4].isEmpty() ? "" : ", waits for " + r[4]));
            }
        }
        err.printf("prun: %d processes on %s, simulated time %.3f us%n", c.procs, profile.name(), end / 1000.0);
        err.printf("prun: %d partitions (%s), %d synchronous windows%n", all.length,
            c.coordinator != null ? "TCP via coordinator " + c.coordinator : "JVMs through shared memory", windows);
        final String idle = partitionsWithoutRanks(c, profile, all.length);
        if (!idle.isEmpty())
        {
            err.printf("prun: partition%s %s ran no rank of the job (ranks on %d nodes, %d partitions): such a JVM only"
                + " follows the network, which costs time and buys nothing%n", idle.contains(",") ? "s" : "", idle,
                nodesWithRanks(c), all.length);
        }
        if (c.digest)
        {
            err.printf("prun: %d events, digest %016x%n", events, sum);
        }
        return failed ? 1 : 0;
    }
}
