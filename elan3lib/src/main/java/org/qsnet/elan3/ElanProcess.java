package org.qsnet.elan3;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

import org.qsnet.fabric.QsnetException;
import org.qsnet.fabric.engine.ProcessLocal;
import org.qsnet.fabric.engine.SimProcess;
import org.qsnet.fabric.engine.SimulationException;
import org.qsnet.fabric.machine.Machine;
import org.qsnet.fabric.memory.MemoryFault;
import org.qsnet.fabric.memory.SparseMemory;

/**
 * One process of a job: its rank, node, capability, the environment a legacy program reads
 * ({@code RMS_*}, {@code LIBELAN_*}) and its main memory. A JVM cannot give threads separate
 * environments, so programs read them through {@link #getenv(String)} (or
 * {@link Rms#getenv(String)} from code that has no handle).
 */
public final class ElanProcess
{
    private static final ProcessLocal<ElanProcess> CURRENT = new ProcessLocal<>();

    private final Machine machine;
    private final SimProcess sim;
    private final int job;
    private final int rank;
    private final int node;
    private final ElanCapability capability;
    private final Map<String, String> environment;
    private final SparseMemory main;
    /** The C facades' {@code errno}: this process's own, as errno was per process. */
    private int errno;
    private String lastError = "";
    /** The context {@code elan3_init} created last (what the one-argument event macros read through). */
    private Elan3Context context;

    ElanProcess(final Machine machine, final SimProcess sim, final int job, final int rank, final int node,
        final ElanCapability capability, final Map<String, String> environment)
    {
        this.machine = machine;
        this.sim = sim;
        this.job = job;
        this.rank = rank;
        this.node = node;
        this.capability = capability;
        this.environment = new LinkedHashMap<>(environment);
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
        CURRENT.set(p);
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
     * @return the whole environment (a read-only view).
     */
    public Map<String, String> environment()
    {
        return Collections.unmodifiableMap(environment);
    }

    /**
     * {@code setenv}: sets a variable of this process's environment (as {@code elan_generateCapability}
     * exports {@code LIBELAN_ECAP0}).
     *
     * @param name  the variable.
     * @param value its value.
     */
    public void setenv(final String name, final String value)
    {
        QsnetException.require(name != null && !name.isEmpty() && name.indexOf('=') < 0, "variable name", name,
            "must be non-empty and contain no '='");
        environment.put(name, value);
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

    /**
     * @return the {@code errno} the last failing C-facade call of this process set (0 if none failed).
     */
    public int errno()
    {
        return errno;
    }

    /**
     * @return why the last failing C-facade call of this process failed (the library's message), or "".
     */
    public String lastError()
    {
        return lastError;
    }

    /**
     * Records a failure of a status-returning C-facade call as this process's {@code errno}.
     *
     * @param code   the errno value, e.g. {@link Elan3lib#EINVAL}.
     * @param reason the library's message.
     * @return -1, the status such calls return on failure.
     */
    public int fail(final int code, final String reason)
    {
        this.errno = code;
        this.lastError = reason == null ? "" : reason;
        return -1;
    }

    /**
     * Records the failure of a status-returning C-facade call of the calling process: {@code EFAULT}
     * for a memory fault, {@code EINVAL} for any other misuse. A failed run (a
     * {@link SimulationException}) is not a call's status and is rethrown.
     *
     * @param e the exception the Java API threw.
     * @return -1.
     */
    public static int failed(final QsnetException e)
    {
        return failed(e instanceof MemoryFault ? Elan3lib.EFAULT : Elan3lib.EINVAL, e);
    }

    /**
     * As {@link #failed(QsnetException)} with a given errno.
     *
     * @param code the errno value.
     * @param e    the exception the Java API threw.
     * @return -1.
     */
    public static int failed(final int code, final QsnetException e)
    {
        if (e instanceof SimulationException)
        {
            throw e;
        }
        return current().fail(code, e.getMessage());
    }

    void contextCreated(final Elan3Context c)
    {
        this.context = c;
    }

    /**
     * @return the context this process created last with {@code elan3_init} (or through
     *     {@code elan_baseInit}); the C macros that take only a host pointer read memory through it.
     */
    public Elan3Context context()
    {
        if (context == null)
        {
            throw new QsnetException(this + " has no Elan3 context: call elan3_init (or elan_baseInit) first");
        }
        return context;
    }

    @Override
    public String toString()
    {
        return "job " + job + " rank " + rank + " on node " + node;
    }
}
