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

    @Override
    protected String failure()
    {
        return error;
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
     */
    public Tport.RxResult rxWait()
    {
        waitEvent(Elan3.ELAN_POLL_EVENT);
        return new Tport.RxResult(sender, tag, size, (flags & Tport.RX_PROBE) != 0 ? 0 : dataAddr);
    }
}
