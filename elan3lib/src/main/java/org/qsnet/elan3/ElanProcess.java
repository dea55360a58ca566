package org.qsnet.elan3;

import java.util.Collections;
import java.util.Map;

import org.qsnet.fabric.QsnetException;
import org.qsnet.fabric.engine.SimProcess;
import org.qsnet.fabric.memory.SparseMemory;
import org.qsnet.fabric.model.Machine;

/**
 * One process of a job: its rank, node, capability, the environment a legacy program reads
 * ({@code RMS_*}, {@code LIBELAN_*}) and its main memory. A JVM cannot give threads separate
 * environments, so programs read them through {@link #getenv(String)} (or
 * {@link Rms#getenv(String)} from code that has no handle).
 */
public final class ElanProcess
{
    private static final ThreadLocal<ElanProcess> CURRENT = new ThreadLocal<>();

    private final Machine machine;
    private final SimProcess sim;
    private final int job;
    private final int rank;
    private final int node;
    private final ElanCapability capability;
    private final Map<String, String> environment;
    private final SparseMemory main;

    ElanProcess(final Machine machine, final SimProcess sim, final int job, final int rank, final int node,
        final ElanCapability capability, final Map<String, String> environment)
    {
        this.machine = machine;
        this.sim = sim;
        this.job = job;
        this.rank = rank;
        this.node = node;
        this.capability = capability;
        this.environment = Collections.unmodifiableMap(environment);
        this.main = new SparseMemory("main memory of job " + job + " rank " + rank, 1L << 32);
    }

    /**
     * @return the process whose code runs on this thread.
     */
    public static ElanProcess current()
    {
        final ElanProcess p = CURRENT.get();
        if (p == null)
        {
            throw new QsnetException("no emulated process runs on thread " + Thread.currentThread().getName()
                + ": call this from a program started by Prun");
        }
        return p;
    }

    static void bind(final ElanProcess p)
    {
        if (p == null)
        {
            CURRENT.remove();
        }
        else
        {
            CURRENT.set(p);
        }
    }

    /**
     * @return the process on this thread, or null.
     */
    public static ElanProcess currentOrNull()
    {
        return CURRENT.get();
    }

    /**
     * @return the machine the job runs on.
     */
    public Machine machine()
    {
        return machine;
    }

    /**
     * @return the simulated process (its clock).
     */
    public SimProcess sim()
    {
        return sim;
    }

    /**
     * @return the job's index on the machine.
     */
    public int job()
    {
        return job;
    }

    /**
     * @return the global rank ({@code RMS_RANK}).
     */
    public int rank()
    {
        return rank;
    }

    /**
     * @return the physical node.
     */
    public int node()
    {
        return node;
    }

    /**
     * @return a copy of the process's capability, with {@code MyContext} set ({@code rms_getcap}).
     */
    public ElanCapability capability()
    {
        return capability.copy();
    }

    /**
     * @param name a variable, e.g. {@code RMS_NPROCS}.
     * @return its value, or null.
     */
    public String getenv(final String name)
    {
        return environment.get(name);
    }

    /**
     * @return the whole environment.
     */
    public Map<String, String> environment()
    {
        return environment;
    }

    /**
     * @return the process's main memory.
     */
    public SparseMemory mainMemory()
    {
        return main;
    }

    /**
     * @return the process's simulated clock, ns.
     */
    public long nowNs()
    {
        return sim.nowNs();
    }

    @Override
    public String toString()
    {
        return "job " + job + " rank " + rank + " on node " + node;
    }
}
