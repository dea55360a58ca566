package org.qsnet.elan;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.qsnet.elan3.Elan3;
import org.qsnet.elan3.Elan3Context;
import org.qsnet.elan3.ElanCapability;
import org.qsnet.elan3.ElanProcess;
import org.qsnet.elan3.RangeAllocator;
import org.qsnet.elan3.Rms;
import org.qsnet.fabric.QsnetException;
import org.qsnet.fabric.machine.PlatformProfile;
import org.qsnet.fabric.memory.SparseMemory;
import org.qsnet.fabric.nic.Elan3Nic;

/**
 * {@code ELAN_BASE} and {@code ELAN_STATE}: what {@code elan_baseInit} returns. Holds the attached
 * Elan3 context, this process's VP, the tunables read from the {@code LIBELAN_*} environment, the
 * group of all processes, and the pools of events and descriptors the calls below use.
 *
 * <p>One-sided calls address remote memory with the same host address as local memory (libelan's
 * symmetric addressing): allocations made in the same order on every process return the same
 * addresses, and {@link #gallocMain} makes that a collective guarantee.
 *
 * <p>This class is the state (tunables, heaps, the attached context) and the public API; the
 * operations live in package-private collaborators it delegates to: {@code OneSided} (put, get and
 * the slot pool), {@code Collectives} (groups, barriers, broadcasts, reductions) and {@code Locks}.
 */
public final class ElanBase
{
    /** {@code elan_reduce} flag: the operator is commutative (any order may be used). */
    public static final int ELAN_REDUCE_COMMUTE = 1;
    /** {@code elan_reduce} flag: every member gets the result (allreduce). */
    public static final int ELAN_RESULT_ALL = 2;
    /** {@code base->capabilities} bit: {@code elan_fini} is available. */
    public static final int LIBELAN_HAVE_FINI = 0x1;
    /** {@code base->group_flags} bit: hardware broadcast is enabled. */
    public static final int ELAN_HWBCAST = 0x1;
    /** {@code elan_fini}'s third argument: finish the whole group. */
    public static final int LIBELAN_FINI_GROUP = 0x1;
    /** {@code elan_bcast}/{@code elan_hbcast} flag: {@code buf} is a global (same-address) buffer. */
    public static final int ELAN_GLOBAL_DEST = 0x1;
    /** Version string of the emulated library. */
    public static final String VERSION = "libelan 1.4.14 (qsnet emulator)";

    static final int MAX_ROUNDS = 32;
    static final long STAGING = 64 * 1024;

    private final Elan3Context ctx;
    final ElanProcess process;
    private final PlatformProfile profile;
    /** {@code state->vp}: this process's VP. */
    public final int vp;
    /** {@code state->nvp}: the number of VPs of the job. */
    public final int nvp;
    private final ElanCapability cap;
    private final Map<String, String> tunables = new LinkedHashMap<>();
    final int smallPutSize;

    // ---- ELAN_BASE fields (ELAN-API.md §2.3), typed, with the C names: base->tport_nslots is base.tport_nslots.
    // Those read from a LIBELAN_* variable say so; the others hold what the emulated library does.

