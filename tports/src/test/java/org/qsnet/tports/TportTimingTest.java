package org.qsnet.tports;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.qsnet.elan.ElanBase;
import org.qsnet.elan3.Prun;
import org.qsnet.fabric.machine.PlatformProfile;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class TportTimingTest
{
    private static final PlatformProfile P3 = PlatformProfile.pentium3He();

    private static long sdram(final int bytes)
    {
        return P3.sdramNs(bytes);
    }

    private static long pciRead(final int bytes)
    {
        return P3.pciReadSetupNs() + P3.pciBytesNs(bytes);
    }

    private static long pciWrite(final int bytes)
    {
        return P3.pciWriteSetupNs() + P3.pciBytesNs(bytes);
    }

    @Test
    void shouldTakeExactlyTheSumOfItsMechanismsForAnEightByteMessage()
    {
        final long[] latency = new long[3];
        Prun.run(P3, new Prun.Options(2, 2, false, 0, Map.of()), (p, a) ->
        {
            final ElanBase base = ElanBase.baseInit(0);
            final Tport tp = Tport.init(base);
            final long buf = base.allocMain(64, 64);
            for (int i = 0; i < 3; i++)
            {
                final long slot = 100_000L * (i + 1);
                if (base.vp() == 1)
                {
                    final RxEvent rx = tp.rxStart(0, 0, 0, -1, i, buf, 64);
                    p.sim().advance(slot - p.nowNs());
                    rx.rxWait();
                    latency[i] = p.nowNs() - slot;
                }
                else
                {
                    p.sim().advance(slot - p.nowNs());
                    tp.txStart(0, 1, 0, i, buf, 8).txWait();
                }
            }
        }).throwIfFailed();
        // third message (pools and TLB warm), 8 bytes inline with a 32-byte envelope, on pentium3-he:
        final long host = (P3.hostCallNs() + P3.pioWriteNs())                      // re-arm the send event
            + P3.hostPollNs()                                                       // copy 8 B beside the envelope
            + P3.hostCallNs() + 9 * P3.pioWriteNs();                                // putdma_main of the queued DMA
        final long command = P3.cmdProcNs() + sdram(32);
        final long dma = P3.dmaStartNs() + P3.dmaPacketNs() + pciRead(64);          // envelope + data: one 64-B block
        final long wire = 2 * 20 + 35 + (64 + 58) * 2500 / 1000;                    // 2 links, Elite, 122-byte packet
        final long input = P3.inputPacketNs() + sdram(24) + sdram(64);             // accept, queue header, slot write
        final long match = 6 * P3.threadOpNs();                                     // envelope (5) + one posted receive
        final long deliver = pciWrite(64) + pciWrite(4);                            // data into the buffer, done word
        final long seen = P3.hostPollNs();
        assertEquals(host + command + dma + wire + input + match + deliver + seen, latency[2]);
        assertEquals(4517, latency[2]);
        assertEquals(latency[2], latency[1]);
    }
}
