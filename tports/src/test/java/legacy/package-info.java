/**
 * Programs as a user writes them, outside the emulator's packages (loaded per rank).
 */
package legacy;