    /** {@code base->state}: the {@code ELAN_STATE}, which is this object too. */
    public final ElanBase state = this;
    /** {@code base->dmaType}: the DMA data type of the library's transfers ({@code DMA_BYTE}). */
    public final int dmaType = Elan3.DMA_BYTE;
    /** {@code base->retryCount}: queued-DMA and DMA retries ({@code LIBELAN_RETRYCOUNT}, 63). */
    public final int retryCount;
    /** {@code base->waitType}: ELAN_POLL_EVENT, ELAN_WAIT_EVENT or a spin count ({@code LIBELAN_WAITTYPE}, POLL). */
    public final long waitType;
    /** {@code base->flags}: the flags given to {@code elan_baseInit}. */
    public final int flags;
    /** {@code base->capabilities}: {@link #LIBELAN_HAVE_FINI} ({@code elan_fini} is collective). */
    public final int capabilities = LIBELAN_HAVE_FINI;
    /** {@code base->group_rbufsize}: bytes a broadcast or reduction stages per member (64 KB; larger ones are refused). */
    public final int group_rbufsize = (int)STAGING;
    /** {@code base->group_branch}: the broadcast tree's branching (2: binomial). */
    public final int group_branch = 2;
    /** {@code base->group_flags}: {@link #ELAN_HWBCAST} when {@code LIBELAN_GROUP_HWBCAST} is 1 (callers pass it to reductions). */
    public final int group_flags;
    /** {@code base->tport_nslots}: Tports input-queue slots ({@code LIBELAN_TPORT_NSLOTS}, 64). */
    public final int tport_nslots;
    /** {@code base->tport_flags}: Tports flags (0). */
    public final int tport_flags = 0;
    /** {@code base->tport_smallmsg}: the inline limit ({@code LIBELAN_TPORT_SMALLMSG}, 288). */
    public final int tport_smallmsg;
    /** {@code base->tport_bigmsg}: the largest message buffered before a receive ({@code LIBELAN_TPORT_BIGMSG}, 65536). */
    public final int tport_bigmsg;
    /** {@code base->tport_fragsize}: big messages are pulled in fragments of this size ({@code LIBELAN_TPORT_FRAGSIZE}, 1 MB). */
    public final int tport_fragsize;
    /** {@code base->tport_stripemsg}: striping threshold; one rail, so never reached ({@link Integer#MAX_VALUE}). */
    public final int tport_stripemsg = Integer.MAX_VALUE;
    /** {@code base->putget_flags}: 0. */
    public final int putget_flags = 0;
    /** {@code base->putget_smallputsize}: puts up to this size are copied first ({@code LIBELAN_PUTGET_SMALLPUTSIZE}, 64). */
    public final int putget_smallputsize;
    /** {@code base->putget_throttle}: the throttle callers pass to {@code elan_putgetInit} ({@code LIBELAN_PUTGET_THROTTLE}, 0: none). */
    public final int putget_throttle;
    /** {@code base->mqueue_slotsize}: the largest queue slot ({@link ElanQueue#MAX_SLOT_SIZE}). */
    public final int mqueue_slotsize = ElanQueue.MAX_SLOT_SIZE;
    /** {@code base->lock_flags}: 0. */
    public final int lock_flags = 0;
    /** {@code base->galloc_size}: bytes of the collective heap {@code elan_gallocMain} allocates from. */
    public final long galloc_size;
    /** {@code base->shm_enable}: 1 when processes of one node exchange Tports messages through shared memory ({@code LIBELAN_SHM_ENABLE}, 1). */
    public final int shm_enable;
    /** {@code base->shm_key}: the shared-memory key (0: the emulator needs none). */
    public final int shm_key = 0;
    /** {@code base->shm_fragsize}: shared-memory FIFO fragment size ({@code LIBELAN_SHM_FRAGSIZE}, 8192). */
    public final int shm_fragsize;
    /** {@code base->shm_fifodepth}: shared-memory FIFO depth in fragments ({@code LIBELAN_SHM_FIFODEPTH}, 16). */
    public final int shm_fifodepth;
    /** {@code base->shm_bigmsg}: larger messages between processes of a node go through the NIC ({@code LIBELAN_SHM_BIGMSG}, 1 MB). */
    public final int shm_bigmsg;
    /** {@code base->allGroup}: every process of the job. */
    public final ElanGroup allGroup;
    private final RangeAllocator symmetric;
    private final RangeAllocator symmetricElan;
    private boolean finished;
    private final OneSided oneSided;
    private final Collectives collectives;
    private final Locks locks;

