/**
 * The TCP transport on Netty (epoll where available, NIO otherwise): framing and validation, the
 * challenge–response with the job key, heartbeats, and the hand-off of received frames from the
 * event loop to the polling thread through JCTools queues. The only package that uses Netty types.
 */
package org.qsnet.fabric.transport.netty;
