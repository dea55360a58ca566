package org.qsnet.fabric.nic;

import org.qsnet.fabric.engine.Origin;
import org.qsnet.fabric.memory.MemoryFault;
import org.qsnet.fabric.memory.Mmu;
import org.qsnet.fabric.network.FabricConfig;
import org.qsnet.fabric.network.Packet;

/**
 * The Elan3's inputter: accepts packets, checks context and key, translates through the MMU and
 * TLB, writes memory (SDRAM, or host memory across PCI) with one packet of input buffering, takes
 * queued DMAs into their queues in stream order (reserving the slot, publishing {@code q_bptr} once
 * it is written, discarding duplicates, refusing out-of-order packets), turns a remote read into a
 * DMA of its own, answers atomics and barrier tests, sets destination events and returns the
 * acknowledgement code.
 */
final class Inputter
{
    private final Elan3Nic nic;
    private final int node;
    private final Elan3Timing profile;
    private final FabricConfig config;
    private final Origin origin;
    private final Translator translator;
    private final Resource microcode;
    private final Resource internalBus;
    private final Resource sdramBus;
    private final Resource.Pci pci;

    private long lastWriteDoneNs;
    /** Per queue: the slot the inputter hands out next (q_bptr is published when a slot lands). */
    private final LongLongMap reservedBptr = new LongLongMap();
    /**
     * Multi-packet broadcast DMAs partly written here: packets written so far, per recipient
     * context (every context of the node in the broadcast's range gets every packet, and each
     * one's destination event fires when its own copy is complete).
     */
    private final java.util.HashMap<Landing, int[]> broadcastLanded = new java.util.HashMap<>();
    /** Packets landed so far of DMAs from other partitions, by DMA id and recipient context (see {@link #landedAll}). */
    private final java.util.HashMap<RemoteLanding, int[]> landedById = new java.util.HashMap<>();

    /** A broadcast DMA's copy in one context (DmaJob and NicContext compare by identity). */
    private record Landing(DmaJob job, NicContext context)
    {
    }

    /** A DMA of another partition (decoded once per packet) landing in one context, by number. */
    private record RemoteLanding(long dmaId, int context)
    {
    }
    long duplicatesDiscarded;
    long outOfOrderRefusals;
    long packetsReceived;
    Elan3Nic.LandingObserver observer;

    Inputter(final Elan3Nic nic, final Elan3Timing profile, final FabricConfig config, final Origin origin,
        final NicResources shared, final Translator translator)
    {
        this.nic = nic;
        this.node = nic.node();
        this.profile = profile;
        this.config = config;
        this.origin = origin;
        this.translator = translator;
        this.microcode = shared.microcode;
        this.internalBus = shared.internalBus;
        this.sdramBus = shared.sdramBus;
        this.pci = shared.pci;
    }

    /** A packet arrived: accept it, deliver it to its context(s), and return the ack turnaround. */
    long onArrival(final Packet packet, final long timeNs)
    {
        packetsReceived++;
        final NicPacket p = (NicPacket)packet.attachment();
        final long accepted = microcode.use(timeNs, profile.inputPacketNs());
        // one packet of input buffering: this packet is acknowledged once the previous one is written
        final long previousWriteDone = lastWriteDoneNs;
        int code = NicPacket.ACK_OK;
        if (packet.isBroadcast())
        {
            final DmaJob job = p.job;
            for (final NicContext c : nic.contexts.values().stream().sorted((a, b) -> Integer.compare(a.number, b.number))
                .toList())
            {
                if (c.keyMatches(p.key) && c.myVp >= job.firstVp && c.myVp <= job.lastVp)
                {
                    code = Math.max(code, deliver(p, c, accepted));
                }
            }
        }
        else
        {
            final NicContext c = nic.context(p.destContext);
            if (c == null || !c.keyMatches(p.key))
            {
                p.faultMessage = "packet for context 0x" + Integer.toHexString(p.destContext) + " on node " + node
                    + (c == null ? " refused: no such context attached" : " refused: capability key mismatch");
                code = NicPacket.ACK_FAULT;
            }
            else if (c.inputBlocked)
            {
                code = NicPacket.ACK_RETRY;
            }
            else
            {
                code = deliver(p, c, accepted);
            }
        }
        packet.setAckValue(code);
        return Math.max(accepted, previousWriteDone) - timeNs;
    }

