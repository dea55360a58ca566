/**
 * Programs as a user writes them, outside the emulator's packages, so that the launcher loads
 * them per rank (their static fields are a port's C globals).
 */
package legacy;
