/**
 * The discrete-event simulation kernel: simulated time, the event queue ordered by
 * {@code (time, origin, originSeq)}, and simulated processes that run user code on virtual
 * threads under strict hand-off. Knows nothing of QsNet.
 */
package org.qsnet.fabric.engine;
