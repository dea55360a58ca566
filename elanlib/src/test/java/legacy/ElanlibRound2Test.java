package legacy;

import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.qsnet.fabric.machine.PlatformProfile;

/**
 * {@link ElanlibRound2} under {@code prun}: the second outside conformance round for Elanlib.
 *
 * <p>Once a defect (fixed in {@code ElanBase.gallocQueue}): a galloc'd queue's header came from
 * each process's private Elan heap, so its address differed between members whose private work
 * differed (here the allocations of the program, and in every job where a node held fewer
 * processes than the others, the put slots the start-up barrier used); a queue message then landed
 * elsewhere ("queued DMA of 40 bytes does not fit the queue's 4-byte slots").
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ElanlibRound2Test
{
    static String run(final PlatformProfile p, final int procs, final int nodes, final String scenario)
    {
        return ScenarioJobs.assertPasses(ElanlibRound2.class, p, procs, nodes, scenario);
    }

    static PlatformProfile lossy(final double rate)
    {
        final PlatformProfile p = PlatformProfile.pentium3He();
        return p.withFabric(p.fabric().withCrcErrorRate(rate));
    }

    @ParameterizedTest(name = "{0} ranks on {1} nodes")
    @CsvSource({"3, 2", "5, 3", "4, 4", "4, 1"})
    void shouldGiveCollectiveAllocationsOneAddressWhateverEachMemberDidBefore(final int procs, final int nodes)
    {
        run(PlatformProfile.pentium3He(), procs, nodes, "galloc");
    }

    @ParameterizedTest(name = "{0} ranks on {1} nodes, crcErrorRate {2}")
    @CsvSource({"3, 3, 0", "3, 2, 0", "4, 2, 0.05", "3, 3, 0.2"})
    void shouldReadRemoteMemoryIntactEvenWithLinkErrors(final int procs, final int nodes, final double crc)
    {
        run(crc == 0 ? PlatformProfile.pentium3He() : lossy(crc), procs, nodes, "get");
    }

    @Test
    void shouldRefuseBadArgumentsNamingThem()
    {
        System.err.println(run(PlatformProfile.pentium3He(), 3, 2, "bad-arguments"));
    }
}
