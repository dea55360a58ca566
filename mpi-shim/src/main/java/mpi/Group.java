package mpi;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * {@code MPI_Group}: an ordered set of processes (world VPs here). Group operations are local.
 */
public final class Group implements Freeable
{
    final int[] vps;
    private final int myVp;
    private boolean freed;

    Group(final int[] vps, final int myVp)
    {
        this.vps = vps;
        this.myVp = myVp;
    }

    void live(final String what) throws MPIException
    {
        if (freed)
        {
            throw new MPIException(MPI.ERR_GROUP, what + ": the group was freed");
        }
    }

    /**
     * {@code MPI_GROUP_SIZE}.
     *
     * @return the number of processes.
     * @throws MPIException when freed.
     */
    public int size() throws MPIException
    {
        live("size");
        return vps.length;
    }

    /**
     * {@code MPI_GROUP_SIZE} (the bindings' name).
     *
     * @return the number of processes.
     * @throws MPIException when freed.
     */
    public int getSize() throws MPIException
    {
        return size();
    }

    /**
     * {@code MPI_GROUP_RANK}.
     *
     * @return the caller's rank in the group, or {@link MPI#UNDEFINED}.
     * @throws MPIException when freed.
     */
    public int getRank() throws MPIException
    {
        live("getRank");
        return indexOf(myVp);
    }

    private int indexOf(final int vp)
    {
        for (int i = 0; i < vps.length; i++)
        {
            if (vps[i] == vp)
            {
                return i;
            }
        }
        return MPI.UNDEFINED;
    }

    /**
     * {@code MPI_GROUP_FREE}.
     *
     * @throws MPIException never here (the bindings declare it).
     */
    @Override
    public void free() throws MPIException
    {
        freed = true;
    }

    /**
     * @return whether the group was freed.
     */
    public boolean isNull()
    {
        return freed;
    }

    /**
     * {@code MPI_GROUP_TRANSLATE_RANKS}.
     *
     * @param group1 the first group.
     * @param ranks1 ranks in it.
     * @param group2 the second group.
     * @return the same processes' ranks in {@code group2} ({@link MPI#UNDEFINED} where absent).
     * @throws MPIException with {@link MPI#ERR_RANK} for a rank outside {@code group1}.
     */
    public static int[] translateRanks(final Group group1, final int[] ranks1, final Group group2) throws MPIException
    {
        final int[] r = new int[ranks1.length];
        for (int i = 0; i < r.length; i++)
        {
            r[i] = ranks1[i] == MPI.PROC_NULL ? MPI.PROC_NULL : group2.indexOf(group1.vp("translateRanks", ranks1[i]));
        }
        return r;
    }

    private int vp(final String what, final int rank) throws MPIException
    {
        live(what);
        if (rank < 0 || rank >= vps.length)
        {
            throw new MPIException(MPI.ERR_RANK, what + ": rank " + rank + " is outside the group (0.." + (vps.length - 1) + ")");
        }
        return vps[rank];
    }

    /**
     * {@code MPI_GROUP_COMPARE}.
     *
     * @param group1 a group.
     * @param group2 another.
     * @return {@link MPI#IDENT} (same members, same order), {@link MPI#SIMILAR} (same members) or
     * {@link MPI#UNEQUAL}.
     * @throws MPIException never here (the bindings declare it).
     */
    public static int compare(final Group group1, final Group group2) throws MPIException
    {
        if (Arrays.equals(group1.vps, group2.vps))
        {
            return MPI.IDENT;
        }
        final int[] a = group1.vps.clone();
        final int[] b = group2.vps.clone();
        Arrays.sort(a);
        Arrays.sort(b);
        return Arrays.equals(a, b) ? MPI.SIMILAR : MPI.UNEQUAL;
    }

    private static Group of(final Set<Integer> s, final int me)
    {
        return new Group(s.stream().mapToInt(Integer::intValue).toArray(), me);
    }

    private static Set<Integer> set(final int[] v)
    {
        final Set<Integer> s = new LinkedHashSet<>();
        for (final int x : v)
        {
            s.add(x);
        }
        return s;
    }

