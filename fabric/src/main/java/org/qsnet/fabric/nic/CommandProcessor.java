package org.qsnet.fabric.nic;

import org.qsnet.fabric.QsnetException;
import org.qsnet.fabric.engine.Kernel;
import org.qsnet.fabric.engine.Origin;
import org.qsnet.fabric.memory.Mmu;
import org.qsnet.fabric.network.FabricConfig;

/**
 * The Elan3's command processor: takes a descriptor address from the host (user level) or from a
 * firing event, reads and checks the descriptor, numbers the DMA and queues it for the DMA engine;
 * takes the host's event sets; builds the one-packet operations (remote atomics, the hardware
 * barrier's broadcast test) itself.
 */
final class CommandProcessor
{
    private final Elan3Nic nic;
    private final int node;
    private final Elan3Timing profile;
    private final FabricConfig config;
    private final Kernel kernel;
    private final Origin origin;
    private final Resource microcode;
    private long nextDmaId;

    CommandProcessor(final Elan3Nic nic, final Elan3Timing profile, final FabricConfig config, final Kernel kernel,
        final Origin origin, final NicResources shared)
    {
        this.nic = nic;
        this.node = nic.node();
        this.profile = profile;
        this.config = config;
        this.kernel = kernel;
        this.origin = origin;
        this.microcode = shared.microcode;
    }

    /** See {@link Elan3Nic#command}. */
    long command(final NicContext ctx, final long descVa)
    {
        final DmaJob job = decode(ctx, descVa);
        return start(job, kernel.nowNs());
    }

    /**
     * Numbers a decoded DMA and queues it for the DMA engine once the command processor has checked
     * it and read the descriptor from SDRAM.
     *
     * @return the DMA's id.
     */
    long start(final DmaJob job, final long now)
    {
        job.id = ((long)node << 40) | nextDmaId++;
        final long t = microcode.use(now, profile.cmdProcNs()) + profile.sdramNs(E3.DMA_SIZE);
        origin.schedule(t, x -> nic.dma.enqueue(job, x));
        return job.id;
    }

    /** Reads and checks a descriptor, as the command processor does; a bad one is rejected naming the field. */
    DmaJob decode(final NicContext ctx, final long descVa)
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
        final int cookie = read ? srcCookie : destCookie;
        j.vp = cookie & 0xffff;
        j.opcode = opcode;
        j.read = read;
        // the remote address cannot be checked here, except for the value elan3_main2elan returns for
        // memory that is not Elan-mapped (ELAN_BAD_ADDR), which no mapping can hold
        final long remote = read ? j.source : j.dest;
        if (remote == 0xffffffffL && opcode != E3.DMA_QUEUED && opcode != E3.DMA_QUEUED_BROADCAST)
        {
            throw new QsnetException((read ? "dma_source" : "dma_dest") + " 0xffffffff is ELAN_BAD_ADDR (what "
                + "elan3_main2elan returns for memory that is not Elan-mapped): the remote address must be mapped");
        }
        if (j.size > (1L << 31))
        {
            throw new QsnetException("dma_size " + j.size + " is larger than 2 GB");
        }
        if (opcode == E3.DMA_QUEUED || opcode == E3.DMA_QUEUED_BROADCAST)
        {
            if (j.size > config.maxPayloadBytes())
            {
                throw new QsnetException("dma_size " + j.size + " of a queued DMA must be at most one packet ("
                    + config.maxPayloadBytes() + " bytes)");
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
                throw new QsnetException(vpName(j.vp, cookie, read) + " of a broadcast DMA is not a broadcast VP (see elan3_addbcastvp)");
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
            throw new QsnetException(vpName(j.vp, cookie, read) + " is outside the capability (VPs 0.." + (ctx.vpCount() - 1)
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
        j.packets = read ? 1 : (int)Math.max(1, (j.size + config.maxPayloadBytes() - 1)
            / config.maxPayloadBytes());
        return j;
    }
    /**
     * The host sets an event ({@code elan3_setevent}): one decrement, through the command
     * processor.
     *
     * @param ctx  the context.
     * @param evVa the event's Elan address.
     */
    void hostSetEvent(final NicContext ctx, final long evVa)
    {
        ctx.check(evVa, E3.EVENT_SIZE, Mmu.READ | Mmu.WRITE, "event");
        final long t = microcode.use(kernel.nowNs(), profile.cmdProcNs());
        origin.schedule(t, x -> nic.events.setEvent(ctx, evVa, x));
    }

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
    void atomic(final NicContext ctx, final int op, final int vp, final long remoteVa, final long operand,
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
        origin.schedule(t, x -> nic.dma.resend(p, x));
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
    void broadcastTest(final NicContext ctx, final int bcastVp, final long wordVa, final int expected,
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


    /**
     * The VP an error names: the cookie's low 16 bits, and the field as the program wrote it when
     * they differ (-1 is VP 65535). Built only when a check fails: this is the command path.
     */
    private static String vpName(final int vp, final int cookie, final boolean read)
    {
        return "VP " + vp + (cookie == vp ? ""
            : " (" + (read ? "dma_srcCookieVProc" : "dma_destCookieVProc") + " 0x" + Integer.toHexString(cookie) + ")");
    }
}
