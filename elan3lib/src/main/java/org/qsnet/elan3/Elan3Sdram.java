package org.qsnet.elan3;

/**
 * {@code ELAN3_SDRAM *}: the handle on a context's Elan SDRAM that C code reaches as
 * {@code ctx->sdram} (here {@link Elan3Context#sdram}) and passes to every
 * {@code elan3_*_sdram} call and to {@code elan3_sdram2elan}.
 */
public final class Elan3Sdram
{
    final Elan3Context ctx;

    Elan3Sdram(final Elan3Context ctx)
    {
        this.ctx = ctx;
    }

    @Override
    public String toString()
    {
        return "ELAN3_SDRAM of " + ctx;
    }
}
