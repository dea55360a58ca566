/**
 * Emulated memories: sparse, off-heap (Chronicle Bytes) pages backed on first touch, and the
 * Elan MMU that maps a context's 32-bit Elan virtual addresses onto main memory or Elan SDRAM
 * with access rights.
 */
package org.qsnet.fabric.memory;
