package org.qsnet.fabric.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** A failure that ended nothing (every process had ended) does not outlive its run (found by a review of bc29bec). */
class FailedRunEndKernelTest
{
    @Test
    void aProcessSpawnedAfterAFailedRunEndedByItselfIsNotKilledByThatOldFailure()
    {
        final Kernel k = new Kernel();
        k.endRunWhenAProcessFails(1_000);
        k.spawn(100, "bad", self ->
        {
            self.advance(5);
            throw new IllegalStateException("boom");
        });
        k.spawn(101, "good", self -> self.advance(900));
        assertEquals(900, k.run().endNs());
        // the run returned (the failed process's job is over); a new process runs on
        k.spawn(102, "later", self -> self.advance(5_000));
        final RunReport r = k.run();
        assertEquals(ProcessState.DONE, r.outcomes().get(2).state());
        assertEquals(5_900, r.endNs());
    }
}
