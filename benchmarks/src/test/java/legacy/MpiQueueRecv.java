package legacy;

import static org.qsnet.elan.Elanlib.ELAN_POLL_EVENT;
import static org.qsnet.elan.Elanlib.ELAN_RAIL_ALL;
import static org.qsnet.elan.Elanlib.elan_allocMain;
import static org.qsnet.elan.Elanlib.elan_baseInit;
import static org.qsnet.elan.Elanlib.elan_gallocQueue;
import static org.qsnet.elan.Elanlib.elan_gsync;
import static org.qsnet.elan.Elanlib.elan_mainQueueInit;
import static org.qsnet.elan.Elanlib.elan_poll;
import static org.qsnet.elan.Elanlib.elan_queueHaveReq;
import static org.qsnet.elan.Elanlib.elan_queueMaxSlotSize;
import static org.qsnet.elan.Elanlib.elan_queueReq;
import static org.qsnet.elan.Elanlib.elan_queueRxComplete;
import static org.qsnet.elan.Elanlib.elan_queueRxInit;
import static org.qsnet.elan.Elanlib.elan_queueRxPoll;
import static org.qsnet.elan.Elanlib.elan_queueRxWait;
import static org.qsnet.elan.Elanlib.elan_queueTx;
import static org.qsnet.elan.Elanlib.elan_queueTxInit;
import static org.qsnet.elan.Elanlib.elan_queueWait;
import static org.qsnet.elan.Elanlib.elan_wait;

import org.qsnet.elan.ElanBase;
import org.qsnet.elan.ElanEvent;
import org.qsnet.elan.ElanQueue;


/**
 * An MPI's queued-DMA receive path in the manner of MPICH2's nemesis elan netmod and Open MPI's
 * elan BTL, ported from ELAN-API.md §2.7: one {@code elan_gallocQueue}, {@code elan_queueRxInit}
 * with {@code elan_queueMaxSlotSize} slots, {@code elan_queueTxInit}; every rank but 0 sends
 * {@code args[0]} messages of 1 to 300 bytes to rank 0 with {@code elan_queueTx}, keeping a window
 * of events it completes with {@code elan_poll}; rank 0 polls {@code elan_queueRxPoll} and takes
 * each message in place ({@code elan_queueRxWait(rx, NULL, …)} then {@code elan_queueRxComplete}),
 * or copied out into a buffer for every fourth. Then the older main-queue API on a second queue:
 * {@code elan_queueReq} from every sender, {@code elan_queueHaveReq}/{@code elan_queueWait} at 0.
 *
 * <p>Prints on rank 0: {@code mpi: N messages from S senders, crc sum X; main queue M, crc sum Y}.
 */
public final class MpiQueueRecv
{
    // C globals
    static ElanBase base;
    static int me;
    static int nvp;

    static final int NSLOTS = 16;
    static final int WINDOW = 8;
    static final int HEADER = 12;

    private MpiQueueRecv()
    {
    }

