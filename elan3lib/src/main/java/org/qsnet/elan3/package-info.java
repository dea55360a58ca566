/**
 * Elan3lib (libelan3) on the emulated Elan3: capabilities and VPs, contexts, main and Elan
 * memory, SDRAM access, events with block copy, DMA descriptors, queued DMA, hardware
 * broadcast, remote atomics; {@link org.qsnet.elan3.Elan3lib} keeps the C names; {@link
 * org.qsnet.elan3.Prun} launches SPMD jobs.
 */
package org.qsnet.elan3;
