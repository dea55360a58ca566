package mpi;

import java.nio.Buffer;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.DoubleBuffer;
import java.nio.FloatBuffer;
import java.nio.IntBuffer;
import java.nio.LongBuffer;
import java.nio.ShortBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.qsnet.elan.ElanEvent;
import org.qsnet.elan3.Elan3;
import org.qsnet.elan3.Elan3Context;

/**
 * {@code MPI_Win}: a window of one-sided communication (MPI-2 RMA) over Elanlib's put and get.
 *
 * <p>Memory. Each member's window lives in its emulated main memory (a copy of the user's buffer,
 * made when the window is created); {@link #put} is an {@code elan_put} into the target's copy,
 * {@link #get} an {@code elan_get} from it, so the data moves through the NICs and pays their
 * simulated cost, and the target's host takes no part. The user's buffer and the emulated copy are
 * reconciled at the target's own synchronisation calls ({@link #fence}, {@link #waitFor},
 * {@link #test}, {@link #post}, {@link #lock}/{@link #unlock} of its own rank, {@link #sync},
 * {@link #free}): bytes written remotely since the last reconciliation are copied into the user's
 * buffer, bytes the user stored locally into the emulated copy. This is MPI's <em>separate</em>
 * memory model ({@code MPI_WIN_SEPARATE}): a passive target sees remote updates in its buffer
 * only after one of those calls.
 *
 * <p>Synchronisation.
 * <ul>
 * <li>{@link #fence}: completes the caller's operations, a barrier on the window's communicator,
 * then the reconciliation.</li>
 * <li>{@link #lock}/{@link #unlock} (passive target): a reader-writer lock in the target's memory,
 * taken with remote atomics (fetch-and-add, test-and-write) with a back-off while it is held;
 * {@link MPI#LOCK_SHARED} admits several holders, {@link MPI#LOCK_EXCLUSIVE} one.</li>
 * <li>{@link #post}/{@link #start}/{@link #complete}/{@link #waitFor}/{@link #test} (general
 * active target): zero-byte point-to-point messages on a context private to the window.</li>
 * </ul>
 * {@link #accumulate} is atomic per target: it takes a mutex word in the target's memory (remote
 * test-and-write, {@code elan_lockLock}), reads the target data, combines it with the origin data
 * on the origin's host, writes it back and releases the mutex; it is complete when the call
 * returns. Puts and gets complete at the next synchronisation.
 *
 * <p>Limits: target datatypes must be contiguous; the window's base is a Java buffer of one
 * primitive type (direct or not); dynamic windows ({@code MPI_WIN_CREATE_DYNAMIC}) are not
 * supported.
 */
public final class Win implements Freeable
{
    /** {@code MPI_WIN_NULL}. */
    public static final int WIN_NULL = 0;
    /** {@code MPI_WIN_FLAVOR_ALLOCATE} as the bindings name it: a window of its own memory. */
    public static final int FLAVOR_PRIVATE = 0;
    /** {@code MPI_WIN_FLAVOR_SHARED}: a window its members load and store directly. */
    public static final int FLAVOR_SHARED = 1;

    private static final int EXCLUSIVE_HELD = 1 << 30;

    private final CommState comm;
    private final CommState sync;
    private final Rank rank;
    private final Buffer base;
    private final Datatype unit;
    private final int elements;
    private final int sizeBytes;
    private final long region;
    private final long lockWord;
    private final long mutexWord;
    private final long[] regions;
    private final long[] locks;
    private final long[] mutexes;
    private final int[] sizes;
    private final int[] dispUnits;
    private byte[] shadow;
    private final List<Pending> pending = new ArrayList<>();
    private final Map<Integer, Integer> held = new HashMap<>();
    private final long atomicEvent;
    private final long atomicWord;
    private final long atomicResult;
    private int[] postedTo;
    private Request[] doneFrom;
    private int[] startedAt;
    private Errhandler errhandler = MPI.ERRORS_ARE_FATAL;
    private String name = "MPI_WIN";
    private final Map<Integer, Object> attributes = new HashMap<>();
    private Info info = new Info(false);
    private boolean freed;

    /** An RMA operation under way and what to do when it completes (once). */
    private static final class Pending
    {
        final ElanEvent event;
        final Runnable then;
        boolean done;

        Pending(final ElanEvent event, final Runnable then)
        {
            this.event = event;
            this.then = then;
        }

        void complete(final long waitType)
        {
            if (!done)
            {
                done = true;
                event.waitEvent(waitType);
                then.run();
            }
        }
    }

    /** The request of {@code MPI_RPUT}/{@code MPI_RGET}: complete when its RMA operation is. */
    private static final class RmaRequest extends Request
    {
        private final Pending op;
        private final long waitType;

        RmaRequest(final CommState comm, final Pending op, final long waitType)
        {
            super(comm);
            this.op = op;
            this.waitType = waitType;
        }

        @Override
        boolean poll() throws MPIException
        {
            if (status != null)
            {
                return true;
            }
            if (!op.done && !op.event.done())
            {
                return false;
            }
            finish();
            return true;
        }

        @Override
        void finish()
        {
            op.complete(waitType);
            status = Status.empty();
        }

        @Override
        boolean pending()
        {
            return status == null;
        }
    }

