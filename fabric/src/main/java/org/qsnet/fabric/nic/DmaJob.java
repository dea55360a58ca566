package org.qsnet.fabric.nic;

/**
 * A DMA in progress: the descriptor the command processor decoded, and the DMA engine's and the
 * destination's progress through its packets.
 */
final class DmaJob
{
    long id;
    NicContext ctx;
    int type;
    long size;
    long source;
    long dest;
    long destEvent;
    long srcEvent;
    int vp;
    int firstVp;
    int lastVp;
    int opcode;
    boolean read;
    boolean reply;
    int failCount;
    int packets;
    int nextPacket;
    long nextOffset;
    int acked;
    /** Packets written at the destination (unicast; a broadcast's recipients count their own). */
    int landed;
    boolean first;
    boolean failed;
    /**
     * A copy decoded in another partition of a distributed run has no {@link #ctx}: its source's
     * node, context and VP travel with it.
     */
    int srcNode = -1;
    int srcContext;
    int srcVp;

    int sourceNode()
    {
        return ctx != null ? ctx.nic().node() : srcNode;
    }

    int sourceContext()
    {
        return ctx != null ? ctx.number : srcContext;
    }

    int sourceVp()
    {
        return ctx != null ? ctx.myVp : srcVp;
    }
}
