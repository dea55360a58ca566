package legacy;

import static org.qsnet.elan.Elanlib.ELAN_POLL_EVENT;
import static org.qsnet.elan.Elanlib.elan_allocMain;
import static org.qsnet.elan.Elanlib.elan_baseInit;
import static org.qsnet.elan.Elanlib.elan_clock;
import static org.qsnet.elan.Elanlib.elan_done;
import static org.qsnet.elan.Elanlib.elan_gallocMain;
import static org.qsnet.elan.Elanlib.elan_gsync;
import static org.qsnet.elan.Elanlib.elan_put;
import static org.qsnet.elan.Elanlib.elan_wait;

import org.qsnet.elan.ElanBase;
import org.qsnet.elan.ElanEvent;


/**
 * An Elanlib put ping-pong in the manner of ParaStation's {@code elan_pp_lowlevel.c}, ported from
 * ELAN-API.md §2.2, §2.5 and §2.8: {@code elan_baseInit}, a symmetric receive buffer from
 * {@code elan_gallocMain}, {@code elan_put} into the peer's copy, the sender spinning
 * {@code while (!elan_done(ev, 0))}, the receiver spinning on the last word of its buffer, which
 * carries the round's mark. Ranks pair up (0 with 1, 2 with 3, …); an odd last rank sits out.
 *
 * <p>Prints per pair leader: {@code pp: rank R sizes S rounds N crc sum X}.
 */
public final class PutPingPong
{
    // C globals
    static ElanBase base;
    static long rbuf;
    static long sbuf;

    static final int[] SIZES = {4, 64, 68, 1000, 4096, 16384};

    private PutPingPong()
    {
    }

    /**
     * @param args rounds per size (default 5).
     */
    public static void main(final String[] args)
    {
        final int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 5;
        base = elan_baseInit(0);
        if (base == null)
        {
            throw new IllegalStateException("elan_baseInit failed");
        }
        final int me = base.state.vp;
        final int peer = me ^ 1;
        final int max = SIZES[SIZES.length - 1];
        rbuf = elan_gallocMain(base, base.allGroup, 64, max);
        sbuf = elan_allocMain(base.state, 64, max);
        if (peer >= base.state.nvp)
        {
            elan_gsync(base.allGroup);
            return;
        }
        long crcSum = 0;
        final long start = elan_clock(base.state);
        for (final int size : SIZES)
        {
            for (int r = 0; r < rounds; r++)
            {
                final int mark = size * 1000 + r + 1;
                if ((me & 1) == 0)
                {
                    send(size, mark, me, peer, r);
                    crcSum += receive(size, mark, peer, me, r);
                }
                else
                {
                    crcSum += receive(size, mark, peer, me, r);
                    send(size, mark, me, peer, r);
                }
            }
        }
        final long ns = elan_clock(base.state) - start;
        elan_gsync(base.allGroup);
        if ((me & 1) == 0)
        {
            System.out.printf("pp: rank %d sizes %d rounds %d crc sum %x%n", me, SIZES.length, rounds, crcSum);
        }
        if (ns <= 0)
        {
            throw new IllegalStateException("elan_clock did not advance over the ping-pong");
        }
    }

    /** Fills sbuf (the last word is the mark) and puts it into the peer's rbuf. */
    private static void send(final int size, final int mark, final int me, final int peer, final int round)
    {
        final byte[] data = Payload.bytes(me, peer, size * 100 + round, size);
        base.ctx().write(sbuf, data, 0, size - 4);
        base.ctx().putInt(sbuf + size - 4, mark);
        final ElanEvent ev = elan_put(base.state, sbuf, rbuf, size, peer);
        while (!elan_done(ev, 0))
        {
            // spin, as the C program does
        }
        elan_wait(ev, ELAN_POLL_EVENT);
    }

    /** Spins on rbuf's last word until the mark arrives, then checks the payload; returns its CRC. */
    private static long receive(final int size, final int mark, final int from, final int me, final int round)
    {
        while (base.ctx().getInt(rbuf + size - 4) != mark)
        {
            // C: while (buf[size / 4 - 1] != mark) ;
        }
        final byte[] got = new byte[size - 4];
        base.ctx().read(rbuf, got, 0, size - 4);
        final byte[] want = Payload.bytes(from, me, size * 100 + round, size);
        for (int i = 0; i < size - 4; i++)
        {
            if (got[i] != want[i])
            {
                throw new IllegalStateException("rank " + me + ": " + size + "-byte put from " + from + " round " + round
                    + ": byte " + i + " is " + got[i] + ", expected " + want[i] + " (the mark had arrived)");
            }
        }
        return Payload.crc(got, 0, size - 4);
    }
}
