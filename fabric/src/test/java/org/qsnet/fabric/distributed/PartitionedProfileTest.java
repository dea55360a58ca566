package org.qsnet.fabric.distributed;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.RecordComponent;

import org.junit.jupiter.api.Test;
import org.qsnet.fabric.QsnetException;
import org.qsnet.fabric.engine.Kernel;
import org.qsnet.fabric.machine.Machine;
import org.qsnet.fabric.machine.PlatformProfile;
import org.qsnet.fabric.network.Partitioning;

/**
 * A partitioned machine refuses, by name, NIC retry intervals shorter than the lookahead: every
 * retry is a quiescence probe the other partitions must receive before their window reaches it.
 */
class PartitionedProfileTest
{
    @Test
    void shouldRefuseABarrierRetryShorterThanTheLookaheadInPartitions() throws Exception
    {
        final PlatformProfile p = with(PlatformProfile.pentium3He(), "queueRetryNs", 80L);
        new Machine(new Kernel(), p, null); // one JVM: any interval
        final QsnetException e = assertThrows(QsnetException.class,
            () -> new Machine(new Kernel(), p, new Partitioning(2, 0, 16)));
        assertTrue(e.getMessage().contains("queueRetryNs 80 ns must be at least 8 x the wire delay (160 ns)"), e.getMessage());
    }

    @Test
    void shouldRefuseADriverRestartShorterThanTheLookaheadInPartitions() throws Exception
    {
        final PlatformProfile p = with(with(PlatformProfile.pentium3He(), "interruptNs", 5L), "driverNs", 5L);
        final QsnetException e = assertThrows(QsnetException.class,
            () -> new Machine(new Kernel(), p, new Partitioning(2, 1, 16)));
        assertTrue(e.getMessage().contains("interruptNs + driverNs 10 ns must be at least the wire delay (20 ns)"),
            e.getMessage());
    }

    /** A copy of a profile with one component changed. */
    private static PlatformProfile with(final PlatformProfile p, final String name, final Object value) throws Exception
    {
        final RecordComponent[] rc = PlatformProfile.class.getRecordComponents();
        final Object[] args = new Object[rc.length];
        final Class<?>[] types = new Class<?>[rc.length];
        for (int i = 0; i < rc.length; i++)
        {
            types[i] = rc[i].getType();
            args[i] = rc[i].getName().equals(name) ? value : rc[i].getAccessor().invoke(p);
        }
        return PlatformProfile.class.getDeclaredConstructor(types).newInstance(args);
    }
}
