package org.qsnet.elan;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.qsnet.elan3.Prun;
import org.qsnet.fabric.engine.SimulationException;
import org.qsnet.fabric.machine.PlatformProfile;

import legacy.LostRoot;
import legacy.MissingBarrier;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class WaitReportTest
{
    @Test
    void shouldNameTheBarrierAndThePeerEachRankWaitsFor()
    {
        final SimulationException e = assertThrows(SimulationException.class, () -> Prun.run(PlatformProfile.pentium3He(),
            new Prun.Options(4, 4, false, 0, Map.of()), MissingBarrier.class));
        final String m = e.getMessage();
        assertTrue(m.startsWith("deadlock at "), m);
        assertTrue(m.contains("job 0 rank 3: DONE"), m);
        // dissemination barrier: rank 0 waits for rank 3 in round 0, rank 1 for rank 3 in round 1,
        // rank 2 for rank 0 (stuck) in round 1
        assertTrue(m.contains("job 0 rank 0: BLOCKED, clock "), m);
        assertTrue(m.contains(", in ElanBase.gsync, called at legacy.MissingBarrier.main(MissingBarrier.java:22), waits for"
            + " VP 3 to reach the barrier (round 0) in elan_gsync on group 0 VPs 0..3 (self 0) [NIC write to 0x"), m);
        assertTrue(m.contains("waits for VP 3 to reach the barrier (round 1) in elan_gsync on group 0 VPs 0..3 (self 1)"), m);
        assertTrue(m.contains("waits for VP 0 to reach the barrier (round 1) in elan_gsync on group 0 VPs 0..3 (self 2)"), m);
    }

    @Test
    void shouldNameTheQueueAndTheBroadcastEachRankWaitsFor()
    {
        final SimulationException e = assertThrows(SimulationException.class, () -> Prun.run(PlatformProfile.pentium3He(),
            new Prun.Options(3, 3, false, 0, Map.of()), LostRoot.class));
        final String m = e.getMessage();
        assertTrue(m.contains("job 0 rank 0: BLOCKED, clock "), m);
        assertTrue(java.util.regex.Pattern.compile(", in ElanQueue\\$Rx\\.queueRxWait, called at legacy\\.LostRoot\\.main\\(LostRoot\\.java:\\d+\\),"
            + " waits for a message in the queue at 0x[0-9a-f]+ \\(elan_queueRxWait\\) \\[NIC write to 0x").matcher(m).find(), m);
        assertTrue(m.contains(", in ElanBase.bcast, called at legacy.LostRoot.main(LostRoot.java:"), m);
        assertTrue(m.contains("waits for the data from its parent in elan_bcast on group 0 VPs 0..2 (self 1)"), m);
        assertTrue(m.contains("waits for the data from its parent in elan_bcast on group 0 VPs 0..2 (self 2)"), m);
    }
}
