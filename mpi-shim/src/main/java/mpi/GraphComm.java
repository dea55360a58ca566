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

    /**
     * {@code MPI_COMM_DUP}: a graph communicator with the same topology.
     *
     * @return the copy.
     * @throws MPIException on an error.
     */
    @Override
    public GraphComm dup() throws MPIException
    {
        return call(() -> new GraphComm(dupState(state())));
    }

    @Override
    public GraphComm clone()
    {
        return (GraphComm)super.clone();
    }

    /**
     * {@code MPI_COMM_IDUP} (complete in the call; see {@link Comm#iDup()}).
     *
     * @return the copy.
     * @throws MPIException on an error.
     */
    @Override
    public GraphComm iDup() throws MPIException
    {
        final GraphComm d = dup();
        return withRequest(d, d.state());
    }

    /**
     * {@code MPI_DIST_GRAPH_NEIGHBORS_COUNT} and {@code MPI_DIST_GRAPH_NEIGHBORS}: this process's
     * edges in and out (on a graph topology, its neighbours both ways, unweighted).
     *
     * @return the adjacency.
     * @throws MPIException on an error.
     */
    public DistGraphNeighbors getDistGraphNeighbors() throws MPIException
    {
        final CommState c = state();
        final int[][] nb = c.neighbours();
        final boolean weighted = c.topology == MPI.DIST_GRAPH && c.distSourceWeights != null;
        return new DistGraphNeighbors(nb[0].clone(), weighted ? c.distSourceWeights.clone() : null, nb[1].clone(),
            weighted ? c.distDestWeights.clone() : null, weighted);
    }

    /**
     * {@code MPI_GRAPH_MAP}: the rank this process would have in a graph of {@code index.length}
     * nodes (no reordering: its own rank, or {@link MPI#UNDEFINED} beyond the graph).
     *
     * @param index cumulative neighbour counts.
     * @param edges the neighbours.
     * @return the rank, or {@link MPI#UNDEFINED}.
     * @throws MPIException on an error.
     */
    public int map(final int[] index, final int[] edges) throws MPIException
    {
        final int r = state().myRank;
        return r < index.length ? r : MPI.UNDEFINED;
    }
}
