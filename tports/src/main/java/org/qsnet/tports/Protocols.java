package org.qsnet.tports;

import org.qsnet.elan.ElanBase;
import org.qsnet.elan.ElanQueue;
import org.qsnet.elan3.E3DmaMain;
import org.qsnet.elan3.Elan3;
import org.qsnet.elan3.Elan3Context;
import org.qsnet.fabric.QsnetException;
import org.qsnet.fabric.machine.PlatformProfile;
import org.qsnet.fabric.nic.E3;
import org.qsnet.fabric.nic.Elan3Nic;
import org.qsnet.fabric.nic.NicContext;

/**
 * The NIC path of a {@link Tport}: its input queue and the protocols over it. A message below
 * {@code smallmsg} travels inline with its envelope in one queued DMA ({@code TX_SYNC}: the
 * receiver's thread acknowledges the match with a 4-byte write into the sender's word); a larger
 * one sends the envelope only, and the receiver's thread pulls the data with gets of
 * {@code tport_fragsize} from the sender's buffer once a receive matches it. The thread
 * processor's matching itself is the {@link Matcher}'s.
 *
 * <pre>
 * envelope (32 bytes, then up to 288 bytes of inline data)
 *  0 sender VP   4 tag   8 size   12 kind (0 inline, 1 inline TX_SYNC, 2 big)
 * 16 sender buffer (big)   20 sender's completion event or word   24 message id   28 -
 * </pre>
 */
final class Protocols
{
    static final int KIND_INLINE = 0;
    static final int KIND_SYNC = 1;
    static final int KIND_BIG = 2;

    private final Tport port;
    private final ElanBase base;
    private final Elan3Context ctx;
    private final NicContext hw;
    private final Elan3Nic nic;
    private final PlatformProfile profile;
    private final Tport.TportStats stats;
    private final int nslots;
    private final int smallmsg;
    private final int retryCount;
    private final int fragSize;
    private final long queue;
    private final long queueVa;
    private final long slots;
    private final long slotsVa;
    private final int slotSize = 320;
    private final long threadDescriptor;
    private final long threadDescriptorVa;
    private final long ackWordVa;
    private int nextMessageId;

    /**
     * Claims queue {@code q} for the port, allocates its slots, the thread's DMA descriptor and the
     * acknowledgement word, and sets the thread processor to run on the queue, which stays locked
     * until {@link #unlockQueue}.
     */
    Protocols(final Tport port, final ElanQueue q, final int nslots, final int smallmsg, final int retryCount,
        final int fragSize)
    {
        this.port = port;
        this.base = port.base;
        this.ctx = port.ctx;
        this.hw = port.hw;
        this.nic = port.nic;
        this.profile = port.profile;
        this.stats = port.stats;
        this.nslots = nslots;
        this.smallmsg = smallmsg;
        this.retryCount = retryCount;
        this.fragSize = fragSize;
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
    }

    /** Opens the queue to senders. */
    void unlockQueue()
    {
        ctx.write32Sdram(queue + E3.Q_STATE, 0);
    }

