package org.qsnet.fabric.nic;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.qsnet.fabric.QsnetException;
import org.qsnet.fabric.engine.Kernel;
import org.qsnet.fabric.engine.Origin;
import org.qsnet.fabric.engine.SimProcess;
import org.qsnet.fabric.memory.MemoryFault;
import org.qsnet.fabric.memory.Mmu;
import org.qsnet.fabric.memory.SparseMemory;
import org.qsnet.fabric.network.Fabric;
import org.qsnet.fabric.network.FabricPort;
import org.qsnet.fabric.network.Packet;
import org.qsnet.fabric.network.PacketEndpoint;

/**
 * The Elan3 network interface of one node, as a set of mechanisms with the platform profile's
 * parameters:
 * <ul>
 *   <li>command processor: takes a descriptor address from the host (user level), reads and
 *       checks the descriptor, queues it;</li>
 *   <li>DMA engine: turns queued descriptors into packets of at most 5 x 64 B, one packet at a
 *       time from each queued DMA in turn (time-slicing: a small DMA is not stuck behind a large
 *       one), staging the next packet while up to one packet per virtual channel is in flight;</li>
 *   <li>inputter: accepts packets, checks context and key, translates through the MMU and TLB,
 *       writes memory (SDRAM, or host memory across PCI), fires events, answers atomics, acks;</li>
 *   <li>events: count, block copy into host memory, chained DMAs;</li>
 *   <li>thread processor: a resource with a cost per operation, for the libraries above that
 *       run on the NIC (Tports matching), see {@link #threadWork};</li>
 *   <li>shared resources: the microcode processor (threads for commands, DMA, inputter, events),
 *       the internal data bus (outgoing and incoming data), SDRAM and the PCI bus (with start-up
 *       per burst and turnaround on buses that cannot interleave directions).</li>
 * </ul>
 * Latency and bandwidth are never written down here: they come out of these resources, the
 * fabric's circuits and the host costs the library charges.
 *
 * <pre>
 *  host --putdma--> [cmd proc] --> DMA queue --> [DMA thread: microcode, source read (SDRAM|PCI),
 *  internal bus] --> staged packet --(free VC)--> fabric ... --> [inputter: microcode, TLB,
 *  internal bus, write (SDRAM|PCI)] --> memory, dest event --> ack --> source: src event
 * </pre>
 */
public final class Elan3Nic implements PacketEndpoint
{
    /** Size of the Elan SDRAM: 64 MB. */
    public static final long SDRAM_BYTES = 64L << 20;
    /** First SDRAM offset handed to allocators (below: the NIC's own tables). */
    public static final long SDRAM_ALLOC_BASE = 0x10000;

    static final int ACK_OK = 0;
    static final int ACK_RETRY = 1;
    static final int ACK_FAULT = 2;
    /** A hardware-barrier test found a recipient not ready (as RETRY; acks combine by max, FAULT wins). */
    static final int ACK_NOT_READY = ACK_RETRY;

    private final Fabric fabric;
    private final int node;
    private final Elan3Timing profile;
    private final Kernel kernel;
    private final Origin origin;
    private final FabricPort port;
    final SparseMemory sdram;
    private final Resource microcode = new Resource("microcode");
    private final Resource threadProcessor = new Resource("thread processor");
    private final Resource internalBus = new Resource("internal bus");
    private final Resource sdramBus = new Resource("SDRAM");
    /** The MMU's table-walk state machine: one walk at a time, the waiting thread stalls. */
    private final Resource tableWalker = new Resource("table walker");
    /** The host's Elan driver resolving the NIC's translation faults, one at a time. */
    private final Resource faultHandler = new Resource("driver fault handler");
    private final Resource.Pci pci;
    private final Tlb tlb;
    private final Map<Integer, NicContext> contexts = new HashMap<>();
    private long sdramAllocTop = SDRAM_ALLOC_BASE;

    private final ArrayDeque<DmaJob> dmaQueue = new ArrayDeque<>();
    /** Packets built and waiting for a virtual channel: the DMA engine's staging buffers. */
    private final ArrayDeque<NicPacket> staged = new ArrayDeque<>(2);
    private static final int STAGING_BUFFERS = 2;
    /** Packets being built: the next packet's microcode work overlaps the previous one's read. */
    private int preparing;
    private int inflight;
    private long lastWriteDoneNs;
    /** Queued DMAs refused because their queue was full, per destination queue, oldest first: they are
     * retried in order, and later packets for the same queue wait behind them (FIFO queues). */
    private final Map<Long, java.util.PriorityQueue<NicPacket>> refusedQueues = new HashMap<>();
    /** Queued-DMA streams in which a DMA gave up (rare): their later packets fail too. */
    private final java.util.Set<Long> brokenStreams = new java.util.HashSet<>();
    /** Per queue: the slot the inputter hands out next (q_bptr is published when a slot lands). */
    private final LongLongMap reservedBptr = new LongLongMap();

    /** Multi-packet broadcast DMAs partly written here: packets written so far. */
    private final java.util.IdentityHashMap<DmaJob, int[]> broadcastLanded = new java.util.IdentityHashMap<>();
    private long dmasStarted;
    private long pteLoads;
    private long duplicatesDiscarded;
    private long driverRestarts;
    private long outOfOrderRefusals;
    private long nextDmaId;
    private LandingObserver observer;
    private long packetsSent;
    private long packetsReceived;
    private long bytesSent;

    /**
     * Builds the NIC of a node and attaches it to the network (the assembled machine does this once
     * per node).
     *
     * @param kernel  the kernel driving the machine.
     * @param profile the NIC's and the host driver's timings.
     * @param fabric  the network the NIC attaches to.
     * @param node    the node.
     */
    public Elan3Nic(final Kernel kernel, final Elan3Timing profile, final Fabric fabric, final int node)
    {
        this.fabric = fabric;
        this.node = node;
        this.profile = profile;
        this.kernel = kernel;
        this.origin = fabric.nodeOrigin(node);
        this.sdram = new SparseMemory("SDRAM of node " + node, SDRAM_BYTES);
        this.pci = new Resource.Pci(profile);
        this.tlb = new Tlb(profile.tlbEntries());
        this.port = fabric.attach(node, this);
    }

