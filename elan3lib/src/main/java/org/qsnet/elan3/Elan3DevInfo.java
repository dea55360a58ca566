package org.qsnet.elan3;

/**
 * {@code ELAN3_DEVINFO}, filled by {@code elan3_devinfo(rail, &info)}: the node's position in the
 * network, in both layouts of ELAN-API.md §1.2.3 — the older ("pre-KITE") fields directly in the
 * struct and the later ones under {@code Position} — so code written for either reads
 * {@code info.NodeId} or {@code info.Position.NodeId}. Mutable, like the C struct.
 */
public final class Elan3DevInfo
{
    /** {@code NodeId}: this node's Elan id. */
    public int NodeId;
    /** {@code NumLevels}: switch levels of the network. */
    public int NumLevels;
    /** {@code NodeLevel}: the level the node hangs from (0: nodes are the leaves). */
    public int NodeLevel;
    /** {@code NumNodes}: nodes in the network (not in the catalog's field list; issue 8 names it). */
    public int NumNodes;
    /** {@code Position}: the same fields in the later layout. */
    public final Position Position = new Position();

    /**
     * {@code ELAN3_DEVINFO.Position} (the later layout).
     */
    public static final class Position
    {
        /** {@code Position.NodeId}. */
        public int NodeId;
        /** {@code Position.NumLevels}. */
        public int NumLevels;
        /** {@code Position.NodeLevel}. */
        public int NodeLevel;
        /** {@code Position.NumNodes}. */
        public int NumNodes;

        Position()
        {
        }
    }

    void set(final int nodeId, final int numLevels, final int numNodes)
    {
        NodeId = nodeId;
        NumLevels = numLevels;
        NodeLevel = 0;
        NumNodes = numNodes;
        Position.NodeId = nodeId;
        Position.NumLevels = numLevels;
        Position.NodeLevel = 0;
        Position.NumNodes = numNodes;
    }

    @Override
    public String toString()
    {
        return "ELAN3_DEVINFO node " + NodeId + " of " + NumNodes + ", " + NumLevels + " levels";
    }
}