    /**
     * {@code MPI_WIN_CREATE}: makes a window of {@code size} elements of {@code base} on every
     * member of {@code comm} (collective).
     *
     * @param base     the window's memory: a buffer of one primitive type.
     * @param size     elements of the window.
     * @param dispUnit elements per unit of target displacement.
     * @param info     hints (ignored).
     * @param comm     an intracommunicator.
     * @throws MPIException with {@link MPI#ERR_COMM} on an intercommunicator,
     *                      {@link MPI#ERR_SIZE} or {@link MPI#ERR_DISP} for bad sizes.
     */
    public Win(final Buffer base, final int size, final int dispUnit, final Info info, final Comm comm)
        throws MPIException
    {
        this.comm = comm.state();
        this.rank = this.comm.rank;
        final CommState c = this.comm;
        if (c.remote != null)
        {
            throw fail(MPI.ERR_COMM, "Win: windows on intercommunicator " + c + " are not supported");
        }
        if (base == null)
        {
            throw fail(MPI.ERR_ARG, "Win: base must be a buffer");
        }
        this.unit = unitOf(base);
        if (size < 0 || size > base.capacity())
        {
            throw fail(MPI.ERR_SIZE, "Win: size " + size + " must be in 0.." + base.capacity() + " (the buffer's capacity)");
        }
        if (dispUnit <= 0)
        {
            throw fail(MPI.ERR_DISP, "Win: dispUnit " + dispUnit + " must be at least 1");
        }
        rank.enter();
        this.base = base;
        this.elements = size;
        this.sizeBytes = size * unit.wireSize;
        this.region = rank.base.allocMain(64, Math.max(64, sizeBytes));
        this.lockWord = rank.base.allocMain(8, 8);
        this.mutexWord = rank.base.allocMain(8, 8);
        if (region == 0 || lockWord == 0 || mutexWord == 0)
        {
            throw fail(MPI.ERR_NO_MEM, "Win: the rank's emulated main memory has no room for a window of " + sizeBytes
                + " bytes");
        }
        final Elan3Context ctx = rank.base.ctx();
        ctx.raw().putInt(lockWord, 0);
        rank.base.lockInit(mutexWord);
        shadow = unit.pack(base, 0, size);
        rank.write(region, shadow, sizeBytes);
        this.atomicEvent = ctx.allocElan(Elan3.E3_EVENT_ALIGN, Elan3.E3_BLOCK_COPY_EVENT_SIZE);
        this.atomicWord = ctx.allocMain(8, 8);
        this.atomicResult = ctx.allocMain(8, 8);
        ctx.initeventWord(atomicEvent, atomicWord);
        // every member learns every other's window: address, lock words, size, unit
        final int[] mine = {hi(region), lo(region), hi(lockWord), lo(lockWord), hi(mutexWord), lo(mutexWord), sizeBytes,
            dispUnit * unit.wireSize};
        final int[] all = Collectives.allGatherInts(c, mine);
        final int n = c.size();
        regions = new long[n];
        locks = new long[n];
        mutexes = new long[n];
        sizes = new int[n];
        dispUnits = new int[n];
        for (int i = 0; i < n; i++)
        {
            final int o = i * mine.length;
            regions[i] = join(all[o], all[o + 1]);
            locks[i] = join(all[o + 2], all[o + 3]);
            mutexes[i] = join(all[o + 4], all[o + 5]);
            sizes[i] = all[o + 6];
            dispUnits[i] = all[o + 7];
        }
        this.sync = Intracomm.dupState(c);
        this.sync.name = c.name + " window";
    }

    /**
     * {@code MPI_WIN_CREATE_DYNAMIC}: not supported (windows here are created over a buffer).
     *
     * @param info hints.
     * @param comm the communicator.
     * @throws MPIException always, with {@link MPI#ERR_UNSUPPORTED_OPERATION}.
     */
    public Win(final Info info, final Comm comm) throws MPIException
    {
        throw new MPIException(MPI.ERR_UNSUPPORTED_OPERATION, "Win(info, comm): dynamic windows "
            + "(MPI_WIN_CREATE_DYNAMIC, attach/detach) are not supported; create the window over a buffer");
    }

    /**
     * {@code MPI_WIN_ALLOCATE} ({@link #FLAVOR_PRIVATE}) and {@code MPI_WIN_ALLOCATE_SHARED}
     * ({@link #FLAVOR_SHARED}), as the bindings have them: the window's memory is {@code base}, a
     * buffer of at least {@code size} elements the caller allocated (the bindings take it the
     * same way), so a private window is {@link #Win(Buffer, int, int, Info, Comm)}. A shared window
     * is supported on a communicator of one process (its memory is trivially shared with itself);
     * with more, it is refused: every rank is its own emulated process with its own emulated main
     * memory, even ranks placed on one node, so no rank can load or store another's window.
     *
     * @param size     elements of the window.
     * @param dispUnit elements per unit of displacement.
     * @param info     hints (kept, see {@link #getInfo()}).
     * @param comm     an intracommunicator.
     * @param base     the window's memory.
     * @param flavor   {@link #FLAVOR_PRIVATE} or {@link #FLAVOR_SHARED}.
     * @throws MPIException with {@link MPI#ERR_ARG} for another flavor,
     *                      {@link MPI#ERR_UNSUPPORTED_OPERATION} for a shared window of more than one
     *                      process, else as {@link #Win(Buffer, int, int, Info, Comm)}.
     */
    public Win(final int size, final int dispUnit, final Info info, final Comm comm, final Buffer base, final int flavor)
        throws MPIException
    {
        this(flavored(flavor, comm, base), size, dispUnit, info, comm);
    }

    private static Buffer flavored(final int flavor, final Comm comm, final Buffer base) throws MPIException
    {
        if (flavor != FLAVOR_PRIVATE && flavor != FLAVOR_SHARED)
        {
            throw new MPIException(MPI.ERR_ARG, "Win: flavor " + flavor + " must be Win.FLAVOR_PRIVATE or "
                + "Win.FLAVOR_SHARED");
        }
        if (flavor == FLAVOR_SHARED && comm.getSize() > 1)
        {
            throw new MPIException(MPI.ERR_UNSUPPORTED_OPERATION, "Win: a shared window (MPI_WIN_ALLOCATE_SHARED) of "
                + comm.getSize() + " processes is not supported: each rank is a separate emulated process with its "
                + "own main memory, so ranks cannot load or store each other's window; use a private window and "
                + "put/get");
        }
        return base;
    }