    /**
     * @return the node.
     */
    public int node()
    {
        return node;
    }

    /**
     * @return queued packets this NIC's inputter received a second time and discarded (their first
     *         copy had been taken), since the machine was built.
     */
    public long duplicatesDiscarded()
    {
        return duplicatesDiscarded;
    }

    /**
     * @return queued DMAs whose retries ran out against a full queue and that the driver restarted.
     */
    public long driverRestarts()
    {
        return driverRestarts;
    }

    /**
     * @return queued packets this NIC's inputter refused because an earlier packet of their stream
     *         had not landed yet (it was being retried after a CRC error); each was sent again.
     */
    public long outOfOrderRefusals()
    {
        return outOfOrderRefusals;
    }

    /**
     * @return the origin under which this NIC schedules its events (for code running on the NIC).
     */
    public Origin origin()
    {
        return origin;
    }

    /**
     * @return the NIC's timings (the platform profile).
     */
    public Elan3Timing profile()
    {
        return profile;
    }

    /**
     * @return the node's Elan SDRAM.
     */
    public SparseMemory sdram()
    {
        return sdram;
    }

    /**
     * @return translation faults so far: pages of main memory whose entry the driver loaded into the
     * NIC's table on the NIC's first access.
     */
    public long pteLoads()
    {
        return pteLoads;
    }

    /**
     * @return the TLB (for its hit and miss counts).
     */
    public Tlb tlb()
    {
        return tlb;
    }

    /**
     * @return the NIC's shared resources: microcode, internal bus, SDRAM, PCI.
     */
    public List<Resource> resources()
    {
        return List.of(microcode, threadProcessor, internalBus, sdramBus, pci);
    }

    /**
     * Runs work on the NIC's thread processor (the SPARC-based engine on which Tports and MPI
     * match tags without the host): {@code operations} operations of the profile's
     * {@code threadOpNs} each, first come first served.
     *
     * @param readyNs    when the work can start.
     * @param operations operations, at least 0.
     * @return when the work ends.
     */
    public long threadWork(final long readyNs, final int operations)
    {
        QsnetException.require(operations >= 0, "operations", operations, "must be at least 0");
        return threadProcessor.use(readyNs, operations * profile.threadOpNs());
    }

    /**
     * @return DMA descriptors started.
     */
    public long dmasStarted()
    {
        return dmasStarted;
    }

    /**
     * @return packets sent.
     */
    public long packetsSent()
    {
        return packetsSent;
    }

    /**
     * @return packets received.
     */
    public long packetsReceived()
    {
        return packetsReceived;
    }

    /**
     * @return payload bytes sent.
     */
    public long bytesSent()
    {
        return bytesSent;
    }

    // ------------------------------------------------------------------ contexts and memory

    /**
     * Attaches a process to a hardware context ({@code elan3_attach}).
     *
     * @param contextNumber the context, unique on this node.
     * @param key           the capability's key words.
     * @param main          the process's main memory.
     * @param process       the process, to which faults are reported; may be null.
     * @return the context.
     */
    public NicContext attach(final int contextNumber, final int[] key, final SparseMemory main, final SimProcess process)
    {
        QsnetException.require(contextNumber >= 0 && contextNumber < 4096, "context", contextNumber, "must be in 0..4095");
        if (contexts.containsKey(contextNumber))
        {
            throw new QsnetException("context 0x" + Integer.toHexString(contextNumber) + " on node " + node
                + " is already attached");
        }
        final NicContext c = new NicContext(this, contextNumber, key, main, process);
        contexts.put(contextNumber, c);
        return c;
    }

    /**
     * Detaches a context ({@code elan3_detach}): packets for it are refused from now on.
     *
     * @param ctx the context.
     */
    public void detach(final NicContext ctx)
    {
        ctx.detached = true;
        contexts.remove(ctx.number);
        tlb.flush(ctx.number);
    }

    /**
     * Reserves a page-aligned region of SDRAM (a context's Elan heap).
     *
     * @param bytes size.
     * @return its SDRAM offset.
     */
    public long reserveSdram(final long bytes)
    {
        final long size = (bytes + SparseMemory.PAGE_SIZE - 1) & -SparseMemory.PAGE_SIZE;
        if (sdramAllocTop + size > SDRAM_BYTES)
        {
            throw new QsnetException("SDRAM of node " + node + " is exhausted: " + size + " bytes asked, "
                + (SDRAM_BYTES - sdramAllocTop) + " left of 64 MB");
        }
        final long at = sdramAllocTop;
        sdramAllocTop += size;
        return at;
    }

    /**
     * Flushes a context's TLB entries after its mappings changed.
     *
     * @param ctx the context.
     */
    public void flushTlb(final NicContext ctx)
    {
        tlb.flush(ctx.number);
    }

    // ------------------------------------------------------------------ command processor

    /**
     * The host hands the command processor the Elan address of a descriptor ({@code elan3_putdma}).
     * The descriptor is read and checked now, as the command processor does; a bad one is
     * rejected with a {@link QsnetException} naming the field. The host's own cost (programmed
     * I/O) is charged by the library before this call.
     *
     * @param ctx    the issuing context.
     * @param descVa Elan address of the descriptor.
     * @return an id of the DMA, unique on the machine (see {@link LandingObserver}).
     */
    public long command(final NicContext ctx, final long descVa)
    {
        final DmaJob job = decode(ctx, descVa);
        job.id = ((long)node << 40) | nextDmaId++;
        final long now = kernel.nowNs();
        final long t = microcode.use(now, profile.cmdProcNs()) + profile.sdramNs(E3.DMA_SIZE);
        origin.schedule(t, x -> enqueue(job, x));
        return job.id;
    }

