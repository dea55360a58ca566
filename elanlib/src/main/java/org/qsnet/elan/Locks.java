package org.qsnet.elan;

import org.qsnet.elan3.Elan3Context;
import org.qsnet.elan3.ElanProcess;
import org.qsnet.fabric.QsnetException;

/**
 * Elanlib's locks behind {@link ElanBase}: {@code elan_lockInit}, {@code elan_lockLock} and
 * {@code elan_lockUnLock}, a word in the owner's memory taken and released with remote
 * test-and-write.
 */
final class Locks
{
    private final ElanBase base;
    private final OneSided oneSided;
    private final Elan3Context ctx;
    private final ElanProcess process;
    private final int vp;
    private final long waitType;
    private long resultWord;
    long lockAcquisitions;
    long lockContentions;

    Locks(final ElanBase base, final OneSided oneSided)
    {
        this.base = base;
        this.oneSided = oneSided;
        this.ctx = base.ctx();
        this.process = base.process;
        this.vp = base.vp;
        this.waitType = base.waitType;
    }

    void lockInit(final long lock)
    {
        ctx.raw().putInt(lock, 0);
    }

    void lockLock(final int owner, final long lock)
    {
        base.live();
        base.checkVp("owner", owner);
        final long result = scratchResult();
        long backoffNs = 1_000;
        while (true)
        {
            final OneSided.Slot s = oneSided.slot();
            ctx.raw().putInt(result, -1);
            ctx.atomicTestAndWrite(owner, base.elanAddress("lock", lock), 0, vp + 1, result, s.event);
            ctx.waitEventWord(s.event, s.word, waitType, "the test-and-write on the lock (elan_lockLock)");
            oneSided.recycle(s);
            if (ctx.raw().getInt(result) == 0)
            {
                lockAcquisitions++;
                return;
            }
            lockContentions++;
            process.sim().advance(backoffNs);
            backoffNs = Math.min(backoffNs * 2, 32_000);
        }
    }

    void lockUnLock(final int owner, final long lock)
    {
        base.live();
        final long result = scratchResult();
        final OneSided.Slot s = oneSided.slot();
        ctx.atomicTestAndWrite(owner, base.elanAddress("lock", lock), vp + 1, 0, result, s.event);
        ctx.waitEventWord(s.event, s.word, waitType, "the test-and-write on the lock (elan_lockUnLock)");
        oneSided.recycle(s);
        if (ctx.raw().getInt(result) != vp + 1)
        {
            throw new QsnetException("VP " + vp + " unlocked a lock it does not hold (held by VP " + (ctx.raw().getInt(result) - 1)
                + ")");
        }
    }

    private long scratchResult()
    {
        if (resultWord == 0)
        {
            resultWord = ctx.allocMain(8, 8);
        }
        return resultWord;
    }
}