    /**
     * {@code MPI_GROUP_UNION}: the first group's members, then the second's not in the first.
     *
     * @param group1 a group.
     * @param group2 another.
     * @return the union.
     * @throws MPIException never here (the bindings declare it).
     */
    public static Group union(final Group group1, final Group group2) throws MPIException
    {
        final Set<Integer> s = set(group1.vps);
        s.addAll(set(group2.vps));
        return of(s, group1.myVp);
    }

    /**
     * {@code MPI_GROUP_INTERSECTION}: the first group's members that are in the second, in the first's order.
     *
     * @param group1 a group.
     * @param group2 another.
     * @return the intersection.
     * @throws MPIException never here (the bindings declare it).
     */
    public static Group intersection(final Group group1, final Group group2) throws MPIException
    {
        final Set<Integer> s = set(group1.vps);
        s.retainAll(set(group2.vps));
        return of(s, group1.myVp);
    }

    /**
     * {@code MPI_GROUP_DIFFERENCE}: the first group's members not in the second.
     *
     * @param group1 a group.
     * @param group2 another.
     * @return the difference.
     * @throws MPIException never here (the bindings declare it).
     */
    public static Group difference(final Group group1, final Group group2) throws MPIException
    {
        final Set<Integer> s = set(group1.vps);
        s.removeAll(set(group2.vps));
        return of(s, group1.myVp);
    }

    /**
     * {@code MPI_GROUP_INCL}.
     *
     * @param ranks ranks of this group, in the new group's order.
     * @return the new group.
     * @throws MPIException with {@link MPI#ERR_RANK} for a rank outside the group or repeated.
     */
    public Group incl(final int[] ranks) throws MPIException
    {
        final int[] v = new int[ranks.length];
        final Set<Integer> seen = new LinkedHashSet<>();
        for (int i = 0; i < ranks.length; i++)
        {
            v[i] = vp("incl", ranks[i]);
            if (!seen.add(ranks[i]))
            {
                throw new MPIException(MPI.ERR_RANK, "incl: rank " + ranks[i] + " is given twice");
            }
        }
        return new Group(v, myVp);
    }

    /**
     * {@code MPI_GROUP_EXCL}.
     *
     * @param ranks ranks of this group to leave out.
     * @return the new group.
     * @throws MPIException with {@link MPI#ERR_RANK} for a rank outside the group.
     */
    public Group excl(final int[] ranks) throws MPIException
    {
        final Set<Integer> out = new LinkedHashSet<>();
        for (final int r : ranks)
        {
            out.add(vp("excl", r));
        }
        final List<Integer> keep = new ArrayList<>();
        for (final int v : vps)
        {
            if (!out.contains(v))
            {
                keep.add(v);
            }
        }
        return new Group(keep.stream().mapToInt(Integer::intValue).toArray(), myVp);
    }

    private static int[] ranges(final int[][] ranges) throws MPIException
    {
        final List<Integer> r = new ArrayList<>();
        for (final int[] t : ranges)
        {
            if (t.length != 3 || t[2] == 0)
            {
                throw new MPIException(MPI.ERR_ARG, "range " + Arrays.toString(t) + " must be {first, last, stride != 0}");
            }
            for (int x = t[0]; t[2] > 0 ? x <= t[1] : x >= t[1]; x += t[2])
            {
                r.add(x);
            }
        }
        return r.stream().mapToInt(Integer::intValue).toArray();
    }

    /**
     * {@code MPI_GROUP_RANGE_INCL}.
     *
     * @param ranges triplets {first, last, stride}.
     * @return the new group.
     * @throws MPIException for a bad range or rank.
     */
    public Group rangeIncl(final int[][] ranges) throws MPIException
    {
        return incl(ranges(ranges));
    }

    /**
     * {@code MPI_GROUP_RANGE_EXCL}.
     *
     * @param ranges triplets {first, last, stride}.
     * @return the new group.
     * @throws MPIException for a bad range or rank.
     */
    public Group rangeExcl(final int[][] ranges) throws MPIException
    {
        return excl(ranges(ranges));
    }
}
