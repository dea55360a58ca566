package org.qsnet.elan3;

import java.util.Arrays;
import java.util.Locale;
import java.util.regex.Matcher;

import org.qsnet.fabric.QsnetException;

/**
 * {@code ELAN_CAPABILITY}: a job's ticket to communicate: a 128-bit key, a range of nodes and of
 * hardware contexts, a layout (block or cyclic), a bitmap of the process slots in use, a rail
 * mask. Fields keep their Elan3-era names; mutable, like the C struct.
 *
 * <p>Process slots: one bit per (node, local process) across {@code LowNode..HighNode}, node
 * {@code k} (relative) owning bits {@code k*ppn .. k*ppn+ppn-1}, where {@code ppn} is the
 * context range's width. VPs number the set bits: block layout node by node, cyclic layout
 * local index by local index; a clear bit is a hole and takes no VP.
 */
public final class ElanCapability
{
    /** Layout: consecutive VPs on one node. */
    public static final int ELAN_CAP_TYPE_BLOCK = 0x1;
    /** Layout: consecutive VPs on consecutive nodes. */
    public static final int ELAN_CAP_TYPE_CYCLIC = 0x2;
    /** Mask of the layout bits. */
    public static final int ELAN_CAP_TYPE_MASK = 0xF;
    /** Flag: several rails. */
    public static final int ELAN_CAP_TYPE_MULTI_RAIL = 0x10;
    /** Flag: the nodes are contiguous, so hardware broadcast works. */
    public static final int ELAN_CAP_TYPE_BROADCASTABLE = 0x20;
    /** Flag: no bitmap; every slot is in use. */
    public static final int ELAN_CAP_TYPE_NO_BITMAP = 0x40;
    /** Flag: hardware test. */
    public static final int ELAN_CAP_TYPE_HWTEST = 0x80;
    /** Bits in the bitmap. */
    public static final int ELAN_BITMAPSIZE = 16_384;
    /** Largest number of VPs. */
    public static final int ELAN_MAX_VPS = 16_384;
    /** First user context. */
    public static final int ELAN_USER_BASE_CONTEXT_NUM = 0x400;
    /** Last user context. */
    public static final int ELAN_USER_TOP_CONTEXT_NUM = 0x7ff;
    /** A VP with no process. */
    public static final int ELAN_INVALID_PROCESS = -1;

    private static final java.util.regex.Pattern STRING =
        java.util.regex.Pattern.compile("N(\\d+)C(\\d+)-(\\d+)-(\\d+)N(\\d+)-(\\d+)R(\\d+)([bc])");

    /** {@code UserKey.Values[4]}. */
    public final int[] userKey = new int[4];
    /** {@code Type}. */
    public int type;
    /** {@code Version}. */
    public int version;
    /** {@code LowContext}. */
    public int lowContext;
    /** {@code HighContext}. */
    public int highContext;
    /** {@code MyContext}. */
    public int myContext;
    /** {@code LowNode}. */
    public int lowNode;
    /** {@code HighNode}. */
    public int highNode;
    /** {@code Entries}. */
    public int entries;
    /** {@code RailMask}. */
    public int railMask;
    /** {@code Bitmap}: one bit per process slot. */
    public final int[] bitmap = new int[ELAN_BITMAPSIZE / 32];

    /**
     * Resets every field to known values: {@code elan3_nullcap}.
     */
    public void nullcap()
    {
        Arrays.fill(userKey, 0);
        type = 0;
        version = 1;
        lowContext = -1;
        highContext = -1;
        myContext = -1;
        lowNode = -1;
        highNode = -1;
        entries = 0;
        railMask = 1;
        Arrays.fill(bitmap, 0);
    }

    /**
     * A null capability.
     */
    public ElanCapability()
    {
        nullcap();
    }

    /**
     * @return a copy.
     */
    public ElanCapability copy()
    {
        final ElanCapability c = new ElanCapability();
        copyInto(c);
        return c;
    }

