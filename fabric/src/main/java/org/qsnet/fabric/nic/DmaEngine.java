package org.qsnet.fabric.nic;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;

import org.qsnet.fabric.engine.Origin;
import org.qsnet.fabric.memory.MemoryFault;
import org.qsnet.fabric.memory.Mmu;
import org.qsnet.fabric.network.FabricConfig;
import org.qsnet.fabric.network.FabricPort;
import org.qsnet.fabric.network.Packet;

/**
 * The Elan3's DMA engine: turns queued descriptors into packets of at most 5 x 64 B, one packet at
 * a time from each queued DMA in turn (time-slicing: a small DMA is not stuck behind a large one),
 * staging the next packet while up to one packet per virtual channel is in flight; numbers the
 * packets of each queued-DMA stream as they leave the staging buffers; and handles their
 * acknowledgements: retries after a full queue or a blocked inputter (keeping a queue's order, the
 * driver restarting a queued DMA whose retries ran out), failures, the source event, atomic results.
 *
 * <p>At about 400 lines this is the largest class on the packet path: the acknowledgement handling
 * belongs with the staging and retry state it updates.
 */
final class DmaEngine
{
    private static final int STAGING_BUFFERS = 2;
    /**
     * How long a run's retries must see nothing move before they give up when several waits
     * retry at once ({@link #stalled}): 1 ms of simulated time, hundreds of retry intervals, far
     * more than any packet the model delivers takes.
     */
    static final long STALL_NS = 1_000_000L;

    private final Elan3Nic nic;
    private final int node;
    private final Elan3Timing profile;
    private final FabricConfig config;
    private final Origin origin;
    private final FabricPort port;
    private final Translator translator;
    private final Resource microcode;
    private final Resource internalBus;
    private final Resource sdramBus;
    private final Resource.Pci pci;

    private final ArrayDeque<DmaJob> dmaQueue = new ArrayDeque<>();
    /** Packets built and waiting for a virtual channel: the DMA engine's staging buffers. */
    private final ArrayDeque<NicPacket> staged = new ArrayDeque<>(2);
    /** Packets being built: the next packet's microcode work overlaps the previous one's read. */
    private int preparing;
    private int inflight;
    /** Queued DMAs refused because their queue was full, per stream (source context and destination
     * queue), oldest first: they are retried in order, and later packets of the stream wait behind them
     * (FIFO queues). The source context is part of the key: the processes of a node share this engine,
     * and each numbers its own packets to a queue, so two of them sending to one queue are two streams. */
    private final Map<Stream, java.util.PriorityQueue<NicPacket>> refusedQueues = new HashMap<>();
    /** Queued-DMA streams in which a DMA gave up (rare): their later packets fail too. */
    private final java.util.Set<Stream> brokenStreams = new java.util.HashSet<>();

    /** A queued-DMA stream as this engine sees it: the sending context and the destination queue's key. */
    private record Stream(int sourceContext, long queue)
    {
        static Stream of(final NicPacket p)
        {
            return new Stream(p.job.ctx.number, p.stream);
        }
    }
    long dmasStarted;
    long driverRestarts;
    long packetsSent;
    long bytesSent;

    DmaEngine(final Elan3Nic nic, final Elan3Timing profile, final FabricConfig config, final Origin origin,
        final FabricPort port, final NicResources shared, final Translator translator)
    {
        this.nic = nic;
        this.node = nic.node();
        this.profile = profile;
        this.config = config;
        this.origin = origin;
        this.port = port;
        this.translator = translator;
        this.microcode = shared.microcode;
        this.internalBus = shared.internalBus;
        this.sdramBus = shared.sdramBus;
        this.pci = shared.pci;
    }

    void enqueue(final DmaJob job, final long now)
    {
        dmasStarted++;
        job.first = true;
        dmaQueue.addLast(job);
        kick(now);
    }