    private ElanBase(final int flags)
    {
        this.process = ElanProcess.current();
        this.profile = process.machine().profile();
        for (final Map.Entry<String, String> e : process.environment().entrySet())
        {
            if (e.getKey().startsWith("LIBELAN_"))
            {
                tunables.put(e.getKey().substring("LIBELAN_".length()).toLowerCase(java.util.Locale.ROOT), e.getValue());
            }
        }
        this.flags = flags;
        this.waitType = parseWaitType(tunables.getOrDefault("waittype", "POLL"));
        this.retryCount = intTunable("retrycount", 63, 0, 63);
        this.smallPutSize = intTunable("putget_smallputsize", 64, 0, 64);
        this.putget_smallputsize = smallPutSize;
        this.putget_throttle = intTunable("putget_throttle", 0, 0, Integer.MAX_VALUE);
        this.group_flags = intTunable("group_hwbcast", 0, 0, 1) != 0 ? ELAN_HWBCAST : 0;
        this.tport_nslots = intTunable("tport_nslots", 64, 2, 4096);
        this.tport_smallmsg = intTunable("tport_smallmsg", 288, 0, 288);
        this.tport_bigmsg = intTunable("tport_bigmsg", 65536, 0, Integer.MAX_VALUE);
        this.tport_fragsize = intTunable("tport_fragsize", 1 << 20, 320, Integer.MAX_VALUE);
        this.shm_enable = intTunable("shm_enable", 1, 0, 1);
        this.shm_fragsize = intTunable("shm_fragsize", 8192, 64, Integer.MAX_VALUE);
        this.shm_fifodepth = intTunable("shm_fifodepth", 16, 1, Integer.MAX_VALUE);
        this.shm_bigmsg = intTunable("shm_bigmsg", 1 << 20, 0, Integer.MAX_VALUE);
        this.cap = Rms.getcap();
        // LIBELAN_ALLOC_SIZE / LIBELAN_ALLOCELAN_SIZE, in whole pages
        final long page = SparseMemory.PAGE_SIZE;
        this.ctx = Elan3Context.open((intTunable("alloc_size", 1 << 25, 1 << 20, 1 << 27) + page - 1) & -page,
            (intTunable("allocelan_size", elanHeapShare(cap), 1 << 16, 1 << 25) + page - 1) & -page);
        // libelan maps the process's own memory: what the program mallocs is DMA-able
        ctx.setStandardMappings();
        this.vp = ctx.process();
        this.nvp = cap.nvps();
        this.symmetric = new RangeAllocator("collective heap", ctx.allocMain(8192, 1 << 24), 1 << 24);
        // the collective Elan heap: carved at the same point of every process's start-up, so its
        // allocations (group events, elan_gallocElan) have the same address on every member
        // whatever the process allocates privately later (Tports' per-process events)
        final long symElan = Math.max(1 << 14, Math.min(1 << 20, ctx.elanHeapSize() / 4)) & -64L;
        this.symmetricElan = new RangeAllocator("collective Elan heap", ctx.allocElan(64, symElan), symElan);
        this.galloc_size = symmetric.size();
        // the operations' collaborators: they allocate nothing until used, so the heaps' layout is unchanged
        this.oneSided = new OneSided(this);
        this.collectives = new Collectives(this, oneSided);
        this.locks = new Locks(this, oneSided);
        final int[] all = new int[nvp];
        for (int i = 0; i < nvp; i++)
        {
            all[i] = i;
        }
        this.allGroup = collectives.newGroup(all);
        ctx.blockInputter(0);
        // every member's collective memory exists before anyone writes into it
        gsync(allGroup);
    }
    /**
     * The default Elan heap of a process: 4 MB, or its share of the node's SDRAM when more processes
     * than fit 4 MB each share one node, so that a job with as many processes per node as it has
     * contexts still starts.
     */
    private static int elanHeapShare(final ElanCapability cap)
    {
        final long share = (Elan3Nic.SDRAM_BYTES - Elan3Nic.SDRAM_ALLOC_BASE) / Math.max(1, cap.maxlocal());
        return (int)Math.min(1 << 22, share & -SparseMemory.PAGE_SIZE);
    }

    private static long parseWaitType(final String v)
    {
        return switch (v.toUpperCase(java.util.Locale.ROOT))
        {
            case "POLL", "ELAN_POLL_EVENT" -> Elan3.ELAN_POLL_EVENT;
            case "WAIT", "ELAN_WAIT_EVENT" -> Elan3.ELAN_WAIT_EVENT;
            default ->
            {
                try
                {
                    final long n = Long.parseLong(v.trim());
                    QsnetException.require(n >= 0, "LIBELAN_WAITTYPE", v, "must be POLL, WAIT or a spin count");
                    yield n;
                }
                catch (final NumberFormatException e)
                {
                    throw new QsnetException("LIBELAN_WAITTYPE " + v + " must be POLL, WAIT or a spin count");
                }
            }
        };
    }

    private int intTunable(final String name, final int dflt, final int min, final int max)
    {
        final String v = tunables.get(name);
        if (v == null)
        {
            return dflt;
        }
        try
        {
            final int n = Integer.parseInt(v.trim());
            QsnetException.require(n >= min && n <= max, "LIBELAN_" + name.toUpperCase(java.util.Locale.ROOT), v,
                "must be in " + min + ".." + max);
            return n;
        }
        catch (final NumberFormatException e)
        {
            throw new QsnetException("LIBELAN_" + name.toUpperCase(java.util.Locale.ROOT) + " " + v + " is not a number");
        }
    }

    /**
     * {@code elan_baseInit}: attaches to the network with the process's capability, works out the
     * VP, creates the allocators and {@code allGroup}, reads the {@code LIBELAN_*} tunables, and
     * synchronises every process of the job (so that collective memory exists everywhere).
     *
     * @param flags ELAN_FLAGS (0).
     * @return the base.
     */
    public static ElanBase baseInit(final int flags)
    {
        return new ElanBase(flags);
    }

    // ------------------------------------------------------------------ state

    /**
     * @return {@code state->vp}.
     */
    public int vp()
    {
        return vp;
    }

    /**
     * @return {@code state->nvp}.
     */
    public int nvp()
    {
        return nvp;
    }

    /**
     * @return {@code state->cap}.
     */
    public ElanCapability capability()
    {
        return cap.copy();
    }

    /**
     * @return {@code state->ctx}: the Elan3 context.
     */
    public Elan3Context ctx()
    {
        return ctx;
    }

    /**
     * @return {@code base->allGroup}.
     */
    public ElanGroup allGroup()
    {
        return allGroup;
    }