    /**
     * {@code MPI_WIN_ATTACH}: only for dynamic windows, which are not supported.
     *
     * @param base memory to attach.
     * @param size its elements.
     * @throws MPIException always, with {@link MPI#ERR_UNSUPPORTED_OPERATION}.
     */
    public void attach(final Buffer base, final int size) throws MPIException
    {
        live("attach");
        throw fail(MPI.ERR_UNSUPPORTED_OPERATION, "attach: memory is attached only to dynamic windows "
            + "(MPI_WIN_CREATE_DYNAMIC), which are not supported; this window was created over its buffer");
    }

    /**
     * {@code MPI_WIN_DETACH}: only for dynamic windows, which are not supported.
     *
     * @param base memory to detach.
     * @throws MPIException always, with {@link MPI#ERR_UNSUPPORTED_OPERATION}.
     */
    public void detach(final Buffer base) throws MPIException
    {
        live("detach");
        throw fail(MPI.ERR_UNSUPPORTED_OPERATION, "detach: memory is attached only to dynamic windows "
            + "(MPI_WIN_CREATE_DYNAMIC), which are not supported");
    }

    /**
     * {@code MPI_WIN_GET_INFO}.
     *
     * @return a copy of the hints last set (empty by default).
     * @throws MPIException on an error.
     */
    public Info getInfo() throws MPIException
    {
        live("getInfo");
        return info.dup();
    }

    /**
     * {@code MPI_WIN_SET_INFO}: keeps the hints (none changes this implementation's behaviour).
     *
     * @param info the hints.
     * @throws MPIException on an error.
     */
    public void setInfo(final Info info) throws MPIException
    {
        live("setInfo");
        this.info = info.dup();
    }

    private static int hi(final long v)
    {
        return (int)(v >>> 32);
    }

    private static int lo(final long v)
    {
        return (int)v;
    }

    private static long join(final int h, final int l)
    {
        return ((long)h << 32) | (l & 0xffffffffL);
    }

    private static Datatype unitOf(final Buffer b)
    {
        return b instanceof ByteBuffer ? MPI.BYTE : b instanceof CharBuffer ? MPI.CHAR : b instanceof ShortBuffer
            ? MPI.SHORT : b instanceof IntBuffer ? MPI.INT : b instanceof LongBuffer ? MPI.LONG
            : b instanceof FloatBuffer ? MPI.FLOAT : b instanceof DoubleBuffer ? MPI.DOUBLE : MPI.BYTE;
    }

    private MPIException fail(final int errorClass, final String message) throws MPIException
    {
        final MPIException e = new MPIException(errorClass, message);
        if (comm != null && comm.errhandler.fatal && errhandler.fatal)
        {
            return Comm.guard(comm, () ->
            {
                throw e;
            });
        }
        return e;
    }

    private void live(final String what) throws MPIException
    {
        Rank.current();
        if (freed)
        {
            throw fail(MPI.ERR_WIN, what + ": the window was freed");
        }
    }

    /** Checks an access and returns its byte offset in the target's window. */
    private long target(final String what, final Object origin, final int orgCount, final Datatype orgType,
        final int targetRank, final int targetDisp, final int targetCount, final Datatype targetType) throws MPIException
    {
        live(what);
        orgType.check(what, "origin", origin, orgCount);
        targetType.live(what);
        if (targetRank < 0 || targetRank >= comm.size())
        {
            throw fail(MPI.ERR_RANK, what + ": targetRank " + targetRank + " is outside the window's group (0.."
                + (comm.size() - 1) + ")");
        }
        if (targetCount < 0)
        {
            throw fail(MPI.ERR_COUNT, what + ": targetCount " + targetCount + " must be at least 0");
        }
        if ((long)orgCount * orgType.wireSize != (long)targetCount * targetType.wireSize)
        {
            throw fail(MPI.ERR_TYPE, what + ": the origin's " + orgCount * orgType.wireSize + " bytes do not match the "
                + "target's " + targetCount * targetType.wireSize);
        }
        if (!targetType.basic && targetType.extentBytes != targetType.wireSize)
        {
            throw fail(MPI.ERR_TYPE, what + ": target datatype " + targetType + " is not contiguous (only contiguous "
                + "target datatypes are supported)");
        }
        final long off = (long)targetDisp * dispUnits[targetRank];
        final long len = (long)targetCount * targetType.wireSize;
        if (targetDisp < 0 || off + len > sizes[targetRank])
        {
            throw fail(MPI.ERR_DISP, what + ": " + len + " bytes at displacement " + targetDisp + " exceed rank "
                + targetRank + "'s window of " + sizes[targetRank] + " bytes");
        }
        return off;
    }

    /**
     * {@code MPI_PUT}: writes the origin data into the target's window ({@code elan_put}); it is
     * complete at the next synchronisation.
     *
     * @param origin      origin buffer.
     * @param orgCount    origin elements.
     * @param orgType     their type.
     * @param targetRank  the target's rank in the window's group.
     * @param targetDisp  displacement in the target's window, in its displacement units.
     * @param targetCount target elements.
     * @param targetType  their (contiguous) type.
     * @throws MPIException on a bad argument.
     */
    public void put(final Buffer origin, final int orgCount, final Datatype orgType, final int targetRank,
        final int targetDisp, final int targetCount, final Datatype targetType) throws MPIException
    {
        startPut("put", origin, orgCount, orgType, targetRank, targetDisp, targetCount, targetType);
    }

