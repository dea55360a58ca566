package org.qsnet.fabric.machine;

/**
 * What link errors cost a run, and the proof that they lost nothing: packets the fabric
 * retransmitted after a CRC error, queued packets the destination refused because an earlier
 * packet of their stream was still being retried (each sent again, in order), and copies the
 * destination discarded as duplicates.
 *
 * @param crcRetries          packets rejected for a CRC error and retransmitted.
 * @param outOfOrderRefusals  queued packets refused to keep their queue's order, then resent.
 * @param duplicatesDiscarded packets received a second time and discarded.
 */
public record LinkErrorStats(long crcRetries, long outOfOrderRefusals, long duplicatesDiscarded)
{
    /**
     * @param other more statistics.
     * @return the sum of both.
     */
    public LinkErrorStats plus(final LinkErrorStats other)
    {
        return new LinkErrorStats(crcRetries + other.crcRetries, outOfOrderRefusals + other.outOfOrderRefusals,
            duplicatesDiscarded + other.duplicatesDiscarded);
    }
}
