/**
 * Elanlib (libelan), the machine-independent layer, built only on Elan3lib: the base and state,
 * groups, events with poll / wait / done, one-sided put and get, and collectives (gsync, bcast,
 * reduce). Tports build on it.
 */
package org.qsnet.elan;
