/**
 * The {@code qsnet} command line (picocli): experiments, congestion matrices, topology,
 * emulator performance and the JMH suites.
 */
package org.qsnet.bench.cli;
