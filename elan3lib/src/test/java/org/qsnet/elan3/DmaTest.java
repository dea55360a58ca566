package org.qsnet.elan3;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.qsnet.fabric.engine.RunReport;
import org.qsnet.fabric.machine.PlatformProfile;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class DmaTest
{
    @Test
    void shouldPutBytesIntoRemoteElanMemoryAndFireTheDestinationEvent()
    {
        final long[] times = new long[4];
        final RunReport r = Prun.run(PlatformProfile.pentium3He(), new Prun.Options(2, 2, false, 0, Map.of()), (p, args) ->
        {
            final Elan3Context ctx = Elan3Context.open();
            final int me = ctx.process();
            final long buf = ctx.allocElan(64, 4096);
            final long ev = ctx.allocElan(Elan3.E3_EVENT_ALIGN, Elan3.E3_BLOCK_COPY_EVENT_SIZE);
            final long word = ctx.allocMain(8, 8);
            final long scratch = ctx.allocElan(Elan3.E3_DMA_ALIGN, Elan3.E3_DMA_SIZE);
            ctx.initeventWord(ev, word);
            ctx.primeevent(ev, 1);
            ctx.blockInputter(0);
            if (me == 0)
            {
                final long src = ctx.allocMain(64, 4096);
                for (int i = 0; i < 1024; i++)
                {
                    ctx.putInt(src + 4L * i, i * 3);
                }
                p.sim().advance(10_000);
                final E3DmaMain d = new E3DmaMain();
                d.dma_type = Elan3.E3_DMA_TYPE(Elan3.DMA_BYTE, Elan3.DMA_WRITE, Elan3.DMA_NORMAL, 0);
                d.dma_size = 4096;
                d.dma_source = ctx.main2elan(src);
                d.dma_dest = ctx.sdram2elan(buf);
                d.dma_destEvent = ctx.sdram2elan(ev);
                d.dma_destCookieVProc = 1;
                d.dma_srcCookieVProc = ctx.localCookie(0, 1);
                times[0] = p.nowNs();
                ctx.putdmaMain(d, scratch);
            }
            else
            {
                ctx.waitEventWord(ev, word, Elan3.ELAN_POLL_EVENT);
                times[1] = p.nowNs();
                for (int i = 0; i < 1024; i++)
                {
                    assertEquals(i * 3, ctx.getInt(Elan3.HOST_SDRAM_BASE + buf + 4L * i), "word " + i);
                }
            }
        });
        r.throwIfFailed();
        System.out.println("4 KB main->Elan put: " + (times[1] - times[0]) + " ns");
        assertTrue(times[1] > times[0]);
    }
}
