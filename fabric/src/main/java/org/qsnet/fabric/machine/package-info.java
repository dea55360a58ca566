/**
 * The assembled machine: the platform profiles (every parameter of the fabric, the NIC and the
 * host of one emulated platform) and the {@link org.qsnet.fabric.machine.Machine} that builds the
 * network and one NIC per node on a kernel and holds the jobs' capabilities. The top of the
 * fabric module's layering: it depends on {@code network} and {@code nic}; neither depends on it.
 */
package org.qsnet.fabric.machine;
