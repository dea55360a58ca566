package org.qsnet.fabric.nic;

import java.nio.ByteBuffer;

import org.qsnet.fabric.network.Packet;
import org.qsnet.fabric.network.PacketCodec;
import org.qsnet.fabric.network.WireBuffer;

/**
 * How an Elan3 packet crosses to another partition of a distributed run: what the remote inputter
 * reads of the packet and of its DMA's descriptor (addresses, event, size, the source's node,
 * context and VP, the data, the capability key, the queued stream's sequence number, an atomic's
 * operands), and back what it answered besides the acknowledgement code (a fault's message, an
 * out-of-order refusal, an atomic's old value). The destination's copy of the DMA has no context;
 * its inputter counts a multi-packet DMA's landed packets by the DMA's id.
 */
public final class NicPacketCodec implements PacketCodec
{
    /** The codec; it holds no state. */
    public static final NicPacketCodec INSTANCE = new NicPacketCodec();

    private NicPacketCodec()
    {
    }

    /**
     * The DMA a packet of this NIC model belongs to, for a codec that ships more about a DMA than
     * this one does (a measurement tool's own record of it, looked up by the id its
     * {@link Elan3Nic.LandingObserver} is told) and delegates the rest to {@link #INSTANCE}.
     *
     * @param packet a packet the Elan3 NIC model sent, or its copy in another partition.
     * @return the id {@link Elan3Nic#command} returned for the DMA (for a remote read's reply: the
     *         requester's).
     */
    public static long dmaId(final Packet packet)
    {
        return ((NicPacket)packet.attachment()).job.id;
    }

    /**
     * @param packet a packet the Elan3 NIC model sent.
     * @return the packets of its DMA (1 for a remote read's request).
     */
    public static int dmaPackets(final Packet packet)
    {
        return ((NicPacket)packet.attachment()).job.packets;
    }

    /**
     * @param packet a packet the Elan3 NIC model sent, whose acknowledgement has come back.
     * @return whether the destination took it (false: it answered retry or fault, and the DMA engine
     *         sends it again or fails the DMA).
     */
    public static boolean accepted(final Packet packet)
    {
        return packet.ackValue() == NicPacket.ACK_OK;
    }

    @Override
    public void writeAttachment(final Packet packet, final WireBuffer out)
    {
        final NicPacket p = (NicPacket)packet.attachment();
        final DmaJob j = p.job;
        out.putInt(p.kind).putLong(p.offset).putInt(p.length).putInt(p.index).putByte(p.last ? 1 : 0)
            .putBytes(p.data).putInt(p.destContext).putLong(p.stream).putInt(p.seq).putInt(p.atomicOp)
            .putLong(p.remoteVa).putLong(p.operand).putLong(p.compare);
        final int[] key = p.key;
        out.putInt(key == null ? -1 : key.length);
        if (key != null)
        {
            for (final int k : key)
            {
                out.putInt(k);
            }
        }
        out.putLong(j.id).putInt(j.type).putLong(j.size).putLong(j.source).putLong(j.dest).putLong(j.destEvent)
            .putLong(j.srcEvent).putInt(j.vp).putInt(j.firstVp).putInt(j.lastVp).putInt(j.opcode).putInt(j.failCount)
            .putInt(j.packets).putInt(j.sourceNode()).putInt(j.sourceContext()).putInt(j.sourceVp());
    }

    @Override
    public Object readAttachment(final Packet packet, final ByteBuffer in)
    {
        final NicPacket p = new NicPacket();
        p.kind = in.getInt();
        p.offset = in.getLong();
        p.length = in.getInt();
        p.index = in.getInt();
        p.last = in.get() != 0;
        p.data = WireBuffer.getBytes(in);
        p.destContext = in.getInt();
        p.stream = in.getLong();
        p.seq = in.getInt();
        p.atomicOp = in.getInt();
        p.remoteVa = in.getLong();
        p.operand = in.getLong();
        p.compare = in.getLong();
        final int keyLength = in.getInt();
        if (keyLength >= 0)
        {
            p.key = new int[keyLength];
            for (int i = 0; i < keyLength; i++)
            {
                p.key[i] = in.getInt();
            }
        }
        final DmaJob j = new DmaJob();
        j.id = in.getLong();
        j.type = in.getInt();
        j.size = in.getLong();
        j.source = in.getLong();
        j.dest = in.getLong();
        j.destEvent = in.getLong();
        j.srcEvent = in.getLong();
        j.vp = in.getInt();
        j.firstVp = in.getInt();
        j.lastVp = in.getInt();
        j.opcode = in.getInt();
        j.failCount = in.getInt();
        j.packets = in.getInt();
        j.srcNode = in.getInt();
        j.srcContext = in.getInt();
        j.srcVp = in.getInt();
        p.job = j;
        return p;
    }

    @Override
    public void writeReply(final Packet packet, final WireBuffer out)
    {
        final NicPacket p = (NicPacket)packet.attachment();
        out.putString(p.faultMessage).putByte(p.outOfOrder ? 1 : 0).putLong(p.atomicResult);
    }

    @Override
    public void applyReply(final Packet packet, final ByteBuffer in)
    {
        final NicPacket p = (NicPacket)packet.attachment();
        final String fault = WireBuffer.getString(in);
        final boolean outOfOrder = in.get() != 0;
        final long atomicResult = in.getLong();
        // as if the destination had written the source's own object: only what it set
        if (fault != null)
        {
            p.faultMessage = fault;
        }
        if (outOfOrder)
        {
            p.outOfOrder = true;
        }
        if (p.kind == NicPacket.ATOMIC)
        {
            p.atomicResult = atomicResult;
        }
    }
}