    private int deliver(final NicPacket p, final NicContext c, final long acceptedNs)
    {
        final DmaJob job = p.job;
        try
        {
            switch (p.kind)
            {
                case NicPacket.WRITE:
                {
                    final long va = job.dest + p.offset;
                    c.check(va, p.length, Mmu.REMOTE_WRITE, "DMA destination");
                    // every packet, so that no part of an overrunning DMA lands in the neighbour
                    c.checkAllocation(job.dest, job.size, "DMA destination");
                    final long done = write(c, va, NicPacket.blocks(p.length), acceptedNs);
                    final byte[] data = p.data;
                    origin.schedule(done, t ->
                    {
                        // the destination event counts packets as they are accepted and written: it
                        // fires with the DMA's last packet to land, whatever its index (a packet
                        // retried after a CRC error may land after the DMA's final one)
                        final boolean complete = landedAll(job, c);
                        land(c, va, data, complete ? job.destEvent : 0, t);
                        if (observer != null)
                        {
                            observer.landed(job.id, data == null ? 0 : data.length, complete, t);
                        }
                    });
                    return NicPacket.ACK_OK;
                }
                case NicPacket.QUEUED:
                    return deliverQueued(p, c, acceptedNs);
                case NicPacket.READ_REQUEST:
                {
                    // the remote end turns a read into a write of its own, back to the requester
                    c.check(job.source, job.size, Mmu.REMOTE_READ, "DMA source (remote read)");
                    c.checkAllocation(job.source, job.size, "DMA source (remote read)");
                    final DmaJob reply = new DmaJob();
                    reply.ctx = c;
                    reply.reply = true;
                    reply.type = E3.dmaType(E3.dataType(job.type), E3.DMA_WRITE, E3.DMA_NORMAL, job.failCount);
                    reply.size = job.size;
                    reply.source = job.source;
                    reply.dest = job.dest;
                    reply.destEvent = job.destEvent;
                    reply.srcEvent = job.srcEvent;
                    reply.vp = job.sourceVp();
                    reply.id = job.id;
                    reply.opcode = E3.DMA_NORMAL;
                    reply.failCount = job.failCount;
                    reply.packets = (int)Math.max(1, (job.size + config.maxPayloadBytes() - 1)
                        / config.maxPayloadBytes());
                    final long t = microcode.use(acceptedNs, profile.cmdProcNs());
                    origin.schedule(t, x -> nic.dma.enqueue(reply, x));
                    return NicPacket.ACK_OK;
                }
                case NicPacket.TEST:
                {
                    final int v = c.getInt(p.remoteVa, Mmu.REMOTE_READ);
                    return v - (int)p.compare >= 0 ? NicPacket.ACK_OK : NicPacket.ACK_NOT_READY;
                }
                case NicPacket.ATOMIC:
                {
                    c.check(p.remoteVa, 4, Mmu.REMOTE_READ | Mmu.REMOTE_WRITE, "remote atomic");
                    final int old = c.getInt(p.remoteVa, Mmu.REMOTE_READ);
                    final int now = p.atomicOp == E3.ATOMIC_FETCH_ADD ? old + (int)p.operand
                        : old == (int)p.compare ? (int)p.operand : old;
                    c.putInt(p.remoteVa, now, Mmu.REMOTE_WRITE);
                    p.atomicResult = old;
                    // a read-modify-write of the word in its memory before the result can return
                    lastWriteDoneNs = Math.max(lastWriteDoneNs, write(c, p.remoteVa, 4, acceptedNs));
                    c.notifyWrite(p.remoteVa);
                    return NicPacket.ACK_OK;
                }
                default:
                    throw new IllegalStateException("packet kind " + p.kind);
            }
        }
        catch (final MemoryFault e)
        {
            p.faultMessage = e.getMessage();
            return NicPacket.ACK_FAULT;
        }
    }

    /** Writes packet data: over the internal bus and into SDRAM or across PCI at once. */
    long write(final NicContext c, final long va, final int length, final long readyNs)
    {
        final long t = translator.translate(c, va, length, readyNs);
        final long bus = length > 0 ? internalBus.use(t, profile.internalBusNs(length)) : t;
        final long memory = c.mmu.kindOf(va) == Mmu.Kind.SDRAM ? sdramBus.use(t, profile.sdramNs(length))
            : pci.burst(t, true, length);
        final long done = Math.max(bus, memory);
        lastWriteDoneNs = Math.max(lastWriteDoneNs, done);
        return done;
    }

    /**
     * Counts one packet of {@code job} written in context {@code c} of this node.
     *
     * @return whether every packet of the DMA has now been written there.
     */
    private boolean landedAll(final DmaJob job, final NicContext c)
    {
        if (job.packets == 1)
        {
            return true;
        }
        if (job.ctx == null)
        {
            // a copy decoded from another partition (one per packet): count by the DMA's id
            final RemoteLanding key = new RemoteLanding(job.id, c.number);
            final int[] n = landedById.computeIfAbsent(key, k -> new int[1]);
            if (++n[0] == job.packets)
            {
                landedById.remove(key);
                return true;
            }
            return false;
        }
        if (job.opcode != E3.DMA_NORMAL_BROADCAST)
        {
            return ++job.landed == job.packets;
        }
        // a broadcast lands at every recipient context: each counts its own packets
        final Landing key = new Landing(job, c);
        final int[] n = broadcastLanded.computeIfAbsent(key, k -> new int[1]);
        if (++n[0] == job.packets)
        {
            broadcastLanded.remove(key);
            return true;
        }
        return false;
    }

