/**
 * The same-host shared-memory transport: one memory-mapped file (Chronicle Bytes {@code MappedBytes})
 * per ordered pair of partitions, holding a {@link org.qsnet.fabric.transport.FrameRing}, a challenge–
 * response with the job key through the file's header, and wall-clock heartbeats in the header.
 */
package org.qsnet.fabric.transport.shm;