    /** Sends a message through the NIC: inline (with or without TX_SYNC) or big. */
    TxEvent send(final int flags, final int destVp, final int myVp, final int tag, final long buf, final int len)
    {
        final boolean sync = (flags & Tport.TX_SYNC) != 0;
        final boolean inline = len < smallmsg;
        final TxEvent tx = port.takeTx();
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
        final byte[] envelope = new byte[Tport.ENVELOPE + (inline ? len : 0)];
        final java.nio.ByteBuffer b = java.nio.ByteBuffer.wrap(envelope).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        b.putInt(0, myVp).putInt(4, tag).putInt(8, len).putInt(12, inline ? (sync ? KIND_SYNC : KIND_INLINE) : KIND_BIG);
        b.putInt(16, inline ? 0 : (int)ctx.main2elan(buf));
        b.putInt(20, (int)(inline && !sync ? 0 : inline ? tx.wordVa() : tx.eventVa()));
        b.putInt(24, nextMessageId++);
        if (inline)
        {
            final byte[] data = new byte[len];
            ctx.raw().read(buf, data, 0, len);
            System.arraycopy(data, 0, envelope, Tport.ENVELOPE, len);
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

    /** The thread takes an envelope from the queue, frees its slot and hands it to the matcher. */
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
        m.data = m.kind == KIND_BIG ? null : java.util.Arrays.copyOfRange(raw, Tport.ENVELOPE, Tport.ENVELOPE + m.size);
        // the thread consumes the slot: advance the front pointer, clear FULL
        final long fptr = hw.getInt(queueVa + E3.Q_FPTR, org.qsnet.fabric.memory.Mmu.READ) & 0xffffffffL;
        final long top = slotsVa + (long)(nslots - 1) * slotSize;
        hw.putInt(queueVa + E3.Q_FPTR, (int)(fptr >= top ? slotsVa : fptr + slotSize), org.qsnet.fabric.memory.Mmu.WRITE);
        final int state = hw.getInt(queueVa + E3.Q_STATE, org.qsnet.fabric.memory.Mmu.READ);
        hw.putInt(queueVa + E3.Q_STATE, state & ~E3.QUEUE_FULL, org.qsnet.fabric.memory.Mmu.WRITE);
        port.matcher.onEnvelope(m, now);
    }

    /** The thread delivers a matched message at {@code readyNs}. */
    void deliver(final RxEvent rx, final Message m, final long readyNs, final boolean direct)
    {
        rx.sender = m.sender;
        rx.tag = m.tag;
        rx.size = m.size;
        if ((rx.flags & Tport.RX_PROBE) != 0)
        {
            nic.threadCopy(hw, 0, new byte[0], rx.wordVa(), 1, readyNs);
            return;
        }
        if ((rx.flags & Tport.RX_BUF) == 0 && m.size > rx.len)
        {
            rx.error = "message of " + m.size + " bytes from VP " + m.sender + " (tag " + m.tag
                + ") does not fit the posted receive of " + rx.len + " bytes";
            nic.threadCopy(hw, 0, new byte[0], rx.wordVa(), 1, readyNs);
            releaseSender(m, readyNs);
            return;
        }
        if ((rx.flags & Tport.RX_BUF) != 0 && m.size > port.bigmsg && !rx.usePostedBuffer(m.size))
        {
            rx.error = "message of " + m.size + " bytes from VP " + m.sender + " exceeds the system buffers (bigmsg "
                + port.bigmsg + ")";
            nic.threadCopy(hw, 0, new byte[0], rx.wordVa(), 1, readyNs);
            releaseSender(m, readyNs);
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

    /**
     * A matched message the receive refused (too long): its sender still completes, as it does once
     * a receive has matched it. A synchronous inline sender gets its acknowledgement; a big one's
     * completion event gets the firings of its gets, from gets of 0 bytes that move no data.
     */
    private void releaseSender(final Message m, final long readyNs)
    {
        if (m.kind == KIND_SYNC)
        {
            acknowledge(m.sender, m.senderCompletion, readyNs);
        }
        else if (m.kind == KIND_BIG)
        {
            final int fragments = Math.max(1, (m.size + fragSize - 1) / fragSize);
            nic.origin().schedule(readyNs, t ->
            {
                for (int f = 0; f < fragments; f++)
                {
                    final E3DmaMain d = new E3DmaMain();
                    d.dma_type = Elan3.E3_DMA_TYPE(Elan3.DMA_BYTE, Elan3.DMA_READ, Elan3.DMA_NORMAL, retryCount);
                    d.dma_size = 0;
                    d.dma_source = m.senderBuffer;
                    d.dma_dest = 0;
                    d.dma_destEvent = 0;
                    d.dma_srcEvent = m.senderCompletion;
                    d.dma_destCookieVProc = base.vp();
                    d.dma_srcCookieVProc = m.sender;
                    writeDescriptor(d, threadDescriptor);
                    nic.command(hw, threadDescriptorVa);
                }
            });
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
}
