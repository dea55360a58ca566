package mpi;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.qsnet.elan.ElanBase;
import org.qsnet.elan3.ElanProcess;
import org.qsnet.fabric.model.PlatformProfile;
import org.qsnet.tports.Tport;

/**
 * The MPI state of one rank: its Elanlib base and Tport, its predefined communicators, the
 * staging buffers in its emulated main memory and the next free context id. The package is shared
 * by every rank of a job, so this lives with the rank's thread (each simulated process runs on a
 * thread of its own), never in a static field of the API classes.
 *
 * <p>Host costs. The layers below charge their own work (Tports: posting a receive, the queued
 * DMA of a send, polling; Elanlib: the collectives). This layer charges what MPICH's device layer
 * over Tports added on the host: one library call ({@code hostCallNs}) on entering each MPI call,
 * and a cached copy ({@code hostPollNs} per 64 bytes) wherever it copies data itself (buffered
 * sends, packing of non-contiguous datatypes). The staging copy of a contiguous buffer into
 * emulated memory is not charged: it stands for the user's C buffer already being in main memory.
 */
final class Rank
{
    private static final ThreadLocal<Rank> CURRENT = new ThreadLocal<>();
    /** Bytes of the collective buffer (the Elanlib staging limit of one collective). */
    static final int COLL_BYTES = 64 * 1024;

    final ElanProcess process;
    final ElanBase base;
    final Tport tport;
    final PlatformProfile profile;
    final CommState world;
    final CommState self;
    /** Same address on every rank: the buffer of the Elanlib broadcast and reduction. */
    final long collBuf;
    int nextContext = 4;
    boolean finalized;
    int threadLevel;
    byte[] attached;
    long attachedInUse;
    final List<Request> bufferedSends = new ArrayList<>();
    private final Map<Integer, ArrayDeque<Long>> pool = new HashMap<>();

    private Rank(final ElanProcess process, final int threadLevel)
    {
        this.process = process;
        this.threadLevel = threadLevel;
        this.base = ElanBase.baseInit(0);
        this.tport = Tport.init(base);
        this.profile = base.profile();
        this.collBuf = base.gallocMain(base.allGroup(), 64, COLL_BYTES);
        final int n = base.nvp();
        final int[] all = new int[n];
        for (int i = 0; i < n; i++)
        {
            all[i] = i;
        }
        this.world = new CommState(this, 0, all, null, base.allGroup(), "MPI_COMM_WORLD");
        this.self = new CommState(this, 2, new int[] {base.vp()}, null, null, "MPI_COMM_SELF");
    }

    static Rank init(final int threadLevel) throws MPIException
    {
        final ElanProcess p = ElanProcess.currentOrNull();
        if (p == null)
        {
            throw new MPIException(MPI.ERR_OTHER, "MPI.Init: no emulated process runs on thread "
                + Thread.currentThread().getName() + ": start the program with ./mpirun (or Prun)");
        }
        final Rank existing = CURRENT.get();
        if (existing != null && existing.process == p)
        {
            throw new MPIException(MPI.ERR_OTHER, "MPI.Init: MPI is already initialized in rank " + p.rank());
        }
        final Rank r = new Rank(p, threadLevel);
        CURRENT.set(r);
        return r;
    }

    /** The calling rank's state, or null before Init (or on a thread with no rank). */
    static Rank peek()
    {
        final Rank r = CURRENT.get();
        return r != null && r.process == ElanProcess.currentOrNull() ? r : null;
    }

    /** The calling rank's state, checked to be initialised and not finalised. */
    static Rank current() throws MPIException
    {
        final Rank r = peek();
        if (r == null)
        {
            throw new MPIException(MPI.ERR_OTHER, "MPI is not initialized (call MPI.Init first)");
        }
        if (r.finalized)
        {
            throw new MPIException(MPI.ERR_OTHER, "MPI is finalized");
        }
        return r;
    }

    /** Charges simulated host time to the rank. */
    void charge(final long ns)
    {
        process.sim().advance(ns);
    }

    /** Charges the entry into an MPI call. */
    void enter()
    {
        charge(profile.hostCallNs());
    }

    /** Charges a cached copy of {@code bytes} done by this layer. */
    void copy(final long bytes)
    {
        charge((bytes + 63) / 64 * profile.hostPollNs());
    }

    /** A staging buffer in emulated main memory, Elan-mapped, of at least {@code bytes}. */
    long stage(final int bytes)
    {
        final int cls = sizeClass(bytes);
        final ArrayDeque<Long> q = pool.get(cls);
        if (q != null && !q.isEmpty())
        {
            return q.pollFirst();
        }
        final long a = base.allocMain(64, cls);
        if (a == 0)
        {
            throw new org.qsnet.fabric.QsnetException("MPI: main memory of rank " + process.rank()
                + " is exhausted (a staging buffer of " + cls + " bytes)");
        }
        return a;
    }

    void unstage(final long addr, final int bytes)
    {
        pool.computeIfAbsent(sizeClass(bytes), k -> new ArrayDeque<>()).addFirst(addr);
    }

    private static int sizeClass(final int bytes)
    {
        return Math.max(64, Integer.highestOneBit(Math.max(1, bytes) - 1) << 1);
    }

    void write(final long addr, final byte[] data, final int len)
    {
        base.ctx().raw().write(addr, data, 0, len);
    }

    byte[] read(final long addr, final int len)
    {
        final byte[] b = new byte[len];
        base.ctx().raw().read(addr, b, 0, len);
        return b;
    }

    /** Allocates a context id pair agreed by every member of {@code parent} (a collective on it). */
    int agreeContext(final CommState parent) throws MPIException
    {
        final int mine = nextContext;
        final int agreed = parent == null ? mine : Collectives.maxInt(parent, mine);
        if (agreed + 2 > 4095)
        {
            throw new MPIException(MPI.ERR_INTERN, "out of communicator context ids (at most 2046 communicators)");
        }
        nextContext = agreed + 2;
        return agreed;
    }
}
