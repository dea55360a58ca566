package org.qsnet.fabric.network;

import java.nio.ByteBuffer;

/**
 * How what a packet carries for its endpoints (its {@link Packet#attachment()}) crosses to another
 * partition of a distributed run: the source's attachment is written when the header enters the
 * network and read back as the destination's copy; what the destination's endpoint answered in
 * the attachment (a fault, an atomic's old value) is written after {@link PacketEndpoint#onArrival}
 * and applied to the source's attachment before {@link PacketEndpoint#onAck}. In one JVM the two
 * ends share the object and no codec is used.
 */
public interface PacketCodec
{
    /** Carries nothing: the destination's copy has no attachment. */
    PacketCodec NONE = new PacketCodec()
    {
        @Override
        public void writeAttachment(final Packet packet, final WireBuffer out)
        {
        }

        @Override
        public Object readAttachment(final Packet packet, final ByteBuffer in)
        {
            return null;
        }

        @Override
        public void writeReply(final Packet packet, final WireBuffer out)
        {
        }

        @Override
        public void applyReply(final Packet packet, final ByteBuffer in)
        {
        }
    };

    /**
     * Writes the source's attachment.
     *
     * @param packet the packet, at its source.
     * @param out    where to write.
     */
    void writeAttachment(Packet packet, WireBuffer out);

    /**
     * Reads a copy of the attachment at the destination.
     *
     * @param packet the destination's copy of the packet (source, destination, size, key).
     * @param in     the bytes {@link #writeAttachment} wrote, from position to limit.
     * @return the attachment for the destination's endpoint.
     */
    Object readAttachment(Packet packet, ByteBuffer in);

    /**
     * Writes what the destination's endpoint changed in its copy of the attachment.
     *
     * @param packet the destination's copy, after {@link PacketEndpoint#onArrival}.
     * @param out    where to write.
     */
    void writeReply(Packet packet, WireBuffer out);

    /**
     * Applies a destination's reply to the source's attachment (for a broadcast, once per
     * recipient, in node order).
     *
     * @param packet the packet, at its source.
     * @param in     the bytes {@link #writeReply} wrote, from position to limit.
     */
    void applyReply(Packet packet, ByteBuffer in);
}
