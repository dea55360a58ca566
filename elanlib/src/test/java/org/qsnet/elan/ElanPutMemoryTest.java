package org.qsnet.elan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.qsnet.elan3.Prun;
import org.qsnet.fabric.QsnetException;
import org.qsnet.fabric.machine.PlatformProfile;

/**
 * Which host memory {@code elan_put} can take: what the program obtains from its allocator is
 * DMA-able (libelan sets the standard mappings), for small puts (copied into Elan memory) and large
 * ones alike. Memory the Elan cannot reach is refused for a put the DMA engine reads (over 64
 * bytes); a put of up to 64 bytes is copied by the CPU first (ELAN-API.md), so it works from such
 * memory too, as GASNet's conduit relied on. Until 2026-11-25 every size was refused.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ElanPutMemoryTest
{
    private static final int[] SIZES = {8, 64, 65, 4096};

    @Test
    void shouldPutFromMallocMemoryAtEverySizeAndFromUnmappedMemoryOnlyWhenTheCpuCopiesIt()
    {
        final List<String> refused = Collections.synchronizedList(new ArrayList<>());
        Prun.run(PlatformProfile.xeonGc(), new Prun.Options(2, 2, false, 0, Map.of()), (p, a) ->
        {
            final ElanBase base = ElanBase.baseInit(0);
            final int me = base.vp();
            // the same allocation order on both: the same addresses (libelan's symmetric addressing)
            final long heap = base.ctx().hostMalloc(8192);
            final long gone = base.ctx().hostMalloc(8192);
            base.gsync(base.allGroup());
            if (me == 0)
            {
                long at = heap;
                for (final int n : SIZES)
                {
                    for (int i = 0; i < n; i++)
                    {
                        base.ctx().write(at + i, new byte[] {(byte)(n + i * 3)}, 0, 1);
                    }
                    base.put(at, at, n, 1).waitEvent(base.waitType());
                    at += n;
                }
            }
            base.gsync(base.allGroup());
            if (me == 1)
            {
                long at = heap;
                for (final int n : SIZES)
                {
                    final byte[] got = new byte[n];
                    base.ctx().read(at, got, 0, n);
                    for (int i = 0; i < n; i++)
                    {
                        assertEquals((byte)(n + i * 3), got[i], "byte " + i + " of a put of " + n);
                    }
                    at += n;
                }
            }
            base.ctx().clearpermMain(gone, 8192);
            base.gsync(base.allGroup());
            long from = gone;
            long to = heap + 4096;
            for (final int n : SIZES)
            {
                if (n <= 64)
                {
                    for (int i = 0; i < n; i++)
                    {
                        base.ctx().write(from + i, new byte[] {(byte)(7 * me + n + i)}, 0, 1);
                    }
                    // through the C facade, as GASNet's conduit called it
                    Elanlib.elan_wait(Elanlib.elan_put(base, from, to, n, 1 - me), base.waitType());
                    to += n;
                }
                else
                {
                    final long f = from;
                    refused.add(assertThrows(QsnetException.class, () -> Elanlib.elan_put(base, f, heap, n, 1 - me)).getMessage());
                }
                from += n;
            }
            base.gsync(base.allGroup());
            // the small puts from the unmapped range arrived: each holds its sender's bytes
            long at = heap + 4096;
            for (final int n : SIZES)
            {
                if (n <= 64)
                {
                    final byte[] got = new byte[n];
                    base.ctx().read(at, got, 0, n);
                    for (int i = 0; i < n; i++)
                    {
                        assertEquals((byte)(7 * (1 - me) + n + i), got[i], "byte " + i + " of a small put from unmapped memory");
                    }
                    at += n;
                }
            }
        }).throwIfFailed();
        assertEquals(2 * 2, refused.size());
        for (final String m : refused)
        {
            assertTrue(m.startsWith("put source 0x") && m.endsWith(" is not Elan-mapped memory"), m);
        }
    }
}
