package org.qsnet.fabric.network;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.qsnet.fabric.QsnetException;
import org.qsnet.fabric.engine.Kernel;

/**
 * A level whose up links are thinned keeps carrying every packet, over the links left in service.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ThinnedLevelTest
{
    @Test
    void shouldRouteEveryPacketOverTheUpLinksLeftInService()
    {
        for (final boolean adaptive : new boolean[] {true, false})
        {
            final Kernel k = new Kernel();
            final Fabric f = new Fabric(k, FabricConfig.elite(3).withAdaptiveAscent(adaptive));
            f.thinUpLinks(3, 2);
            final RecordingEndpoint[] eps = new RecordingEndpoint[64];
            for (int i = 0; i < 64; i++)
            {
                eps[i] = new RecordingEndpoint(i, 20);
                f.attach(i, eps[i]);
            }
            int sent = 0;
            for (int s = 0; s < 64; s++)
            {
                for (int d = 0; d < 64; d += 7)
                {
                    if (d != s)
                    {
                        f.port(s).inject(Packet.unicast(s, d, 320));
                        sent++;
                    }
                }
            }
            k.run();
            assertEquals(sent, f.deliveredPackets(), "every packet delivered, adaptive " + adaptive);
            for (int w = 0; w < 16; w++)
            {
                final EliteSwitch s = f.switchAt(f.topology().switchId(2, w));
                assertEquals(2, s.upInService());
                assertEquals(0, s.up(2).packets() + s.up(3).packets(), "no packet over a removed link of " + s);
                assertTrue(s.up(0).packets() + s.up(1).packets() > 0, "the kept links carry the traffic of " + s);
            }
        }
    }

    @Test
    void shouldRefuseThinningOutsideTheTreeOrAfterTraffic()
    {
        final Kernel k = new Kernel();
        final Fabric f = new Fabric(k, FabricConfig.elite(3));
        assertEquals("level 1 must be in 2..3", assertThrows(QsnetException.class, () -> f.thinUpLinks(1, 2)).getMessage());
        assertEquals("keep 0 must be in 1..4", assertThrows(QsnetException.class, () -> f.thinUpLinks(3, 0)).getMessage());
        f.attach(0, new RecordingEndpoint(0, 20));
        f.attach(63, new RecordingEndpoint(63, 20));
        f.port(0).inject(Packet.unicast(0, 63, 8));
        k.run();
        assertThrows(QsnetException.class, () -> f.thinUpLinks(3, 2));
    }
}