    /**
     * Watches data landing in this NIC's memory, for measurement tools (the traffic experiments).
     */
    @FunctionalInterface
    public interface LandingObserver
    {
        /**
         * A packet's data has been written at this node.
         *
         * @param dmaId  the id {@link #command} returned for the DMA (for a read: the requester's).
         * @param bytes  data bytes of the packet.
         * @param complete whether every packet of the DMA has now been written here (the packet
         *                 that completes it need not be the last by index: one retried after a
         *                 CRC error lands later).
         * @param timeNs   when the write completed.
         */
        void landed(long dmaId, int bytes, boolean complete, long timeNs);
    }

    /**
     * @param observer told of every packet's data landing here; null for none.
     */
    public void observe(final LandingObserver observer)
    {
        this.observer = observer;
    }

    private DmaJob decode(final NicContext ctx, final long descVa)
    {
        if (ctx.detached)
        {
            throw new QsnetException("context 0x" + Integer.toHexString(ctx.number) + " is detached");
        }
        if ((descVa & (E3.DMA_ALIGN - 1)) != 0)
        {
            throw new QsnetException("DMA descriptor address 0x" + Long.toHexString(descVa) + " is not aligned to "
                + E3.DMA_ALIGN + " bytes");
        }
        final byte[] d = new byte[E3.DMA_SIZE];
        ctx.read(descVa, d, 0, d.length, Mmu.READ, "DMA descriptor");
        final java.nio.ByteBuffer b = java.nio.ByteBuffer.wrap(d).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        final DmaJob j = new DmaJob();
        j.ctx = ctx;
        j.type = b.getInt(E3.DMA_TYPE);
        j.size = b.getInt(E3.DMA_SIZE_FIELD) & 0xffffffffL;
        j.source = b.getInt(E3.DMA_SOURCE) & 0xffffffffL;
        j.dest = b.getInt(E3.DMA_DEST) & 0xffffffffL;
        j.destEvent = b.getInt(E3.DMA_DEST_EVENT) & 0xffffffffL;
        j.srcEvent = b.getInt(E3.DMA_SRC_EVENT) & 0xffffffffL;
        final int destCookie = b.getInt(E3.DMA_DEST_COOKIE_VPROC);
        final int srcCookie = b.getInt(E3.DMA_SRC_COOKIE_VPROC);
        final int opcode = E3.opcode(j.type);
        final boolean read = E3.direction(j.type) == E3.DMA_READ;
        // the remote VP: for a write in the destination cookie, for a read in the source cookie
        j.vp = (read ? srcCookie : destCookie) & 0xffff;
        j.opcode = opcode;
        j.read = read;
        if (j.size > (1L << 31))
        {
            throw new QsnetException("dma_size " + j.size + " is larger than 2 GB");
        }
        if (opcode == E3.DMA_QUEUED || opcode == E3.DMA_QUEUED_BROADCAST)
        {
            if (j.size > fabric.config().maxPayloadBytes())
            {
                throw new QsnetException("dma_size " + j.size + " of a queued DMA must be at most one packet ("
                    + fabric.config().maxPayloadBytes() + " bytes)");
            }
            if (opcode == E3.DMA_QUEUED_BROADCAST)
            {
                throw new QsnetException("DMA_QUEUED_BROADCAST is not supported by the Elan3 (a hardware bug; "
                    + "see ELAN-API.md §1.3)");
            }
        }
        if (opcode == E3.DMA_NORMAL_BROADCAST || opcode == E3.DMA_QUEUED_BROADCAST)
        {
            final int[] range = ctx.broadcastRange(j.vp);
            if (range == null)
            {
                throw new QsnetException("VP " + j.vp + " of a broadcast DMA is not a broadcast VP (see elan3_addbcastvp)");
            }
            if (read)
            {
                throw new QsnetException("a broadcast DMA must be a write");
            }
            j.firstVp = range[0];
            j.lastVp = range[1];
        }
        else if (ctx.nodeOf(j.vp) < 0)
        {
            throw new QsnetException("VP " + j.vp + " is outside the capability (VPs 0.." + (ctx.vpCount() - 1)
                + ") or a hole");
        }
        if (read)
        {
            ctx.check(j.dest, j.size, Mmu.WRITE, "DMA destination");
            ctx.checkAllocation(j.dest, j.size, "DMA destination");
        }
        else
        {
            ctx.check(j.source, j.size, Mmu.READ, "DMA source");
            ctx.checkAllocation(j.source, j.size, "DMA source");
        }
        if (j.srcEvent != 0 && !read)
        {
            ctx.check(j.srcEvent, E3.EVENT_SIZE, Mmu.READ | Mmu.WRITE, "source event");
        }
        if (read && j.destEvent != 0)
        {
            ctx.check(j.destEvent, E3.EVENT_SIZE, Mmu.READ | Mmu.WRITE, "destination event");
        }
        j.failCount = E3.failCount(j.type);
        j.packets = read ? 1 : (int)Math.max(1, (j.size + fabric.config().maxPayloadBytes() - 1)
            / fabric.config().maxPayloadBytes());
        return j;
    }

    private void enqueue(final DmaJob job, final long now)
    {
        dmasStarted++;
        job.first = true;
        dmaQueue.addLast(job);
        kick(now);
    }

    // ------------------------------------------------------------------ DMA engine

