package org.qsnet.bench.cli;

import java.io.OutputStream;
import java.io.PrintStream;
import java.util.concurrent.Callable;

import org.qsnet.elan3.Prun;

import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code --partitions N}: run the experiment's jobs in N partitions of this JVM (threads joined by
 * the in-JVM transport, in conservative windows, as separate JVMs would be); {@code --jvms N}: in
 * N partitions, one per JVM of this host ({@link JvmJob}), each JVM making the experiment's runs
 * in the same order, its ranks' results shipped to the others after each run
 * ({@link org.qsnet.elan3.RankResults}). The results are the same as with one; only the
 * emulator's own work is split. Partition 0 prints them; the other JVMs print nothing.
 */
public final class PartitionOptions
{
    @Option(names = "--partitions", paramLabel = "N", defaultValue = "1", description = "Run the jobs in N partitions of "
        + "the machine (threads of this JVM, in conservative windows); the results are the same. Default: ${DEFAULT-VALUE}.")
    int partitions;

    @Option(names = "--jvms", paramLabel = "N", defaultValue = "1", description = "Run the jobs in N partitions, one per "
        + "JVM of this host (this one and N-1 it starts, joined by shared memory, in conservative windows); the results "
        + "are the same as in one JVM. Excludes --partitions. Default: ${DEFAULT-VALUE}.")
    int jvms;

    @Mixin
    JvmPartitionOptions child;

    /**
     * Runs the experiment as asked: alone, in {@code --partitions} threads, or as this JVM's
     * partition of a {@code --jvms} job (partition 0 only writes to the standard streams).
     *
     * @param experiment the command's body: its runs go through {@link Prun}.
     * @return its exit status (with {@code --jvms}, the highest of every JVM's).
     */
    int run(final Callable<Integer> experiment) throws Exception
    {
        return child.run(jvms, partitions, job ->
        {
            if (job == null)
            {
                Prun.partitionsByDefault(partitions);
                return experiment.call();
            }
            Prun.jvmPartitionsByDefault(job::open);
            final PrintStream out = System.out;
            final PrintStream err = System.err;
            if (job.partition != 0)
            {
                // another partition's JVM: partition 0 prints the results (and the progress); a failure
                // still reaches the terminal, from the exception this JVM ends with
                final PrintStream none = new PrintStream(OutputStream.nullOutputStream());
                System.setOut(none);
                System.setErr(none);
            }
            try
            {
                return experiment.call();
            }
            finally
            {
                System.setOut(out);
                System.setErr(err);
                Prun.jvmPartitionsByDefault(null);
            }
        });
    }
}
