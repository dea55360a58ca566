package mpi;

/**
 * The result of {@link GraphComm#getDims()}: the graph's index and edges.
 */
public final class GraphParms
{
    private final int[] index;
    private final int[] edges;

    GraphParms(final int[] index, final int[] edges)
    {
        this.index = index;
        this.edges = edges;
    }

    /** @return the number of nodes. */
    public int getIndexCount()
    {
        return index.length;
    }

    /** @param i a node @return the cumulative neighbour count up to it. */
    public int getIndex(final int i)
    {
        return index[i];
    }

    /** @return the number of edges. */
    public int getEdgeCount()
    {
        return edges.length;
    }

    /** @param i an edge @return its neighbour. */
    public int getEdge(final int i)
    {
        return edges[i];
    }
}