    /**
     * Copies every field into another capability (as C assigns one struct to another).
     *
     * @param c the capability overwritten.
     */
    public void copyInto(final ElanCapability c)
    {
        System.arraycopy(userKey, 0, c.userKey, 0, 4);
        c.type = type;
        c.version = version;
        c.lowContext = lowContext;
        c.highContext = highContext;
        c.myContext = myContext;
        c.lowNode = lowNode;
        c.highNode = highNode;
        c.entries = entries;
        c.railMask = railMask;
        System.arraycopy(bitmap, 0, c.bitmap, 0, bitmap.length);
    }

    /**
     * Sets the bit of a slot: {@code BT_SET}.
     *
     * @param slot slot index.
     */
    public void setBit(final int slot)
    {
        bitmap[slot >>> 5] |= 1 << (slot & 31);
    }

    /**
     * @param slot slot index.
     * @return whether the slot is in use.
     */
    public boolean bit(final int slot)
    {
        if ((type & ELAN_CAP_TYPE_NO_BITMAP) != 0)
        {
            return true;
        }
        return slot >= 0 && slot < ELAN_BITMAPSIZE && (bitmap[slot >>> 5] & (1 << (slot & 31))) != 0;
    }

    private void checkShape()
    {
        if (lowNode < 0 || highNode < lowNode || lowContext < 0 || highContext < lowContext)
        {
            throw new QsnetException("capability is not set up: nodes " + lowNode + ".." + highNode + ", contexts "
                + lowContext + ".." + highContext);
        }
    }

    private int nodes()
    {
        return highNode - lowNode + 1;
    }

    /**
     * @return processes per node slots: the width of the context range ({@code elan3_maxlocal}).
     */
    public int maxlocal()
    {
        checkShape();
        return highContext - lowContext + 1;
    }

    /**
     * @param relNode a node relative to {@code LowNode}.
     * @return processes on it ({@code elan3_nlocal}).
     */
    public int nlocal(final int relNode)
    {
        checkShape();
        int n = 0;
        for (int l = 0; l < maxlocal(); l++)
        {
            n += bit(relNode * maxlocal() + l) ? 1 : 0;
        }
        return n;
    }

    /**
     * @return the number of VPs ({@code elan3_nvps}).
     */
    public int nvps()
    {
        checkShape();
        int n = 0;
        for (int s = 0; s < nodes() * maxlocal(); s++)
        {
            n += bit(s) ? 1 : 0;
        }
        return n;
    }

    private boolean cyclic()
    {
        return (type & ELAN_CAP_TYPE_MASK) == ELAN_CAP_TYPE_CYCLIC;
    }

    /**
     * @param vp a VP.
     * @return its relative location ({@code elan3_vp2location}).
     */
    public ElanLocation vp2location(final int vp)
    {
        checkShape();
        final int ppn = maxlocal();
        int v = 0;
        for (int i = 0; i < nodes() * ppn; i++)
        {
            final int node = cyclic() ? i % nodes() : i / ppn;
            final int local = cyclic() ? i / nodes() : i % ppn;
            if (bit(node * ppn + local))
            {
                if (v == vp)
                {
                    return new ElanLocation(node, local);
                }
                v++;
            }
        }
        throw new QsnetException("VP " + vp + " is outside the capability's " + nvps() + " VPs");
    }

    /**
     * The relative location of every VP, in one pass over the bitmap ({@code elan3_addvp} loads the
     * whole VP table; asking {@link #vp2location} VP by VP would cost O(P) each).
     *
     * @param node    filled with each VP's relative node.
     * @param context filled with each VP's relative context.
     */
    void locations(final int[] node, final int[] context)
    {
        checkShape();
        final int ppn = maxlocal();
        int v = 0;
        for (int i = 0; i < nodes() * ppn && v < node.length; i++)
        {
            final int n = cyclic() ? i % nodes() : i / ppn;
            final int local = cyclic() ? i / nodes() : i % ppn;
            if (bit(n * ppn + local))
            {
                node[v] = n;
                context[v] = local;
                v++;
            }
        }
    }