    private Pending startPut(final String what, final Buffer origin, final int orgCount, final Datatype orgType,
        final int targetRank, final int targetDisp, final int targetCount, final Datatype targetType)
        throws MPIException
    {
        final long off = target(what, origin, orgCount, orgType, targetRank, targetDisp, targetCount, targetType);
        rank.enter();
        final byte[] data = orgType.pack(origin, 0, orgCount);
        if (data.length == 0)
        {
            return null;
        }
        if (!orgType.basic)
        {
            rank.copy(data.length);
        }
        final long staged = rank.stage(data.length);
        rank.write(staged, data, data.length);
        final ElanEvent ev = rank.base.put(staged, regions[targetRank] + off, data.length, comm.vps[targetRank]);
        final Pending p = new Pending(ev, () -> rank.unstage(staged, data.length));
        pending.add(p);
        return p;
    }

    /**
     * {@code MPI_GET}: reads the target's window into the origin buffer ({@code elan_get}); the
     * origin buffer holds the data after the next synchronisation.
     *
     * @param origin      origin buffer.
     * @param orgCount    origin elements.
     * @param orgType     their type.
     * @param targetRank  the target's rank.
     * @param targetDisp  displacement in the target's window.
     * @param targetCount target elements.
     * @param targetType  their (contiguous) type.
     * @throws MPIException on a bad argument.
     */
    public void get(final Buffer origin, final int orgCount, final Datatype orgType, final int targetRank,
        final int targetDisp, final int targetCount, final Datatype targetType) throws MPIException
    {
        startGet("get", origin, orgCount, orgType, targetRank, targetDisp, targetCount, targetType);
    }

    private Pending startGet(final String what, final Buffer origin, final int orgCount, final Datatype orgType,
        final int targetRank, final int targetDisp, final int targetCount, final Datatype targetType)
        throws MPIException
    {
        final long off = target(what, origin, orgCount, orgType, targetRank, targetDisp, targetCount, targetType);
        rank.enter();
        final int len = orgCount * orgType.wireSize;
        if (len == 0)
        {
            return null;
        }
        final long staged = rank.stage(len);
        final ElanEvent ev = rank.base.get(regions[targetRank] + off, staged, len, comm.vps[targetRank]);
        final Pending p = new Pending(ev, () ->
        {
            orgType.unpack(rank.read(staged, len), len, origin, 0);
            if (!orgType.basic)
            {
                rank.copy(len);
            }
            rank.unstage(staged, len);
        });
        pending.add(p);
        return p;
    }

    /**
     * {@code MPI_ACCUMULATE}: combines the origin data into the target's window with {@code op}
     * (target = origin op target), atomically with respect to other accumulates on that target.
     *
     * @param origin      origin buffer.
     * @param orgCount    origin elements.
     * @param orgType     their type.
     * @param targetRank  the target's rank.
     * @param targetDisp  displacement in the target's window.
     * @param targetCount target elements.
     * @param targetType  their (contiguous) type.
     * @param op          a predefined operator.
     * @throws MPIException on a bad argument ({@link MPI#ERR_OP} for an operator that does not fit the type).
     */
    public void accumulate(final Buffer origin, final int orgCount, final Datatype orgType, final int targetRank,
        final int targetDisp, final int targetCount, final Datatype targetType, final Op op) throws MPIException
    {
        final long off = target("accumulate", origin, orgCount, orgType, targetRank, targetDisp, targetCount,
            targetType);
        op.check("accumulate", targetType);
        rank.enter();
        final byte[] mine = orgType.pack(origin, 0, orgCount);
        if (mine.length == 0)
        {
            return;
        }
        atomically(targetRank, off, mine.length, theirs ->
        {
            op.combine(mine, theirs, targetCount, targetType);
            rank.copy(mine.length);
            return theirs;
        });
    }

    /** Computes the new target bytes from the old ones (null: leave the target unchanged). */
    @FunctionalInterface
    private interface Update
    {
        byte[] apply(byte[] old) throws MPIException;
    }

    /**
     * Reads {@code len} bytes at {@code off} of {@code targetRank}'s window and writes back what
     * {@code update} makes of them, holding the target's mutex word ({@code elan_lockLock}: a
     * remote test-and-write) throughout, so every atomic operation on that target is serialised;
     * returns the old bytes.
     */
    private byte[] atomically(final int targetRank, final long off, final int len, final Update update)
        throws MPIException
    {
        final int vp = comm.vps[targetRank];
        final long staged = rank.stage(len);
        rank.base.lockLock(vp, mutexes[targetRank]);
        try
        {
            rank.base.get(regions[targetRank] + off, staged, len, vp).waitEvent(rank.base.waitType());
            final byte[] old = rank.read(staged, len);
            final byte[] updated = update.apply(old.clone());
            if (updated != null)
            {
                rank.write(staged, updated, len);
                rank.base.put(staged, regions[targetRank] + off, len, vp).waitEvent(rank.base.waitType());
            }
            return old;
        }
        finally
        {
            rank.base.lockUnLock(vp, mutexes[targetRank]);
            rank.unstage(staged, len);
        }
    }

