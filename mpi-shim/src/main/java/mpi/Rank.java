package mpi;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.qsnet.elan.ElanBase;
import org.qsnet.elan3.ElanProcess;
import org.qsnet.fabric.engine.ProcessLocal;
import org.qsnet.fabric.machine.PlatformProfile;
import org.qsnet.tports.Tport;

/**
 * The MPI state of one rank: its Elanlib base and Tport, its predefined communicators, the
 * staging buffers in its emulated main memory and the next free context id. The package is shared
 * by every rank of a job, so this lives with the rank's thread (each simulated process runs on a
 * thread of its own), never in a static field of the API classes.
 *
 * <p>Host costs. The layers below charge their own work (Tports: posting a receive, the queued
 * DMA of a send, polling, the matching on the thread processor; Elanlib: the collectives). This
 * layer charges what MPICH's device layer over Tports added on the host, with the profile's own
 * per-operation costs:
 * <ul>
 * <li>every MPI call: one library call ({@code hostCallNs}) on entry;</li>
 * <li>every send: the device layer (MPICH's ADI) is one more library call, and it hands the MPI
 * request descriptor of the message to the NIC by programmed I/O, as Tports posts its receive
 * descriptors: five words (communicator context, tag, source rank, byte count, sequence number),
 * {@code pioWriteNs} each. The five words are this model's choice of the descriptor's size, the
 * one figure not taken from the layers below; with it the ping-pong latency of an 8-byte message
 * comes out at 4.99 us on pentium3-he and 5.54 us on alpha-es40 against the 5.0 and 5.5 us
 * measured (CALIBRATION.md), where one library call alone would give 4.58 and 5.01 us;</li>
 * <li>a cached copy ({@code hostPollNs} per 64 bytes) wherever this layer copies data itself
 * (buffered sends, packing of non-contiguous datatypes, reductions over point-to-point).</li>
 * </ul>
 * The staging copy of a contiguous buffer into emulated memory is not charged: it stands for the
 * user's C buffer already being in main memory.
 */
final class Rank
{
    private static final ProcessLocal<Rank> CURRENT = new ProcessLocal<>();
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
    /** The first key {@code createKeyval} hands out (below: the predefined attribute keys). */
    static final int FIRST_KEYVAL = 100;
    int nextKeyval = FIRST_KEYVAL;
    boolean finalized;
    int threadLevel;
    byte[] attached;
    long attachedInUse;
    final List<Request> bufferedSends = new ArrayList<>();
    /** The collectives in progress (non-blocking ones, started and not yet complete). */
    final List<Schedule> schedules = new ArrayList<>();
    private boolean progressing;
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
        // what an MPI launcher puts in each rank's environment (read with ElanProcess.getenv)
        final String rank = Integer.toString(base.vp());
        final String size = Integer.toString(n);
        process.setenv("OMPI_COMM_WORLD_RANK", rank);
        process.setenv("OMPI_COMM_WORLD_SIZE", size);
        process.setenv("PMI_RANK", rank);
        process.setenv("PMI_SIZE", size);
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

    /**
     * Charges the entry into an MPI call, and advances the collectives in progress (each MPI call
     * is a chance for them to progress, as in an MPI without a progress thread).
     */
    void enter()
    {
        charge(profile.hostCallNs());
        if (!schedules.isEmpty())
        {
            progressSchedules();
        }
    }

    /** Advances every collective in progress as far as it goes without waiting. */
    void progressSchedules()
    {
        if (progressing)
        {
            return;
        }
        progressing = true;
        try
        {
            for (final Schedule s : schedules.toArray(new Schedule[0]))
            {
                s.progress();
            }
        }
        finally
        {
            progressing = false;
        }
    }

    /**
     * MPI's progress rule for a rank that blocks in point-to-point (a receive, a send, a probe)
     * while its non-blocking collectives are in flight: it keeps advancing them, as a progress
     * engine does, so that a peer waiting on one of them before it sends is not starved. Advances
     * every collective, tests the operation (a poll each), then parks until the operation or any
     * operation of a collective's current round completes; returns once the operation has
     * completed or no collective is left (the caller then waits as usual). A rank parked here that
     * nothing can wake is reported as deadlocked with every operation it waited for.
     *
     * @param op   the send or receive event the rank blocks on.
     * @param what the wait's description for reports.
     */
    void awaitProgressing(final org.qsnet.elan.ElanEvent op, final Object what)
    {
        while (!schedules.isEmpty() && !progressing)
        {
            progressSchedules();
            if (op.done() || schedules.isEmpty())
            {
                return;
            }
            final List<org.qsnet.elan.ElanEvent> ops = new ArrayList<>();
            ops.add(op);
            parkOnAny(ops, what);
        }
    }

    /**
     * Parks until one of {@code ops} or an operation of a collective's current round completes
     * (the caller has advanced the collectives): how a rank waits when any of several operations
     * may let it go on. A deadlock report names every operation it waited for.
     *
     * @param ops  send and receive events of this rank's port (the collectives' are added).
     * @param what the wait's description for reports.
     */
    void parkOnAny(final List<org.qsnet.elan.ElanEvent> ops, final Object what)
    {
        for (final Schedule s : schedules)
        {
            s.pendingEvents(ops);
        }
        if (!ops.isEmpty())
        {
            tport.waitAny(ops.toArray(new org.qsnet.elan.ElanEvent[0]), what);
        }
    }

    /** Words of the MPI request descriptor a send writes to the NIC (see the class comment). */
    static final int SEND_DESCRIPTOR_WORDS = 5;

    /** Charges the device layer's work for one send: a library call and the request descriptor by PIO. */
    void deviceSend()
    {
        charge(profile.hostCallNs() + SEND_DESCRIPTOR_WORDS * profile.pioWriteNs());
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
        long a = base.allocMain(64, cls);
        if (a == 0)
        {
            // give back the buffers kept for other sizes, then try again
            for (final ArrayDeque<Long> kept : pool.values())
            {
                for (final long k : kept)
                {
                    base.free(k);
                }
                kept.clear();
            }
            a = base.allocMain(64, cls);
        }
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

    /**
     * The context of {@code MPI_COMM_CREATE_GROUP}'s agreements ({@link Intracomm#createGroup}): the
     * last of the 12-bit ids, which no communicator is given ({@link #reserveContexts} stops below it).
     * Its messages never match a communicator's point-to-point or collective receives.
     */
    static final int GROUP_AGREEMENT_CONTEXT = 4095;

    /**
     * Allocates a context id pair agreed by every member of {@code over} (a collective on it): the
     * maximum of their next free ids, free at every one of them.
     */
    int agreeContext(final CommState over) throws MPIException
    {
        final int mine = nextContext;
        final int agreed = over == null ? mine : Collectives.maxInt(over, mine);
        reserveContexts(agreed, 2);
        return agreed;
    }

    /** Marks the agreed ids {@code first..first+count-1} used at this rank (they must stay below the agreements' context). */
    void reserveContexts(final int first, final int count) throws MPIException
    {
        if (first + count > GROUP_AGREEMENT_CONTEXT)
        {
            throw new MPIException(MPI.ERR_INTERN, "out of communicator context ids (at most 2046 communicators)");
        }
        nextContext = Math.max(nextContext, first + count);
    }
}
