package legacy;

import static org.qsnet.elan.Elanlib.ELAN_REDUCE_COMMUTE;
import static org.qsnet.elan.Elanlib.ELAN_RESULT_ALL;
import static org.qsnet.elan.Elanlib.elan_allocMain;
import static org.qsnet.elan.Elanlib.elan_baseInit;
import static org.qsnet.elan.Elanlib.elan_bcast;
import static org.qsnet.elan.Elanlib.elan_clock;
import static org.qsnet.elan.Elanlib.elan_gsync;
import static org.qsnet.elan.Elanlib.elan_hgsync;
import static org.qsnet.elan.Elanlib.elan_reduce;

import org.qsnet.elan.ElanBase;
import org.qsnet.elan.ElanGroup;
import org.qsnet.elan.ElanReducer;

/**
 * A runtime's Elan machine layer with collectives, in the manner of Charm++'s elan
 * {@code machine.c}, ported from ELAN-API.md §2.9: {@code elan_gsync} and {@code elan_hgsync} on
 * {@code base->allGroup}, {@code elan_bcast} from several roots, {@code elan_reduce} with its 11
 * arguments and a C-shaped reducer {@code (in, inout, count, handle)} — a sum
 * ({@code ELAN_RESULT_ALL}, the machine layer's allreduce) and an associative, non-commutative
 * one (composition of affine maps, to the root only) — and a barrier on a group made with {@code ElanBase.group} (with an argument, a broadcast or a reduce
 * on it).
 *
 * <p>Prints on rank 0: {@code coll: N ranks, bcast crc sum X, sum S, compose A B, group sum S2}.
 */
public final class MachineLayer
{
    // C globals
    static ElanBase base;
    static int me;
    static int nvp;
    static int reducerCalls;

    static final int BCAST_LEN = 3000;
    static final int NELEM = 4;

    /** C: {@code static void sum_longs(void *in, void *inout, int *count, void *handle)}. */
    static final ElanReducer SUM = (in, inout, count, handle) ->
    {
        reducerCalls++;
        for (int i = 0; i < count[0]; i++)
        {
            base.ctx().putLong(inout + 8L * i, base.ctx().getLong(inout + 8L * i) + base.ctx().getLong(in + 8L * i));
        }
    };

    /**
     * C: {@code compose(in, inout, count, handle)} on pairs (a, b) standing for x -> a x + b:
     * inout = inout ∘ in (apply the earlier operand first), associative, not commutative.
     */
    static final ElanReducer COMPOSE = (in, inout, count, handle) ->
    {
        reducerCalls++;
        for (int i = 0; i < count[0]; i += 2)
        {
            final long a1 = base.ctx().getLong(in + 8L * i);
            final long b1 = base.ctx().getLong(in + 8L * i + 8);
            final long a2 = base.ctx().getLong(inout + 8L * i);
            final long b2 = base.ctx().getLong(inout + 8L * i + 8);
            base.ctx().putLong(inout + 8L * i, a2 * a1);
            base.ctx().putLong(inout + 8L * i + 8, a2 * b1 + b2);
        }
    };

    private MachineLayer()
    {
    }