    /**
     * @return {@code base->waitType}: from {@code LIBELAN_WAITTYPE} (POLL, WAIT or a spin count).
     */
    public long waitType()
    {
        return waitType;
    }

    /**
     * @return {@code base->retryCount}: from {@code LIBELAN_RETRYCOUNT}.
     */
    public int retryCount()
    {
        return retryCount;
    }

    /**
     * {@code elan_version}.
     *
     * @return the version string.
     */
    public static String version()
    {
        return VERSION;
    }

    /**
     * {@code elan_clock}: the process's simulated clock. Reading it is a library call and costs
     * one ({@code hostCallNs}), so a timer loop ({@code while (elan_clock(s) < end) ;}) ends
     * (once a defect: the read was free, and such a loop spun for ever at one simulated instant).
     *
     * @return ns, after the call's cost.
     */
    public long clock()
    {
        process.sim().advance(profile.hostCallNs());
        return process.nowNs();
    }

    /**
     * @return the platform profile (for the layers above).
     */
    public PlatformProfile profile()
    {
        return profile;
    }

    /**
     * @return puts issued.
     */
    public long puts()
    {
        return oneSided.puts;
    }

    /**
     * @return gets issued.
     */
    public long gets()
    {
        return oneSided.gets;
    }

    /**
     * {@code elan_fini}: collective teardown.
     *
     * @param group the group (allGroup).
     */
    public void fini(final ElanGroup group)
    {
        gsync(group);
        oneSided.reclaim();
        ctx.detach();
        finished = true;
    }

    void live()
    {
        if (finished)
        {
            throw new QsnetException("ELAN_BASE of VP " + vp + " was finished (elan_fini)");
        }
    }

    // ------------------------------------------------------------------ memory

    /**
     * {@code elan_allocMain}.
     *
     * @param align alignment.
     * @param size  bytes.
     * @return host address, 0 on failure.
     */
    public long allocMain(final int align, final long size)
    {
        return ctx.allocMain(align, size);
    }

    /**
     * {@code elan_allocElan}.
     *
     * @param align alignment.
     * @param size  bytes.
     * @return SDRAM handle, 0 on failure.
     */
    public long allocElan(final int align, final long size)
    {
        return ctx.allocElan(align, size);
    }

    /**
     * {@code elan_free}.
     *
     * @param addr a host address from {@link #allocMain}.
     */
    public void free(final long addr)
    {
        ctx.free(addr);
    }

    /**
     * {@code elan_freeElan}.
     *
     * @param sdram a handle from {@link #allocElan}.
     */
    public void freeElan(final long sdram)
    {
        if (symmetricElan.contains(sdram))
        {
            // elan_gallocElan memory goes back to the collective Elan heap
            symmetricElan.free(sdram);
            return;
        }
        ctx.freeElan(sdram);
    }

    /** An event from the collective Elan heap: the same address on every member, as remote sets need. */
    long gallocEvent()
    {
        final long e = symmetricElan.alloc(Elan3.E3_EVENT_ALIGN, Elan3.E3_BLOCK_COPY_EVENT_SIZE);
        if (e < 0)
        {
            throw new QsnetException("the collective Elan heap (" + symmetricElan.size() + " bytes) is exhausted");
        }
        return e;
    }

    /** A block of the collective Elan heap (SDRAM handle), at the same address on every member. */
    long gallocElanBlock(final int align, final long size)
    {
        final long s = symmetricElan.alloc(align, size);
        if (s < 0)
        {
            throw new QsnetException("the collective Elan heap (" + symmetricElan.size() + " bytes) is exhausted: "
                + size + " bytes asked");
        }
        return s;
    }

    long galloc(final int align, final long size)
    {
        final long a = symmetric.alloc(align, size);
        if (a < 0)
        {
            throw new QsnetException("the collective heap (16 MB) is exhausted: " + size + " bytes asked");
        }
        return a;
    }

    /**
     * {@code elan_gallocMain}: collective allocation, the same address on every member.
     *
     * @param group the group (every member calls).
     * @param align alignment.
     * @param size  bytes.
     * @return host address.
     */
    public long gallocMain(final ElanGroup group, final int align, final long size)
    {
        live();
        final long a = galloc(align, size);
        gsync(group);
        return a;
    }

    /**
     * {@code elan_gallocElan}: collective SDRAM allocation, the same handle (and Elan address) on
     * every member.
     *
     * @param group the group (every member calls, in the same order).
     * @param align alignment.
     * @param size  bytes.
     * @return the SDRAM handle.
     */
    public long gallocElan(final ElanGroup group, final int align, final long size)
    {
        live();
        final long s = symmetricElan.alloc(align, size);
        if (s < 0)
        {
            throw new QsnetException("gallocElan of " + size + " bytes failed: the collective Elan heap ("
                + symmetricElan.size() + " bytes) is exhausted");
        }
        gsync(group);
        return s;
    }

