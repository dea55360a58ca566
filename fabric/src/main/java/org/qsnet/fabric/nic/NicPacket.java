package org.qsnet.fabric.nic;

/**
 * What a packet carries for the NICs at both ends: the DMA engine builds it, the remote inputter
 * reads it and answers with one of the acknowledgement codes below.
 */
final class NicPacket
{
    static final int WRITE = 0;
    static final int QUEUED = 1;
    static final int READ_REQUEST = 2;
    static final int ATOMIC = 3;
    static final int TEST = 4;

    static final int ACK_OK = 0;
    static final int ACK_RETRY = 1;
    static final int ACK_FAULT = 2;
    /** A hardware-barrier test found a recipient not ready (as RETRY; acks combine by max, FAULT wins). */
    static final int ACK_NOT_READY = ACK_RETRY;

    int kind;
    DmaJob job;
    long offset;
    int length;
    int index;
    boolean last;
    byte[] data;
    int[] key;
    int destContext;
    int tries;
    /** The probe of this packet's last retry that has run (null before), and of the one before it. */
    org.qsnet.fabric.engine.QuiescenceProbe lastRetry;
    org.qsnet.fabric.engine.QuiescenceProbe retryBefore;
    /** The probe of this packet's retry scheduled and not yet run. */
    org.qsnet.fabric.engine.QuiescenceProbe nextRetry;
    /** The earliest retry since which nothing has moved (no resumption, no packet accepted), if any. */
    org.qsnet.fabric.engine.QuiescenceProbe stallSince;
    /** A queued packet's stream (destination node, context and queue) and its place in it. */
    long stream;
    int seq = -1;
    /** On the wire now (sent, not yet acknowledged). */
    boolean sending;
    /** Refused because an earlier packet of its stream has not landed yet (not the queue's fault). */
    boolean outOfOrder;
    String faultMessage;
    int atomicOp;
    long remoteVa;
    long operand;
    long compare;
    long resultVa;
    long atomicResult;

    /** Data moves in 64-byte write-block transactions: a 1-byte DMA moves one whole block. */
    static int blocks(final int length)
    {
        return (length + E3.BLK_SIZE - 1) / E3.BLK_SIZE * E3.BLK_SIZE;
    }

    /** A queued-DMA stream: destination node, context and 32-bit queue address, as one exact key. */
    static long streamKey(final int node, final int context, final long queueVa)
    {
        return ((long)node << 48) ^ ((long)(context & 0xffff) << 32) ^ (queueVa & 0xffffffffL);
    }
}
