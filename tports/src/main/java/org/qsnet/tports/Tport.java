package org.qsnet.tports;

import java.util.ArrayDeque;

import org.qsnet.elan.ElanBase;
import org.qsnet.elan.ElanQueue;
import org.qsnet.elan3.Elan3;
import org.qsnet.elan3.Elan3Context;
import org.qsnet.fabric.QsnetException;
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
 *
 * <p>The port delegates to one package-private class per mechanism: {@code Protocols} (the input
 * queue, inline, synchronous and big messages through the NIC), {@code Matcher} (posted receives
 * and unexpected messages) and {@code SharedMemoryPath} (processes of one node).
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

    final ElanBase base;
    final Elan3Context ctx;
    final NicContext hw;
    final Elan3Nic nic;
    final PlatformProfile profile;
    private final int smallmsg;
    final int bigmsg;
    private final long waitType;
    private final ArrayDeque<TxEvent> txPool = new ArrayDeque<>();
    private final ArrayDeque<RxEvent> rxPool = new ArrayDeque<>();
    final TportStats stats = new TportStats();
    final Protocols protocols;
    final Matcher matcher;
    final SharedMemoryPath shm;

    private Tport(final ElanBase base, final ElanQueue q, final int nslots, final int smallmsg, final int bigmsg,
        final long waitType, final int retryCount, final int shmFifoDepth, final int shmFragSize)
    {
        QsnetException.require(shmFifoDepth >= 1, "shmFifoDepth", shmFifoDepth, "must be at least 1");
        QsnetException.require(shmFragSize >= 64, "shmFragSize", shmFragSize, "must be at least 64");
        QsnetException.require(nslots >= 2 && nslots <= 4096, "nslots", nslots, "must be in 2..4096");
        QsnetException.require(smallmsg >= 0 && smallmsg <= 320 - ENVELOPE, "smallmsg", smallmsg,
            "must be in 0.." + (320 - ENVELOPE) + " (an envelope and its inline data fill one 320-byte queue slot)");
        QsnetException.require(bigmsg >= smallmsg, "bigmsg", bigmsg, "must be at least smallmsg (" + smallmsg + ")");
        this.base = base;
        this.ctx = base.ctx();
        this.hw = ctx.hardware();
        this.nic = hw.nic();
        this.profile = base.profile();
        this.smallmsg = smallmsg;
        this.bigmsg = bigmsg;
        this.waitType = waitType;
        this.matcher = new Matcher(this);
        // LIBELAN_SHM_ENABLE=0: processes of one node go through the NIC like any others
        this.shm = new SharedMemoryPath(this, shmFifoDepth, shmFragSize, base.shm_enable != 0 ? base.shm_bigmsg : -1);
        this.protocols = new Protocols(this, q, nslots, smallmsg, retryCount, base.tport_fragsize);
        hw.attachLibrary(this);
        protocols.unlockQueue();
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
     * {@code shm_fragsize}) on a queue from the collective Elan heap
     * ({@link ElanBase#gallocQueueUnsynchronised()}): senders address a port's queue at the same Elan
     * address on every process, so every process of the job calls this at the same point of its
     * start-up (right after {@code elan_baseInit}, as {@code MPI.Init} does).
     *
     * @param base the base.
     * @return the port.
     */
    public static Tport init(final ElanBase base)
    {
        return new Tport(base, base.gallocQueueUnsynchronised(), base.tport_nslots, base.tport_smallmsg, base.tport_bigmsg,
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
        // every send passes these checks: the error text is built only when one fails
        if (destVp < 0 || destVp >= base.nvp())
        {
            QsnetException.require(false, "destVp", destVp, "is outside the job's VPs 0.." + (base.nvp() - 1));
        }
        if (myVp != base.vp())
        {
            QsnetException.require(false, "myVp", myVp, "must be this process's VP " + base.vp());
        }
        if (len < 0)
        {
            QsnetException.require(false, "len", len, "must be at least 0");
        }
        if ((flags & ~TX_SYNC) != 0)
        {
            QsnetException.require(false, "flags", "0x" + Integer.toHexString(flags), "may only contain ELAN_TPORT_TXSYNC");
        }
        // checked here for every path (the shared-memory one read it later, naming only a host address)
        if (len != 0 && !ctx.addressable(buf, len))
        {
            QsnetException.require(false, "buf", "0x" + Long.toHexString(buf),
                "must be this process's Elan-mapped memory for the " + len + "-byte message");
        }
        final boolean sync = (flags & TX_SYNC) != 0;
        final Tport local = shm.peer(destVp);
        if (local != null && shm.carries(len) && !shm.nicAhead(destVp))
        {
            return shm.send(local, sync, myVp, tag, buf, len);
        }
        if (local != null)
        {
            // a message to a process on this node through the NIC (above shm_bigmsg): until its envelope
            // is matched there, later messages to it follow it on the NIC rather than overtake it
            shm.sentByNic(destVp);
        }
        return protocols.send(flags, destVp, myVp, tag, buf, len);
    }

    /** A send event from the pool, or a new one. */
    TxEvent takeTx()
    {
        return txPool.isEmpty() ? new TxEvent(this, ctx, profile) : txPool.pollFirst();
    }

    /** Completes a receive from the host: sets its word and wakes a waiter. */
    void setWord(final RxEvent rx)
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
        if ((flags & ~(RX_BUF | RX_ANY | RX_PROBE)) != 0)
        {
            QsnetException.require(false, "flags", "0x" + Integer.toHexString(flags),
                "may only contain ELAN_TPORT_RXBUF, RXANY, RXPROBE");
        }
        if (len < 0)
        {
            QsnetException.require(false, "len", len, "must be at least 0");
        }
        final RxEvent rx = rxPool.isEmpty() ? new RxEvent(this, ctx, profile) : rxPool.pollFirst();
        rx.arm(flags, senderMask, senderSel, tagMask, tagSel, buf, len,
            (flags & RX_BUF) != 0 && (flags & RX_PROBE) == 0 ? ctx.allocMain(64, Math.max(64, bigmsg)) : 0);
        // the host hands the receive descriptor to the NIC (programmed I/O), the thread matches it
        ctx.owner().sim().advance(profile.hostCallNs() + 4 * profile.pioWriteNs());
        final long now = ctx.owner().nowNs();
        nic.origin().schedule(now, t -> matcher.post(rx, t));
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
        if (!matcher.withdraw(rx))
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
        return matcher.poll(senderMask, senderSel, tagMask, tagSel);
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
     * Waits until at least one of {@code events} (sends and receives of this port, not yet
     * consumed) has completed: a progress engine's block when any of several operations may let
     * it go on (an MPI receive while non-blocking collectives are in flight). Returns at once if
     * one has; costs a poll, or a blocking wake-up when the port's wait type sleeps and it slept.
     * The events are not consumed: test or wait for them as usual. Not a Tports call (the C
     * library has no such wait: a C progress engine spins over {@code elan_tportRxDone} and
     * {@code elan_tportTxDone}); a deadlock report shows every event it waited for.
     *
     * @param events the sends and receives; at least one, each from {@link #txStart} or {@link #rxStart} of this port.
     * @param what   the wait's description for reports (e.g. the MPI call), or null.
     */
    public void waitAny(final org.qsnet.elan.ElanEvent[] events, final Object what)
    {
        QsnetException.require(events.length > 0, "events", "an empty array", "must hold at least one send or receive");
        final WordEvent[] words = new WordEvent[events.length];
        final long[] vas = new long[events.length];
        for (int i = 0; i < events.length; i++)
        {
            if (!(events[i] instanceof WordEvent w) || w.port != this)
            {
                throw new QsnetException("events[" + i + "] (" + events[i] + ") must be a send or receive of this port");
            }
            words[i] = w;
            vas[i] = w.wordVa();
        }
        ctx.waitForAny(() ->
        {
            for (final WordEvent w : words)
            {
                if (w.complete())
                {
                    return true;
                }
            }
            return false;
        }, vas, waitType, what);
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
