/**
 * Experiments written as ordinary Elan3lib programs and run under {@link org.qsnet.elan3.Prun}:
 * ping latency and bandwidth with buffer placements, bidirectional ping, calibration.
 */
package org.qsnet.bench.elan3;
