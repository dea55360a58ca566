package org.qsnet.elan3;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.qsnet.elan3.Elan3lib.*;

import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.qsnet.fabric.QsnetException;
import org.qsnet.fabric.machine.PlatformProfile;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class Elan3libFacadeTest
{
    private static void run(final int procs, final int nodes, final ElanMain main)
    {
        Prun.run(PlatformProfile.pentium3He(), new Prun.Options(procs, nodes, false, 0, Map.of()), main).throwIfFailed();
    }

    @Test
    void shouldRunTheLegacyAttachSequenceWithItsStatusChecks()
    {
        run(4, 2, (p, a) ->
        {
            // LA-MPI: the capability from RMS
            final int[] capIndex = {-1};
            assertEquals(0, rms_mycap(capIndex));
            assertEquals(0, capIndex[0]);
            final ElanCapability cap = new ElanCapability();
            assertEquals(0, rms_getcap(capIndex[0], cap));
            assertEquals(p.capability().myContext, cap.myContext);
            // the privileged set-up: registering the job's own capability again is harmless
            final Elan3Control ctl = elan3_control_open(0);
            assertNotNull(ctl);
            assertEquals(0, elan3_create(ctl, cap));
            elan3_control_close(ctl);
            // the node's identity, in both layouts of ELAN3_DEVINFO
            final Elan3DevInfo info = new Elan3DevInfo();
            assertEquals(0, elan3_devinfo(0, info));
            assertEquals(p.node(), info.NodeId);
            assertEquals(p.node(), info.Position.NodeId);
            assertEquals(p.machine().fabric().topology().dim(), info.NumLevels);
            assertEquals(p.machine().fabric().topology().dim(), info.Position.NumLevels);
            assertEquals(p.machine().nodeCount(), info.NumNodes);
            assertEquals(0, info.NodeLevel);
            final int[] rails = new int[elan3_nrails(cap)];
            assertEquals(1, elan3_rails(cap, rails));
            assertEquals(0, rails[0]);
            final StringBuilder text = new StringBuilder();
            final String dump = elan3_capability_string(cap, text);
            assertEquals(dump, text.toString());
            assertEquals(cap.capabilityString(), dump);
            final Elan3Context ctx = elan3_init(0, 0x400000, 0x2000000, 0x200000, 0x200000);
            assertNotNull(ctx);
            final ElanPosition pos = new ElanPosition();
            assertEquals(0, elan3_get_position(ctx, pos));
            assertEquals(p.node(), pos.pos_nodeid);
            assertEquals(ElanPosition.ELAN_POS_MODE_SWITCHED, pos.pos_mode);
            assertEquals(1, elan3_set_required_mappings(ctx));
            elan3_block_inputter(ctx, 1);
            // a legacy failure path runs: a wrong key is a status, not an exception
            final ElanCapability forged = new ElanCapability();
            cap.copyInto(forged);
            forged.userKey[0] ^= 1;
            if (elan3_attach(ctx, forged) < 0)
            {
                assertEquals(EINVAL, errno());
                assertTrue(p.lastError().contains("wrong key"), p.lastError());
                assertEquals("Invalid argument", strerror(errno()));
                perror("elan3_attach");
            }
            else
            {
                throw new AssertionError("a forged key attached");
            }
            assertEquals(0, elan3_attach(ctx, cap));
            assertEquals(-1, elan3_attach(ctx, cap));
            assertEquals(EBUSY, errno());
            assertEquals(0, elan3_addvp(ctx, 0, cap));
            assertEquals(p.rank(), elan3_process(ctx));
            elan3_block_inputter(ctx, 0);
            elan3_detach(ctx);
        });
    }

    @Test
    void shouldReturnStatusesForEveryFailureWithTheRightErrno()
    {
        run(2, 2, (p, a) ->
        {
            assertEquals(0, errno(), "no call failed yet");
            assertNull(elan3_init(1, 0x400000, 0x2000000, 0x200000, 0x200000));
            assertEquals(ENODEV, errno());
            assertNull(elan3_init(0, 0x400000, 0x2000000, 0x400000, 0x200000));
            assertEquals(EINVAL, errno());
            assertTrue(p.lastError().contains("must not overlap"), p.lastError());
            assertEquals(-1, elan3_devinfo(1, new Elan3DevInfo()));
            assertEquals(ENODEV, errno());
            assertNull(elan3_control_open(2));
            assertEquals(ENODEV, errno());
            assertEquals(-1, rms_getcap(1, new ElanCapability()));
            assertEquals(EINVAL, errno());
            // another key on this job's contexts: the driver refuses
            final ElanCapability other = new ElanCapability();
            rms_getcap(0, other);
            other.userKey[3] ^= 0x10;
            assertEquals(-1, elan3_create(elan3_control_open(0), other));
            assertEquals(EBUSY, errno());
            final Elan3Context ctx = elan3_init(0, 0x400000, 0x2000000, 0x200000, 0x200000);
            assertEquals(-1, elan3_process(ctx), "not attached");
            assertEquals(EINVAL, errno());
            assertEquals(-1, elan3_allocatebcastvp(ctx));
            // void calls keep their exception
            assertThrows(QsnetException.class, () -> elan3_putdma(ctx, 0));
        });
    }

    @Test
    void shouldKeepErrnoPerProcess()
    {
        run(2, 2, (p, a) ->
        {
            if (p.rank() == 1)
            {
                assertEquals(-1, rms_getcap(7, new ElanCapability()));
            }
            p.sim().advance(1_000);
            assertEquals(p.rank() == 1 ? EINVAL : 0, errno(), "rank " + p.rank() + " has its own errno");
        });
    }

    @Test
    void shouldTakeCtxSdramAndOneArgumentEventMacros()
    {
        run(1, 1, (p, a) ->
        {
            final ElanCapability cap = new ElanCapability();
            rms_getcap(0, cap);
            final Elan3Context ctx = elan3_init(0, 0x400000, 0x2000000, 0x200000, 0x200000);
            elan3_set_required_mappings(ctx);
            elan3_attach(ctx, cap);
            elan3_addvp(ctx, 0, cap);
            final long s = elan3_allocElan(ctx, 64, 64);
            elan3_write32_sdram(ctx.sdram, s, 0x1234);
            assertEquals(0x1234, elan3_read32_sdram(ctx.sdram, s));
            elan3_zero_byte_sdram(ctx.sdram, s, 64);
            assertEquals(0, elan3_read32_sdram(ctx.sdram, s));
            assertEquals(ctx.sdram2elan(s), elan3_sdram2elan(ctx, ctx.sdram, s));
            assertEquals("sdram null must be ctx->sdram (ctx.sdram) of " + ctx,
                assertThrows(QsnetException.class, () -> elan3_sdram2elan(ctx, null, s)).getMessage());
            // a word event fired by the host, seen by the one-argument macro as a C loop sees it
            final long ev = elan3_allocElan(ctx, Elan3.E3_EVENT_ALIGN, Elan3.E3_BLOCK_COPY_EVENT_SIZE);
            final long word = elan3_allocMain(ctx, 8, 8);
            elan3_initevent_word(ctx, ev, word);
            elan3_primeevent(ctx, ev, 1);
            elan3_block_inputter(ctx, 0);
            assertTrue(!EVENT_WORD_READY(word));
            elan3_setevent(ctx, ev);
            while (!EVENT_WORD_READY(word))
            {
                p.sim().advance(100);
            }
            final long blk = elan3_allocMain(ctx, Elan3.E3_BLK_ALIGN, Elan3.E3_BLK_SIZE);
            ctx.putInt(blk + Elan3.E3_BLK_SIZE - 4, 1);
            assertTrue(EVENT_BLK_READY(blk));
            E3_RESET_BCOPY_BLOCK(blk);
            assertTrue(!EVENT_BLK_READY(blk));
        });
    }
}
