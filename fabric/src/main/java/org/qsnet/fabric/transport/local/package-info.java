/**
 * The in-JVM transport: partitions of one job in one JVM, joined by {@link org.qsnet.fabric.transport.FrameRing}s
 * in native memory. The reference implementation of the transport contract, and the cheapest.
 */
package org.qsnet.fabric.transport.local;