    /**
     * @param args messages per sender (default 50).
     */
    public static void main(final String[] args)
    {
        final int msgs = args.length > 0 ? Integer.parseInt(args[0]) : 50;
        base = elan_baseInit(0);
        me = base.state.vp;
        nvp = base.state.nvp;
        final int slotSize = elan_queueMaxSlotSize(base.state);
        final ElanQueue q = elan_gallocQueue(base, base.allGroup);
        final ElanQueue.Rx rx = elan_queueRxInit(base.state, q, NSLOTS, slotSize, ELAN_RAIL_ALL, 0);
        final ElanQueue.Tx tx = elan_queueTxInit(base.state, q, ELAN_RAIL_ALL, 0);
        final ElanQueue q2 = elan_gallocQueue(base, base.allGroup);
        final ElanQueue.Main mq = elan_mainQueueInit(base.state, q2, NSLOTS, slotSize, 0);
        elan_gsync(base.allGroup);

        final long copy = elan_allocMain(base.state, 64, slotSize);
        if (me == 0)
        {
            final int[] next = new int[nvp];
            long crcSum = 0;
            final int total = msgs * (nvp - 1);
            for (int got = 0; got < total; got++)
            {
                while (!elan_queueRxPoll(rx, 0))
                {
                    // spin, as the netmod's poll does
                }
                final long slot;
                if (got % 4 == 3)
                {
                    slot = elan_queueRxWait(rx, copy, ELAN_POLL_EVENT);
                }
                else
                {
                    slot = elan_queueRxWait(rx, 0, ELAN_POLL_EVENT);
                }
                crcSum += check(slot, next, slotSize);
                if (got % 4 != 3)
                {
                    elan_queueRxComplete(rx);
                }
            }
            // the main queue
            final int[] next2 = new int[nvp];
            long crcSum2 = 0;
            for (int got = 0; got < total; got++)
            {
                while (!elan_queueHaveReq(mq))
                {
                    // spin
                }
                elan_queueWait(mq, copy, ELAN_POLL_EVENT);
                crcSum2 += check(copy, next2, slotSize);
            }
            System.out.printf("mpi: %d messages from %d senders, crc sum %x; main queue %d, crc sum %x%n", total, nvp - 1,
                crcSum, total, crcSum2);
        }
        else
        {
            final long[] bufs = new long[WINDOW];
            final ElanEvent[] evs = new ElanEvent[WINDOW];
            for (int w = 0; w < WINDOW; w++)
            {
                bufs[w] = elan_allocMain(base.state, 64, slotSize);
            }
            for (int seq = 0; seq < msgs; seq++)
            {
                final int w = seq % WINDOW;
                if (evs[w] != null)
                {
                    while (!elan_poll(evs[w], 0))
                    {
                        // the send buffer is free once the event is done
                    }
                    evs[w] = null;
                }
                final int len = fill(bufs[w], seq, slotSize);
                evs[w] = elan_queueTx(tx, 0, bufs[w], HEADER + len, ELAN_RAIL_ALL);
            }
            for (final ElanEvent e : evs)
            {
                if (e != null)
                {
                    elan_wait(e, ELAN_POLL_EVENT);
                }
            }
            for (int seq = 0; seq < msgs; seq++)
            {
                final int len = fill(bufs[0], seq, slotSize);
                elan_queueReq(mq, 0, bufs[0], HEADER + len);
            }
        }
        elan_gsync(base.allGroup);
    }

    /** Writes message {@code seq}'s header (sender, seq, length) and payload; returns the payload length. */
    private static int fill(final long buf, final int seq, final int slotSize)
    {
        final int len = 1 + (seq * 53 + me * 17) % (slotSize - HEADER);
        base.ctx().putInt(buf, me);
        base.ctx().putInt(buf + 4, seq);
        base.ctx().putInt(buf + 8, len);
        base.ctx().write(buf + HEADER, Payload.bytes(me, 0, seq, len), 0, len);
        return len;
    }

    /** Checks a message in host memory: its sender's next number, its length, its bytes; returns its CRC. */
    private static long check(final long msg, final int[] next, final int slotSize)
    {
        final int from = base.ctx().getInt(msg);
        final int seq = base.ctx().getInt(msg + 4);
        final int len = base.ctx().getInt(msg + 8);
        if (from < 1 || from >= nvp || seq != next[from] || len < 1 || len > slotSize - HEADER)
        {
            throw new IllegalStateException("message from " + from + " seq " + seq + " len " + len + " (expected seq "
                + (from >= 1 && from < nvp ? next[from] : -1) + ")");
        }
        final byte[] got = new byte[len];
        base.ctx().read(msg + HEADER, got, 0, len);
        final long crc = Payload.crc(got, 0, len);
        if (crc != Payload.crc(from, 0, seq, len))
        {
            throw new IllegalStateException("message " + seq + " from " + from + ": checksum mismatch");
        }
        next[from]++;
        return crc;
    }
}
