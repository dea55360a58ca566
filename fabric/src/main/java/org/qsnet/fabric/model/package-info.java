/**
 * The model of the QsNet fabric: the k-ary n-tree of Elite switches, links with two virtual
 * channels per direction, packets, wormhole circuits with acknowledgements, hardware broadcast,
 * CRC retries, and the statistics from which the congestion matrix is drawn.
 */
package org.qsnet.fabric.model;