    /**
     * {@code MPI_RPUT}: {@link #put} with a request that completes when the data is in the
     * target's window (the NIC's put event).
     *
     * @param origin      origin buffer.
     * @param orgCount    origin elements.
     * @param orgType     their type.
     * @param targetRank  the target's rank.
     * @param targetDisp  displacement in the target's window.
     * @param targetCount target elements.
     * @param targetType  their (contiguous) type.
     * @return the request.
     * @throws MPIException on a bad argument.
     */
    public Request rPut(final Buffer origin, final int orgCount, final Datatype orgType, final int targetRank,
        final int targetDisp, final int targetCount, final Datatype targetType) throws MPIException
    {
        return request(startPut("rPut", origin, orgCount, orgType, targetRank, targetDisp, targetCount, targetType));
    }

    /**
     * {@code MPI_RGET}: {@link #get} with a request that completes when the data is in the origin
     * buffer.
     *
     * @param origin      origin buffer.
     * @param orgCount    origin elements.
     * @param orgType     their type.
     * @param targetRank  the target's rank.
     * @param targetDisp  displacement in the target's window.
     * @param targetCount target elements.
     * @param targetType  their (contiguous) type.
     * @return the request.
     * @throws MPIException on a bad argument.
     */
    public Request rGet(final Buffer origin, final int orgCount, final Datatype orgType, final int targetRank,
        final int targetDisp, final int targetCount, final Datatype targetType) throws MPIException
    {
        return request(startGet("rGet", origin, orgCount, orgType, targetRank, targetDisp, targetCount, targetType));
    }

    private Request request(final Pending p)
    {
        return p == null ? Request.completed(comm, Status.empty()) : new RmaRequest(comm, p, rank.base.waitType());
    }

    /**
     * {@code MPI_RACCUMULATE}: {@link #accumulate}, which is complete when it returns, so the
     * request is already complete.
     *
     * @param origin      origin buffer.
     * @param orgCount    origin elements.
     * @param orgType     their type.
     * @param targetRank  the target's rank.
     * @param targetDisp  displacement in the target's window.
     * @param targetCount target elements.
     * @param targetType  their (contiguous) type.
     * @param op          a predefined operator.
     * @return the (complete) request.
     * @throws MPIException as {@link #accumulate}.
     */
    public Request rAccumulate(final Buffer origin, final int orgCount, final Datatype orgType, final int targetRank,
        final int targetDisp, final int targetCount, final Datatype targetType, final Op op) throws MPIException
    {
        accumulate(origin, orgCount, orgType, targetRank, targetDisp, targetCount, targetType, op);
        return Request.completed(comm, Status.empty());
    }

    /**
     * {@code MPI_GET_ACCUMULATE}: atomically (per target, as {@link #accumulate}) fetches the
     * target data into {@code resultAddr} and replaces it with (origin op target);
     * {@link MPI#NO_OP} only fetches, {@link MPI#REPLACE} swaps. Complete when it returns.
     *
     * @param origin      origin buffer (unused with {@link MPI#NO_OP}).
     * @param orgCount    origin elements.
     * @param orgType     their type.
     * @param resultAddr  receives the target data as it was.
     * @param resultCount result elements.
     * @param resultType  their type.
     * @param targetRank  the target's rank.
     * @param targetDisp  displacement in the target's window.
     * @param targetCount target elements.
     * @param targetType  their (contiguous) type.
     * @param op          a predefined operator, {@link MPI#REPLACE} or {@link MPI#NO_OP}.
     * @throws MPIException on a bad argument ({@link MPI#ERR_TYPE} when the result does not match
     *                      the target's size).
     */
    public void getAccumulate(final Buffer origin, final int orgCount, final Datatype orgType, final Buffer resultAddr,
        final int resultCount, final Datatype resultType, final int targetRank, final int targetDisp,
        final int targetCount, final Datatype targetType, final Op op) throws MPIException
    {
        final String what = "getAccumulate";
        final boolean fetchOnly = op == MPI.NO_OP;
        final long off = fetchOnly
            ? target(what, resultAddr, resultCount, resultType, targetRank, targetDisp, targetCount, targetType)
            : target(what, origin, orgCount, orgType, targetRank, targetDisp, targetCount, targetType);
        resultType.check(what, "resultAddr", resultAddr, resultCount);
        final int len = targetCount * targetType.wireSize;
        if ((long)resultCount * resultType.wireSize != len)
        {
            throw fail(MPI.ERR_TYPE, what + ": the result's " + resultCount * resultType.wireSize + " bytes do not "
                + "match the target's " + len);
        }
        op.check(what, targetType);
        rank.enter();
        if (len == 0)
        {
            return;
        }
        final byte[] mine = fetchOnly ? null : orgType.pack(origin, 0, orgCount);
        final byte[] old = atomically(targetRank, off, len, theirs ->
        {
            if (fetchOnly)
            {
                return null;
            }
            op.combine(mine, theirs, targetCount, targetType);
            rank.copy(len);
            return theirs;
        });
        resultType.unpack(old, len, resultAddr, 0);
    }

    /**
     * {@code MPI_RGET_ACCUMULATE}: {@link #getAccumulate}, complete when it returns, so the
     * request is already complete.
     *
     * @param origin      origin buffer.
     * @param orgCount    origin elements.
     * @param orgType     their type.
     * @param resultAddr  receives the target data as it was.
     * @param resultCount result elements.
     * @param resultType  their type.
     * @param targetRank  the target's rank.
     * @param targetDisp  displacement in the target's window.
     * @param targetCount target elements.
     * @param targetType  their (contiguous) type.
     * @param op          the operator.
     * @return the (complete) request.
     * @throws MPIException as {@link #getAccumulate}.
     */
    public Request rGetAccumulate(final Buffer origin, final int orgCount, final Datatype orgType,
        final Buffer resultAddr, final int resultCount, final Datatype resultType, final int targetRank,
        final int targetDisp, final int targetCount, final Datatype targetType, final Op op) throws MPIException
    {
        getAccumulate(origin, orgCount, orgType, resultAddr, resultCount, resultType, targetRank, targetDisp,
            targetCount, targetType, op);
        return Request.completed(comm, Status.empty());
    }

