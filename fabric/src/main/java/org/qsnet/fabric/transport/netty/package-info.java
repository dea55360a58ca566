/**
 * The TCP transport on Netty (epoll where available, NIO otherwise): framing and validation, the
 * challenge–response with the job key, heartbeats, and an event loop without a thread of its own
 * ({@code DrivenEventLoop}), driven by the thread that polls (it reads its sockets itself), the
 * thread that offers (it writes its frames itself) and a keeper while neither calls in. The only
 * package that uses Netty types.
 */
package org.qsnet.fabric.transport.netty;
