package org.qsnet.fabric.network;

import org.qsnet.fabric.QsnetException;

/**
 * A packet: route, one or more transactions, EOP.
 *
 * <pre>
 *  +-------+--------------------------------------------+-----+
 *  | route | transaction header, address, context, data | EOP |   data: up to 5 x 64 B
 *  +-------+--------------------------------------------+-----+   overhead: 58 B per packet
 * </pre>
 *
 * <p>A write-block packet carries up to {@link FabricConfig#maxPayloadBytes()} bytes. A
 * non-write-block transaction (remote test-and-write, fetch-and-add) carries its operands and
 * gets its result back in the acknowledgement ({@link #ackValue()}). A broadcast packet goes to
 * every node of a contiguous range.
 */
public final class Packet
{
    /** What the packet's transactions are. */
    public enum Kind
    {
        /** Write-block transactions: data written at the destination. */
        WRITE_BLOCK,
        /** A non-write-block transaction whose result returns in the acknowledgement. */
        NON_WRITE_BLOCK
    }

    private final int source;
    private final int destination;
    private final int broadcastFirst;
    private final int broadcastLast;
    private final int payloadBytes;
    private final Kind kind;
    private int priority;
    private Object attachment;
    private long ackValue;
    private long injectNs = -1;
    private long headNs = -1;
    private long tailNs = -1;
    private long ackNs = -1;
    private int retries;
    private long key;

    // set by the fabric
    int wireBytes;
    long route;
    int tagCount;
    Circuit circuit;
    /** The attempt before {@link #circuit}, whose EOP may still be releasing channels. */
    Circuit previousCircuit;
    /**
     * Analytic timing, a unicast between partitions: its slot in its source partition's table of such
     * packets ({@link RemoteCircuits}), on the source's packet and on the destination's copy alike
     * (the acknowledgement names it); -1 otherwise.
     */
    int crossingSlot = -1;

    private Packet(final int source, final int destination, final int first, final int last, final int payloadBytes,
        final Kind kind)
    {
        if (payloadBytes < 0)
        {
            throw new QsnetException("payloadBytes " + payloadBytes + " must be at least 0");
        }
        this.source = source;
        this.destination = destination;
        this.broadcastFirst = first;
        this.broadcastLast = last;
        this.payloadBytes = payloadBytes;
        this.kind = kind;
    }

    /**
     * A write-block packet from one node to another.
     *
     * @param source       injecting node.
     * @param destination  receiving node.
     * @param payloadBytes data bytes, at most the configured maximum.
     * @return the packet.
     */
    public static Packet unicast(final int source, final int destination, final int payloadBytes)
    {
        return new Packet(source, destination, -1, -1, payloadBytes, Kind.WRITE_BLOCK);
    }

    /**
     * A non-write-block transaction (remote atomic) whose result returns in the acknowledgement.
     *
     * @param source       injecting node.
     * @param destination  receiving node.
     * @param payloadBytes operand bytes.
     * @return the packet.
     */
    public static Packet nonWriteBlock(final int source, final int destination, final int payloadBytes)
    {
        return new Packet(source, destination, -1, -1, payloadBytes, Kind.NON_WRITE_BLOCK);
    }

    /**
     * A broadcast to the contiguous node range {@code first..last}; complete once every
     * recipient has acknowledged.
     *
     * @param source       injecting node.
     * @param first        first node of the range.
     * @param last         last node of the range, at least {@code first}.
     * @param payloadBytes data bytes.
     * @return the packet.
     */
    public static Packet broadcast(final int source, final int first, final int last, final int payloadBytes)
    {
        if (last < first)
        {
            QsnetException.require(false, "last", last, "must be at least first (" + first + ")");
        }
        return new Packet(source, first, first, last, payloadBytes, Kind.WRITE_BLOCK);
    }

    /**
     * @return the injecting node.
     */
    public int source()
    {
        return source;
    }

    /**
     * @return the receiving node (the first node of the range for a broadcast).
     */
    public int destination()
    {
        return destination;
    }

    /**
     * @return whether this is a broadcast.
     */
    public boolean isBroadcast()
    {
        return broadcastFirst >= 0;
    }

    /**
     * @return first node of a broadcast range, -1 for unicast.
     */
    public int broadcastFirst()
    {
        return broadcastFirst;
    }

    /**
     * @return last node of a broadcast range, -1 for unicast.
     */
    public int broadcastLast()
    {
        return broadcastLast;
    }

    /**
     * @return data bytes carried.
     */
    public int payloadBytes()
    {
        return payloadBytes;
    }

    /**
     * @return bytes on the wire (payload plus per-packet overhead); set at injection.
     */
    public int wireBytes()
    {
        return wireBytes;
    }

    /**
     * @return the kind of transactions.
     */
    public Kind kind()
    {
        return kind;
    }

    /**
     * @return 0 (normal) or 1 (high).
     */
    public int priority()
    {
        return priority;
    }

    /**
     * @param priority 0 (normal) or 1 (high).
     * @return this packet.
     */
    public Packet priority(final int priority)
    {
        QsnetException.require(priority == 0 || priority == 1, "priority", priority, "must be 0 or 1");
        this.priority = priority;
        return this;
    }

    /**
     * @return what the injecting endpoint attached (its DMA descriptor, its message), or null.
     */
    public Object attachment()
    {
        return attachment;
    }

    /**
     * @param attachment the endpoint's own object (a DMA in progress, data to deliver).
     * @return this packet.
     */
    public Packet attach(final Object attachment)
    {
        this.attachment = attachment;
        return this;
    }

    /**
     * @return the value returned in the acknowledgement (result of a non-write-block transaction).
     */
    public long ackValue()
    {
        return ackValue;
    }

    /**
     * @param value the result to return in the acknowledgement.
     */
    public void setAckValue(final long value)
    {
        this.ackValue = value;
    }

    /**
     * @return time of the first injection request, -1 before.
     */
    public long injectNs()
    {
        return injectNs;
    }

    /**
     * @return time the header reached the destination (the last leaf for a broadcast) on the
     * delivered attempt, -1 before.
     */
    public long headNs()
    {
        return headNs;
    }

    /**
     * @return time the tail reached the destination on the delivered attempt, -1 before.
     */
    public long tailNs()
    {
        return tailNs;
    }

    /**
     * @return time the acknowledgement reached the source, -1 before.
     */
    public long ackNs()
    {
        return ackNs;
    }

    /**
     * @return retransmissions after CRC errors.
     */
    public int retries()
    {
        return retries;
    }

    /**
     * @return the packet's unique key: source node and per-source sequence number.
     */
    public long key()
    {
        return key;
    }

    void injected(final long timeNs, final long key)
    {
        if (injectNs < 0)
        {
            injectNs = timeNs;
            this.key = key;
        }
    }

    void times(final long headNs, final long tailNs)
    {
        this.headNs = headNs;
        this.tailNs = tailNs;
    }

    void acked(final long timeNs)
    {
        this.ackNs = timeNs;
    }

    void retried()
    {
        retries++;
    }

    @Override
    public String toString()
    {
        return (isBroadcast() ? "bcast " + source + "->" + broadcastFirst + ".." + broadcastLast
            : kind + " " + source + "->" + destination) + " " + payloadBytes + "B";
    }
}
