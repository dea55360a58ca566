package org.qsnet.bench.cli;

import picocli.CommandLine.Option;

/**
 * The hidden options by which a {@code --jvms} command tells each JVM it starts which partition
 * of which job it is ({@link JvmJob}); the job key travels in the environment. Not for users.
 */
final class JvmPartitionOptions
{
    @Option(names = "--partition", hidden = true, description = "Internal (--jvms): this JVM's partition.")
    Integer partition;

    @Option(names = "--shm-dir", hidden = true, description = "Internal (--jvms): the job's shared-memory directory.")
    String shmDir;

    @Option(names = "--job-id", hidden = true, description = "Internal (--jvms): the job's id.")
    Long jobId;

    /**
     * Runs a {@code qsnet} experiment in {@code jvms} JVMs ({@link JvmJob}), or here alone when 1.
     *
     * @param jvms       the command's {@code --jvms}.
     * @param partitions the command's {@code --partitions} (threads), which {@code --jvms} excludes.
     * @param body       the experiment, given its partition of the job (null: alone).
     * @return the exit status.
     */
    int run(final int jvms, final int partitions, final JvmJob.Body body) throws Exception
    {
        org.qsnet.fabric.QsnetException.require(jvms >= 1, "--jvms", jvms, "must be at least 1");
        // checked here for every experiment: traffic and congestion took 0 or less as 1
        org.qsnet.fabric.QsnetException.require(partitions >= 1, "--partitions", partitions, "must be at least 1");
        if (jvms == 1)
        {
            return body.run(null);
        }
        org.qsnet.fabric.QsnetException.require(partitions == 1, "--jvms", jvms, "and --partitions exclude each other");
        return JvmJob.run(jvms, partition, shmDir, jobId, QsnetCommand.class.getName(), JvmJob.argv, false, body);
    }
}