    private void kick(final long now)
    {
        if (preparing + staged.size() >= STAGING_BUFFERS || dmaQueue.isEmpty())
        {
            return;
        }
        final DmaJob job = dmaQueue.pollFirst();
        final int max = fabric.config().maxPayloadBytes();
        final NicPacket p = new NicPacket();
        p.job = job;
        p.offset = job.nextOffset;
        p.length = job.read ? 0 : (int)Math.min(max, job.size - job.nextOffset);
        p.index = job.nextPacket++;
        job.nextOffset += p.length;
        p.last = p.index == job.packets - 1;
        long t = microcode.use(now, profile.dmaPacketNs() + (job.first ? profile.dmaStartNs() : 0));
        job.first = false;
        if (job.read)
        {
            p.kind = NicPacket.READ_REQUEST;
        }
        else if (job.opcode == E3.DMA_QUEUED)
        {
            p.kind = NicPacket.QUEUED;
        }
        else
        {
            p.kind = NicPacket.WRITE;
        }
        if (p.length > 0)
        {
            t = sourceRead(job.ctx, job.source + p.offset, blocks(p.length), t);
        }
        if (!p.last)
        {
            // time-slicing: the next packet of this DMA waits behind one packet of each other DMA
            dmaQueue.addLast(job);
        }
        preparing++;
        origin.schedule(t, x -> staged(p, x));
        kick(now);
    }

    /**
     * Reads packet data: it streams from SDRAM or across PCI and over the internal bus at once,
     * so the packet is ready when the slower of the two has finished.
     */
    private long sourceRead(final NicContext ctx, final long va, final int length, final long readyNs)
    {
        final long t = translate(ctx, va, length, readyNs);
        final long memory = ctx.mmu.kindOf(va) == Mmu.Kind.SDRAM ? sdramBus.use(t, profile.sdramNs(length))
            : pci.burst(t, false, length);
        return Math.max(memory, internalBus.use(t, profile.internalBusNs(length)));
    }

    /**
     * Levels of the Elan3 MMU's page table (level 1, 2 and 3 tables in SDRAM); a walk reads one
     * entry from each, each read depending on the one before.
     */
    static final int PAGE_TABLE_LEVELS = 3;
    /** A fault's PIO writes across PCI: the two 32-bit halves of the entry, then the restart. */
    static final int PTE_LOAD_PIO_WRITES = 3;

    /**
     * Translates the pages of an access: a TLB hit costs nothing more; a miss starts the
     * table-walk state machine, which reads one entry per level from SDRAM (sharing the SDRAM with
     * the data). A page of main memory the NIC has not touched since it was mapped has no entry yet:
     * the walk traps, the host's driver takes the interrupt, looks the page up and writes its entry
     * into the NIC's table with PIO writes across PCI, then restarts the access, which walks again.
     */
    private long translate(final NicContext ctx, final long va, final int length, final long readyNs)
    {
        long t = readyNs;
        final long first = va >>> SparseMemory.PAGE_SHIFT;
        final long last = (va + Math.max(1, length) - 1) >>> SparseMemory.PAGE_SHIFT;
        for (long page = first; page <= last; page++)
        {
            if (!tlb.access(ctx.number, page))
            {
                t = walk(t);
                if (ctx.mmu.loadForNic(page << SparseMemory.PAGE_SHIFT))
                {
                    pteLoads++;
                    t = faultHandler.use(t, profile.interruptNs() + profile.driverNs()
                        + PTE_LOAD_PIO_WRITES * profile.pioWriteNs());
                    t = walk(t);
                }
            }
        }
        return t;
    }

    private long walk(final long readyNs)
    {
        long t = tableWalker.use(readyNs, profile.tableWalkNs());
        for (int level = 0; level < PAGE_TABLE_LEVELS; level++)
        {
            t = sdramBus.use(t, profile.sdramNs(8));
        }
        return t;
    }

    private void staged(final NicPacket p, final long now)
    {
        preparing--;
        final DmaJob job = p.job;
        if (job.failed)
        {
            kick(now);
            return;
        }
        try
        {
            if (p.length > 0)
            {
                p.data = new byte[p.length];
                job.ctx.read(job.source + p.offset, p.data, 0, p.length, job.reply ? Mmu.REMOTE_READ : Mmu.READ,
                    "DMA source");
            }
        }
        catch (final MemoryFault e)
        {
            failJob(job, e.getMessage());
            kick(now);
            return;
        }
        staged.addLast(p);
        tryInject(now);
        kick(now);
    }

    private void tryInject(final long now)
    {
        while (!staged.isEmpty() && inflight < fabric.config().virtualChannels())
        {
            final NicPacket p = staged.pollFirst();
            if (p.kind == NicPacket.QUEUED)
            {
                // queued DMAs of one stream are numbered in the order they leave the staging
                // buffers, so that the destination takes them in that order whatever a CRC retry
                // does to their arrival
                p.stream = streamKey(p.job.ctx.nodeOf(p.job.vp), p.job.ctx.vpContext[p.job.vp], p.job.destEvent);
                p.seq = (int)p.job.ctx.queueTxSeq.get(p.stream, 0);
                p.job.ctx.queueTxSeq.put(p.stream, p.seq + 1L);
            }
            final java.util.PriorityQueue<NicPacket> waiting = p.kind == NicPacket.QUEUED && !refusedQueues.isEmpty()
                ? refusedQueues.get(p.stream) : null;
            if (waiting != null && !waiting.isEmpty())
            {
                // a packet for this queue is being retried: keep the queue's order
                waiting.add(p);
                continue;
            }
            inflight++;
            send(p);
        }
        kick(now);
    }


    private void send(final NicPacket p)
    {
        final DmaJob job = p.job;
        final NicContext ctx = job.ctx;
        final Packet packet;
        // a read request carries the descriptor, an atomic its operands, a write its data in whole
        // 64-byte write-block transactions
        final int payload = p.kind == NicPacket.READ_REQUEST ? E3.DMA_SIZE
            : p.kind == NicPacket.ATOMIC || p.kind == NicPacket.TEST ? 8 : blocks(p.length);
        if (job.opcode == E3.DMA_NORMAL_BROADCAST)
        {
            packet = Packet.broadcast(node, ctx.nodeOf(job.firstVp), ctx.nodeOf(job.lastVp), payload);
        }
        else if (p.kind == NicPacket.ATOMIC)
        {
            packet = Packet.nonWriteBlock(node, ctx.nodeOf(job.vp), payload);
        }
        else if (p.kind == NicPacket.TEST)
        {
            packet = Packet.broadcast(node, ctx.nodeOf(job.firstVp), ctx.nodeOf(job.lastVp), payload);
        }
        else
        {
            packet = Packet.unicast(node, ctx.nodeOf(job.vp), payload);
        }
        p.key = ctx.key;
        p.destContext = job.opcode == E3.DMA_NORMAL_BROADCAST || p.kind == NicPacket.TEST ? -1 : ctx.vpContext[job.vp];
        p.sending = true;
        packetsSent++;
        bytesSent += p.length;
        port.inject(packet.attach(p));
    }

