package mpi;

/**
 * The adjacency of this process in a distributed graph topology ({@code MPI_DIST_GRAPH_NEIGHBORS}):
 * the processes whose edges end here (sources) and those this process's edges go to (destinations),
 * with their weights.
 */
public final class DistGraphNeighbors
{
    private final int[] sources;
    private final int[] sourceWeights;
    private final int[] destinations;
    private final int[] destWeights;
    private final boolean weighted;

    DistGraphNeighbors(final int[] sources, final int[] sourceWeights, final int[] destinations,
        final int[] destWeights, final boolean weighted)
    {
        this.sources = sources;
        this.sourceWeights = sourceWeights;
        this.destinations = destinations;
        this.destWeights = destWeights;
        this.weighted = weighted;
    }

    /**
     * @return edges into this process.
     */
    public int getInDegree()
    {
        return sources.length;
    }

    /**
     * @return edges out of this process.
     */
    public int getOutDegree()
    {
        return destinations.length;
    }

    /**
     * @return false when the graph was created unweighted ({@code MPI_UNWEIGHTED}).
     */
    public boolean isWeighted()
    {
        return weighted;
    }

    /**
     * @param i a source index.
     * @return the process of the i-th edge into this one.
     */
    public int getSource(final int i)
    {
        return sources[i];
    }

    /**
     * @param i a source index.
     * @return the weight of that edge (1 when unweighted).
     */
    public int getSourceWeight(final int i)
    {
        return sourceWeights == null ? 1 : sourceWeights[i];
    }

    /**
     * @param i a destination index.
     * @return the process of the i-th edge out of this one.
     */
    public int getDestination(final int i)
    {
        return destinations[i];
    }

    /**
     * @param i a destination index.
     * @return the weight of that edge (1 when unweighted).
     */
    public int getDestinationWeight(final int i)
    {
        return destWeights == null ? 1 : destWeights[i];
    }
}