    /**
     * @param args {@code back-to-back}: broadcasts from different roots without a barrier between them;
     *             {@code evens}: the group of the even ranks only; {@code reverse}: the group of every VP in
     *             reverse order; {@code group-bcast}, {@code group-reduce}: elan_bcast, elan_reduce on the group of every VP.
     */
    public static void main(final String[] args)
    {
        final boolean racing = args.length > 0 && args[0].equals("back-to-back");
        base = elan_baseInit(0);
        me = base.state.vp;
        nvp = base.state.nvp;
        final ElanGroup all = base.allGroup;
        final long t0 = elan_clock(base.state);
        elan_gsync(all);
        elan_hgsync(all);

        // broadcasts from up to four roots
        final long buf = elan_allocMain(base.state, 64, BCAST_LEN);
        long bcastSum = 0;
        for (int root = 0; root < Math.min(nvp, 4); root++)
        {
            final int len = BCAST_LEN - 500 * root;
            if (me == root)
            {
                base.ctx().write(buf, Payload.bytes(root, -1, 7, len), 0, len);
            }
            if (root > 0 && !racing)
            {
                // without this barrier a new root overwrites a slow member's staging area (known defect)
                elan_gsync(all);
            }
            elan_bcast(all, buf, len, root, 0);
            final byte[] got = new byte[len];
            base.ctx().read(buf, got, 0, len);
            final long crc = Payload.crc(got, 0, len);
            if (crc != Payload.crc(root, -1, 7, len))
            {
                final byte[] want = Payload.bytes(root, -1, 7, len);
                int bad = 0;
                while (got[bad] == want[bad])
                {
                    bad++;
                }
                throw new IllegalStateException("rank " + me + ": bcast of " + len + " B from root " + root
                    + " differs from byte " + bad + " (got " + got[bad] + ", expected " + want[bad] + ")");
            }
            bcastSum += crc;
        }

        // allreduce: sum of 4 longs
        final long src = elan_allocMain(base.state, 8, 8 * NELEM);
        final long dst = elan_allocMain(base.state, 8, 8 * NELEM);
        for (int i = 0; i < NELEM; i++)
        {
            base.ctx().putLong(src + 8L * i, (long)(me + 1) << (8 * i));
        }
        elan_reduce(all, src, dst, 8, NELEM, SUM, null, 0, 0, ELAN_REDUCE_COMMUTE | ELAN_RESULT_ALL, 0);
        final long tri = (long)nvp * (nvp + 1) / 2;
        for (int i = 0; i < NELEM; i++)
        {
            if (base.ctx().getLong(dst + 8L * i) != tri << (8 * i))
            {
                throw new IllegalStateException("rank " + me + ": allreduce element " + i + " is "
                    + base.ctx().getLong(dst + 8L * i) + ", expected " + (tri << (8 * i)));
            }
        }

        // non-commutative reduce to the root: the composition in rank order
        base.ctx().putLong(src, me + 2);
        base.ctx().putLong(src + 8, 3L * me + 1);
        base.ctx().putLong(dst, 0);
        base.ctx().putLong(dst + 8, 0);
        elan_reduce(all, src, dst, 8, 2, COMPOSE, null, 0, 0, 0, 0);
        long a = 1;
        long b = 0;
        for (int r = 0; r < nvp; r++)
        {
            // apply rank 0's map first: x -> a_r (a x + b) + b_r
            a = (r + 2) * a;
            b = (r + 2) * b + 3L * r + 1;
        }
        final long ga = base.ctx().getLong(dst);
        final long gb = base.ctx().getLong(dst + 8);
        if (me == 0 && (ga != a || gb != b))
        {
            throw new IllegalStateException("compose reduce gave (" + ga + ", " + gb + "), expected (" + a + ", " + b + ")");
        }

        // a group of its own, every process creating it in the same order: every VP; with "reverse",
        // every VP in reverse order; with "evens", the even ranks only (both known defects)
        final boolean evensOnly = args.length > 0 && args[0].equals("evens");
        final boolean reverse = args.length > 0 && args[0].equals("reverse");
        final int[] members = new int[evensOnly ? (nvp + 1) / 2 : nvp];
        for (int i = 0; i < members.length; i++)
        {
            members[i] = evensOnly ? 2 * i : reverse ? nvp - 1 - i : i;
        }
        long evenSum = -1;
        if (!evensOnly || me % 2 == 0)
        {
            final ElanGroup g = base.group(members);
            elan_gsync(g);
            long want = 0;
            for (final int m : members)
            {
                want += m;
            }
            if (args.length == 0)
            {
                // elan_bcast and elan_reduce on a made group: known defects (modes group-bcast, group-reduce)
                base.ctx().putLong(dst, want);
            }
            else if (args[0].equals("group-bcast"))
            {
                base.ctx().putLong(dst, me == members[0] ? want : 0);
                elan_bcast(g, dst, 8, 0, 0);
            }
            else
            {
                base.ctx().putLong(src, me);
                elan_reduce(g, src, dst, 8, 1, SUM, null, 0, 0, ELAN_RESULT_ALL, 0);
            }
            evenSum = base.ctx().getLong(dst);
            if (evenSum != want)
            {
                throw new IllegalStateException("rank " + me + ": sum over the group is " + evenSum + ", expected " + want);
            }
        }
        elan_gsync(all);
        if (elan_clock(base.state) <= t0 || nvp > 1 && reducerCalls == 0 && me == 0)
        {
            throw new IllegalStateException("rank " + me + ": clock or reducer never moved");
        }
        if (me == 0)
        {
            System.out.printf("coll: %d ranks, bcast crc sum %x, sum %d, compose %d %d, group sum %d%n", nvp, bcastSum,
                tri, ga, gb, evenSum);
        }
    }
}
