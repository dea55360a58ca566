package org.qsnet.tports;

import org.qsnet.elan3.Elan3;
import org.qsnet.elan3.Elan3Context;
import org.qsnet.fabric.QsnetException;
import org.qsnet.fabric.machine.PlatformProfile;

/**
 * The event of a Tports receive: its criteria, the word the NIC writes when the message has been
 * delivered (or probed), and what {@code elan_tportRxWait} returns.
 */
public final class RxEvent extends WordEvent
{
    int flags;
    int senderMask;
    int senderSel;
    int tagMask;
    int tagSel;
    long buf;
    int len;
    private long systemBuffer;
    /** An RX_BUF receive's posted buffer (Elan address, 0: none): where a message above the system buffer goes. */
    private long postedVa;
    /** A system buffer left unused (the message went to the posted buffer): freed when the receive is waited for. */
    private long spareSystemBuffer;
    private long destinationVa;
    int sender;
    int tag;
    int size;
    long dataAddr;
    String error;
    private boolean cancelled;

    RxEvent(final Tport port, final Elan3Context ctx, final PlatformProfile profile)
    {
        super(port, ctx, profile);
    }

    void arm(final int f, final int sm, final int ss, final int tm, final int ts, final long b, final int l,
        final long sysBuf)
    {
        rearm();
        flags = f;
        senderMask = sm;
        senderSel = ss;
        tagMask = tm;
        tagSel = ts;
        buf = b;
        len = l;
        systemBuffer = sysBuf;
        error = null;
        cancelled = false;
        sender = -1;
        tag = 0;
        size = 0;
        dataAddr = 0;
        postedVa = 0;
        spareSystemBuffer = 0;
        if (sysBuf != 0 && l > 0 && b != 0)
        {
            final long va = ctx.main2elan(b);
            postedVa = va == Elan3.ELAN_BAD_ADDR ? 0 : va;
        }
        final long host = sysBuf != 0 ? sysBuf : b;
        if ((f & Tport.RX_PROBE) == 0 && l + (sysBuf != 0 ? 1 : 0) > 0)
        {
            destinationVa = ctx.main2elan(host);
            if (destinationVa == Elan3.ELAN_BAD_ADDR)
            {
                throw new QsnetException("receive buffer 0x" + Long.toHexString(host) + " is not Elan-mapped memory");
            }
        }
        else
        {
            destinationVa = 0;
        }
    }

    /** Marks the receive withdrawn by {@link Tport#rxCancel}; returns its system buffer (0: none) for the port to free. */
    long cancel()
    {
        cancelled = true;
        sender = -1;
        tag = 0;
        size = 0;
        dataAddr = 0;
        final long b = systemBuffer;
        systemBuffer = 0;
        return b;
    }

    /**
     * @return whether {@link Tport#rxCancel} withdrew this receive before a message matched it.
     */
    public boolean cancelled()
    {
        return cancelled;
    }

    /**
     * An RX_BUF receive matched a message larger than its system buffer: the library receives it into
     * the posted buffer when it fits there (ELAN_TPORT_RXBUF lets the library hand back its own buffer;
     * it does not forbid the caller's), and {@code elan_tportRxWait} then returns that buffer.
     *
     * @param size the message's bytes.
     * @return whether the posted buffer takes it (false: no posted buffer, or too small).
     */
    boolean usePostedBuffer(final int size)
    {
        if (systemBuffer == 0 || postedVa == 0 || size > len)
        {
            return false;
        }
        spareSystemBuffer = systemBuffer;
        systemBuffer = 0;
        destinationVa = postedVa;
        return true;
    }

    long destination()
    {
        return destinationVa;
    }

    long destinationHost()
    {
        return systemBuffer != 0 ? systemBuffer : buf;
    }

    @Override
    protected void release()
    {
        port.recycle(this);
    }

    /** @return the calls that consume a Tports receive event. */
    @Override
    protected String waitCalls()
    {
        return "elan_tportRxWait (or elan_wait)";
    }

    @Override
    protected String failure()
    {
        return error;
    }

    /** The failure with the refused message's envelope, recorded when it matched (the event is not re-armed yet). */
    @Override
    protected QsnetException failureException(final String reason)
    {
        return new ReceiveTruncated(reason, sender, tag, size);
    }

    /**
     * @return the receive in its user's terms (what a deadlock report says the process waits for).
     */
    @Override
    public String toString()
    {
        final boolean probe = (flags & Tport.RX_PROBE) != 0;
        return "Tports " + (probe ? "probe" : "receive") + " of " + criterion("tag", tagMask, tagSel) + " from "
            + criterion("sender", senderMask, senderSel) + (probe ? "" : " into " + len + " B");
    }

    private static String criterion(final String what, final int mask, final int sel)
    {
        return mask == 0 ? "any " + what : mask == -1 ? what + " " + sel
            : what + " " + sel + " (mask 0x" + Integer.toHexString(mask) + ")";
    }

    /**
     * {@code elan_tportRxDone}.
     *
     * @return whether the receive has completed.
     */
    public boolean rxDone()
    {
        return done();
    }

    /**
     * {@code elan_tportRxWait}: waits for the message and returns its sender, tag, size and the
     * address of its data (the posted buffer, or a system buffer for RX_BUF, to free with
     * {@link Tport#bufFree}); consumes the event. For RX_PROBE the message stays waiting.
     *
     * @return the result.
     * @throws ReceiveTruncated when the matched message did not fit (it carries the message's sender,
     *                          tag and size).
     */
    public Tport.RxResult rxWait()
    {
        try
        {
            waitEvent(Elan3.ELAN_POLL_EVENT);
        }
        finally
        {
            if (spareSystemBuffer != 0)
            {
                port.bufFree(spareSystemBuffer);
                spareSystemBuffer = 0;
            }
        }
        return new Tport.RxResult(sender, tag, size, (flags & Tport.RX_PROBE) != 0 ? 0 : dataAddr);
    }
}
