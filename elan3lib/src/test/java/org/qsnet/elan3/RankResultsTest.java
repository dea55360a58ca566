package org.qsnet.elan3;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.qsnet.fabric.QsnetException;
import org.qsnet.fabric.distributed.PartitionThreads;
import org.qsnet.fabric.engine.ProcessState;
import org.qsnet.fabric.engine.RunReport;
import org.qsnet.fabric.engine.SimulationException;
import org.qsnet.fabric.machine.PlatformProfile;
import org.qsnet.fabric.transport.TransportContext;
import org.qsnet.fabric.transport.local.LocalTransport;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class RankResultsTest
{
    @Test
    void shouldCarryEveryRecordThroughItsEncodingBitForBit()
    {
        final RankResults a = new RankResults();
        a.put("end", 3, 123_456_789L);
        a.put("end", -1, Long.MIN_VALUE);
        a.putDouble("bandwidth", 0, 314.159_265_358_979);
        a.putDouble("nan", 0, Double.longBitsToDouble(0x7ff8_0000_0000_0001L));
        final RankResults b = new RankResults();
        b.put("end", 7, 5);
        b.merge(a.encode());
        assertEquals(123_456_789L, b.get("end", 3));
        assertEquals(Long.MIN_VALUE, b.get("end", -1));
        assertEquals(314.159_265_358_979, b.getDouble("bandwidth", 0));
        assertEquals(0x7ff8_0000_0000_0001L, Double.doubleToRawLongBits(b.getDouble("nan", 0)));
        assertEquals(123_456_789L, b.max("end"));
        assertTrue(b.has("end", 7));
        assertFalse(b.has("end", 8));
        // the same records merged again (a partition's own, sent back by partition 0) change nothing
        b.merge(a.encode());
        assertEquals(b.toString(), mergedOf(b).toString());
    }

    private static RankResults mergedOf(final RankResults r)
    {
        final RankResults copy = new RankResults();
        copy.merge(r.encode());
        return copy;
    }

    @Test
    void shouldRefuseAFigureTwoPartitionsRecordedDifferentlyAndOneNobodyRecorded()
    {
        final RankResults a = new RankResults();
        a.put("latency", 0, 10);
        final RankResults b = new RankResults();
        b.put("latency", 0, 11);
        final QsnetException twice = assertThrows(QsnetException.class, () -> a.merge(b.encode()));
        assertTrue(twice.getMessage().contains("latency[0]"), twice.getMessage());
        final QsnetException none = assertThrows(QsnetException.class, () -> a.get("latency", 1));
        assertTrue(none.getMessage().contains("latency[1] was not recorded"), none.getMessage());
        assertThrows(QsnetException.class, () -> a.max("bandwidth"));
    }

    @Test
    void shouldGiveEveryPartitionEveryRanksRecordsAndOutcomes()
    {
        // every partition's ranks fill their own RankResults, as in separate JVMs: after the run each
        // holds all 16 ranks' records and the report all 16 ranks, in launch order
        final PlatformProfile profile = PlatformProfile.pentium3He();
        final int partitions = 4;
        final List<LocalTransport> transports = LocalTransport.createJob(new TransportContext().jobId(42)
            .jobKey(new byte[16]).partition(0, partitions));
        final RankResults[] results = new RankResults[partitions];
        final Prun.PartitionedResult[] runs = new Prun.PartitionedResult[partitions];
        PartitionThreads.run(transports, part ->
        {
            results[part] = new RankResults();
            final RankResults mine = results[part];
            runs[part] = Prun.runPartitioned(profile, transports.get(part), mine, s -> s.launch(
                new Prun.Options(16, 16, false, 0, Map.of()), (p, a) ->
                {
                    p.sim().advance(1_000L * (p.rank() + 1));
                    mine.put("end", p.rank(), p.nowNs());
                }));
        });
        for (int part = 0; part < partitions; part++)
        {
            for (int rank = 0; rank < 16; rank++)
            {
                assertEquals(1_000L * (rank + 1), results[part].get("end", rank), "partition " + part + ", rank " + rank);
            }
            final RunReport r = runs[part].report();
            assertEquals(16, r.outcomes().size());
            for (int rank = 0; rank < 16; rank++)
            {
                assertEquals("job 0 rank " + rank, r.outcomes().get(rank).name());
                assertEquals(ProcessState.DONE, r.outcomes().get(rank).state());
            }
            assertEquals(runs[0].traceSum(), runs[part].traceSum());
        }
    }

    @Test
    void shouldReportARankThatFailedInAnotherPartitionInEveryPartition()
    {
        final List<LocalTransport> transports = LocalTransport.createJob(new TransportContext().jobId(43)
            .jobKey(new byte[16]).partition(0, 2));
        final RunReport[] reports = new RunReport[2];
        PartitionThreads.run(transports, part -> reports[part] = Prun.runPartitioned(PlatformProfile.pentium3He(),
            transports.get(part), new RankResults(), s -> s.launch(new Prun.Options(16, 16, false, 0, Map.of()), (p, a) ->
            {
                if (p.rank() == 15)
                {
                    throw new IllegalStateException("rank 15 gives up");
                }
            })).report());
        for (final RunReport r : reports)
        {
            final SimulationException e = assertThrows(SimulationException.class, r::throwIfFailed);
            assertTrue(e.getMessage().contains("job 0 rank 15") && e.getMessage().contains("rank 15 gives up"), e.getMessage());
        }
    }
}
