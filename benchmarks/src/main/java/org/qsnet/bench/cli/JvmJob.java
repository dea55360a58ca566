package org.qsnet.bench.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.qsnet.fabric.QsnetException;
import org.qsnet.fabric.distributed.ChildJvm;
import org.qsnet.fabric.transport.Transport;
import org.qsnet.fabric.transport.TransportContext;
import org.qsnet.fabric.transport.shm.ShmTransport;

/**
 * An experiment split over {@code --jvms N} JVMs of this host: partition 0 (the JVM the user
 * started) starts the others with the same command line and the hidden {@code --partition},
 * {@code --shm-dir} and {@code --job-id}, the job key passed in the environment (never on a
 * command line). Every JVM runs the same sequence of runs; run {@code i} of the experiment meets
 * its peers through shared memory under job id {@code jobId + i} ({@link #open}). Partition 0
 * writes the results. Used by {@code qsnet traffic --jvms} and {@code congestion --jvms} (a run per
 * point), {@code qsnet ping|hotspot|elanlib|osu|calibrate --jvms} (a run per job the experiment
 * launches, see {@link PartitionOptions}) and {@code prun --jvms} (one run: the program).
 */
final class JvmJob
{
    private static final String KEY_ENV = "QSNET_JOB_KEY";
    /**
     * How long this JVM (partition 0) waits for the others to end once its own part is over (host
     * time). They end at once when the job did; one that has not after this is stopped or hung (a
     * JVM that stops answering is reported by the transport's heartbeat, but a stopped process
     * never exits), and it is killed, so that the job never hangs.
     */
    static final long OTHERS_EXIT_GRACE_MS = 10_000;

    /** The command line of {@code qsnet} in this JVM, for the JVMs {@code qsnet <experiment> --jvms} starts. */
    static String[] argv = new String[0];

    final int partition;
    final int count;
    private final long jobId;
    private final byte[] key;
    private final Path dir;

    private JvmJob(final int partition, final int count, final long jobId, final byte[] key, final Path dir)
    {
        this.partition = partition;
        this.count = count;
        this.jobId = jobId;
        this.key = key;
        this.dir = dir;
    }

    /** What each JVM runs: its partition of every run of the experiment. */
    @FunctionalInterface
    interface Body
    {
        int run(JvmJob job) throws Exception;
    }

    /**
     * Runs {@code body} in {@code count} JVMs: as partition 0 here when {@code partition} is null
     * (starting the others, waiting for them, removing the job's directory), else as the partition
     * a parent started this JVM for.
     *
     * @param mainClass   what the other JVMs run ({@code QsnetCommand}, {@code PrunCommand}).
     * @param argv        the command line they get, with the hidden options added.
     * @param hiddenFirst the hidden options before {@code argv} (a command whose positional
     *                    parameters swallow what follows them), else after it.
     * @return the highest exit status of all the JVMs (0: every one succeeded).
     */
    static int run(final int count, final Integer partition, final String shmDir, final Long jobId, final String mainClass,
        final String[] argv, final boolean hiddenFirst, final Body body) throws Exception
    {
        QsnetException.require(count >= 1, "--jvms", count, "must be at least 1");
        if (partition != null)
        {
            final String hex = System.getenv(KEY_ENV);
            QsnetException.require(hex != null && shmDir != null && jobId != null, "--partition", partition,
                "is for the JVMs that --jvms starts (it needs their job key, --shm-dir and --job-id)");
            return body.run(new JvmJob(partition, count, jobId, HexFormat.of().parseHex(hex), Path.of(shmDir)));
        }
        Distributed.sweepStaleJobDirectories();
        final byte[] key = new byte[32];
        new SecureRandom().nextBytes(key);
        final long id = ProcessHandle.current().pid() << 20 ^ System.nanoTime() & 0xfffff; // an id, not a result
        final Path dir = Files.createTempDirectory("qsnet-job-");
        final List<Process> children = new ArrayList<>();
        int status;
        try
        {
            for (int p = 1; p < count; p++)
            {
                final List<String> hidden = List.of("--partition", Integer.toString(p), "--shm-dir", dir.toString(),
                    "--job-id", Long.toString(id));
                final List<String> args = new ArrayList<>(hiddenFirst ? hidden : List.of(argv));
                args.addAll(hiddenFirst ? List.of(argv) : hidden);
                // the other JVMs write to this one's terminal (a program's ranks print there); their
                // results reach partition 0 through the transport
                final ProcessBuilder pb = new ProcessBuilder(ChildJvm.command(true, mainClass, args)).inheritIO();
                pb.environment().put(KEY_ENV, HexFormat.of().formatHex(key));
                children.add(pb.start());
            }
            status = body.run(new JvmJob(0, count, id, key, dir));
            final long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(OTHERS_EXIT_GRACE_MS); // wall-clock: a safety net, never part of a result
            for (int p = 1; p < count; p++)
            {
                final Process child = children.get(p - 1);
                if (child.waitFor(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS)) // wall-clock: as above
                {
                    status = Math.max(status, child.exitValue());
                    continue;
                }
                System.err.printf("qsnet: the JVM of partition %d (pid %d) has not ended %d s after partition 0 did"
                    + " (stopped or hung): killed%n", p, child.pid(), OTHERS_EXIT_GRACE_MS / 1000);
                child.destroyForcibly();
                child.waitFor(5, TimeUnit.SECONDS);
                status = Math.max(status, 1);
            }
        }
        finally
        {
            children.forEach(Process::destroy);
            try (var files = Files.list(dir))
            {
                for (final Path f : files.toList())
                {
                    Files.deleteIfExists(f);
                }
            }
            Files.deleteIfExists(dir);
        }
        return status;
    }

    /**
     * This JVM's endpoint for run {@code run} of the experiment (each run meets its peers afresh).
     *
     * @param run the run's index in the experiment, from 0.
     * @return the connected transport; close it after the run.
     */
    Transport open(final int run)
    {
        return ShmTransport.open(new TransportContext().jobId(jobId + run).jobKey(key).partition(partition, count), dir);
    }
}
