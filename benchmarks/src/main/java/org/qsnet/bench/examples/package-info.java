/**
 * Example programs written against the emulated libraries, as a port of legacy code would be;
 * run them with {@code ./prun}.
 */
package org.qsnet.bench.examples;
