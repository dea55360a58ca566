/**
 * JMH benchmarks of the emulator's own cost (wall clock): kernel events, process hand-offs,
 * packet hops, whole-workload slowdown. Run with {@code ./qsnet jmh}.
 */
package org.qsnet.bench.jmh;
