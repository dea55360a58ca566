package legacy;

import static org.qsnet.elan3.Elan3lib.elan3_addvp;
import static org.qsnet.elan3.Elan3lib.elan3_attach;
import static org.qsnet.elan3.Elan3lib.elan3_devinfo;
import static org.qsnet.elan3.Elan3lib.elan3_init;
import static org.qsnet.elan3.Elan3lib.elan3_location2vp;
import static org.qsnet.elan3.Elan3lib.elan3_maxlocal;
import static org.qsnet.elan3.Elan3lib.elan3_nlocal;
import static org.qsnet.elan3.Elan3lib.elan3_nvps;
import static org.qsnet.elan3.Elan3lib.elan3_process;
import static org.qsnet.elan3.Elan3lib.elan3_set_required_mappings;
import static org.qsnet.elan3.Elan3lib.elan3_vp2location;
import static org.qsnet.elan3.Elan3lib.rms_getcap;
import static org.qsnet.elan3.Elan3lib.rms_mycap;

import org.qsnet.elan3.Elan3Context;
import org.qsnet.elan3.Elan3DevInfo;
import org.qsnet.elan3.ElanCapability;
import org.qsnet.elan3.ElanLocation;
import org.qsnet.elan3.Rms;

/**
 * The VP layout a program derives from its capability, checked against ELAN-API.md §1.2.5 and §4.4
 * only: {@code loc_node} = physical node id − {@code LowNode}, {@code loc_context} =
 * {@code MyContext} − {@code LowContext}; block layout VP = relative node × ppn + local index,
 * cyclic VP = relative node + local index × nnodes; {@code elan3_process} equals {@code RMS_RANK};
 * {@code RMS_NODEID} is the relative node; {@code elan3_nlocal}/{@code elan3_maxlocal};
 * {@code elan3_location2vp} inverts {@code elan3_vp2location} and gives -1 for a context outside
 * the range. {@code args[0]}: block or cyclic, {@code args[1]}: nodes.
 */
public final class Elan3Layout
{
    private Elan3Layout()
    {
    }

    static void check(final boolean ok, final String what)
    {
        if (!ok)
        {
            throw new IllegalStateException(what);
        }
    }

    /**
     * @param args layout, nodes.
     */
    public static void main(final String[] args)
    {
        final boolean cyclic = args[0].equals("cyclic");
        final int nnodes = Integer.parseInt(args[1]);
        final ElanCapability cap = new ElanCapability();
        final int[] capIndex = new int[1];
        check(rms_mycap(capIndex) >= 0 && rms_getcap(capIndex[0], cap) >= 0, "rms_getcap");
        final Elan3Context ctx = elan3_init(0, 0x400000, 0x2000000, 0x200000, 0x200000);
        elan3_set_required_mappings(ctx);
        check(elan3_attach(ctx, cap) == 0, "elan3_attach");
        check(elan3_addvp(ctx, 0, cap) >= 0, "elan3_addvp");
        final int vp = elan3_process(ctx);
        final int nvp = elan3_nvps(cap);
        final int ppn = nvp / nnodes;
        final Elan3DevInfo info = new Elan3DevInfo();
        check(elan3_devinfo(0, info) == 0, "elan3_devinfo");
        final int rank = Integer.parseInt(Rms.getenv("RMS_RANK"));
        final int relNode = Integer.parseInt(Rms.getenv("RMS_NODEID"));
        final String me = "VP " + vp + " (" + args[0] + ", rank " + rank + ", node id " + info.Position.NodeId + ", context 0x"
            + Integer.toHexString(cap.myContext) + ")";
        check(vp == rank, me + ": elan3_process is not RMS_RANK");
        check(relNode == info.Position.NodeId - cap.lowNode, me + ": RMS_NODEID " + relNode + " is not node id - LowNode");
        final ElanLocation loc = elan3_vp2location(vp, cap);
        check(loc.node() == info.Position.NodeId - cap.lowNode, me + ": loc_node " + loc.node());
        check(loc.context() == cap.myContext - cap.lowContext, me + ": loc_context " + loc.context());
        final int local = loc.context();
        final int want = cyclic ? loc.node() + local * nnodes : loc.node() * ppn + local;
        check(vp == want, me + ": VP is not the " + args[0] + " formula's " + want);
        check(elan3_maxlocal(cap) == ppn, me + ": elan3_maxlocal " + elan3_maxlocal(cap));
        for (int n = 0; n < nnodes; n++)
        {
            check(elan3_nlocal(n, cap) == ppn, me + ": elan3_nlocal(" + n + ") = " + elan3_nlocal(n, cap));
        }
        for (int v = 0; v < nvp; v++)
        {
            check(elan3_location2vp(elan3_vp2location(v, cap), cap) == v, me + ": location2vp(vp2location(" + v + "))");
        }
        check(elan3_location2vp(new ElanLocation(0, ppn + 3), cap) == ElanCapability.ELAN_INVALID_PROCESS,
            me + ": a context outside the range has a VP");
        check(elan3_location2vp(new ElanLocation(nnodes, 0), cap) == ElanCapability.ELAN_INVALID_PROCESS,
            me + ": a node outside the range has a VP");
        if (vp == 0)
        {
            System.out.println("ok layout " + args[0]);
        }
    }
}