    /**
     * {@code elan_allocQueue}: a queue for this process only (its address is exchanged out of band).
     *
     * @return the queue.
     */
    public ElanQueue allocQueue()
    {
        live();
        return new ElanQueue(this, false);
    }

    /**
     * {@code elan_enable_network}: lets packets for this process in.
     */
    public void enableNetwork()
    {
        ctx.blockInputter(0);
    }

    /**
     * {@code elan_disable_network}: holds packets for this process off (their senders retry).
     */
    public void disableNetwork()
    {
        ctx.blockInputter(1);
    }

    /**
     * {@code elan_deviceCheck}: reads the device's state across PCI.
     *
     * @return 0 when the device is healthy; the NIC's recorded faults otherwise.
     */
    public int deviceCheck()
    {
        process.sim().advance(profile.hostCallNs() + profile.pioReadNs());
        return ctx.hardware().faults().size();
    }

    /**
     * {@code elan_generateCapability}: builds a capability from the compact string
     * {@code N<node>C<low>-<my>-<high>N<low>-<high>R<mask><b|c>} with this job's key.
     *
     * @param capString the string (MPICH and NewMadeleine build it from PMI data).
     * @return the capability.
     */
    public ElanCapability generateCapability(final String capString)
    {
        return ElanCapability.fromCompactString(capString, cap.userKey);
    }

    /**
     * {@code elan_getenvCap}: the capability in {@code LIBELAN_ECAP0}.
     *
     * @param rail the rail (0).
     * @return the capability.
     */
    public ElanCapability getenvCap(final int rail)
    {
        QsnetException.require(rail == 0, "rail", rail, "must be 0");
        final String s = process.getenv("LIBELAN_ECAP" + rail);
        if (s == null)
        {
            throw new QsnetException("LIBELAN_ECAP" + rail + " is not set");
        }
        return ElanCapability.fromCompactString(s, cap.userKey);
    }

    private final List<java.util.function.IntSupplier> progressFns = new ArrayList<>();
    private boolean inProgressFn;

    /**
     * {@code elan_addProgressFn} / {@code elan_addPollFn}: a function the library calls while it
     * waits in a collective or in {@link #waitAll}.
     *
     * @param fn the function.
     */
    public void addProgressFn(final Runnable fn)
    {
        addPollFn(() ->
        {
            fn.run();
            return 0;
        });
    }

    /**
     * {@code elan_addPollFn}: a function the library calls while it waits in a collective (first, then
     * after every arrival of anything into this process's memory) or in {@link #waitAll}. A nonzero
     * result asks the library to keep spinning rather than sleep (GASNet's conduit returns 0, "don't
     * delay the elan blocking").
     *
     * @param fn the function; its result as {@code ELAN_POLLFN}'s.
     */
    public void addPollFn(final java.util.function.IntSupplier fn)
    {
        progressFns.add(fn);
    }

    /**
     * Runs the progress functions once.
     */
    public void progress()
    {
        runPollFns();
    }

    /**
     * Runs the poll functions once (not from inside one of them: a function that waits in the library
     * does not run itself again).
     *
     * @return whether one asked to be called again without sleeping.
     */
    boolean runPollFns()
    {
        if (inProgressFn)
        {
            return false;
        }
        inProgressFn = true;
        try
        {
            boolean again = false;
            for (final java.util.function.IntSupplier fn : List.copyOf(progressFns))
            {
                again |= fn.getAsInt() != 0;
            }
            return again;
        }
        finally
        {
            inProgressFn = false;
        }
    }

    /** @return whether the program added a poll function that a wait must keep running. */
    boolean pollsWhileWaiting()
    {
        return !progressFns.isEmpty() && !inProgressFn;
    }

    /**
     * {@code elan_putgetInit}: the put/get engine's settings ({@code putget_*} tunables); returns
     * the handle that {@link #doput} and {@link #doget} take.
     *
     * @param smallPutSize puts up to this size are copied first (at most 64).
     * @param throttle     outstanding operations allowed before a call waits for the oldest (0: no limit).
     * @return the handle.
     */
    public PutGet putgetInit(final int smallPutSize, final int throttle)
    {
        QsnetException.require(smallPutSize >= 0 && smallPutSize <= 64, "smallPutSize", smallPutSize, "must be in 0..64");
        QsnetException.require(throttle >= 0, "throttle", throttle, "must be at least 0");
        return new PutGet(throttle);
    }

    /** The handle of {@code elan_putgetInit}. */
    public final class PutGet
    {
        private final int throttle;
        private final ArrayDeque<ElanEvent> outstanding = new ArrayDeque<>();

        PutGet(final int throttle)
        {
            this.throttle = throttle;
        }

