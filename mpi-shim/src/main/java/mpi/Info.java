package mpi;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code MPI_Info}: an ordered set of (key, value) strings.
 */
public final class Info implements Freeable, Cloneable
{
    private final Map<String, String> entries = new LinkedHashMap<>();
    private final boolean isNull;

    /**
     * {@code MPI_INFO_CREATE}: an empty info object.
     *
     * @throws MPIException never here (the bindings declare it).
     */
    public Info() throws MPIException
    {
        this(false);
    }

    Info(final boolean isNull)
    {
        this.isNull = isNull;
    }

    /**
     * {@code MPI_INFO_SET}.
     *
     * @param key   the key.
     * @param value the value.
     * @throws MPIException with {@link MPI#ERR_INFO_KEY} for an empty or over-long key.
     */
    public void set(final String key, final String value) throws MPIException
    {
        if (key == null || key.isEmpty() || key.length() > MPI.MAX_INFO_KEY)
        {
            throw new MPIException(MPI.ERR_INFO_KEY, "key " + key + " must have 1.." + MPI.MAX_INFO_KEY + " characters");
        }
        entries.put(key, value);
    }

    /**
     * {@code MPI_INFO_GET}.
     *
     * @param key the key.
     * @return the value, or null when the key is not set.
     * @throws MPIException never here (the bindings declare it).
     */
    public String get(final String key) throws MPIException
    {
        return entries.get(key);
    }

    /**
     * {@code MPI_INFO_DELETE}.
     *
     * @param key the key.
     * @throws MPIException with {@link MPI#ERR_INFO_NOKEY} when it is not set.
     */
    public void delete(final String key) throws MPIException
    {
        if (entries.remove(key) == null)
        {
            throw new MPIException(MPI.ERR_INFO_NOKEY, "key " + key + " is not set");
        }
    }

    /**
     * {@code MPI_INFO_GET_NKEYS}.
     *
     * @return the number of keys.
     * @throws MPIException never here (the bindings declare it).
     */
    public int size() throws MPIException
    {
        return entries.size();
    }

    /**
     * {@code MPI_INFO_GET_NTHKEY}.
     *
     * @param i index.
     * @return the i-th key.
     * @throws MPIException with {@link MPI#ERR_ARG} for an index out of range.
     */
    public String getKey(final int i) throws MPIException
    {
        final List<String> keys = new ArrayList<>(entries.keySet());
        if (i < 0 || i >= keys.size())
        {
            throw new MPIException(MPI.ERR_ARG, "index " + i + " must be in 0.." + (keys.size() - 1));
        }
        return keys.get(i);
    }

    /**
     * {@code MPI_INFO_DUP}.
     *
     * @return a copy.
     * @throws MPIException never here (the bindings declare it).
     */
    public Info dup() throws MPIException
    {
        final Info i = new Info(false);
        i.entries.putAll(entries);
        return i;
    }

    /**
     * {@code MPI_INFO_DUP} for callers that cannot handle {@link MPIException} (as in the bindings:
     * prefer {@link #dup()}).
     *
     * @return a copy.
     */
    @Override
    public Info clone()
    {
        final Info i = new Info(false);
        i.entries.putAll(entries);
        return i;
    }

    /**
     * {@code MPI_INFO_FREE}.
     *
     * @throws MPIException never here (the bindings declare it).
     */
    @Override
    public void free() throws MPIException
    {
        entries.clear();
    }

    /**
     * @return whether this is {@link MPI#INFO_NULL}.
     */
    public boolean isNull()
    {
        return isNull;
    }
}
