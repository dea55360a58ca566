package org.qsnet.elan3;

/**
 * {@code ELAN_POSITION}, filled by {@code elan3_get_position(ctx, &pos)} (the newer form of
 * ELAN-API.md §1.2.3). Mutable, like the C struct.
 */
public final class ElanPosition
{
    /** {@code ELAN_POS_MODE_SWITCHED}: the node is on a switched network. */
    public static final int ELAN_POS_MODE_SWITCHED = 1;

    /** {@code pos_mode}: always {@link #ELAN_POS_MODE_SWITCHED} here. */
    public int pos_mode;
    /** {@code pos_nodeid}: this node's Elan id. */
    public int pos_nodeid;
    /** {@code pos_levels}: switch levels (not in the catalog's field list). */
    public int pos_levels;
    /** {@code pos_nodes}: nodes in the network (not in the catalog's field list). */
    public int pos_nodes;

    @Override
    public String toString()
    {
        return "ELAN_POSITION node " + pos_nodeid + " of " + pos_nodes + ", " + pos_levels + " levels";
    }
}
