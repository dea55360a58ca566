package org.qsnet.elan;

import java.util.Arrays;

import org.qsnet.fabric.QsnetException;

/**
 * {@code ELAN_GROUP}: a set of VPs for collectives, with this process's index in it. A group
 * knows the base that made it, so the collectives take only the group, as in C
 * ({@code elan_gsync(group)}).
 */
public final class ElanGroup
{
    private final ElanBase base;
    private final int[] vps;
    private final int self;
    final int id;

    ElanGroup(final ElanBase base, final int id, final int[] vps, final int myVp)
    {
        this.base = base;
        this.id = id;
        this.vps = vps.clone();
        int s = -1;
        for (int i = 0; i < vps.length; i++)
        {
            if (vps[i] == myVp)
            {
                s = i;
            }
        }
        QsnetException.require(s >= 0, "group", Arrays.toString(vps), "does not contain this process's VP " + myVp);
        this.self = s;
    }

    /**
     * @return the base that made the group ({@code base->allGroup}, or {@link ElanBase#group}).
     */
    public ElanBase base()
    {
        return base;
    }

    /**
     * @return {@code self}: this process's index in the group.
     */
    public int self()
    {
        return self;
    }

    /**
     * @return {@code size}: members.
     */
    public int size()
    {
        return vps.length;
    }

    /**
     * {@code lookupFn}: a member's VP.
     *
     * @param index 0..size-1.
     * @return its VP.
     */
    public int vp(final int index)
    {
        return vps[index];
    }

    /**
     * @return whether the members are VPs {@code first..first+size-1} (hardware broadcast works).
     */
    public boolean contiguous()
    {
        for (int i = 1; i < vps.length; i++)
        {
            if (vps[i] != vps[0] + i)
            {
                return false;
            }
        }
        return true;
    }

    @Override
    public String toString()
    {
        return "group " + id + " " + Arrays.toString(vps) + " (self " + self + ")";
    }
}
