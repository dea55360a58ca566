package org.qsnet.tports;

import org.qsnet.fabric.QsnetException;

/**
 * What {@link RxEvent#rxWait} throws when the matched message did not fit the receive (longer
 * than the posted buffer, or than the system buffers of an {@code RX_BUF} receive): the message
 * was matched and consumed, its data not delivered. Besides the reason, it carries the matched
 * message's envelope, which {@code elan_tportRxWait} returns through its out-parameters, so a
 * layer above can say whose message it refused (MPI's status of a truncated receive names the
 * sender and tag).
 */
public final class ReceiveTruncated extends QsnetException
{
    private static final long serialVersionUID = 1L;

    private final int sender;
    private final int tag;
    private final int size;

    ReceiveTruncated(final String message, final int sender, final int tag, final int size)
    {
        super(message);
        this.sender = sender;
        this.tag = tag;
        this.size = size;
    }

    /**
     * @return the refused message's sender VP.
     */
    public int sender()
    {
        return sender;
    }

    /**
     * @return the refused message's tag (all 32 bits, as sent).
     */
    public int tag()
    {
        return tag;
    }

    /**
     * @return the refused message's size in bytes.
     */
    public int size()
    {
        return size;
    }
}
