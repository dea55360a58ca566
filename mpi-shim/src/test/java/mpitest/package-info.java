/**
 * Conformance tests of the {@code mpi} package written as an outside user of the Open MPI Java
 * bindings would: each program is a main class run as a job of several ranks; a rank that finds
 * a wrong result throws, which fails the job and the test.
 */
package mpitest;
