package org.qsnet.fabric.engine;

/**
 * An event another partition scheduled (under its own origin) that runs in this partition alone:
 * this partition counts it in {@link Kernel#traceSum()}, though it does not own the origin, since
 * the owner never runs it (a partitioned run with analytic timing ships a packet's tail to its
 * destination's partition only, and the acknowledgement back to its source's). Its owner took
 * its key with {@link Origin#scheduleElsewhere(long)}, which counts nothing: the event is counted
 * where, and if, it is dispatched, as in one JVM.
 */
public interface TracedHere extends EventHandler
{
}
