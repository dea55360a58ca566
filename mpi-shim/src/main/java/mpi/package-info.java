/**
 * The Open MPI Java bindings' API ({@code mpi}, Open MPI 5.0) on the emulated machine: every rank is
 * a process launched by {@code Prun} ({@code ./mpirun}); point-to-point maps onto Tports, the
 * barrier, broadcast and reduction onto the Elanlib collectives where they fit, everything else onto
 * standard algorithms over point-to-point. Every call pays its simulated cost through those
 * layers; {@link mpi.MPI#wtime()} is simulated time. The package's classes are shared by the ranks
 * of a job (a library package), so the state of a rank ({@code COMM_WORLD}'s rank, its Tport, its
 * communicators) lives with the rank's process, not in static fields.
 */
package mpi;