    private void kick(final long now)
    {
        if (preparing + staged.size() >= STAGING_BUFFERS || dmaQueue.isEmpty())
        {
            return;
        }
        final DmaJob job = dmaQueue.pollFirst();
        final int max = config.maxPayloadBytes();
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
            t = sourceRead(job.ctx, job.source + p.offset, NicPacket.blocks(p.length), t);
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
        final long t = translator.translate(ctx, va, length, readyNs);
        final long memory = ctx.mmu.kindOf(va) == Mmu.Kind.SDRAM ? sdramBus.use(t, profile.sdramNs(length))
            : pci.burst(t, false, length);
        return Math.max(memory, internalBus.use(t, profile.internalBusNs(length)));
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
        while (!staged.isEmpty() && inflight < config.virtualChannels())
        {
            final NicPacket p = staged.pollFirst();
            if (p.kind == NicPacket.QUEUED)
            {
                // queued DMAs of one stream are numbered in the order they leave the staging
                // buffers, so that the destination takes them in that order whatever a CRC retry
                // does to their arrival
                p.stream = NicPacket.streamKey(p.job.ctx.nodeOf(p.job.vp), p.job.ctx.vpContext[p.job.vp], p.job.destEvent);
                p.seq = (int)p.job.ctx.queueTxSeq.get(p.stream, 0);
                p.job.ctx.queueTxSeq.put(p.stream, p.seq + 1L);
            }
            final java.util.PriorityQueue<NicPacket> waiting = p.kind == NicPacket.QUEUED && !refusedQueues.isEmpty()
                ? refusedQueues.get(Stream.of(p)) : null;
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
            : p.kind == NicPacket.ATOMIC || p.kind == NicPacket.TEST ? 8 : NicPacket.blocks(p.length);
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
    private void failJob(final DmaJob job, final String message)
    {
        if (!job.failed)
        {
            job.failed = true;
            dmaQueue.remove(job);
            job.ctx.fault(message);
        }
    }

    /**
     * Whether a packet refused as not ready (a barrier's test, a queued DMA to a full queue) can
     * never succeed, judged at its retry now from its two retries before: the whole run was
     * quiescent at both, and no process ran in between. Nothing but a process (or an event, none
     * was pending) changes the remote memory it waits for, so the state it found at the last one
     * is the state it finds for ever. A first quiescent retry, and a second, are still made: a
     * process may have written the word (arrived at the barrier, drained the queue) before it
     * parked. Deciding from earlier retries rather than this one makes the decision the same in
     * a partitioned run, whose other partitions answer a retry's probe at the end of its window.
     */
    private static boolean futile(final NicPacket p)
    {
        final org.qsnet.fabric.engine.QuiescenceProbe last = p.lastRetry;
        final org.qsnet.fabric.engine.QuiescenceProbe before = p.retryBefore;
        p.retryBefore = last;
        p.lastRetry = p.nextRetry;
        p.nextRetry = null;
        if (last == null || before == null)
        {
            return false;
        }
        if (!last.complete() || !before.complete())
        {
            // a retry's answers arrive at the end of its window, a lookahead at most after it
            throw new org.qsnet.fabric.QsnetException("retry probes incomplete at the next retry: " + before + ", " + last);
        }
        if (before.quiescent() && last.quiescent() && before.resumes() == last.resumes())
        {
            return true;
        }
        return stalled(p, last);
    }

    /**
     * The rule for several such waits at once (two jobs each missing a member of its barrier):
     * each one's retries keep the others' pending, so the run is never quiescent at a retry. It
     * is stalled instead: for {@link #STALL_NS} of simulated time, from one retry to a later one,
     * no process ran, no packet was accepted anywhere (every acknowledgement was a refusal), and
     * at the later one no process is due to resume (none computing, none woken). Only a process
     * or an accepted packet changes what a refused packet reads, and a packet injected by neither
     * would have been accepted or refused long before; so every wait still retrying can only be
     * refused for ever. Decided from probes whose answers are in, as above.
     */
    private static boolean stalled(final NicPacket p, final org.qsnet.fabric.engine.QuiescenceProbe last)
    {
        final org.qsnet.fabric.engine.QuiescenceProbe since = p.stallSince;
        if (since == null || since.resumes() != last.resumes() || since.progress() != last.progress())
        {
            p.stallSince = last;
            return false;
        }
        return last.timeNs() - since.timeNs() >= STALL_NS && last.pendingResumes() == 0;
    }

    /** An acknowledgement came back for a packet this engine sent: retry, fail or complete it. */
    void onAck(final Packet packet, final long timeNs)
    {
        final NicPacket p = (NicPacket)packet.attachment();
        final DmaJob job = p.job;
        inflight--;
        p.sending = false;
        final int code = (int)packet.ackValue();
        if (code != NicPacket.ACK_RETRY)
        {
            // the destination took the packet (or faulted it): something a waiting process may see
            origin.noteProgress();
        }
        if (code == NicPacket.ACK_NOT_READY && p.kind == NicPacket.TEST && !job.failed)
        {
            // the hardware barrier: test again until every recipient is ready
            p.tries++;
            p.nextRetry = origin.scheduleProbed(timeNs + profile.queueRetryNs() / 8, t ->
            {
                if (futile(p))
                {
                    // testing for ever would only hide the deadlock; the kernel reports it (who waits
                    // for what) as this event leaves the queue empty
                    tryInject(t);
                    return;
                }
                resend(p, t);
            });
        }
        else if (code == NicPacket.ACK_RETRY && !job.failed)
        {
            final boolean outOfOrder = p.outOfOrder;
            p.outOfOrder = false;
            if (outOfOrder && brokenStreams.contains(Stream.of(p)))
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
                    final java.util.PriorityQueue<NicPacket> waiting = refusedQueues.computeIfAbsent(Stream.of(p),
                        k -> new java.util.PriorityQueue<>(BY_SEQ));
                    if (!waiting.contains(p))
                    {
                        waiting.add(p);
                    }
                    if (waiting.peek() == p)
                    {
                        // the oldest refused packet: retry it; the others follow once it lands
                        final long backOff = restart ? profile.interruptNs() + profile.driverNs() : profile.queueRetryNs();
                        p.nextRetry = origin.scheduleProbed(timeNs + backOff, t ->
                        {
                            if (futile(p))
                            {
                                // as for the barrier's test: no process will ever run to drain the
                                // queue, so restarting for ever would only hide the deadlock
                                tryInject(t);
                                return;
                            }
                            resendIfOldest(p, t);
                        });
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
                    breakStream(Stream.of(p));
                }
            }
        }
        else if (code == NicPacket.ACK_FAULT)
        {
            failJob(job, p.faultMessage);
            if (p.kind == NicPacket.QUEUED)
            {
                breakStream(Stream.of(p));
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
                nic.events.setEvent(job.ctx, job.srcEvent, timeNs);
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
        final Stream stream = Stream.of(landed);
        final java.util.PriorityQueue<NicPacket> waiting = refusedQueues.get(stream);
        if (waiting == null || waiting.isEmpty() || waiting.peek() != landed)
        {
            return;
        }
        waiting.poll();
        if (waiting.isEmpty())
        {
            refusedQueues.remove(stream);
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
        final java.util.PriorityQueue<NicPacket> waiting = refusedQueues.get(Stream.of(p));
        if (!p.sending && !p.job.failed && waiting != null && waiting.peek() == p)
        {
            resend(p, now);
        }
    }

    /** A queued DMA of {@code stream} gave up: every later packet of the stream fails with it. */
    private void breakStream(final Stream stream)
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

    void resend(final NicPacket p, final long now)
    {
        if (inflight < config.virtualChannels())
        {
            inflight++;
            send(p);
        }
        else
        {
            origin.schedule(now + profile.queueRetryNs(), t -> resend(p, t));
        }
    }

}
