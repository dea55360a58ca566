package org.qsnet.tports;

/**
 * A message a {@link Tport} holds before a receive matches it: the fields of its envelope, its
 * inline data in a system buffer, and, for one that came through shared memory, the progress of
 * its fragments through the FIFO.
 */
final class Message
{
    int sender;
    int tag;
    int size;
    int kind;
    long senderBuffer;
    long senderCompletion;
    byte[] data;
    /** Fragments it took in a shared-memory FIFO; 0 when it came through the NIC. */
    int shmFragments;
    /** The synchronous sender's event, for the shared-memory path. */
    TxEvent shmTx;
    /** Shared-memory path: fragments in the FIFO so far, fragments copied out, the receive. */
    int fragsArrived;
    int fragsDrained;
    /** Shared-memory path: fragments copied into a system buffer before a receive matched. */
    int fragsSpilled;
    long drainFreeNs;
    RxEvent rx;
}