    /** Data moves in 64-byte write-block transactions: a 1-byte DMA moves one whole block. */
    private static int blocks(final int length)
    {
        return (length + E3.BLK_SIZE - 1) / E3.BLK_SIZE * E3.BLK_SIZE;
    }

    private void failJob(final DmaJob job, final String message)
    {
        if (!job.failed)
        {
            job.failed = true;
            dmaQueue.remove(job);
            job.ctx.fault(message);
        }
    }

    // ------------------------------------------------------------------ acknowledgements

    @Override
    public void onAck(final Packet packet, final long timeNs)
    {
        final NicPacket p = (NicPacket)packet.attachment();
        final DmaJob job = p.job;
        inflight--;
        p.sending = false;
        final int code = (int)packet.ackValue();
        if (code == ACK_NOT_READY && p.kind == NicPacket.TEST && !job.failed)
        {
            // the hardware barrier: test again until every recipient is ready
            p.tries++;
            origin.schedule(timeNs + profile.queueRetryNs() / 8, t -> resend(p, t));
        }
        else if (code == ACK_RETRY && !job.failed)
        {
            final boolean outOfOrder = p.outOfOrder;
            p.outOfOrder = false;
            if (outOfOrder && brokenStreams.contains(p.stream))
            {
                failJob(job, "queued DMA to VP " + job.vp + " abandoned: an earlier queued DMA to the same queue gave up");
                tryInject(timeNs);
                return;
            }
            if (outOfOrder)
            {
                // waiting for an earlier packet of the stream is no failure of the remote: no retry counted
                p.tries = Math.max(p.tries, 1);
            }
            // a queued DMA whose retries ran out traps to the driver, which restarts it after the
            // interrupt and its own work (no message of a full queue is ever lost); other DMAs fail
            final boolean restart = p.kind == NicPacket.QUEUED && !outOfOrder && p.tries >= job.failCount;
            if (restart)
            {
                driverRestarts++;
                p.tries = 1;
            }
            if (outOfOrder || restart || p.tries++ < job.failCount)
            {
                // the remote queue was full or its inputter blocked: send the packet again later,
                // and for a queue keep every later packet behind it
                if (p.kind == NicPacket.QUEUED)
                {
                    final java.util.PriorityQueue<NicPacket> waiting = refusedQueues.computeIfAbsent(p.stream,
                        k -> new java.util.PriorityQueue<>(BY_SEQ));
                    if (!waiting.contains(p))
                    {
                        waiting.add(p);
                    }
                    if (waiting.peek() == p)
                    {
                        // the oldest refused packet: retry it; the others follow once it lands
                        final long backOff = restart ? profile.interruptNs() + profile.driverNs() : profile.queueRetryNs();
                        origin.schedule(timeNs + backOff, t -> resendIfOldest(p, t));
                    }
                }
                else
                {
                    origin.schedule(timeNs + profile.queueRetryNs(), t -> resend(p, t));
                }
            }
            else
            {
                failJob(job, "DMA to VP " + job.vp + " gave up after " + job.failCount
                    + " retries: the remote queue stayed full or its inputter blocked");
                if (p.kind == NicPacket.QUEUED)
                {
                    // the stream is broken at this packet: the later ones of it fail too
                    breakStream(p.stream);
                }
            }
        }
        else if (code == ACK_FAULT)
        {
            failJob(job, p.faultMessage);
            if (p.kind == NicPacket.QUEUED)
            {
                breakStream(p.stream);
            }
        }
        else if (!job.failed)
        {
            if (p.kind == NicPacket.QUEUED)
            {
                releaseNextRefused(p, timeNs);
            }
            if (p.kind == NicPacket.ATOMIC && p.resultVa != 0)
            {
                try
                {
                    job.ctx.putInt(p.resultVa, (int)p.atomicResult, Mmu.WRITE);
                    job.ctx.notifyWrite(p.resultVa);
                }
                catch (final MemoryFault e)
                {
                    failJob(job, e.getMessage());
                }
            }
            if (++job.acked == job.packets && !job.read && job.srcEvent != 0)
            {
                // a write's source event fires when the last packet is acknowledged; a read's fires at the remote end
                setEvent(job.ctx, job.srcEvent, timeNs);
            }
        }
        tryInject(timeNs);
        kick(timeNs);
    }

    private static final java.util.Comparator<NicPacket> BY_SEQ = (a, b) -> Integer.compare(a.seq, b.seq);

    private void releaseNextRefused(final NicPacket landed, final long now)
    {
        if (refusedQueues.isEmpty())
        {
            return;
        }
        final java.util.PriorityQueue<NicPacket> waiting = refusedQueues.get(landed.stream);
        if (waiting == null || waiting.isEmpty() || waiting.peek() != landed)
        {
            return;
        }
        waiting.poll();
        if (waiting.isEmpty())
        {
            refusedQueues.remove(landed.stream);
        }
        else
        {
            final NicPacket next = waiting.peek();
            next.tries = Math.max(next.tries, 1);
            if (!next.sending)
            {
                resend(next, now);
            }
        }
    }

    /** A refused queued packet's back-off has passed: send it again if it is still its stream's oldest. */
    private void resendIfOldest(final NicPacket p, final long now)
    {
        final java.util.PriorityQueue<NicPacket> waiting = refusedQueues.get(p.stream);
        if (!p.sending && !p.job.failed && waiting != null && waiting.peek() == p)
        {
            resend(p, now);
        }
    }

