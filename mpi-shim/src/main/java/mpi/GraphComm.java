package mpi;

import java.util.Arrays;

/**
 * A communicator with a graph topology.
 */
public final class GraphComm extends Intracomm
{
    GraphComm(final CommState state)
    {
        super(state);
    }

    /**
     * {@code MPI_GRAPH_GET}.
     *
     * @return the index and edges.
     * @throws MPIException on an error.
     */
    public GraphParms getDims() throws MPIException
    {
        final CommState c = state();
        return new GraphParms(c.graphIndex.clone(), c.graphEdges.clone());
    }

    /**
     * {@code MPI_GRAPH_NEIGHBORS}.
     *
     * @param rank a rank.
     * @return its neighbours.
     * @throws MPIException with {@link MPI#ERR_RANK} for a rank outside the graph.
     */
    public int[] getNeighbors(final int rank) throws MPIException
    {
        final CommState c = state();
        c.checkPeer("getNeighbors", "rank", rank, false);
        final int from = rank == 0 ? 0 : c.graphIndex[rank - 1];
        return Arrays.copyOfRange(c.graphEdges, from, c.graphIndex[rank]);
    }
}