        /**
         * @return the base this handle belongs to.
         */
        public ElanBase base()
        {
            return ElanBase.this;
        }

        private ElanEvent track(final ElanEvent e)
        {
            outstanding.removeIf(ElanEvent::isConsumed);
            if (throttle > 0 && outstanding.size() >= throttle)
            {
                // the program still holds the oldest's event and waits for it itself: wait, do not consume
                outstanding.pollFirst().awaitUnconsumed(waitType);
            }
            outstanding.addLast(e);
            return e;
        }
    }

    /**
     * {@code elan_doput}: a put through a put/get handle (throttled).
     *
     * @param pg     the handle.
     * @param src    local host address.
     * @param dst    host address at the destination.
     * @param len    bytes.
     * @param destVp the destination.
     * @return the event.
     */
    public ElanEvent doput(final PutGet pg, final long src, final long dst, final long len, final int destVp)
    {
        return pg.track(put(src, dst, len, destVp));
    }

    /**
     * {@code elan_doget}: a get through a put/get handle (throttled).
     *
     * @param pg    the handle.
     * @param src   host address at the source.
     * @param dst   local host address.
     * @param len   bytes.
     * @param srcVp the source.
     * @return the event.
     */
    public ElanEvent doget(final PutGet pg, final long src, final long dst, final long len, final int srcVp)
    {
        return pg.track(get(src, dst, len, srcVp));
    }

    /**
     * {@code elan_putv}: puts {@code count} pieces (each {@code src[i]} to {@code dst[i]},
     * {@code len[i]} bytes) to one VP; one event for all.
     *
     * @param src    source host addresses.
     * @param dst    destination host addresses.
     * @param len    lengths.
     * @param destVp the destination.
     * @return an event complete when every piece is delivered.
     */
    public ElanEvent putv(final long[] src, final long[] dst, final long[] len, final int destVp)
    {
        return oneSided.putv(src, dst, len, destVp);
    }

    /**
     * {@code elan_getv}: the vector form of {@link #get}.
     *
     * @param src   source host addresses at {@code srcVp}.
     * @param dst   local host addresses.
     * @param len   lengths.
     * @param srcVp the source.
     * @return an event complete when every piece has landed.
     */
    public ElanEvent getv(final long[] src, final long[] dst, final long[] len, final int srcVp)
    {
        return oneSided.getv(src, dst, len, srcVp);
    }

    /**
     * {@code elan_gallocFree}.
     *
     * @param addr an address from {@link #gallocMain}.
     */
    public void gallocFree(final long addr)
    {
        symmetric.free(addr);
    }

    /**
     * {@code elan_gallocQueue} without its barrier: a queue whose header comes from the collective
     * Elan heap, so at the same Elan address on every process that makes the same sequence of
     * collective allocations. For start-up code that every process of the job runs at the same point
     * (a Tport made right after {@code elan_baseInit}); senders find the queue there, and it stays
     * locked (senders retry) until its owner opens it.
     *
     * @return the queue.
     */
    public ElanQueue gallocQueueUnsynchronised()
    {
        live();
        return new ElanQueue(this, true);
    }

    /**
     * {@code elan_gallocQueue}: a queue at the same Elan address on every member (collective).
     *
     * @param group the group.
     * @return the queue.
     */
    public ElanQueue gallocQueue(final ElanGroup group)
    {
        live();
        // the header from the collective Elan heap: the process's own heap differs between members
        // (the put slots a barrier used, what the program allocated itself)
        final ElanQueue q = new ElanQueue(this, true);
        gsync(group);
        return q;
    }

    /**
     * {@code elan_queueMaxSlotSize}.
     *
     * @return 320 on Elan3.
     */
    public int queueMaxSlotSize()
    {
        return ElanQueue.MAX_SLOT_SIZE;
    }

    // ------------------------------------------------------------------ one-sided

    long elanAddress(final String what, final long hostAddr)
    {
        final long va = ctx.main2elan(hostAddr);
        if (va == Elan3.ELAN_BAD_ADDR)
        {
            throw new QsnetException(what + " 0x" + Long.toHexString(hostAddr) + " is not Elan-mapped memory");
        }
        return va;
    }

    void checkVp(final String what, final int v)
    {
        if (v < 0 || v >= nvp)
        {
            throw new QsnetException(what + " " + v + " is outside the job's VPs 0.." + (nvp - 1));
        }
    }

    /**
     * {@code elan_put}: writes {@code len} bytes from {@code src} into {@code dst} at VP
     * {@code destVp} (the same address there). Puts up to {@code LIBELAN_PUTGET_SMALLPUTSIZE}
     * (64) bytes are copied into Elan memory first, so {@code src} is reusable at once.
     *
     * @param src    local host address.
     * @param dst    host address at the destination.
     * @param len    bytes.
     * @param destVp the destination.
     * @return the event, complete when the data is delivered.
     */
    public ElanEvent put(final long src, final long dst, final long len, final int destVp)
    {
        return oneSided.put(src, dst, len, destVp);
    }