    /** A queued DMA of {@code stream} gave up: every later packet of the stream fails with it. */
    private void breakStream(final long stream)
    {
        final java.util.PriorityQueue<NicPacket> waiting = refusedQueues.remove(stream);
        if (waiting != null)
        {
            for (final NicPacket w : waiting)
            {
                failJob(w.job, "queued DMA to VP " + w.job.vp + " abandoned: an earlier queued DMA to the same queue gave up");
            }
        }
        brokenStreams.add(stream);
    }

    private void resend(final NicPacket p, final long now)
    {
        if (inflight < fabric.config().virtualChannels())
        {
            inflight++;
            send(p);
        }
        else
        {
            origin.schedule(now + profile.queueRetryNs(), t -> resend(p, t));
        }
    }

    // ------------------------------------------------------------------ inputter

    @Override
    public long onArrival(final Packet packet, final long timeNs)
    {
        packetsReceived++;
        final NicPacket p = (NicPacket)packet.attachment();
        final long accepted = microcode.use(timeNs, profile.inputPacketNs());
        // one packet of input buffering: this packet is acknowledged once the previous one is written
        final long previousWriteDone = lastWriteDoneNs;
        int code = ACK_OK;
        if (packet.isBroadcast())
        {
            final DmaJob job = p.job;
            for (final NicContext c : contexts.values().stream().sorted((a, b) -> Integer.compare(a.number, b.number))
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
            final NicContext c = contexts.get(p.destContext);
            if (c == null || !c.keyMatches(p.key))
            {
                p.faultMessage = "packet for context 0x" + Integer.toHexString(p.destContext) + " on node " + node
                    + (c == null ? " refused: no such context attached" : " refused: capability key mismatch");
                code = ACK_FAULT;
            }
            else if (c.inputBlocked)
            {
                code = ACK_RETRY;
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
                    final long done = write(c, va, blocks(p.length), acceptedNs);
                    final byte[] data = p.data;
                    origin.schedule(done, t ->
                    {
                        // the destination event counts packets as they are accepted and written: it
                        // fires with the DMA's last packet to land, whatever its index (a packet
                        // retried after a CRC error may land after the DMA's final one)
                        final boolean complete = landedAll(job);
                        land(c, va, data, complete ? job.destEvent : 0, t);
                        if (observer != null)
                        {
                            observer.landed(job.id, data == null ? 0 : data.length, complete, t);
                        }
                    });
                    return ACK_OK;
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
                    reply.vp = job.ctx.myVp;
                    reply.id = job.id;
                    reply.opcode = E3.DMA_NORMAL;
                    reply.failCount = job.failCount;
                    reply.packets = (int)Math.max(1, (job.size + fabric.config().maxPayloadBytes() - 1)
                        / fabric.config().maxPayloadBytes());
                    final long t = microcode.use(acceptedNs, profile.cmdProcNs());
                    origin.schedule(t, x -> enqueue(reply, x));
                    return ACK_OK;
                }
                case NicPacket.TEST:
                {
                    final int v = c.getInt(p.remoteVa, Mmu.REMOTE_READ);
                    return v - (int)p.compare >= 0 ? ACK_OK : ACK_NOT_READY;
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
                    return ACK_OK;
                }
                default:
                    throw new IllegalStateException("packet kind " + p.kind);
            }
        }
        catch (final MemoryFault e)
        {
            p.faultMessage = e.getMessage();
            return ACK_FAULT;
        }
    }

    /** Writes packet data: over the internal bus and into SDRAM or across PCI at once. */
    private long write(final NicContext c, final long va, final int length, final long readyNs)
    {
        final long t = translate(c, va, length, readyNs);
        final long bus = length > 0 ? internalBus.use(t, profile.internalBusNs(length)) : t;
        final long memory = c.mmu.kindOf(va) == Mmu.Kind.SDRAM ? sdramBus.use(t, profile.sdramNs(length))
            : pci.burst(t, true, length);
        final long done = Math.max(bus, memory);
        lastWriteDoneNs = Math.max(lastWriteDoneNs, done);
        return done;
    }

    /**
     * Counts one packet of {@code job} written at this node.
     *
     * @return whether every packet of the DMA has now been written here.
     */
    private boolean landedAll(final DmaJob job)
    {
        if (job.packets == 1)
        {
            return true;
        }
        if (job.opcode != E3.DMA_NORMAL_BROADCAST)
        {
            return ++job.landed == job.packets;
        }
        // a broadcast lands at every recipient: each counts its own packets
        final int[] n = broadcastLanded.computeIfAbsent(job, k -> new int[1]);
        if (++n[0] == job.packets)
        {
            broadcastLanded.remove(job);
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
            setEvent(c, destEvent, now);
        }
    }

    private static long slotSizeOf(final NicContext c, final long q)
    {
        return c.getInt(q + E3.Q_SIZE, Mmu.REMOTE_READ);
    }

    private static long streamKey(final int node, final int context, final long queueVa)
    {
        return ((long)node << 48) ^ ((long)(context & 0xffff) << 32) ^ (queueVa & 0xffffffffL);
    }

    private int deliverQueued(final NicPacket p, final NicContext c, final long acceptedNs)
    {
        final DmaJob job = p.job;
        final long q = job.destEvent;
        final long stream = streamKey(job.ctx.nic().node(), job.ctx.number, q);
        final int expected = (int)c.queueRxSeq.get(stream, 0);
        if (p.seq < expected)
        {
            // already taken (its ack was for an earlier copy): discard, acknowledge
            duplicatesDiscarded++;
            return ACK_OK;
        }
        if (p.seq > expected)
        {
            // an earlier packet of this stream is being retried: refuse, so the queue keeps the order
            outOfOrderRefusals++;
            p.outOfOrder = true;
            return ACK_RETRY;
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
            return ACK_RETRY;
        }
        final int slotSize = c.getInt(q + E3.Q_SIZE, Mmu.REMOTE_READ);
        if (p.length > slotSize)
        {
            p.faultMessage = "queued DMA of " + p.length + " bytes does not fit the queue's " + slotSize + "-byte slots";
            return ACK_FAULT;
        }
        c.check(bptr, slotSize, Mmu.REMOTE_WRITE, "queue slot");
        reservedBptr.put(key, next);
        // the header read and update in SDRAM, then the slot written into host memory
        final long header = sdramBus.use(acceptedNs, profile.sdramNs(24));
        final long done = write(c, bptr, blocks(Math.max(p.length, 1)), header);
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
        return ACK_OK;
    }

