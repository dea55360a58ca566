package org.qsnet.tports;

import org.qsnet.elan3.Elan3Context;
import org.qsnet.fabric.engine.Signal;
import org.qsnet.fabric.machine.PlatformProfile;
import org.qsnet.fabric.nic.Elan3Nic;
import org.qsnet.fabric.nic.NicContext;

/**
 * The shared-memory path between processes of one node: the sender copies the message into a
 * FIFO of {@code shm_fifodepth} fragments of {@code shm_fragsize} bytes shared with the
 * receiver (a cached memcpy), the receiver's library takes it from there and matches it on the
 * host. No NIC, no PCI. A full FIFO holds the sender until the receiver drains a fragment. A
 * fragment of a message no receive has matched yet is copied out into a system buffer as it
 * arrives, as the NIC path buffers an unexpected message, so unexpected messages never hold the
 * FIFO: a sender waits only for the receiver's copying, never for it to post a receive (once a
 * defect: 16 unexpected messages filled the FIFO, and the 17th {@code elan_tportTxStart} blocked
 * until the receiver posted a receive, a deadlock the NIC path did not have). The copy out of
 * the system buffer at the match costs what draining the FIFO then cost. Each port's instance
 * is the receiving side of its own FIFO; a sender fills the receiver's.
 */
final class SharedMemoryPath
{
    private final Tport port;
    private final Elan3Context ctx;
    private final NicContext hw;
    private final Elan3Nic nic;
    private final PlatformProfile profile;
    private final Tport.TportStats stats;
    private final int shmFifoDepth;
    private final int shmFragSize;
    private final int shmBigmsg;
    private int shmInFlight;
    private final Signal shmSpace = new Signal("shared-memory FIFO space");

    SharedMemoryPath(final Tport port, final int shmFifoDepth, final int shmFragSize, final int shmBigmsg)
    {
        this.port = port;
        this.ctx = port.ctx;
        this.hw = port.hw;
        this.nic = port.nic;
        this.profile = port.profile;
        this.stats = port.stats;
        this.shmFifoDepth = shmFifoDepth;
        this.shmFragSize = shmFragSize;
        this.shmBigmsg = shmBigmsg;
    }

    /** The port of {@code destVp} when it is on this node and has one; else null. */
    Tport peer(final int destVp)
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
     * Messages this port sent through the NIC to each VP on this node whose envelopes that VP's
     * port has not taken yet. A message that would go through shared memory goes through the NIC
     * behind them instead, so messages between a pair are not overtaken (once a defect: a small
     * message sent after one above {@code shm_bigmsg} reached the matcher first and took the
     * receive posted for the big one).
     */
    private final java.util.Map<Integer, Integer> nicAhead = new java.util.HashMap<>();

    boolean nicAhead(final int destVp)
    {
        return nicAhead.containsKey(destVp);
    }

    void sentByNic(final int destVp)
    {
        nicAhead.merge(destVp, 1, Integer::sum);
    }

    /** The port of {@code destVp} has taken the envelope of one of this port's NIC messages to it. */
    void envelopeTaken(final int destVp)
    {
        nicAhead.computeIfPresent(destVp, (k, v) -> v > 1 ? v - 1 : null);
    }

    /** Whether a message of {@code len} bytes to a port on this node goes through shared memory ({@code shm_bigmsg}). */
    boolean carries(final int len)
    {
        return len <= shmBigmsg;
    }

