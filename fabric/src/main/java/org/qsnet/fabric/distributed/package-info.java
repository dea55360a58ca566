/**
 * The exact distributed simulation: one partition of a run per JVM (see
 * {@link org.qsnet.fabric.network.Partitioning}), driven through conservative synchronous windows by
 * {@link org.qsnet.fabric.distributed.PartitionDriver} over any
 * {@link org.qsnet.fabric.transport.Transport}. The result of a run does not depend on how many
 * partitions run it.
 */
package org.qsnet.fabric.distributed;