    /**
     * The thread processor copies {@code data} into the context's memory at {@code va} (host
     * memory across PCI, or SDRAM) and then writes {@code doneValue} into the word at
     * {@code doneVa} (0 for none), waking whoever waits on either. Used by the code that runs on
     * the NIC (Tports delivering a matched message).
     *
     * @param c         the context.
     * @param va        destination Elan address (ignored when {@code data} is empty).
     * @param data      bytes to write.
     * @param doneVa    completion word, or 0.
     * @param doneValue value written there.
     * @param readyNs   when the copy can start.
     * @return when the completion word is written.
     */
    public long threadCopy(final NicContext c, final long va, final byte[] data, final long doneVa, final int doneValue,
        final long readyNs)
    {
        if (data.length > 0)
        {
            c.check(va, data.length, Mmu.WRITE, "thread copy destination");
        }
        long t = data.length > 0 ? write(c, va, blocks(data.length), readyNs) : readyNs;
        if (doneVa != 0)
        {
            c.check(doneVa, 4, Mmu.WRITE, "completion word");
            t = write(c, doneVa, 4, t);
        }
        origin.schedule(t, x ->
        {
            if (data.length > 0)
            {
                c.write(va, data, 0, data.length, Mmu.WRITE, "thread copy destination");
                c.notifyWrite(va, data.length);
            }
            if (doneVa != 0)
            {
                c.putInt(doneVa, doneValue, Mmu.WRITE);
                c.notifyWrite(doneVa);
            }
        });
        return t;
    }

    // ------------------------------------------------------------------ events

    /**
     * The host sets an event ({@code elan3_setevent}): one decrement, through the command
     * processor.
     *
     * @param ctx  the context.
     * @param evVa the event's Elan address.
     */
    public void hostSetEvent(final NicContext ctx, final long evVa)
    {
        ctx.check(evVa, E3.EVENT_SIZE, Mmu.READ | Mmu.WRITE, "event");
        final long t = microcode.use(kernel.nowNs(), profile.cmdProcNs());
        origin.schedule(t, x -> setEvent(ctx, evVa, x));
    }

    /**
     * One set of an event at {@code timeNs}: the microcode decrements its count in SDRAM; when it
     * reaches zero the event fires its action (block copy into host memory, word copy, chained
     * DMA) and wakes whoever waits on it.
     */
    void setEvent(final NicContext ctx, final long evVa, final long timeNs)
    {
        final long t = microcode.use(timeNs, profile.eventNs());
        final long done = sdramBus.use(t, profile.sdramNs(E3.EVENT_SIZE));
        origin.schedule(done, x -> decrement(ctx, evVa, x));
    }

    /**
     * Re-arms an event for one more set ({@code elan3_waitevent}): one is added to its count, in
     * the order of the sets the NIC applies. Sets that arrived while the consumer was between two
     * waits have already taken the count to zero or below; the event then fires at once, once for
     * each of them as the consumer re-arms, so no arrival is lost.
     *
     * @param ctx  the context.
     * @param evVa the event's Elan address.
     */
    public void rearmEvent(final NicContext ctx, final long evVa)
    {
        ctx.check(evVa, E3.EVENT_SIZE, Mmu.READ | Mmu.WRITE, "event");
        final int count = ctx.getInt(evVa + E3.EV_COUNT, Mmu.READ) + 1;
        ctx.putInt(evVa + E3.EV_COUNT, count, Mmu.WRITE);
        ctx.notifyWrite(evVa);
        if (count <= 0)
        {
            final long t = microcode.use(kernel.nowNs(), profile.eventNs());
            origin.schedule(t, x -> fire(ctx, evVa, x));
        }
    }

    private void decrement(final NicContext ctx, final long evVa, final long now)
    {
        try
        {
            final int count = ctx.getInt(evVa + E3.EV_COUNT, Mmu.READ) - 1;
            ctx.putInt(evVa + E3.EV_COUNT, count, Mmu.WRITE);
            ctx.notifyWrite(evVa);
            if (count == 0)
            {
                fire(ctx, evVa, now);
            }
        }
        catch (final QsnetException e)
        {
            ctx.fault("event at 0x" + Long.toHexString(evVa) + " fired and failed: " + e.getMessage());
        }
    }

    /** The event's action: a block or word copy into memory, or a chained DMA. */
    private void fire(final NicContext ctx, final long evVa, final long now)
    {
        try
        {
            final int type = ctx.getInt(evVa + E3.EV_TYPE, Mmu.READ);
            switch (type & 7)
            {
                case E3.EV_TYPE_BCOPY:
                {
                    final long src = ctx.getInt(evVa + E3.EV_SOURCE, Mmu.READ) & 0xffffffffL;
                    final long dst = ctx.getInt(evVa + E3.EV_DEST, Mmu.READ) & 0xffffffffL;
                    final byte[] blk = new byte[E3.BLK_SIZE];
                    ctx.read(src, blk, 0, blk.length, Mmu.READ, "block-copy event source");
                    final long t = copyNs(ctx, dst, E3.BLK_SIZE, now);
                    origin.schedule(t, x -> landBlock(ctx, dst, blk));
                    break;
                }
                case E3.EV_TYPE_BCOPY_WORD:
                {
                    final int value = ctx.getInt(evVa + E3.EV_SOURCE, Mmu.READ);
                    final long dst = ctx.getInt(evVa + E3.EV_DEST, Mmu.READ) & 0xffffffffL;
                    final long t = copyNs(ctx, dst, 4, now);
                    origin.schedule(t, x ->
                    {
                        ctx.putInt(dst, value, Mmu.WRITE);
                        ctx.notifyWrite(dst);
                    });
                    break;
                }
                case E3.EV_TYPE_DMA:
                {
                    final long desc = type & ~31L & 0xffffffffL;
                    final DmaJob job = decode(ctx, desc);
                    job.id = ((long)node << 40) | nextDmaId++;
                    final long t = microcode.use(now, profile.cmdProcNs()) + profile.sdramNs(E3.DMA_SIZE);
                    origin.schedule(t, x -> enqueue(job, x));
                    break;
                }
                default:
                    break;
            }
        }
        catch (final QsnetException e)
        {
            ctx.fault("event at 0x" + Long.toHexString(evVa) + " fired and failed: " + e.getMessage());
        }
    }

