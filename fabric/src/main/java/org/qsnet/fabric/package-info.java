/**
 * The fabric module: the discrete-event simulation kernel ({@code engine}), the model of the
 * Elite fat tree, its links and packets ({@code model}), and the small contract that the
 * NIC model and the libraries see ({@code spi}). This root package holds what every layer
 * shares: the project's root exception.
 */
package org.qsnet.fabric;