    /**
     * {@code MPI_FETCH_AND_OP}: {@link #getAccumulate} of one element: atomically fetches the
     * target element into {@code resultAddr} and replaces it with (origin op target).
     *
     * @param origin     the operand (unused with {@link MPI#NO_OP}).
     * @param resultAddr receives the old target value.
     * @param dataType   a predefined type.
     * @param targetRank the target's rank.
     * @param targetDisp displacement in the target's window.
     * @param op         the operator.
     * @throws MPIException on a bad argument.
     */
    public void fetchAndOp(final Buffer origin, final Buffer resultAddr, final Datatype dataType, final int targetRank,
        final int targetDisp, final Op op) throws MPIException
    {
        getAccumulate(origin, 1, dataType, resultAddr, 1, dataType, targetRank, targetDisp, 1, dataType, op);
    }

    /**
     * {@code MPI_COMPARE_AND_SWAP}: atomically (per target) fetches the target element into
     * {@code resultAddr} and, if it equals {@code compareAddr}'s (bit for bit), replaces it with
     * {@code origin}'s.
     *
     * @param origin      the new value.
     * @param compareAddr the value to compare with.
     * @param resultAddr  receives the old target value.
     * @param targetType  a predefined type.
     * @param targetRank  the target's rank.
     * @param targetDisp  displacement in the target's window.
     * @throws MPIException on a bad argument.
     */
    public void compareAndSwap(final Buffer origin, final Buffer compareAddr, final Buffer resultAddr,
        final Datatype targetType, final int targetRank, final int targetDisp) throws MPIException
    {
        final String what = "compareAndSwap";
        final long off = target(what, origin, 1, targetType, targetRank, targetDisp, 1, targetType);
        targetType.check(what, "compareAddr", compareAddr, 1);
        targetType.check(what, "resultAddr", resultAddr, 1);
        rank.enter();
        final byte[] swap = targetType.pack(origin, 0, 1);
        final byte[] compare = targetType.pack(compareAddr, 0, 1);
        final byte[] old = atomically(targetRank, off, swap.length, theirs -> java.util.Arrays.equals(theirs, compare)
            ? swap : null);
        targetType.unpack(old, old.length, resultAddr, 0);
    }

    /** Completes every operation this rank started on the window. */
    private void completeAll()
    {
        for (final Pending p : pending)
        {
            p.complete(rank.base.waitType());
        }
        pending.clear();
    }

    /**
     * Reconciles the user's buffer with the window's emulated copy: bytes written remotely since
     * the last reconciliation go into the user's buffer, the rest come from it.
     */
    private void reconcile()
    {
        final byte[] emulated = rank.read(region, sizeBytes);
        final byte[] user = unit.pack(base, 0, elements);
        final byte[] merged = new byte[sizeBytes];
        for (int i = 0; i < sizeBytes; i++)
        {
            merged[i] = emulated[i] != shadow[i] ? emulated[i] : user[i];
        }
        rank.write(region, merged, sizeBytes);
        unit.unpack(merged, sizeBytes, base, 0);
        shadow = merged;
    }

    /**
     * {@code MPI_WIN_FENCE}: ends one access and exposure epoch and starts the next (collective):
     * this rank's operations complete, a barrier, then the reconciliation of its window.
     *
     * @param assertion program assertion (ignored).
     * @throws MPIException on an error.
     */
    public void fence(final int assertion) throws MPIException
    {
        live("fence");
        completeAll();
        Collectives.barrier(comm);
        reconcile();
    }

    private void atomic(final boolean add, final int vp, final long word, final int expected, final int value,
        final String what)
    {
        final Elan3Context ctx = rank.base.ctx();
        ctx.raw().putInt(atomicWord, 0);
        ctx.primeevent(atomicEvent, 1);
        final long remote = ctx.main2elan(word);
        if (add)
        {
            ctx.atomicFetchAdd(vp, remote, value, atomicResult, atomicEvent);
        }
        else
        {
            ctx.atomicTestAndWrite(vp, remote, expected, value, atomicResult, atomicEvent);
        }
        ctx.waitEventWord(atomicEvent, atomicWord, rank.base.waitType(), what);
    }

    /**
     * {@code MPI_WIN_LOCK}: starts a passive-target access epoch on {@code rank}'s window.
     *
     * @param lockType  {@link MPI#LOCK_EXCLUSIVE} or {@link MPI#LOCK_SHARED}.
     * @param target    the target's rank.
     * @param assertion program assertion (ignored).
     * @throws MPIException with {@link MPI#ERR_LOCKTYPE} or {@link MPI#ERR_RANK} for bad arguments,
     *                      {@link MPI#ERR_RMA_SYNC} when this rank already holds that lock.
     */
    public void lock(final int lockType, final int target, final int assertion) throws MPIException
    {
        live("lock");
        if (lockType != MPI.LOCK_EXCLUSIVE && lockType != MPI.LOCK_SHARED)
        {
            throw fail(MPI.ERR_LOCKTYPE, "lock: lockType " + lockType + " must be MPI.LOCK_EXCLUSIVE or MPI.LOCK_SHARED");
        }
        if (target < 0 || target >= comm.size())
        {
            throw fail(MPI.ERR_RANK, "lock: rank " + target + " is outside the window's group (0.." + (comm.size() - 1)
                + ")");
        }
        if (held.containsKey(target))
        {
            throw fail(MPI.ERR_RMA_SYNC, "lock: this rank already holds the lock of rank " + target + "'s window");
        }
        rank.enter();
        final int vp = comm.vps[target];
        final Elan3Context ctx = rank.base.ctx();
        long backoffNs = 1_000;
        while (true)
        {
            if (lockType == MPI.LOCK_EXCLUSIVE)
            {
                atomic(false, vp, locks[target], 0, EXCLUSIVE_HELD, "the exclusive lock of rank " + target + "'s window");
                if (ctx.raw().getInt(atomicResult) == 0)
                {
                    break;
                }
            }
            else
            {
                atomic(true, vp, locks[target], 0, 1, "the shared lock of rank " + target + "'s window");
                if ((ctx.raw().getInt(atomicResult) & EXCLUSIVE_HELD) == 0)
                {
                    break;
                }
                atomic(true, vp, locks[target], 0, -1, "the release of a shared lock");
            }
            rank.charge(backoffNs);
            backoffNs = Math.min(2 * backoffNs, 32_000);
        }
        held.put(target, lockType);
        if (target == comm.myRank)
        {
            reconcile();
        }
    }