    /**
     * @param loc a relative location.
     * @return its VP, or {@link #ELAN_INVALID_PROCESS} for a hole ({@code elan3_location2vp}).
     */
    public int location2vp(final ElanLocation loc)
    {
        checkShape();
        final int ppn = maxlocal();
        if (loc.node() < 0 || loc.node() >= nodes() || loc.context() < 0 || loc.context() >= ppn
            || !bit(loc.node() * ppn + loc.context()))
        {
            return ELAN_INVALID_PROCESS;
        }
        int v = 0;
        for (int i = 0; i < nodes() * ppn; i++)
        {
            final int node = cyclic() ? i % nodes() : i / ppn;
            final int local = cyclic() ? i / nodes() : i % ppn;
            if (node == loc.node() && local == loc.context())
            {
                return v;
            }
            v += bit(node * ppn + local) ? 1 : 0;
        }
        return ELAN_INVALID_PROCESS;
    }

    /**
     * @return rails in the rail mask ({@code elan3_nrails}).
     */
    public int nrails()
    {
        return Integer.bitCount(railMask);
    }

    /**
     * @return the rail numbers in the rail mask ({@code elan3_rails}).
     */
    public int[] rails()
    {
        final int[] r = new int[nrails()];
        for (int i = 0, j = 0; i < 32; i++)
        {
            if ((railMask & (1 << i)) != 0)
            {
                r[j++] = i;
            }
        }
        return r;
    }

    /**
     * The compact string form {@code N<myNode>C<low>-<my>-<high>N<lowNode>-<highNode>R<railMask><b|c>}.
     *
     * @param myNode this process's node.
     * @return the string.
     */
    public String toCompactString(final int myNode)
    {
        return "N" + myNode + "C" + lowContext + "-" + myContext + "-" + highContext + "N" + lowNode + "-" + highNode
            + "R" + railMask + (cyclic() ? "c" : "b");
    }

    /**
     * Builds a capability from the compact string ({@code elan_generateCapability}): every slot of
     * the node and context ranges in use.
     *
     * @param s   e.g. {@code "N3C2-3-5N0-7R1b"}.
     * @param key the key (the string carries none).
     * @return the capability.
     */
    public static ElanCapability fromCompactString(final String s, final int[] key)
    {
        final Matcher m = STRING.matcher(s);
        if (!m.matches())
        {
            throw new QsnetException("capability string '" + s + "' does not match N<node>C<low>-<my>-<high>N<low>-<high>R<mask><b|c>");
        }
        final ElanCapability c = new ElanCapability();
        c.lowContext = Integer.parseInt(m.group(2));
        c.myContext = Integer.parseInt(m.group(3));
        c.highContext = Integer.parseInt(m.group(4));
        c.lowNode = Integer.parseInt(m.group(5));
        c.highNode = Integer.parseInt(m.group(6));
        c.railMask = Integer.parseInt(m.group(7));
        c.type = (m.group(8).equals("c") ? ELAN_CAP_TYPE_CYCLIC : ELAN_CAP_TYPE_BLOCK) | ELAN_CAP_TYPE_MULTI_RAIL;
        QsnetException.require(c.myContext >= c.lowContext && c.myContext <= c.highContext, "MyContext", c.myContext,
            "must be in " + c.lowContext + ".." + c.highContext);
        for (int i = 0; i < (c.highNode - c.lowNode + 1) * (c.highContext - c.lowContext + 1); i++)
        {
            c.setBit(i);
        }
        c.entries = c.nvps();
        System.arraycopy(key, 0, c.userKey, 0, 4);
        return c;
    }

    /**
     * Human-readable dump ({@code elan3_capability_string}).
     *
     * @return the text.
     */
    public String capabilityString()
    {
        return String.format(Locale.ROOT, "%08x.%08x.%08x.%08x %s%s ctx %d..%d (my %d) nodes %d..%d entries %d rails 0x%x",
            userKey[0], userKey[1], userKey[2], userKey[3], cyclic() ? "cyclic" : "block",
            (type & ELAN_CAP_TYPE_BROADCASTABLE) != 0 ? "+bcast" : "", lowContext, highContext, myContext, lowNode,
            highNode, entries, railMask);
    }

    @Override
    public String toString()
    {
        return capabilityString();
    }
}
