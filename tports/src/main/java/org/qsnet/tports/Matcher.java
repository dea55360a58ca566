package org.qsnet.tports;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

import org.qsnet.elan3.Elan3Context;
import org.qsnet.fabric.QsnetException;
import org.qsnet.fabric.machine.PlatformProfile;
import org.qsnet.fabric.nic.Elan3Nic;

/**
 * Tports matching: a {@link Tport}'s posted receives and the unexpected messages it holds, matched
 * by sender and tag under masks ({@link Tport#matches}), {@code RX_ANY} and {@code RX_PROBE}. For
 * the NIC path the receiving NIC's thread processor does it, {@code threadOpNs} per operation: a
 * fixed cost per envelope or posted receive plus one per receive or message scanned; for the
 * shared-memory path the receiving library does it on the host. A match is handed to the
 * {@link Protocols} or the {@link SharedMemoryPath}, whichever carried the message.
 */
final class Matcher
{
    /** Thread-processor operations to take an envelope from the queue and start matching it. */
    private static final int ENVELOPE_OPS = 5;
    /** Thread-processor operations to post a receive. */
    private static final int POST_OPS = 2;

    private final Tport port;
    private final Elan3Context ctx;
    private final Elan3Nic nic;
    private final PlatformProfile profile;
    private final Tport.TportStats stats;
    private final ArrayDeque<RxEvent> posted = new ArrayDeque<>();
    private final List<Message> unexpected = new ArrayList<>();

    Matcher(final Tport port)
    {
        this.port = port;
        this.ctx = port.ctx;
        this.nic = port.nic;
        this.profile = port.profile;
        this.stats = port.stats;
    }

    private static boolean matches(final RxEvent rx, final Message m)
    {
        return (rx.flags & Tport.RX_ANY) != 0
            || Tport.matches(rx.senderMask, rx.senderSel, rx.tagMask, rx.tagSel, m.sender, m.tag);
    }

    /** The thread posts a receive: the first unexpected message it matches, or the list of posted receives. */
    void post(final RxEvent rx, final long now)
    {
        int scanned = 0;
        for (final Iterator<Message> it = unexpected.iterator(); it.hasNext();)
        {
            final Message m = it.next();
            scanned++;
            if (matches(rx, m))
            {
                if ((rx.flags & Tport.RX_PROBE) == 0)
                {
                    it.remove();
                }
                if (m.shmFragments > 0)
                {
                    if ((rx.flags & Tport.RX_PROBE) != 0)
                    {
                        port.shm.probe(rx, m, now);
                    }
                    else
                    {
                        port.shm.claim(rx, m, now);
                    }
                }
                else
                {
                    port.protocols.deliver(rx, m, nic.threadWork(now, POST_OPS + scanned), false);
                }
                return;
            }
        }
        nic.threadWork(now, POST_OPS + scanned);
        posted.addLast(rx);
    }

    /** The thread matches an envelope taken from the queue: the first posted receive, or the unexpected list. */
    void onEnvelope(final Message m, final long now)
    {
        final Tport from = port.shm.peer(m.sender);
        if (from != null)
        {
            from.shm.envelopeTaken(port.base.vp());
        }
        int scanned = 0;
        for (final Iterator<RxEvent> it = posted.iterator(); it.hasNext();)
        {
            final RxEvent rx = it.next();
            scanned++;
            if (matches(rx, m))
            {
                it.remove();
                if ((rx.flags & Tport.RX_PROBE) != 0)
                {
                    unexpected.add(m);
                }
                port.protocols.deliver(rx, m, nic.threadWork(now, ENVELOPE_OPS + scanned), true);
                return;
            }
        }
        nic.threadWork(now, ENVELOPE_OPS + scanned);
        if (m.kind != Protocols.KIND_BIG && m.size > port.bigmsg)
        {
            throw new QsnetException("unexpected message of " + m.size + " bytes exceeds bigmsg " + port.bigmsg);
        }
        unexpected.add(m);
        if (m.data != null)
        {
            stats.nBuf++;
            stats.bufBytes += m.size;
        }
    }

    /** The receiving library matches a shared-memory message on the host when its first fragment arrives. */
    void onShmMessage(final Message m, final long now)
    {
        for (final Iterator<RxEvent> it = posted.iterator(); it.hasNext();)
        {
            final RxEvent rx = it.next();
            if (matches(rx, m))
            {
                it.remove();
                if ((rx.flags & Tport.RX_PROBE) != 0)
                {
                    unexpected.add(m);
                    port.shm.probe(rx, m, now);
                    return;
                }
                port.shm.claim(rx, m, now);
                return;
            }
        }
        unexpected.add(m);
    }

    /**
     * The cancel of {@link Tport#rxCancel}: the host writes the request by programmed I/O, the
     * thread takes {@code rx} off the posted receives (one operation per receive scanned, as
     * posting costs), the host reads the answer back across PCI.
     *
     * @return whether {@code rx} was still posted (and is now withdrawn).
     */
    boolean withdraw(final RxEvent rx)
    {
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
        return found;
    }

    /** The first unexpected message matching the criteria, as {@code elan_tportRxPoll} reports it, or null. */
    Tport.RxResult poll(final int senderMask, final int senderSel, final int tagMask, final int tagSel)
    {
        for (final Message m : unexpected)
        {
            if (Tport.matches(senderMask, senderSel, tagMask, tagSel, m.sender, m.tag))
            {
                return new Tport.RxResult(m.sender, m.tag, m.size, 0);
            }
        }
        return null;
    }
}
