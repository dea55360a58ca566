package org.qsnet.tports;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.qsnet.elan3.Prun;
import org.qsnet.fabric.engine.SimulationException;
import org.qsnet.fabric.machine.PlatformProfile;

import legacy.TportMismatch;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class TportWaitReportTest
{
    @Test
    void shouldNameTheTportsReceiveAndSendEachRankWaitsFor()
    {
        final SimulationException e = assertThrows(SimulationException.class, () -> Prun.run(PlatformProfile.pentium3He(),
            new Prun.Options(2, 2, false, 0, Map.of()), TportMismatch.class));
        final String m = e.getMessage();
        assertTrue(m.startsWith("deadlock at "), m);
        assertTrue(m.contains("job 0 rank 0: BLOCKED, clock "), m);
        assertTrue(m.contains(", in RxEvent.rxWait, called at legacy.TportMismatch.main(TportMismatch.java:26), waits for Tports"
            + " receive of tag 7 from sender 1 into 64 B [NIC write to 0x"), m);
        assertTrue(m.contains(", in TxEvent.txWait, called at legacy.TportMismatch.main(TportMismatch.java:30), waits for Tports"
            + " synchronous send of tag 9, 1000 B to VP 0 [NIC write to 0x"), m);
    }
}
