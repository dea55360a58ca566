/**
 * MPI programs and experiments written against the Open MPI Java API ({@code mpi-shim}): the
 * OSU-style micro-benchmarks ({@link org.qsnet.bench.mpi.Osu}, run with {@code ./mpirun}), the
 * MPI rows of {@code ./qsnet calibrate} ({@link org.qsnet.bench.mpi.MpiExperiment}) and a JMH
 * support class reporting simulated time ({@link org.qsnet.bench.mpi.SimulatedTime}).
 */
package org.qsnet.bench.mpi;