    /** Sends a message into the FIFO of {@code to}, a port on this node. */
    TxEvent send(final Tport to, final boolean sync, final int myVp, final int tag, final long buf, final int len)
    {
        final SharedMemoryPath dest = to.shm;
        final TxEvent tx = port.takeTx();
        tx.arm(sync ? Tport.TX_SYNC : 0, to.base.vp(), tag, len);
        final byte[] data = new byte[len];
        ctx.raw().read(buf, data, 0, len);
        final int fragments = Math.max(1, (len + shmFragSize - 1) / shmFragSize);
        final Message m = new Message();
        m.sender = myVp;
        m.tag = tag;
        m.size = len;
        m.kind = sync ? Protocols.KIND_SYNC : Protocols.KIND_INLINE;
        m.data = data;
        m.shmFragments = fragments;
        m.shmTx = sync ? tx : null;
        final var sim = ctx.owner().sim();
        for (int f = 0; f < fragments; f++)
        {
            // wait for room in the FIFO: the receiver drains it as it copies fragments out
            sim.awaitUntil(() -> dest.shmInFlight < dest.shmFifoDepth, dest.shmSpace, tx);
            dest.shmInFlight++;
            sim.advance(profile.hostCallNs() + memcpyNs(Math.min(shmFragSize, len - f * shmFragSize)));
            nic.origin().schedule(sim.nowNs(), t -> dest.onShmFragment(m, t));
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

    private void onShmFragment(final Message m, final long now)
    {
        m.fragsArrived++;
        if (m.fragsArrived == 1)
        {
            // the first fragment announces the message to the receiving library
            stats.nShmRx++;
            port.matcher.onShmMessage(m, now);
            if (m.rx != null)
            {
                return;
            }
        }
        if (m.rx == null)
        {
            spill(m, now);
            return;
        }
        drainShm(m, now);
    }

    /** An unmatched message's fragments leave the FIFO for a system buffer as they arrive. */
    private void spill(final Message m, final long now)
    {
        while (m.fragsDrained < m.fragsArrived)
        {
            final int bytes = Math.min(shmFragSize, m.size - m.fragsDrained * shmFragSize);
            m.fragsDrained++;
            m.fragsSpilled++;
            m.drainFreeNs = Math.max(m.drainFreeNs, now) + memcpyNs(bytes);
            nic.origin().schedule(m.drainFreeNs, t ->
            {
                shmInFlight--;
                shmSpace.fire();
            });
        }
    }

    /** A probe matched a shared-memory message: the library reports it without taking it. */
    void probe(final RxEvent rx, final Message m, final long now)
    {
        rx.sender = m.sender;
        rx.tag = m.tag;
        rx.size = m.size;
        nic.origin().schedule(now + profile.hostCallNs(), t -> port.setWord(rx));
    }

    /** A receive takes a shared-memory message: it copies out every fragment there and to come. */
    void claim(final RxEvent rx, final Message m, final long now)
    {
        rx.sender = m.sender;
        rx.tag = m.tag;
        rx.size = m.size;
        if ((rx.flags & Tport.RX_BUF) == 0 && m.size > rx.len)
        {
            rx.error = "message of " + m.size + " bytes from VP " + m.sender + " (tag " + m.tag
                + ") does not fit the posted receive of " + rx.len + " bytes";
        }
        else if ((rx.flags & Tport.RX_BUF) != 0 && m.size > port.bigmsg && !rx.usePostedBuffer(m.size))
        {
            // as through the NIC: the system buffer holds bigmsg bytes (copying more would overrun it)
            rx.error = "message of " + m.size + " bytes from VP " + m.sender + " exceeds the system buffers (bigmsg "
                + port.bigmsg + ")";
        }
        rx.dataAddr = rx.destinationHost();
        m.rx = rx;
        // copy out what was spilled into the system buffer: what draining it from the FIFO costs
        long free = now;
        for (int f = 0; f < m.fragsSpilled; f++)
        {
            free += profile.hostCallNs() + memcpyNs(Math.min(shmFragSize, m.size - f * shmFragSize));
        }
        m.drainFreeNs = free;
        if (m.fragsSpilled > 0 && m.fragsDrained == m.shmFragments)
        {
            nic.origin().schedule(free, t -> complete(m, rx));
            return;
        }
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
                    complete(m, rx);
                }
            });
        }
    }

    /** The whole message is out of the FIFO (or the system buffer): into the receive buffer, the receive done. */
    private void complete(final Message m, final RxEvent rx)
    {
        if (rx.error == null && m.size > 0)
        {
            hw.write(rx.destination(), m.data, 0, m.data.length, org.qsnet.fabric.memory.Mmu.WRITE, "receive buffer");
            if (m.fragsSpilled > 0)
            {
                stats.bRxBytes += m.size;
            }
            else
            {
                stats.dRxBytes += m.size;
            }
        }
        port.setWord(rx);
        if (m.shmTx != null)
        {
            m.shmTx.completeFromPeer();
        }
    }
}
