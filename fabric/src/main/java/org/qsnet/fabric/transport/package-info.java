/**
 * Transports between the JVMs of one distributed job: the SPI ({@link org.qsnet.fabric.transport.Transport}),
 * the frame layout and its validation ({@link org.qsnet.fabric.transport.FrameDescriptor}), the job-key
 * authentication ({@link org.qsnet.fabric.transport.JobAuthenticator}), the ring buffer shared by the
 * in-JVM and shared-memory transports, and the launcher environment (rank and size under SLURM, Open MPI
 * / PMI or RMS). The implementations are in {@code local} (in-JVM), {@code netty} (TCP; the only package
 * that uses Netty types) and {@code shm} (same-host memory-mapped files). Wall-clock time is allowed here
 * (heartbeats, connect timeouts) and nowhere in model code.
 */
package org.qsnet.fabric.transport;
