package org.qsnet.elan3;

import org.qsnet.fabric.nic.E3;

/**
 * {@code E3_DMA_MAIN}: a DMA descriptor built in host memory (here: a Java object), copied into
 * the SDRAM scratch descriptor by {@code putdma_main}. Fields as in {@code E3_DMA}; addresses are
 * 32-bit Elan addresses held in longs.
 */
public final class E3DmaMain
{
    /** {@code dma_type}, built with {@link Elan3#E3_DMA_TYPE}. */
    public int dma_type;
    /** {@code dma_size}. */
    public long dma_size;
    /** {@code dma_source}: local for a write, remote for a read. */
    public long dma_source;
    /** {@code dma_dest}: remote for a write, local for a read; 0 for a queued DMA. */
    public long dma_dest;
    /** {@code dma_destEvent}; for a queued DMA, the remote queue. */
    public long dma_destEvent;
    /** {@code dma_destCookieVProc}: destination VP for a write, local cookie for a read. */
    public int dma_destCookieVProc;
    /** {@code dma_srcEvent}. */
    public long dma_srcEvent;
    /** {@code dma_srcCookieVProc}: local cookie for a write, remote cookie for a read. */
    public int dma_srcCookieVProc;

    /**
     * Writes this descriptor in the {@code E3_DMA} layout (no time charged: callers charge the
     * programmed I/O, or run on the NIC).
     *
     * @param sdram  the node's SDRAM.
     * @param offset where, 32-byte aligned.
     */
    public void writeTo(final org.qsnet.fabric.memory.SparseMemory sdram, final long offset)
    {
        sdram.putInt(offset + E3.DMA_TYPE, dma_type);
        sdram.putInt(offset + E3.DMA_SIZE_FIELD, (int)dma_size);
        sdram.putInt(offset + E3.DMA_SOURCE, (int)dma_source);
        sdram.putInt(offset + E3.DMA_DEST, (int)dma_dest);
        sdram.putInt(offset + E3.DMA_DEST_EVENT, (int)dma_destEvent);
        sdram.putInt(offset + E3.DMA_DEST_COOKIE_VPROC, dma_destCookieVProc);
        sdram.putInt(offset + E3.DMA_SRC_EVENT, (int)dma_srcEvent);
        sdram.putInt(offset + E3.DMA_SRC_COOKIE_VPROC, dma_srcCookieVProc);
    }
}
