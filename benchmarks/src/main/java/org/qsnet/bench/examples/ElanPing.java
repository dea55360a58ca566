package org.qsnet.bench.examples;

import static org.qsnet.elan3.Elan3lib.*;

import org.qsnet.elan3.E3DmaMain;
import org.qsnet.elan3.Elan3;
import org.qsnet.elan3.Elan3Context;
import org.qsnet.elan3.ElanCapability;
import org.qsnet.elan3.Rms;

/**
 * A ping-pong written the way legacy Elan3lib code is (TEAC's flow, ELAN-API.md §1.5), with the
 * C-named facade: rank 0 puts {@code size} bytes into rank 1's Elan memory and waits for the
 * reply; the half round trip is printed.
 *
 * <pre>./prun -n 2 -t org.qsnet.bench.examples.ElanPing 64 100</pre>
 */
public final class ElanPing
{
    private ElanPing()
    {
    }

    /**
     * @param args message size in bytes (default 0) and iterations (default 100).
     */
    public static void main(final String[] args)
    {
        final int size = args.length > 0 ? Integer.parseInt(args[0]) : 0;
        final int iterations = args.length > 1 ? Integer.parseInt(args[1]) : 100;
        final int nprocs = Integer.parseInt(Rms.getenv("RMS_NPROCS"));
        if (nprocs != 2)
        {
            throw new IllegalArgumentException("ElanPing needs 2 processes, RMS_NPROCS is " + nprocs);
        }

        // attach, as TEAC and LA-MPI do
        final ElanCapability cap = new ElanCapability();
        final int[] capIndex = new int[1];
        if (rms_mycap(capIndex) < 0 || rms_getcap(capIndex[0], cap) < 0)
        {
            perror("rms_getcap");
            return;
        }
        final Elan3Context ctx = elan3_init(0, 0x400000, 0x2000000, 0x200000, 0x200000);
        if (ctx == null)
        {
            perror("elan3_init");
            return;
        }
        elan3_set_required_mappings(ctx);
        elan3_block_inputter(ctx, 1);
        if (elan3_attach(ctx, cap) < 0 || elan3_addvp(ctx, 0, cap) < 0)
        {
            perror("elan3_attach");
            return;
        }
        final int me = elan3_process(ctx);
        final int peer = 1 - me;

        // a buffer in Elan memory, a word event the peer's DMA fires, a scratch descriptor
        final long buf = elan3_allocElan(ctx, 64, Math.max(64, size));
        final long ev = elan3_allocElan(ctx, Elan3.E3_EVENT_ALIGN, Elan3.E3_BLOCK_COPY_EVENT_SIZE);
        final long word = elan3_allocMain(ctx, 8, 8);
        final long scratch = elan3_allocElan(ctx, Elan3.E3_DMA_ALIGN, Elan3.E3_DMA_SIZE);
        elan3_initevent_word(ctx, ev, word);
        elan3_primeevent(ctx, ev, 1);
        elan3_block_inputter(ctx, 0);

        final E3DmaMain dma = new E3DmaMain();
        dma.dma_type = E3_DMA_TYPE(Elan3.DMA_BYTE, Elan3.DMA_WRITE, Elan3.DMA_NORMAL, 0);
        dma.dma_size = size;
        dma.dma_source = elan3_sdram2elan(ctx, ctx.sdram, buf);
        dma.dma_dest = elan3_sdram2elan(ctx, ctx.sdram, buf);      // symmetric addresses
        dma.dma_destEvent = elan3_sdram2elan(ctx, ctx.sdram, ev);
        dma.dma_destCookieVProc = peer;
        dma.dma_srcCookieVProc = elan3_local_cookie(ctx, me, peer);

        final long start = ctx.owner().nowNs();
        for (int i = 0; i < iterations; i++)
        {
            if (me == 0)
            {
                elan3_putdma_main(ctx, dma, scratch);
            }
            elan3_waitevent_word(ctx, ev, word, Elan3.ELAN_POLL_EVENT);
            ctx.putInt(word, 0);
            elan3_primeevent(ctx, ev, 1);
            if (me == 1)
            {
                elan3_putdma_main(ctx, dma, scratch);
            }
        }
        final double halfRoundTripUs = (ctx.owner().nowNs() - start) / 1000.0 / iterations / 2;
        if (me == 0)
        {
            System.out.printf("%d bytes: %.3f us half round trip (%s)%n", size, halfRoundTripUs,
                Rms.getenv("RMS_MACHINE"));
        }
        elan3_detach(ctx);
    }
}
