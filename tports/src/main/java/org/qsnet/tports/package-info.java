/**
 * Tagged Message Ports (Tports) on Elanlib: envelopes in an input queue, matching by sender and
 * tag masks on the NIC's thread processor, inline messages below 288 bytes, synchronous
 * (rendezvous) transfer of larger ones by a get from the sender's buffer.
 */
package org.qsnet.tports;