    /**
     * {@code elan_get}: reads {@code len} bytes at {@code src} of VP {@code srcVp} into local {@code dst}.
     *
     * @param src   host address at the source (the same address there).
     * @param dst   local host address.
     * @param len   bytes.
     * @param srcVp the VP read from.
     * @return the event, complete when the data has landed here.
     */
    public ElanEvent get(final long src, final long dst, final long len, final int srcVp)
    {
        return oneSided.get(src, dst, len, srcVp);
    }

    /**
     * {@code elan_putWaitAll} / {@code elan_getWaitAll}: waits until every outstanding put and get
     * has completed.
     *
     * @param how the wait type.
     */
    public void waitAll(final long how)
    {
        oneSided.waitAll(how);
    }

    // ------------------------------------------------------------------ groups and collectives

    /**
     * Creates a group of VPs, collective over its members only (there is no group-creation call in
     * the catalog: ELAN-API.md §2.3 gives only {@code ELAN_GROUP}'s fields, and its collectives,
     * §2.9, all take the group): every member calls, in the same order, carving the group's
     * collective memory from the collective heaps, and a barrier over the group (not over
     * {@code allGroup}) ensures it exists on every member before anyone writes into it. A process
     * that is not a member may call it too, and gets a group it is not in ({@link ElanGroup#self()}
     * -1, on which collectives are refused); it carves the same memory, so that when every process
     * calls it the collective heaps stay symmetric across the job. When only the members call it,
     * later collective allocations are symmetric within that group only.
     *
     * @param vps the members, in group order, without repetition.
     * @return the group.
     */
    public ElanGroup group(final int[] vps)
    {
        return collectives.group(vps);
    }

    /**
     * {@code elan_gsync}: a software barrier (dissemination: in round r each member writes the
     * epoch into the flag of member self + 2^r and waits for the one from self - 2^r).
     *
     * @param group the group.
     */
    public void gsync(final ElanGroup group)
    {
        collectives.gsync(group);
    }

    /**
     * {@code elan_hgsync}: the hardware barrier: every member marks its arrival in its own memory;
     * the root's NIC broadcasts a test transaction that the Elites combine (it succeeds only when
     * every member has arrived, and is repeated by the NIC until then), then releases everyone
     * with one hardware broadcast. Needs members on contiguous VPs; otherwise it falls back to
     * {@link #gsync} (and says so in {@link #hgsyncFallbacks()}).
     *
     * @param group the group.
     */
    public void hgsync(final ElanGroup group)
    {
        collectives.hgsync(group);
    }

    /**
     * @return how many hgsync calls fell back to the software barrier.
     */
    public int hgsyncFallbacks()
    {
        return collectives.hgsyncFallbacks();
    }

    /**
     * {@code elan_bcast}: copies {@code len} bytes at {@code buf} of the root to every member's
     * {@code buf}, down a binomial tree of puts through each member's staging slots; a parent
     * returns once its children have taken the data.
     *
     * <p>Back-to-back broadcasts from different roots (and the broadcasts that end reductions) may
     * overlap: a leaf of broadcast k returns as soon as it has its data and may then send broadcast
     * k+1's data to a member still waiting for k's in another branch. So a member does not have one
     * staging area and one event, which k+1 would overwrite (and whose re-arming would lose an
     * arrival), but one slot and one event per possible parent. In the binomial tree of any root,
     * the parent of the member at relative index r is r - lowbit(r), the member 2^j before it
     * (mod n), so only ceil(log2 n) members can ever be its parent: slot j receives only from the
     * member 2^j before, O(log P) memory whatever the job size. A slot holds at most one
     * unconsumed broadcast: a parent waits for its children's acknowledgements (the
     * fetch-and-adds on its ack counter, sent once a child has copied its data out, re-armed its
     * slot's event and had its own children's acknowledgements) before it leaves a broadcast, so
     * it never sends into a child's slot j again before the child consumed the previous use.
     * Data of k+1 that arrives early waits in its slot, its event already fired, until the member
     * reaches k+1; members take broadcasts in call order. The common case costs nothing more
     * than before (the same puts, waits and acknowledgements), unlike a readiness handshake,
     * which would add a one-way latency at each level. libelan's own tree broadcast is not in the
     * catalog (ELAN-API.md §2.9 gives only its signature); this follows from the rule its blocking
     * collectives obeyed: any sequence of collectives, called in the same order by every member,
     * is safe.
     *
     * @param group the group.
     * @param buf   host address, the same on every member.
     * @param len   bytes, at most 64 KB.
     * @param root  group index of the root.
     */
    public void bcast(final ElanGroup group, final long buf, final long len, final int root)
    {
        collectives.bcast(group, buf, len, root);
    }

