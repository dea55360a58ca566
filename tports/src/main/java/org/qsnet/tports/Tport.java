package org.qsnet.tports;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

import org.qsnet.elan.ElanBase;
import org.qsnet.elan.ElanQueue;
import org.qsnet.elan3.E3DmaMain;
import org.qsnet.elan3.Elan3;
import org.qsnet.elan3.Elan3Context;
import org.qsnet.fabric.QsnetException;
import org.qsnet.fabric.nic.E3;
import org.qsnet.fabric.nic.Elan3Nic;
import org.qsnet.fabric.nic.NicContext;
import org.qsnet.fabric.machine.PlatformProfile;

/**
 * {@code ELAN_TPORT}: a tagged message port.
 *
 * <p>Protocols. A message below {@code smallmsg} (288 B) travels inline: its 32-byte envelope
 * and data go in one queued DMA into the receiver's input queue. A larger message sends the
 * envelope only; once a receive matches it, the receiver's NIC pulls the data with a get from the
 * sender's buffer, whose source event completes the send at the sender. Envelopes are matched
 * on the receiving NIC's thread processor ({@code threadOpNs} per operation: a fixed cost per
 * envelope plus one per receive or buffered message scanned) — that cost is why Tports latency
 * is about twice a raw DMA's.
 *
 * <pre>
 * envelope (32 bytes, then up to 288 bytes of inline data)
 *  0 sender VP   4 tag   8 size   12 kind (0 inline, 1 inline TX_SYNC, 2 big)
 * 16 sender buffer (big)   20 sender's completion event or word   24 message id   28 -
 * </pre>
 *
 * <p>Ordering: messages from one sender are matched in the order sent (the queue and queued DMA
 * retries are FIFO); receives with the same criteria complete in posting order.
 */
public final class Tport
{
    /** {@code ELAN_TPORT_TXSYNC}: the send completes only once the receiver has matched it. */
    public static final int TX_SYNC = 0x1;
    /** {@code ELAN_TPORT_RXBUF}: hand back a system buffer (free it with {@link #bufFree}). */
    public static final int RX_BUF = 0x2;
    /** {@code ELAN_TPORT_RXANY}: match any message, whatever the masks. */
    public static final int RX_ANY = 0x4;
    /** {@code ELAN_TPORT_RXPROBE}: complete on a matching message without receiving it. */
    public static final int RX_PROBE = 0x8;

    static final int ENVELOPE = 32;
    private static final int KIND_INLINE = 0;
    private static final int KIND_SYNC = 1;
    private static final int KIND_BIG = 2;
    /** Thread-processor operations to take an envelope from the queue and start matching it. */
    private static final int ENVELOPE_OPS = 5;
    /** Thread-processor operations to post a receive. */
    private static final int POST_OPS = 2;

    private final ElanBase base;
    private final Elan3Context ctx;
    private final NicContext hw;
    private final Elan3Nic nic;
    private final PlatformProfile profile;
    private final int nslots;
    private final int smallmsg;
    private final int bigmsg;
    private final long waitType;
    private final int retryCount;
    private final long queue;
    private final long queueVa;
    private final long slots;
    private final long slotsVa;
    private final int slotSize = 320;
    private final ArrayDeque<RxEvent> posted = new ArrayDeque<>();
    private final List<Message> unexpected = new ArrayList<>();
    private final long threadDescriptor;
    private final long threadDescriptorVa;
    private final long ackWordVa;
    private final ArrayDeque<TxEvent> txPool = new ArrayDeque<>();
    private final ArrayDeque<RxEvent> rxPool = new ArrayDeque<>();
    private int nextMessageId;
    private final TportStats stats = new TportStats();

