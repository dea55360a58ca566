package org.qsnet.elan;

import java.util.Arrays;

import org.qsnet.fabric.QsnetException;

/**
/**
 * {@code ELAN_GROUP}: a set of VPs for collectives, with this process's index in it. A group
 * knows the base that made it, so the collectives take only the group, as in C
 * ({@code elan_gsync(group)}). A group of contiguous VPs (such as {@code allGroup}) is held as its
 * range, as libelan's {@code lookupFn} maps an index to a VP without a table, so a member's group
 * costs no memory per member.
 */
public final class ElanGroup
{
    private final ElanBase base;
    /** The members in group order; null when they are the contiguous VPs first..first+size-1. */
    private final int[] vps;
    private final int first;
    private final int size;
    private final int self;
    final int id;

    ElanGroup(final ElanBase base, final int id, final int[] vps, final int myVp)
    {
        this.base = base;
        this.id = id;
        this.size = vps.length;
        this.first = vps.length == 0 ? 0 : vps[0];
        boolean range = true;
        for (int i = 1; i < vps.length && range; i++)
        {
            range = vps[i] == first + i;
        }
        this.vps = range ? null : vps.clone();
        int s = -1;
        for (int i = 0; i < vps.length; i++)
        {
            if (vps[i] == myVp)
            {
                s = i;
            }
        }
        // -1: a group this process is not in (ElanBase.group called by a non-member)
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
     * @return {@code self}: this process's index in the group, -1 when it is not a member.
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
        return size;
    }

    /**
     * {@code lookupFn}: a member's VP.
     *
     * @param index 0..size-1.
     * @return its VP.
     */
    public int vp(final int index)
    {
        QsnetException.require(index >= 0 && index < size, "index", index, "must be in 0.." + (size - 1));
        return vps == null ? first + index : vps[index];
    }

    /**
     * @return whether the members are VPs {@code first..first+size-1} (hardware broadcast works).
     */
    public boolean contiguous()
    {
        return vps == null;
    }

    @Override
    public String toString()
    {
        return "group " + id + " " + (vps == null ? "VPs " + first + ".." + (first + size - 1) : Arrays.toString(vps))
            + " (self " + self + ")";
    }
}
