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
}