    private void land(final NicContext c, final long va, final byte[] data, final long destEvent, final long now)
    {
        if (data != null)
        {
            c.write(va, data, 0, data.length, Mmu.REMOTE_WRITE, "DMA destination");
        }
        c.notifyWrite(va, data == null ? 1 : data.length);
        if (destEvent != 0)
        {
            nic.events.setEvent(c, destEvent, now);
        }
    }

    private static long slotSizeOf(final NicContext c, final long q)
    {
        return c.getInt(q + E3.Q_SIZE, Mmu.REMOTE_READ);
    }

    private int deliverQueued(final NicPacket p, final NicContext c, final long acceptedNs)
    {
        final DmaJob job = p.job;
        final long q = job.destEvent;
        final long stream = NicPacket.streamKey(job.sourceNode(), job.sourceContext(), q);
        final int expected = (int)c.queueRxSeq.get(stream, 0);
        if (p.seq < expected)
        {
            // already taken (its ack was for an earlier copy): discard, acknowledge
            duplicatesDiscarded++;
            return NicPacket.ACK_OK;
        }
        if (p.seq > expected)
        {
            // an earlier packet of this stream is being retried: refuse, so the queue keeps the order
            outOfOrderRefusals++;
            p.outOfOrder = true;
            return NicPacket.ACK_RETRY;
        }
        final int state = c.getInt(q + E3.Q_STATE, Mmu.REMOTE_READ);
        final long base = c.getInt(q + E3.Q_BASE, Mmu.REMOTE_READ) & 0xffffffffL;
        final long top = c.getInt(q + E3.Q_TOP, Mmu.REMOTE_READ) & 0xffffffffL;
        final long fptr = c.getInt(q + E3.Q_FPTR, Mmu.REMOTE_READ) & 0xffffffffL;
        // the inputter reserves the slot now and publishes q_bptr once the slot is written, so a
        // consumer that sees q_bptr move always finds the data there
        // context number and 32-bit queue address: an exact key, built without allocating
        final long key = ((long)c.number << 32) | q;
        final long reserved = reservedBptr.get(key, -1);
        final long bptr = reserved >= 0 ? reserved : c.getInt(q + E3.Q_BPTR, Mmu.REMOTE_READ) & 0xffffffffL;
        final long next = bptr >= top ? base : bptr + slotSizeOf(c, q);
        // the pointers decide, never a host-written bit: the inputter keeps one slot free, so
        // bptr == fptr always means empty, and refuses while taking a slot would make them equal.
        // E3_QUEUE_FULL is its note to the host, set when it refuses; a consumer's read-modify-write
        // of q_state (LA-MPI reads it before moving q_fptr, catalog §1.5 flow 4) can then neither
        // wedge the queue nor let it overrun
        final boolean full = (state & E3.QUEUE_LOCKED) != 0 || next == fptr;
        if (full && (state & (E3.QUEUE_LOCKED | E3.QUEUE_FULL)) == 0)
        {
            c.putInt(q + E3.Q_STATE, state | E3.QUEUE_FULL, Mmu.REMOTE_WRITE);
        }
        // a refused packet keeps its stream's place: later packets of the stream are refused as out
        // of order (above) until it lands, so a source cannot overtake its own refused DMA
        if (full)
        {
            return NicPacket.ACK_RETRY;
        }
        final int slotSize = c.getInt(q + E3.Q_SIZE, Mmu.REMOTE_READ);
        if (p.length > slotSize)
        {
            p.faultMessage = "queued DMA of " + p.length + " bytes does not fit the queue's " + slotSize + "-byte slots";
            return NicPacket.ACK_FAULT;
        }
        c.check(bptr, slotSize, Mmu.REMOTE_WRITE, "queue slot");
        reservedBptr.put(key, next);
        // the header read and update in SDRAM, then the slot written into host memory
        final long header = sdramBus.use(acceptedNs, profile.sdramNs(24));
        final long done = write(c, bptr, NicPacket.blocks(Math.max(p.length, 1)), header);
        final byte[] data = p.data;
        final NicContext.QueueThread thread = c.queueThreads.get(q);
        final int length = p.length;
        c.queueRxSeq.put(stream, expected + 1L);
        origin.schedule(done, t ->
        {
            c.putInt(q + E3.Q_BPTR, (int)next, Mmu.REMOTE_WRITE);
            land(c, bptr, data, thread == null ? q + E3.Q_EVENT : 0, t);
            if (thread != null)
            {
                thread.onSlot(bptr, length, t);
            }
        });
        return NicPacket.ACK_OK;
    }
}
