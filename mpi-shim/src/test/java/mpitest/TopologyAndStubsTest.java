package mpitest;

import static mpitest.Job.check;

import java.util.Arrays;
import java.util.concurrent.TimeUnit;

import mpi.CartComm;
import mpi.DistGraphNeighbors;
import mpi.File;
import mpi.GraphComm;
import mpi.Intercomm;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Distributed graphs, neighbourhood collectives, attributes, iDup, and the clear refusals (MPI-IO, spawn). */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class TopologyAndStubsTest
{
    public static final class Topo
    {
        public static void main(final String[] args) throws MPIException
        {
            MPI.Init(args);
            final int rank = MPI.COMM_WORLD.getRank();
            final int n = MPI.COMM_WORLD.getSize();
            final int right = (rank + 1) % n;
            final int left = (rank - 1 + n) % n;

            // a directed ring as a distributed graph, named by the edge's source (createDistGraph)
            final GraphComm ring = MPI.COMM_WORLD.createDistGraph(new int[] {rank}, new int[] {1}, new int[] {right},
                new int[] {rank + 10}, MPI.INFO_NULL, false);
            check(ring.getTopology() == MPI.DIST_GRAPH, "topology " + ring.getTopology());
            final DistGraphNeighbors nb = ring.getDistGraphNeighbors();
            check(nb.getInDegree() == 1 && nb.getSource(0) == left && nb.getSourceWeight(0) == left + 10,
                "in-edge from " + nb.getSource(0));
            check(nb.getOutDegree() == 1 && nb.getDestination(0) == right && nb.isWeighted(), "out-edge");
            // the same ring named by both ends (createDistGraphAdjacent), unweighted
            final GraphComm adj = MPI.COMM_WORLD.createDistGraphAdjacent(new int[] {left}, new int[] {right},
                MPI.INFO_NULL, false);
            check(!adj.getDistGraphNeighbors().isWeighted(), "unweighted");
            check(adj.dup().getDistGraphNeighbors().getSource(0) == left, "dup of a distributed graph keeps its edges");
            // neighbourhood collectives along it
            final int[] got = {-9};
            adj.neighborAllGather(new int[] {rank * 3}, 1, MPI.INT, got, 1, MPI.INT);
            check(got[0] == left * 3, "neighborAllGather from " + left + ": " + got[0]);
            final long[] g2 = {-9};
            adj.iNeighborAllToAll(new long[] {rank + 100L}, 1, MPI.LONG, g2, 1, MPI.LONG).waitFor();
            check(g2[0] == left + 100L, "iNeighborAllToAll: " + g2[0]);

            // a periodic 1-D Cartesian grid: neighbours are -1 then +1
            final CartComm cart = MPI.COMM_WORLD.createCart(new int[] {n}, new boolean[] {true}, false);
            final int[] both = new int[2];
            cart.neighborAllGather(new int[] {rank}, 1, MPI.INT, both, 1, MPI.INT);
            check(n < 3 || both[0] == left && both[1] == right, "cart neighborAllGather " + Arrays.toString(both));
            final CartComm open = MPI.COMM_WORLD.createCart(new int[] {n}, new boolean[] {false}, false);
            final int[] edge = {-5, -5};
            open.neighborAllToAllv(new int[] {10 * rank, 10 * rank + 1}, new int[] {1, 1}, new int[] {0, 1}, MPI.INT,
                edge, new int[] {1, 1}, new int[] {0, 1}, MPI.INT);
            check(rank == 0 ? edge[0] == -5 : edge[0] == 10 * left + 1, "from the -1 side: " + edge[0]);
            check(rank == n - 1 ? edge[1] == -5 : edge[1] == 10 * right, "from the +1 side: " + edge[1]);
            check(cart.dup().getTopology() == MPI.CART, "dup of a Cartesian communicator keeps its grid");

            // no topology: a clear error
            MPI.COMM_WORLD.setErrhandler(MPI.ERRORS_RETURN);
            try
            {
                MPI.COMM_WORLD.neighborAllGather(new int[1], 1, MPI.INT, new int[1], 1, MPI.INT);
                check(false, "neighbourhood collective without a topology");
            }
            catch (final MPIException e)
            {
                check(e.getErrorClass() == MPI.ERR_TOPOLOGY, "error class " + e.getErrorClass());
            }

            // attributes, info, iDup
            final int key = Intracomm.createKeyval();
            MPI.COMM_WORLD.setAttr(key, "value " + rank);
            check(("value " + rank).equals(MPI.COMM_WORLD.getAttr(key)), "attribute");
            check(((Integer)MPI.COMM_WORLD.getAttr(MPI.TAG_UB)) == MPI.TAG_UB, "TAG_UB attribute");
            check(Boolean.TRUE.equals(MPI.COMM_WORLD.getAttr(MPI.WTIME_IS_GLOBAL)), "WTIME_IS_GLOBAL");
            MPI.COMM_WORLD.deleteAttr(key);
            check(MPI.COMM_WORLD.getAttr(key) == null, "deleted attribute");
            final Intracomm d = MPI.COMM_WORLD.iDup();
            d.getRequest().waitFor();
            final int[] s = new int[1];
            d.allReduce(new int[] {1}, s, 1, MPI.INT, MPI.SUM);
            check(s[0] == n, "iDup communicator works");

            // what is refused, refused clearly
            try
            {
                new File(MPI.COMM_WORLD, "/tmp/x", MPI.MODE_CREATE | MPI.MODE_RDWR);
                check(false, "MPI-IO");
            }
            catch (final MPIException e)
            {
                check(e.getErrorClass() == MPI.ERR_UNSUPPORTED_OPERATION && e.getMessage().contains("MPI-IO"),
                    "MPI-IO refusal: " + e.getMessage());
            }
            try
            {
                MPI.COMM_WORLD.spawn("worker", null, 2, MPI.INFO_NULL, 0, null);
                check(false, "spawn");
            }
            catch (final MPIException e)
            {
                check(e.getErrorClass() == MPI.ERR_SPAWN, "spawn refusal class " + e.getErrorClass());
            }
            check(Intercomm.getParent().isNull(), "a launched job has no parent");
            MPI.Finalize();
        }
    }

    @ParameterizedTest(name = "{0} ranks")
    @ValueSource(ints = {1, 2, 3, 4, 8})
    void shouldSupportDistGraphsNeighbourhoodCollectivesAndRefuseMpiIoClearly(final int n)
    {
        Job.run(n, Topo.class);
    }
}
