package org.qsnet.bench.cli;

import org.qsnet.elan3.Prun;

import picocli.CommandLine.Option;

/**
 * {@code --partitions N}: run the experiment's jobs in N partitions of this JVM (threads joined by
 * the in-JVM transport, in conservative windows, as separate JVMs would be). The results are the
 * same as with one; only the emulator's own work is split.
 */
public final class PartitionOptions
{
    @Option(names = "--partitions", paramLabel = "N", defaultValue = "1", description = "Run the jobs in N partitions of "
        + "the machine (threads of this JVM, in conservative windows); the results are the same. Default: ${DEFAULT-VALUE}.")
    int partitions;

    /** Makes the experiment's jobs run in the partitions asked for. */
    void apply()
    {
        Prun.partitionsByDefault(partitions);
    }
}