    /**
     * {@code MPI_WIN_UNLOCK}: completes this rank's operations and releases the lock of
     * {@code rank}'s window.
     *
     * @param target the target's rank.
     * @throws MPIException with {@link MPI#ERR_RMA_SYNC} when this rank does not hold the lock.
     */
    public void unlock(final int target) throws MPIException
    {
        live("unlock");
        final Integer type = held.remove(target);
        if (type == null)
        {
            throw fail(MPI.ERR_RMA_SYNC, "unlock: this rank does not hold the lock of rank " + target + "'s window");
        }
        rank.enter();
        completeAll();
        if (target == comm.myRank)
        {
            reconcile();
        }
        atomic(true, comm.vps[target], locks[target], 0, type == MPI.LOCK_EXCLUSIVE ? -EXCLUSIVE_HELD : -1,
            "the release of the lock of rank " + target + "'s window");
    }

    /**
     * {@code MPI_WIN_LOCK_ALL}: a shared lock on every member's window.
     *
     * @param assertion program assertion (ignored).
     * @throws MPIException on an error.
     */
    public void lockAll(final int assertion) throws MPIException
    {
        for (int r = 0; r < comm.size(); r++)
        {
            lock(MPI.LOCK_SHARED, r, assertion);
        }
    }

    /**
     * {@code MPI_WIN_UNLOCK_ALL}.
     *
     * @throws MPIException on an error.
     */
    public void unlockAll() throws MPIException
    {
        for (int r = 0; r < comm.size(); r++)
        {
            unlock(r);
        }
    }

    /**
     * {@code MPI_WIN_FLUSH}: completes this rank's operations (to every target: they are not kept apart).
     *
     * @param target the target's rank.
     * @throws MPIException on an error.
     */
    public void flush(final int target) throws MPIException
    {
        live("flush");
        rank.enter();
        completeAll();
    }

    /**
     * {@code MPI_WIN_FLUSH_ALL}.
     *
     * @throws MPIException on an error.
     */
    public void flushAll() throws MPIException
    {
        flush(0);
    }

    /**
     * {@code MPI_WIN_FLUSH_LOCAL} (as {@link #flush}).
     *
     * @param target the target's rank.
     * @throws MPIException on an error.
     */
    public void flushLocal(final int target) throws MPIException
    {
        flush(target);
    }

    /**
     * {@code MPI_WIN_FLUSH_LOCAL_ALL} (as {@link #flushAll}).
     *
     * @throws MPIException on an error.
     */
    public void flushLocalAll() throws MPIException
    {
        flush(0);
    }

    /**
     * {@code MPI_WIN_SYNC}: reconciles this rank's buffer with its window.
     *
     * @throws MPIException on an error.
     */
    public void sync() throws MPIException
    {
        live("sync");
        rank.enter();
        reconcile();
    }

    private int[] ranksOf(final String what, final Group group) throws MPIException
    {
        final int[] r = new int[group.vps.length];
        for (int i = 0; i < r.length; i++)
        {
            r[i] = comm.rankOf(group.vps[i]);
            if (r[i] < 0)
            {
                throw fail(MPI.ERR_GROUP, what + ": the group holds VP " + group.vps[i] + ", not a member of the window");
            }
        }
        return r;
    }

    /**
     * {@code MPI_WIN_POST}: starts an exposure epoch for the origins of {@code group}.
     *
     * @param group     the origins.
     * @param assertion program assertion (ignored).
     * @throws MPIException on an error.
     */
    public void post(final Group group, final int assertion) throws MPIException
    {
        live("post");
        final int[] origins = ranksOf("post", group);
        rank.enter();
        reconcile();
        doneFrom = new Request[origins.length];
        for (int i = 0; i < origins.length; i++)
        {
            doneFrom[i] = sync.recvWire(sync.context, 0, origins[i], 2);
        }
        for (final int o : origins)
        {
            sync.sendWire(sync.context, new byte[0], o, 1, false).block();
        }
        postedTo = origins;
    }

    /**
     * {@code MPI_WIN_START}: starts an access epoch to the targets of {@code group} (waits for their post).
     *
     * @param group     the targets.
     * @param assertion program assertion (ignored).
     * @throws MPIException on an error.
     */
    public void start(final Group group, final int assertion) throws MPIException
    {
        live("start");
        final int[] targets = ranksOf("start", group);
        rank.enter();
        for (final int t : targets)
        {
            sync.recvWire(sync.context, 0, t, 1).block();
        }
        startedAt = targets;
    }