    private long copyNs(final NicContext ctx, final long dst, final int bytes, final long now)
    {
        final long t = sdramBus.use(now, profile.sdramNs(bytes));
        return ctx.mmu.kindOf(dst) == Mmu.Kind.SDRAM ? sdramBus.use(t, profile.sdramNs(bytes)) : pci.burst(t, true, bytes);
    }

    private void landBlock(final NicContext ctx, final long dst, final byte[] blk)
    {
        ctx.write(dst, blk, 0, blk.length, Mmu.WRITE, "block-copy event destination");
        ctx.notifyWrite(dst);
    }

    // ------------------------------------------------------------------ remote atomics

    /**
     * A remote atomic operation on a 32-bit word, as a non-write-block transaction whose result
     * returns in the acknowledgement.
     *
     * @param ctx      the issuing context.
     * @param op       {@link E3#ATOMIC_FETCH_ADD} or {@link E3#ATOMIC_TEST_AND_WRITE}.
     * @param vp       the remote VP.
     * @param remoteVa the word's Elan address at the remote.
     * @param operand  value added, or written if the word equals {@code compare}.
     * @param compare  the expected value (test-and-write).
     * @param resultVa local Elan address that receives the old value, 0 for none.
     * @param srcEvent local event set on completion, 0 for none.
     */
    public void atomic(final NicContext ctx, final int op, final int vp, final long remoteVa, final long operand,
        final long compare, final long resultVa, final long srcEvent)
    {
        QsnetException.require(op == E3.ATOMIC_FETCH_ADD || op == E3.ATOMIC_TEST_AND_WRITE, "atomic op", op,
            "must be ATOMIC_FETCH_ADD or ATOMIC_TEST_AND_WRITE");
        if (ctx.nodeOf(vp) < 0)
        {
            throw new QsnetException("VP " + vp + " is outside the capability (VPs 0.." + (ctx.vpCount() - 1) + ") or a hole");
        }
        if (resultVa != 0)
        {
            ctx.check(resultVa, 4, Mmu.WRITE, "atomic result");
        }
        final NicPacket p = singlePacket(ctx, vp, srcEvent, NicPacket.ATOMIC);
        p.atomicOp = op;
        p.remoteVa = remoteVa;
        p.operand = operand;
        p.compare = compare;
        p.resultVa = resultVa;
        issue(p);
    }

    /** A one-packet operation (atomic, barrier test) built by the command processor itself. */
    private static NicPacket singlePacket(final NicContext ctx, final int vp, final long srcEvent, final int kind)
    {
        final DmaJob job = new DmaJob();
        job.ctx = ctx;
        job.vp = vp;
        job.packets = 1;
        job.srcEvent = srcEvent;
        job.opcode = E3.DMA_NORMAL;
        final NicPacket p = new NicPacket();
        p.kind = kind;
        p.job = job;
        p.last = true;
        return p;
    }

    private void issue(final NicPacket p)
    {
        final long t = microcode.use(kernel.nowNs(), profile.cmdProcNs() + profile.dmaPacketNs());
        origin.schedule(t, x -> resend(p, x));
    }

    /**
     * The Elan's hardware barrier: a broadcast test transaction to the VPs of {@code bcastVp} that
     * reads the word at {@code wordVa} in each; the acknowledgements combine on the way back, and
     * the test is repeated until every word has reached {@code expected}; then {@code srcEvent} is
     * set.
     *
     * @param ctx      the issuing context.
     * @param bcastVp  a broadcast VP (see {@link NicContext#addBroadcastVp}).
     * @param wordVa   the word's Elan address (the same in every member).
     * @param expected the value every word must have reached.
     * @param srcEvent local event set when all are ready.
     */
    public void broadcastTest(final NicContext ctx, final int bcastVp, final long wordVa, final int expected,
        final long srcEvent)
    {
        final int[] range = ctx.broadcastRange(bcastVp);
        if (range == null)
        {
            throw new QsnetException("VP " + bcastVp + " of a broadcast test is not a broadcast VP");
        }
        final NicPacket p = singlePacket(ctx, bcastVp, srcEvent, NicPacket.TEST);
        p.job.firstVp = range[0];
        p.job.lastVp = range[1];
        p.remoteVa = wordVa;
        p.compare = expected;
        issue(p);
    }

    // ------------------------------------------------------------------ internal records

    /** A DMA in progress. */
    static final class DmaJob
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
    }

    /** What a packet carries for the NICs at both ends. */
    static final class NicPacket
    {
        static final int WRITE = 0;
        static final int QUEUED = 1;
        static final int READ_REQUEST = 2;
        static final int ATOMIC = 3;
        static final int TEST = 4;

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
    }

    /**
     * @param number a hardware context number.
     * @return the context attached under it, or null.
     */
    public NicContext context(final int number)
    {
        return contexts.get(number);
    }

    /**
     * @return contexts attached now, by number.
     */
    public List<NicContext> contexts()
    {
        return new ArrayList<>(contexts.values());
    }
}
