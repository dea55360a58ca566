package org.qsnet.tports;

import org.qsnet.elan3.Elan3;
import org.qsnet.elan3.Elan3Context;
import org.qsnet.fabric.machine.PlatformProfile;

/**
 * The event of a Tports send: a word event in host memory the NIC writes when the send is
 * complete (inline: envelope delivered; TX_SYNC or big: matched / pulled by the receiver).
 */
public final class TxEvent extends WordEvent
{
    private final long descriptor;
    private final long staging;

    TxEvent(final Tport port, final Elan3Context ctx, final PlatformProfile profile)
    {
        super(port, ctx, profile);
        this.descriptor = ctx.allocElan(Elan3.E3_DMA_ALIGN, Elan3.E3_DMA_SIZE);
        this.staging = ctx.allocMain(64, 320);
    }

    private int destVp;
    private int tag;
    private int len;
    private boolean sync;

    void arm(final int flags, final int dest, final int t, final int length)
    {
        rearm();
        destVp = dest;
        tag = t;
        len = length;
        sync = (flags & Tport.TX_SYNC) != 0;
    }

    /**
     * @return the send in its user's terms (what a deadlock report says the process waits for).
     */
    @Override
    public String toString()
    {
        return "Tports " + (sync ? "synchronous " : "") + "send of tag " + tag + ", " + len + " B to VP " + destVp;
    }

    /** A receiver on the same node matched this synchronous send (shared-memory path). */
    void completeFromPeer()
    {
        ctx.hardware().putInt(wordVa(), 1, org.qsnet.fabric.memory.Mmu.WRITE);
        ctx.hardware().signalWrite(wordVa());
    }

    long descriptor()
    {
        return descriptor;
    }

    long staging()
    {
        return staging;
    }

    @Override
    protected void release()
    {
        port.recycle(this);
    }

    /** @return the calls that consume a Tports send event. */
    @Override
    protected String waitCalls()
    {
        return "elan_tportTxWait (or elan_wait)";
    }

    /**
     * {@code elan_tportTxDone}.
     *
     * @return whether the send has completed.
     */
    public boolean txDone()
    {
        return done();
    }

    /**
     * {@code elan_tportTxWait}: waits for the send to complete (the buffer may then be reused);
     * consumes the event.
     */
    public void txWait()
    {
        waitEvent(Elan3.ELAN_POLL_EVENT);
    }
}