    /**
     * {@code elan_hbcast}: the broadcast with the hardware: the root sends the data once, by a
     * broadcast DMA, into every member's staging area (the destination event fires at each), the
     * members copy it out and acknowledge with a fetch-and-add at the root. Needs contiguous VPs;
     * otherwise falls back to {@link #bcast}.
     *
     * <p>Every member has one hbcast staging area, so a root must not send before every member
     * has consumed the previous hbcast. The root of that one knows (it waited for every
     * acknowledgement); a different root first checks it with the hardware's broadcast test (as
     * {@link #hgsync} does) on each member's count of consumed hbcasts, which the network
     * repeats until every member has reached it.
     *
     * @param group the group.
     * @param buf   host address, the same on every member.
     * @param len   bytes, at most 64 KB.
     * @param root  group index of the root.
     */
    public void hbcast(final ElanGroup group, final long buf, final long len, final int root)
    {
        collectives.hbcast(group, buf, len, root);
    }

    /**
     * {@code elan_lockInit}: a lock word at {@code lock} in the memory of VP {@code owner}
     * (call on the owner before anyone locks).
     *
     * @param lock  host address of the word (the same address everywhere: galloc'd).
     */
    public void lockInit(final long lock)
    {
        locks.lockInit(lock);
    }

    /**
     * {@code elan_lockLock}: takes the lock in VP {@code owner}'s memory with remote
     * test-and-write (0 to VP+1), retrying with a back-off while another VP holds it.
     *
     * @param owner the VP whose memory holds the lock.
     * @param lock  its host address.
     */
    public void lockLock(final int owner, final long lock)
    {
        locks.lockLock(owner, lock);
    }

    /**
     * {@code elan_lockUnLock}: releases a lock this VP holds.
     *
     * @param owner the VP whose memory holds the lock.
     * @param lock  its host address.
     */
    public void lockUnLock(final int owner, final long lock)
    {
        locks.lockUnLock(owner, lock);
    }

    /**
     * Group statistics counters.
     *
     * @return puts, gets, hgsync/hbcast fallbacks, lock acquisitions, lock contentions (retries).
     */
    public long[] groupStats()
    {
        return new long[] {oneSided.puts, oneSided.gets, collectives.hgsyncFallbacks(), locks.lockAcquisitions,
            locks.lockContentions};
    }

    /**
     * A reduction operator on {@code count} elements of {@code elementSize} bytes: combines
     * {@code in} into {@code inout}.
     */
    @FunctionalInterface
    public interface Reducer
    {
        /**
         * @param in          the other operand.
         * @param inout       the accumulator, updated in place.
         * @param count       elements.
         * @param elementSize bytes per element.
         */
        void reduce(byte[] in, byte[] inout, int count, int elementSize);
    }

    /**
     * {@code elan_reduce}: combines every member's {@code count} elements at {@code src} with
     * {@code op}, in group order (so a non-commutative operator is applied as
     * {@code v0 op v1 op ... op vn-1}), into {@code dst} at the root, or at every member with
     * {@link #ELAN_RESULT_ALL} (allreduce). The operator must be associative (partial results are
     * combined up a tree, as libelan's and MPI's reductions do); it need not be commutative.
     *
     * <p>As libelan's group collectives, it combines up a tree, so that each member holds buffers for
     * its tree children only ({@code group_rbufsize} each), never one per member: a binomial tree
     * rooted at group index 0, where each member waits for its children's partial results (a put
     * into its child slot counts down its arrival event), combines them in group order and puts its
     * own partial result to its parent. Index 0 then holds the result; it reaches the root (one put,
     * when the root is not 0) or every member (a broadcast, for {@link #ELAN_RESULT_ALL}). The
     * broadcast that ends the call releases every member only after every slot has been read, so no
     * member sends the next reduction's contribution into a slot still in use.
     *
     * @param group       the group.
     * @param src         this member's operand (host address).
     * @param dst         the result (host address, the same on every member).
     * @param count       elements.
     * @param elementSize bytes per element.
     * @param op          the operator.
     * @param root        group index of the root.
     * @param flags       {@link #ELAN_REDUCE_COMMUTE} | {@link #ELAN_RESULT_ALL}.
     */
    public void reduce(final ElanGroup group, final long src, final long dst, final int count, final int elementSize,
        final Reducer op, final int root, final int flags)
    {
        collectives.reduce(group, src, dst, count, elementSize, op, root, flags);
    }

    /**
     * @return a description for reports.
     */
    @Override
    public String toString()
    {
        return "ELAN_BASE of VP " + vp + "/" + nvp + " on node " + process.node();
    }
}