    /** A message the NIC holds before a receive matches it (inline data in a system buffer). */
    private static final class Message
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
        long drainFreeNs;
        RxEvent rx;
    }

    private final int fragSize;
    private final int shmFifoDepth;
    private final int shmFragSize;
    private final int shmBigmsg;

    private Tport(final ElanBase base, final ElanQueue q, final int nslots, final int smallmsg, final int bigmsg,
        final long waitType, final int retryCount, final int shmFifoDepth, final int shmFragSize)
    {
        QsnetException.require(shmFifoDepth >= 1, "shmFifoDepth", shmFifoDepth, "must be at least 1");
        QsnetException.require(shmFragSize >= 64, "shmFragSize", shmFragSize, "must be at least 64");
        this.shmFifoDepth = shmFifoDepth;
        this.fragSize = base.tport_fragsize;
        this.shmFragSize = shmFragSize;
        // LIBELAN_SHM_ENABLE=0: processes of one node go through the NIC like any others
        this.shmBigmsg = base.shm_enable != 0 ? base.shm_bigmsg : -1;
        QsnetException.require(nslots >= 2 && nslots <= 4096, "nslots", nslots, "must be in 2..4096");
        QsnetException.require(smallmsg >= 0 && smallmsg <= 320 - ENVELOPE, "smallmsg", smallmsg,
            "must be in 0.." + (320 - ENVELOPE) + " (an envelope and its inline data fill one 320-byte queue slot)");
        QsnetException.require(bigmsg >= smallmsg, "bigmsg", bigmsg, "must be at least smallmsg (" + smallmsg + ")");
        this.base = base;
        this.ctx = base.ctx();
        this.hw = ctx.hardware();
        this.nic = hw.nic();
        this.profile = base.profile();
        this.nslots = nslots;
        this.smallmsg = smallmsg;
        this.bigmsg = bigmsg;
        this.waitType = waitType;
        this.retryCount = retryCount;
        // the queue (galloc'd) and the slots at the same addresses on every process (collective init)
        this.queue = q.claim("elan_tportInit");
        this.queueVa = q.elanAddress();
        QsnetException.require(ctx.sdram2elan(queue) == queueVa, "q", "at Elan 0x" + Long.toHexString(queueVa),
            "must come from this process's base");
        // the slots live in Elan memory, where the thread processor matches them without crossing PCI
        this.slots = ctx.allocElan(64, (long)nslots * slotSize);
        if (slots == 0)
        {
            throw new QsnetException("nslots " + nslots + " of " + slotSize + " bytes do not fit the Elan heap");
        }
        this.slotsVa = ctx.sdram2elan(slots);
        this.threadDescriptor = ctx.allocElan(Elan3.E3_DMA_ALIGN, Elan3.E3_DMA_SIZE);
        this.threadDescriptorVa = ctx.sdram2elan(threadDescriptor);
        final long ackWord = ctx.allocElan(8, 8);
        ctx.write32Sdram(ackWord, 1);
        this.ackWordVa = ctx.sdram2elan(ackWord);
        ctx.write32Sdram(queue + E3.Q_STATE, E3.QUEUE_LOCKED);
        ctx.write32Sdram(queue + E3.Q_SIZE, slotSize);
        ctx.write32Sdram(queue + E3.Q_BASE, (int)slotsVa);
        ctx.write32Sdram(queue + E3.Q_TOP, (int)(slotsVa + (long)(nslots - 1) * slotSize));
        ctx.write32Sdram(queue + E3.Q_FPTR, (int)slotsVa);
        ctx.write32Sdram(queue + E3.Q_BPTR, (int)slotsVa);
        hw.runThreadOnQueue(queueVa, this::onEnvelope);
        hw.attachLibrary(this);
        ctx.write32Sdram(queue + E3.Q_STATE, 0);
        base.gsync(base.allGroup());
    }

    /**
     * {@code elan_tportInit} (the libelan 1.4.8 form, ELAN-API.md §2.6.1): creates this process's
     * port on queue {@code q}; every process of the job calls it, in the same order.
     *
     * @param base         the base ({@code ELAN_STATE *}).
     * @param q            the port's input queue, from {@code elan_gallocQueue} (or {@code elan_allocQueue}),
     *                     used by nothing else.
     * @param nslots       input queue slots ({@code base->tport_nslots}).
     * @param smallmsg     inline limit: messages shorter than this travel with their envelope (at most 288).
     * @param bigmsg       largest message buffered at the receiver before a receive is posted.
     * @param stripemsg    striping threshold (one rail: unused).
     * @param waitType     ELAN_POLL_EVENT, ELAN_WAIT_EVENT or a spin count.
     * @param retryCount   queued-DMA retries.
     * @param shmKey       shared-memory key: C passes {@code &base->shm_key}, here its value (the emulator needs none).
     * @param shmFifoDepth shared-memory FIFO depth in fragments (0: 16).
     * @param shmFragSize  shared-memory fragment size (0: 8192).
     * @param flags        {@code base->tport_flags} (0).
     * @return the port.
     */
    public static Tport init(final ElanBase base, final ElanQueue q, final int nslots, final int smallmsg,
        final int bigmsg, final int stripemsg, final long waitType, final int retryCount, final int shmKey,
        final int shmFifoDepth, final int shmFragSize, final int flags)
    {
        QsnetException.require(flags == 0, "flags", flags, "must be 0 (base->tport_flags)");
        return new Tport(base, q, nslots, smallmsg, bigmsg, waitType, retryCount, shmFifoDepth <= 0 ? 16 : shmFifoDepth,
            shmFragSize <= 0 ? 8192 : shmFragSize);
    }

    /**
     * A port with the base's tunables ({@code base.tport_nslots}, {@code tport_smallmsg},
     * {@code tport_bigmsg}, {@code waitType}, {@code retryCount}, {@code shm_fifodepth},
     * {@code shm_fragsize}) on a queue of its own.
     *
     * @param base the base.
     * @return the port.
     */
    public static Tport init(final ElanBase base)
    {
        return new Tport(base, base.allocQueue(), base.tport_nslots, base.tport_smallmsg, base.tport_bigmsg,
            base.waitType, base.retryCount, base.shm_fifodepth, base.shm_fragsize);
    }

    /**
     * @return the inline limit.
     */
    public int smallmsg()
    {
        return smallmsg;
    }

    /**
     * @return the statistics ({@code elan_tportGetStats}).
     */
    public TportStats getStats()
    {
        return stats.copy();
    }

    // ------------------------------------------------------------------ send

    /**
     * {@code elan_tportTxStart}: sends {@code len} bytes at {@code buf} to {@code destVp} with {@code tag}.
     *
     * @param flags  0 or {@link #TX_SYNC}.
     * @param destVp the receiver.
     * @param myVp   this process's VP (what the receiver sees as sender).
     * @param tag    the tag.
     * @param buf    host address of the data.
     * @param len    bytes.
     * @return the send event.
     */
    public TxEvent txStart(final int flags, final int destVp, final int myVp, final int tag, final long buf, final int len)
    {
        QsnetException.require(destVp >= 0 && destVp < base.nvp(), "destVp", destVp,
            "is outside the job's VPs 0.." + (base.nvp() - 1));
        QsnetException.require(myVp == base.vp(), "myVp", myVp, "must be this process's VP " + base.vp());
        QsnetException.require(len >= 0, "len", len, "must be at least 0");
        QsnetException.require((flags & ~TX_SYNC) == 0, "flags", "0x" + Integer.toHexString(flags),
            "may only contain ELAN_TPORT_TXSYNC");
        final boolean sync = (flags & TX_SYNC) != 0;
        final Tport local = sameNode(destVp);
        if (local != null && len <= shmBigmsg)
        {
            return shmSend(local, sync, myVp, tag, buf, len);
        }
        final boolean inline = len < smallmsg;
        final TxEvent tx = txPool.isEmpty() ? new TxEvent(this, ctx, profile) : txPool.pollFirst();
        tx.arm(flags, destVp, tag, len);
        if (!inline)
        {
            // a big message is pulled in fragments of tport_fragsize: each get's source event counts
            final int fragments = (len + fragSize - 1) / fragSize;
            if (fragments > 1)
            {
                ctx.primeevent(tx.eventHandle(), fragments);
                stats.nFragTx += fragments;
            }
        }
        final byte[] envelope = new byte[ENVELOPE + (inline ? len : 0)];
        final java.nio.ByteBuffer b = java.nio.ByteBuffer.wrap(envelope).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        b.putInt(0, myVp).putInt(4, tag).putInt(8, len).putInt(12, inline ? (sync ? KIND_SYNC : KIND_INLINE) : KIND_BIG);
        b.putInt(16, inline ? 0 : (int)ctx.main2elan(buf));
        b.putInt(20, (int)(inline && !sync ? 0 : inline ? tx.wordVa() : tx.eventVa()));
        b.putInt(24, nextMessageId++);
        if (inline)
        {
            final byte[] data = new byte[len];
            ctx.raw().read(buf, data, 0, len);
            System.arraycopy(data, 0, envelope, ENVELOPE, len);
            // the library copies the data beside the envelope (a cached memcpy): the buffer is free at once
            base.ctx().owner().sim().advance((len + 63) / 64 * profile.hostPollNs());
        }
        else if (ctx.main2elan(buf) == Elan3.ELAN_BAD_ADDR)
        {
            throw new QsnetException("send buffer 0x" + Long.toHexString(buf) + " of a " + len
                + "-byte message is not Elan-mapped memory (needed for the receiver's get)");
        }
        ctx.raw().write(tx.staging(), envelope, 0, envelope.length);
        final E3DmaMain d = new E3DmaMain();
        d.dma_type = Elan3.E3_DMA_TYPE(Elan3.DMA_BYTE, Elan3.DMA_WRITE, Elan3.DMA_QUEUED, retryCount);
        d.dma_size = envelope.length;
        d.dma_source = ctx.main2elan(tx.staging());
        d.dma_dest = 0;
        d.dma_destEvent = queueVa;
        d.dma_destCookieVProc = destVp;
        // an inline send completes when the envelope is delivered; a synchronous or big one when matched
        d.dma_srcEvent = inline && !sync ? tx.eventVa() : 0;
        d.dma_srcCookieVProc = ctx.localCookie(myVp, destVp);
        ctx.putdmaMain(d, tx.descriptor());
        if (inline)
        {
            stats.nTxSmall++;
        }
        else
        {
            stats.nTxBig++;
        }
        if (sync)
        {
            stats.nTxBigSync++;
        }
        return tx;
    }

    // ------------------------------------------------------------------ shared memory

    private Tport sameNode(final int destVp)
    {
        final NicContext me = hw;
        final int node = me.nodeOf(destVp);
        if (node != nic.node())
        {
            return null;
        }
        final NicContext other = nic.context(me.vpContextOf(destVp));
        return other != null && other.library() instanceof Tport t ? t : null;
    }

    /**
     * The shared-memory path between processes of one node: the sender copies the message into a
     * FIFO of {@code shm_fifodepth} fragments of {@code shm_fragsize} bytes shared with the
     * receiver (a cached memcpy), the receiver's library takes it from there and matches it on the
     * host. No NIC, no PCI. A full FIFO holds the sender until the receiver drains a fragment.
     */
    private TxEvent shmSend(final Tport to, final boolean sync, final int myVp, final int tag, final long buf,
        final int len)
    {
        final TxEvent tx = txPool.isEmpty() ? new TxEvent(this, ctx, profile) : txPool.pollFirst();
        tx.arm(sync ? TX_SYNC : 0, to.base.vp(), tag, len);
        final byte[] data = new byte[len];
        ctx.raw().read(buf, data, 0, len);
        final int fragments = Math.max(1, (len + shmFragSize - 1) / shmFragSize);
        final Message m = new Message();
        m.sender = myVp;
        m.tag = tag;
        m.size = len;
        m.kind = sync ? KIND_SYNC : KIND_INLINE;
        m.data = data;
        m.shmFragments = fragments;
        m.shmTx = sync ? tx : null;
        final var sim = ctx.owner().sim();
        for (int f = 0; f < fragments; f++)
        {
            // wait for room in the FIFO: the receiver drains it as it copies fragments out
            sim.awaitUntil(() -> to.shmInFlight < to.shmFifoDepth, to.shmSpace, tx);
            to.shmInFlight++;
            sim.advance(profile.hostCallNs() + memcpyNs(Math.min(shmFragSize, len - f * shmFragSize)));
            nic.origin().schedule(sim.nowNs(), t -> to.onShmFragment(m, t));
        }
        stats.nShmTx++;
        if (fragments > 1)
        {
            stats.nFragTx += fragments;
        }
        if (!sync)
        {
            // the data is in the FIFO: the buffer is free
            hw.putInt(tx.wordVa(), 1, org.qsnet.fabric.memory.Mmu.WRITE);
        }
        return tx;
    }

    private long memcpyNs(final int bytes)
    {
        return (bytes + 63) / 64 * profile.hostPollNs();
    }

    private int shmInFlight;
    private final org.qsnet.fabric.engine.Signal shmSpace = new org.qsnet.fabric.engine.Signal("shared-memory FIFO space");

    private void onShmFragment(final Message m, final long now)
    {
        m.fragsArrived++;
        if (m.fragsArrived == 1)
        {
            // the first fragment announces the message to the receiving library
            stats.nShmRx++;
            for (final Iterator<RxEvent> it = posted.iterator(); it.hasNext();)
            {
                final RxEvent rx = it.next();
                if (matches(rx, m))
                {
                    it.remove();
                    if ((rx.flags & RX_PROBE) != 0)
                    {
                        unexpected.add(m);
                        probeShm(rx, m, now);
                        return;
                    }
                    claimShm(rx, m, now);
                    return;
                }
            }
            unexpected.add(m);
            return;
        }
        drainShm(m, now);
    }

    private void probeShm(final RxEvent rx, final Message m, final long now)
    {
        rx.sender = m.sender;
        rx.tag = m.tag;
        rx.size = m.size;
        nic.origin().schedule(now + profile.hostCallNs(), t -> setWord(rx));
    }

    /** A receive takes a shared-memory message: it copies out every fragment there and to come. */
    private void claimShm(final RxEvent rx, final Message m, final long now)
    {
        rx.sender = m.sender;
        rx.tag = m.tag;
        rx.size = m.size;
        if ((rx.flags & RX_BUF) == 0 && m.size > rx.len)
        {
            rx.error = "message of " + m.size + " bytes from VP " + m.sender + " (tag " + m.tag
                + ") does not fit the posted receive of " + rx.len + " bytes";
        }
        rx.dataAddr = rx.destinationHost();
        m.rx = rx;
        m.drainFreeNs = now;
        drainShm(m, now);
    }

    private void drainShm(final Message m, final long now)
    {
        final RxEvent rx = m.rx;
        if (rx == null)
        {
            return;
        }
        while (m.fragsDrained < m.fragsArrived)
        {
            final int f = m.fragsDrained++;
            final int bytes = Math.min(shmFragSize, m.size - f * shmFragSize);
            m.drainFreeNs = Math.max(m.drainFreeNs, now) + profile.hostCallNs() + memcpyNs(bytes);
            final boolean last = m.fragsDrained == m.shmFragments;
            nic.origin().schedule(m.drainFreeNs, t ->
            {
                shmInFlight--;
                shmSpace.fire();
                if (last)
                {
                    if (rx.error == null && m.size > 0)
                    {
                        hw.write(rx.destination(), m.data, 0, m.data.length, org.qsnet.fabric.memory.Mmu.WRITE,
                            "receive buffer");
                        stats.dRxBytes += m.size;
                    }
                    setWord(rx);
                    if (m.shmTx != null)
                    {
                        m.shmTx.completeFromPeer();
                    }
                }
            });
        }
    }

    private void setWord(final RxEvent rx)
    {
        hw.putInt(rx.wordVa(), 1, org.qsnet.fabric.memory.Mmu.WRITE);
        hw.signalWrite(rx.wordVa());
    }

    // ------------------------------------------------------------------ receive

    /**
     * {@code elan_tportRxStart}: posts a receive for a message whose sender and tag match:
     * {@code (sender & senderMask) == (senderSel & senderMask)} and the same for the tag.
     *
     * @param flags      0, {@link #RX_BUF}, {@link #RX_ANY}, {@link #RX_PROBE}.
     * @param senderMask sender mask.
     * @param senderSel  sender selector.
     * @param tagMask    tag mask.
     * @param tagSel     tag selector.
     * @param buf        host address of the receive buffer (unused with RX_BUF or RX_PROBE).
     * @param len        its size.
     * @return the receive event.
     */
    public RxEvent rxStart(final int flags, final int senderMask, final int senderSel, final int tagMask, final int tagSel,
        final long buf, final int len)
    {
        QsnetException.require((flags & ~(RX_BUF | RX_ANY | RX_PROBE)) == 0, "flags", "0x" + Integer.toHexString(flags),
            "may only contain ELAN_TPORT_RXBUF, RXANY, RXPROBE");
        QsnetException.require(len >= 0, "len", len, "must be at least 0");
        final RxEvent rx = rxPool.isEmpty() ? new RxEvent(this, ctx, profile) : rxPool.pollFirst();
        rx.arm(flags, senderMask, senderSel, tagMask, tagSel, buf, len,
            (flags & RX_BUF) != 0 && (flags & RX_PROBE) == 0 ? ctx.allocMain(64, Math.max(64, bigmsg)) : 0);
        // the host hands the receive descriptor to the NIC (programmed I/O), the thread matches it
        ctx.owner().sim().advance(profile.hostCallNs() + 4 * profile.pioWriteNs());
        final long now = ctx.owner().nowNs();
        nic.origin().schedule(now, t -> post(rx, t));
        return rx;
    }

    /**
     * Withdraws a posted receive that no message has matched yet (what {@code MPI_Cancel} of a
     * receive needs). Not an {@code elan_tport*} call: ELAN-API.md catalogs no cancel of a Tports
     * receive, so this Java-level method has no C facade. The host writes the request to the NIC
     * by programmed I/O, the thread processor takes the receive off its list of posted receives
     * (one operation per receive scanned, as posting costs), and the host reads the answer back
     * across PCI.
     *
     * @param rx a receive started on this port and not yet consumed by a wait.
     * @return true when the receive was withdrawn before any message matched it: its event
     * completes at once with no message ({@link RxEvent#rxWait} returns sender -1, size 0 and data
     * 0; {@link RxEvent#cancelled()} is true; an RX_BUF system buffer is freed), its buffer is left
     * untouched, and a later matching message goes to the next matching receive; false when a
     * message has already matched it, which then completes as usual (wait for it).
     */
    public boolean rxCancel(final RxEvent rx)
    {
        QsnetException.require(rx != null && rx.port == this, "rx", rx, "must be a receive of this port");
        QsnetException.require(!rx.isConsumed(), "rx", rx, "was already consumed by elan_tportRxWait");
        final var sim = ctx.owner().sim();
        sim.advance(profile.hostCallNs() + profile.pioWriteNs());
        // the post (scheduled at rxStart's time) has run: the receive is either posted or matched
        final long now = ctx.owner().nowNs();
        int scanned = 0;
        boolean found = false;
        for (final Iterator<RxEvent> it = posted.iterator(); it.hasNext() && !found;)
        {
            scanned++;
            if (it.next() == rx)
            {
                it.remove();
                found = true;
            }
        }
        final long answeredNs = nic.threadWork(now, POST_OPS + scanned);
        sim.advance(Math.max(0, answeredNs - now) + profile.pioReadNs());
        if (!found)
        {
            return false;
        }
        final long sysBuf = rx.cancel();
        if (sysBuf != 0)
        {
            ctx.free(sysBuf);
        }
        setWord(rx);
        return true;
    }

    private boolean matches(final RxEvent rx, final Message m)
    {
        return (rx.flags & RX_ANY) != 0 || matches(rx.senderMask, rx.senderSel, rx.tagMask, rx.tagSel, m.sender, m.tag);
    }

    /**
     * The matching rule: {@code (sender & senderMask) == (senderSel & senderMask)} and
     * {@code (tag & tagMask) == (tagSel & tagMask)}.
     *
     * @param senderMask sender mask.
     * @param senderSel  sender selector.
     * @param tagMask    tag mask.
     * @param tagSel     tag selector.
     * @param sender     the message's sender.
     * @param tag        the message's tag.
     * @return whether the message matches.
     */
    public static boolean matches(final int senderMask, final int senderSel, final int tagMask, final int tagSel,
        final int sender, final int tag)
    {
        return (sender & senderMask) == (senderSel & senderMask) && (tag & tagMask) == (tagSel & tagMask);
    }

    private void post(final RxEvent rx, final long now)
    {
        int scanned = 0;
        for (final Iterator<Message> it = unexpected.iterator(); it.hasNext();)
        {
            final Message m = it.next();
            scanned++;
            if (matches(rx, m))
            {
                if ((rx.flags & RX_PROBE) == 0)
                {
                    it.remove();
                }
                if (m.shmFragments > 0)
                {
                    if ((rx.flags & RX_PROBE) != 0)
                    {
                        probeShm(rx, m, now);
                    }
                    else
                    {
                        claimShm(rx, m, now);
                    }
                }
                else
                {
                    deliver(rx, m, nic.threadWork(now, POST_OPS + scanned), false);
                }
                return;
            }
        }
        nic.threadWork(now, POST_OPS + scanned);
        posted.addLast(rx);
    }

    private void onEnvelope(final long slotVa, final int length, final long now)
    {
        final byte[] raw = new byte[length];
        hw.read(slotVa, raw, 0, length, org.qsnet.fabric.memory.Mmu.READ, "tport slot");
        final java.nio.ByteBuffer b = java.nio.ByteBuffer.wrap(raw).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        final Message m = new Message();
        m.sender = b.getInt(0);
        m.tag = b.getInt(4);
        m.size = b.getInt(8);
        m.kind = b.getInt(12);
        m.senderBuffer = b.getInt(16) & 0xffffffffL;
        m.senderCompletion = b.getInt(20) & 0xffffffffL;
        m.data = m.kind == KIND_BIG ? null : java.util.Arrays.copyOfRange(raw, ENVELOPE, ENVELOPE + m.size);
        // the thread consumes the slot: advance the front pointer, clear FULL
        final long fptr = hw.getInt(queueVa + E3.Q_FPTR, org.qsnet.fabric.memory.Mmu.READ) & 0xffffffffL;
        final long top = slotsVa + (long)(nslots - 1) * slotSize;
        hw.putInt(queueVa + E3.Q_FPTR, (int)(fptr >= top ? slotsVa : fptr + slotSize), org.qsnet.fabric.memory.Mmu.WRITE);
        final int state = hw.getInt(queueVa + E3.Q_STATE, org.qsnet.fabric.memory.Mmu.READ);
        hw.putInt(queueVa + E3.Q_STATE, state & ~E3.QUEUE_FULL, org.qsnet.fabric.memory.Mmu.WRITE);
        int scanned = 0;
        for (final Iterator<RxEvent> it = posted.iterator(); it.hasNext();)
        {
            final RxEvent rx = it.next();
            scanned++;
            if (matches(rx, m))
            {
                it.remove();
                if ((rx.flags & RX_PROBE) != 0)
                {
                    unexpected.add(m);
                }
                deliver(rx, m, nic.threadWork(now, ENVELOPE_OPS + scanned), true);
                return;
            }
        }
        nic.threadWork(now, ENVELOPE_OPS + scanned);
        if (m.kind != KIND_BIG && m.size > bigmsg)
        {
            throw new QsnetException("unexpected message of " + m.size + " bytes exceeds bigmsg " + bigmsg);
        }
        unexpected.add(m);
        if (m.data != null)
        {
            stats.nBuf++;
            stats.bufBytes += m.size;
        }
    }

    /** The thread delivers a matched message at {@code readyNs}. */
    private void deliver(final RxEvent rx, final Message m, final long readyNs, final boolean direct)
    {
        rx.sender = m.sender;
        rx.tag = m.tag;
        rx.size = m.size;
        if ((rx.flags & RX_PROBE) != 0)
        {
            nic.threadCopy(hw, 0, new byte[0], rx.wordVa(), 1, readyNs);
            return;
        }
        if ((rx.flags & RX_BUF) == 0 && m.size > rx.len)
        {
            rx.error = "message of " + m.size + " bytes from VP " + m.sender + " (tag " + m.tag
                + ") does not fit the posted receive of " + rx.len + " bytes";
            nic.threadCopy(hw, 0, new byte[0], rx.wordVa(), 1, readyNs);
            return;
        }
        if ((rx.flags & RX_BUF) != 0 && m.size > bigmsg)
        {
            rx.error = "message of " + m.size + " bytes from VP " + m.sender + " exceeds the system buffers (bigmsg "
                + bigmsg + ")";
            nic.threadCopy(hw, 0, new byte[0], rx.wordVa(), 1, readyNs);
            return;
        }
        final long dest = rx.destination();
        rx.dataAddr = rx.destinationHost();
        if (m.kind == KIND_BIG)
        {
            stats.dRxBytes += m.size;
            nic.origin().schedule(readyNs, t -> pull(rx, m, dest));
            return;
        }
        if (direct)
        {
            stats.dRxBytes += m.size;
        }
        else
        {
            stats.bRxBytes += m.size;
        }
        nic.threadCopy(hw, dest, m.data, rx.wordVa(), 1, readyNs);
        if (m.kind == KIND_SYNC)
        {
            // tell the synchronous sender it has been matched: a 4-byte write into its word
            acknowledge(m.sender, m.senderCompletion, readyNs);
        }
    }

    private void pull(final RxEvent rx, final Message m, final long dest)
    {
        // messages above tport_fragsize are pulled in several gets; the receive completes with the last
        final int fragments = Math.max(1, (m.size + fragSize - 1) / fragSize);
        if (fragments > 1)
        {
            rx.recount(fragments);
            stats.nFragRx += fragments;
        }
        for (int f = 0; f < fragments; f++)
        {
            final long offset = (long)f * fragSize;
            final E3DmaMain d = new E3DmaMain();
            d.dma_type = Elan3.E3_DMA_TYPE(Elan3.DMA_BYTE, Elan3.DMA_READ, Elan3.DMA_NORMAL, retryCount);
            d.dma_size = Math.min(fragSize, m.size - offset);
            d.dma_source = m.senderBuffer + offset;
            d.dma_dest = dest + offset;
            d.dma_destEvent = rx.eventVa();
            d.dma_srcEvent = m.senderCompletion;
            d.dma_destCookieVProc = base.vp();
            d.dma_srcCookieVProc = m.sender;
            // the descriptor is read when the command is taken: one scratch serves every fragment
            writeDescriptor(d, threadDescriptor);
            nic.command(hw, threadDescriptorVa);
        }
    }

    private void acknowledge(final int senderVp, final long wordVa, final long readyNs)
    {
        nic.origin().schedule(readyNs, t ->
        {
            final E3DmaMain d = new E3DmaMain();
            d.dma_type = Elan3.E3_DMA_TYPE(Elan3.DMA_BYTE, Elan3.DMA_WRITE, Elan3.DMA_NORMAL, retryCount);
            d.dma_size = 4;
            d.dma_source = ackWordVa;
            d.dma_dest = wordVa;
            d.dma_destCookieVProc = senderVp;
            d.dma_srcCookieVProc = base.vp();
            writeDescriptor(d, threadDescriptor);
            nic.command(hw, threadDescriptorVa);
        });
    }

    private void writeDescriptor(final E3DmaMain d, final long sdram)
    {
        d.writeTo(nic.sdram(), sdram);
    }

    /**
     * {@code elan_tportRxPoll}: whether a matching message is waiting, without posting a receive.
     *
     * @param senderMask sender mask.
     * @param senderSel  sender selector.
     * @param tagMask    tag mask.
     * @param tagSel     tag selector.
     * @return the message's sender, tag and size, or null.
     */
    public RxResult rxPoll(final int senderMask, final int senderSel, final int tagMask, final int tagSel)
    {
        // the host reads the NIC's list across PCI
        ctx.owner().sim().advance(profile.hostCallNs() + profile.pioReadNs());
        for (final Message m : unexpected)
        {
            if (matches(senderMask, senderSel, tagMask, tagSel, m.sender, m.tag))
            {
                return new RxResult(m.sender, m.tag, m.size, 0);
            }
        }
        return null;
    }

    /**
     * {@code elan_tportBufFree}: returns a system buffer handed out by an RX_BUF receive.
     *
     * @param buf the buffer.
     */
    public void bufFree(final long buf)
    {
        ctx.free(buf);
    }

    void recycle(final TxEvent tx)
    {
        txPool.addLast(tx);
    }

    void recycle(final RxEvent rx)
    {
        rxPool.addLast(rx);
    }

    /**
     * The statistics of {@code elan_tportGetStats}.
     */
    public static final class TportStats
    {
        /** Inline transmits. */
        public long nTxSmall;
        /** Big (envelope, then get) transmits. */
        public long nTxBig;
        /** TX_SYNC transmits. */
        public long nTxBigSync;
        /** Bytes received directly into a posted buffer. */
        public long dRxBytes;
        /** Bytes received through a system buffer (unexpected). */
        public long bRxBytes;
        /** Messages buffered. */
        public long nBuf;
        /** Messages sent through shared memory. */
        public long nShmTx;
        /** Messages received through shared memory. */
        public long nShmRx;
        /** Fragments sent (big messages above tport_fragsize, shared-memory messages above shm_fragsize). */
        public long nFragTx;
        /** Fragments pulled by this receiver. */
        public long nFragRx;
        /** Bytes buffered. */
        public long bufBytes;

        TportStats copy()
        {
            final TportStats s = new TportStats();
            copyInto(s);
            return s;
        }

        /**
         * Copies every counter into another record (as {@code elan_tportGetStats} fills the caller's struct).
         *
         * @param s the record overwritten.
         */
        public void copyInto(final TportStats s)
        {
            s.nTxSmall = nTxSmall;
            s.nTxBig = nTxBig;
            s.nTxBigSync = nTxBigSync;
            s.dRxBytes = dRxBytes;
            s.bRxBytes = bRxBytes;
            s.nBuf = nBuf;
            s.nShmTx = nShmTx;
            s.nShmRx = nShmRx;
            s.nFragTx = nFragTx;
            s.nFragRx = nFragRx;
            s.bufBytes = bufBytes;
        }
    }

    /**
     * What {@code elan_tportRxWait} returns through its out-parameters.
     *
     * @param sender the sender's VP.
     * @param tag    the tag.
     * @param size   the message size.
     * @param data   host address of the data (the posted buffer, or a system buffer with RX_BUF).
     */
    public record RxResult(int sender, int tag, int size, long data)
    {
    }

}