    /**
     * {@code MPI_WIN_COMPLETE}: ends the access epoch: completes this rank's operations and tells each target.
     *
     * @throws MPIException with {@link MPI#ERR_RMA_SYNC} without a {@link #start}.
     */
    public void complete() throws MPIException
    {
        live("complete");
        if (startedAt == null)
        {
            throw fail(MPI.ERR_RMA_SYNC, "complete: no access epoch was started (Win.start)");
        }
        rank.enter();
        completeAll();
        for (final int t : startedAt)
        {
            sync.sendWire(sync.context, new byte[0], t, 2, false).block();
        }
        startedAt = null;
    }

    /**
     * {@code MPI_WIN_WAIT}: ends the exposure epoch once every origin has completed, then reconciles the window.
     *
     * @throws MPIException with {@link MPI#ERR_RMA_SYNC} without a {@link #post}.
     */
    public void waitFor() throws MPIException
    {
        live("waitFor");
        if (postedTo == null)
        {
            throw fail(MPI.ERR_RMA_SYNC, "waitFor: no exposure epoch was started (Win.post)");
        }
        rank.enter();
        for (final Request r : doneFrom)
        {
            r.block();
        }
        postedTo = null;
        doneFrom = null;
        reconcile();
    }

    /**
     * {@code MPI_WIN_TEST}: as {@link #waitFor} without blocking.
     *
     * @return whether the exposure epoch has ended.
     * @throws MPIException with {@link MPI#ERR_RMA_SYNC} without a {@link #post}.
     */
    public boolean test() throws MPIException
    {
        live("test");
        if (postedTo == null)
        {
            throw fail(MPI.ERR_RMA_SYNC, "test: no exposure epoch was started (Win.post)");
        }
        rank.enter();
        for (final Request r : doneFrom)
        {
            if (!r.poll())
            {
                return false;
            }
        }
        waitFor();
        return true;
    }

    /**
     * {@code MPI_WIN_GET_GROUP}.
     *
     * @return the window's group.
     * @throws MPIException on an error.
     */
    public Group getGroup() throws MPIException
    {
        live("getGroup");
        return new Group(comm.vps.clone(), rank.base.vp());
    }

    /**
     * {@code MPI_WIN_SET_ERRHANDLER}.
     *
     * @param errhandler the handler.
     * @throws MPIException on an error.
     */
    public void setErrhandler(final Errhandler errhandler) throws MPIException
    {
        live("setErrhandler");
        this.errhandler = errhandler;
    }

    /**
     * {@code MPI_WIN_GET_ERRHANDLER}.
     *
     * @return the handler.
     * @throws MPIException on an error.
     */
    public Errhandler getErrhandler() throws MPIException
    {
        live("getErrhandler");
        return errhandler;
    }

    /**
     * {@code MPI_WIN_CALL_ERRHANDLER}.
     *
     * @param errorCode an error class.
     * @throws MPIException under {@link MPI#ERRORS_RETURN}.
     */
    public void callErrhandler(final int errorCode) throws MPIException
    {
        throw fail(errorCode, "Win.callErrhandler(" + errorCode + ")");
    }

    /**
     * {@code MPI_WIN_SET_NAME}.
     *
     * @param name the name.
     * @throws MPIException on an error.
     */
    public void setName(final String name) throws MPIException
    {
        live("setName");
        this.name = name;
    }

    /**
     * {@code MPI_WIN_GET_NAME}.
     *
     * @return the name.
     * @throws MPIException on an error.
     */
    public String getName() throws MPIException
    {
        live("getName");
        return name;
    }

    /**
     * {@code MPI_WIN_CREATE_KEYVAL}.
     *
     * @return a new key.
     * @throws MPIException on an error.
     */
    public static int createKeyval() throws MPIException
    {
        return Comm.createKeyval();
    }

    /**
     * {@code MPI_WIN_FREE_KEYVAL}.
     *
     * @param keyval the key.
     * @throws MPIException on an error.
     */
    public static void freeKeyval(final int keyval) throws MPIException
    {
        Comm.freeKeyval(keyval);
    }

    /**
     * {@code MPI_WIN_SET_ATTR}.
     *
     * @param keyval the key.
     * @param value  the value.
     * @throws MPIException on an error.
     */
    public void setAttr(final int keyval, final Object value) throws MPIException
    {
        live("setAttr");
        attributes.put(keyval, value);
    }

    /**
     * {@code MPI_WIN_GET_ATTR}: also {@link MPI#WIN_SIZE} (bytes) and {@link MPI#WIN_DISP_UNIT} (bytes).
     *
     * @param keyval the key.
     * @return the value, or null.
     * @throws MPIException on an error.
     */
    public Object getAttr(final int keyval) throws MPIException
    {
        live("getAttr");
        if (keyval == MPI.WIN_SIZE)
        {
            return sizeBytes;
        }
        if (keyval == MPI.WIN_DISP_UNIT)
        {
            return dispUnits[comm.myRank];
        }
        return attributes.get(keyval);
    }

    /**
     * {@code MPI_WIN_DELETE_ATTR}.
     *
     * @param keyval the key.
     * @throws MPIException on an error.
     */
    public void deleteAttr(final int keyval) throws MPIException
    {
        live("deleteAttr");
        attributes.remove(keyval);
    }

    /**
     * {@code MPI_WIN_FREE} (collective): completes this rank's operations, waits for the other
     * members, reconciles the buffer a last time and releases the window's memory.
     *
     * @throws MPIException on an error.
     */
    @Override
    public void free() throws MPIException
    {
        live("free");
        completeAll();
        Collectives.barrier(comm);
        reconcile();
        freed = true;
        rank.base.free(region);
        rank.base.free(lockWord);
        rank.base.free(mutexWord);
    }

    @Override
    public String toString()
    {
        return name + " on " + comm;
    }
}
