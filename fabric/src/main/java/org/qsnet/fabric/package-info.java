/**
 * The fabric module, layered by package as the machine is: the discrete-event simulation kernel
 * ({@code engine}, knows nothing of QsNet), emulated memories and the Elan MMU ({@code memory}), the
 * Elite network ({@code network}), the Elan3 NIC on it ({@code nic}), and the profiles and the
 * assembled machine ({@code machine}). Dependencies run one way: machine &rarr; nic &rarr; network
 * &rarr; engine. This root package holds what every layer shares: the project's root exception.
 */
package org.qsnet.fabric;
