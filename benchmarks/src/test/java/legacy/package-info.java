/**
 * Legacy programs ported from the C call sequences of ELAN-API.md, as a user writes them: standalone
 * {@code main(String[])} programs outside the emulator's packages, so that {@code prun} loads them
 * per rank (their static fields are the C globals of one process).
 */
package legacy;
