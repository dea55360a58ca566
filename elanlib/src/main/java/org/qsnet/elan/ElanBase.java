package org.qsnet.elan;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import org.qsnet.elan3.E3DmaMain;
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

    private static final int MAX_ROUNDS = 32;
    private static final long STAGING = 64 * 1024;

    private final Elan3Context ctx;
    private final ElanProcess process;
    private final PlatformProfile profile;
    /** {@code state->vp}: this process's VP. */
    public final int vp;
    /** {@code state->nvp}: the number of VPs of the job. */
    public final int nvp;
    private final ElanCapability cap;
    private final Map<String, String> tunables = new LinkedHashMap<>();
    private final int smallPutSize;

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
    private final ArrayDeque<Slot> free = new ArrayDeque<>();
    private final List<Slot> busy = new ArrayList<>();
    /** {@code base->allGroup}: every process of the job. */
    public final ElanGroup allGroup;
    private final Map<Integer, GroupArea> areas = new LinkedHashMap<>();
    private final RangeAllocator symmetric;
    private final RangeAllocator symmetricElan;
    private int nextGroupId;
    private boolean finished;
    private long puts;
    private long gets;

    /** One operation's resources: a word event, its done word, a scratch descriptor, a bounce buffer. */
    private final class Slot
    {
        final long event = ctx.allocElan(Elan3.E3_EVENT_ALIGN, Elan3.E3_BLOCK_COPY_EVENT_SIZE);
        final long word = ctx.allocMain(8, 8);
        final long descriptor = ctx.allocElan(Elan3.E3_DMA_ALIGN, Elan3.E3_DMA_SIZE);
        final long bounce = ctx.allocElan(64, 64);

        Slot()
        {
            ctx.initeventWord(event, word);
        }

        boolean fired()
        {
            return ctx.raw().getInt(word) != 0;
        }
    }

    /** A group's collective memory, at the same address on every member. */
    private final class GroupArea
    {
        final long flags;
        final long counter;
        final long ackCounter;
        /** hbcast's staging area (the hardware broadcast writes the same address everywhere). */
        final long staging;
        /**
         * elan_bcast's staging: one slot of {@link #STAGING} bytes per possible parent. In the binomial
         * tree of any root the parent of a member is the member 2^j before it (mod n) for some
         * j below {@link #treeLevels}, so slot j and its event {@code bcastEvent[j]} only ever receive
         * from that one member: O(log P) slots, and data of a later broadcast from another parent
         * cannot land in the slot this member is still waiting on.
         */
        final long bcastStaging;
        final long[] bcastEvent;
        final long[] bcastWord;
        /** hbcast calls so far, and the group index of the last one's root (-1: none). */
        int hbcasts;
        int lastHbRoot = -1;
        /** The last hbcast this member has consumed (the root's broadcast test reads it everywhere). */
        final long hbDone;
        final long arrivalsEvent;
        final long arrivalsWord;
        final long releaseEvent;
        final long releaseWord;
        int epoch;
        int acks;
        int hgsyncs;
        final long hgFlag;
        final long hgArrived;
        /** Reduction tree children of this member (see {@link #reduce}). */
        final int children;
        /** One slot of {@link #STAGING} bytes per reduction child: O(log P), not O(P). */
        final long childStaging;
        /** This member's partial result, sent up the reduction tree. */
        final long partial;
        final long resultEvent;
        final long resultWord;

        GroupArea(final ElanGroup g)
        {
            flags = galloc(8, 4L * MAX_ROUNDS);
            counter = galloc(8, 8);
            ackCounter = galloc(8, 8);
            hgFlag = galloc(8, 8);
            hgArrived = galloc(8, 8);
            staging = galloc(64, STAGING);
            hbDone = galloc(8, 8);
            final int levels = Math.max(1, treeLevels(g.size()));
            bcastStaging = galloc(64, STAGING * levels);
            bcastEvent = new long[levels];
            bcastWord = new long[levels];
            for (int j = 0; j < levels; j++)
            {
                bcastEvent[j] = gallocEvent();
                bcastWord[j] = galloc(8, 8);
                ctx.initeventWord(bcastEvent[j], bcastWord[j]);
                ctx.primeevent(bcastEvent[j], 1);
            }
            // the same size on every member, so that the heap stays symmetric
            childStaging = galloc(64, STAGING * Math.max(1, treeLevels(g.size())));
            partial = galloc(64, STAGING);
            arrivalsEvent = gallocEvent();
            arrivalsWord = galloc(8, 8);
            releaseEvent = gallocEvent();
            releaseWord = galloc(8, 8);
            resultEvent = gallocEvent();
            resultWord = galloc(8, 8);
            ctx.initeventWord(arrivalsEvent, arrivalsWord);
            ctx.initeventWord(releaseEvent, releaseWord);
            ctx.initeventWord(resultEvent, resultWord);
            ctx.primeevent(releaseEvent, 1);
            ctx.primeevent(resultEvent, 1);
            children = g.self() < 0 ? 0 : reduceChildren(g.self(), g.size());
            // armed before any member can send: the children's partial results count it down
            ctx.primeevent(arrivalsEvent, Math.max(1, children));
        }
    }

    /**
     * Levels of a binomial tree over {@code n} members: ceil(log2 n), the most children a member has.
     */
    private static int treeLevels(final int n)
    {
        return n <= 1 ? 0 : 32 - Integer.numberOfLeadingZeros(n - 1);
    }

    /**
     * Children of group index {@code i} in the reduction tree, a binomial tree rooted at index 0:
     * the children of i are i + 2^j for every 2^j below the lowest set bit of i (any 2^j for 0) and
     * within the group. The subtree of i is the contiguous range [i, i + lowbit(i)), so combining a
     * member's value with its children's partial results in increasing order keeps the group order.
     */
    private static int reduceChildren(final int i, final int n)
    {
        final int limit = i == 0 ? Integer.MAX_VALUE : Integer.lowestOneBit(i);
        int c = 0;
        for (long d = 1; d < limit && i + d < n; d <<= 1)
        {
            c++;
        }
        return c;
    }

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
        final int[] all = new int[nvp];
        for (int i = 0; i < nvp; i++)
        {
            all[i] = i;
        }
        this.allGroup = new ElanGroup(this, nextGroupId++, all, vp);
        areas.put(allGroup.id, new GroupArea(allGroup));
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
     * {@code elan_clock}: the process's simulated clock.
     *
     * @return ns.
     */
    public long clock()
    {
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
        return puts;
    }

    /**
     * @return gets issued.
     */
    public long gets()
    {
        return gets;
    }

    /**
     * {@code elan_fini}: collective teardown.
     *
     * @param group the group (allGroup).
     */
    public void fini(final ElanGroup group)
    {
        gsync(group);
        reclaim();
        ctx.detach();
        finished = true;
    }

    private void live()
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
    private long gallocEvent()
    {
        final long e = symmetricElan.alloc(Elan3.E3_EVENT_ALIGN, Elan3.E3_BLOCK_COPY_EVENT_SIZE);
        if (e < 0)
        {
            throw new QsnetException("the collective Elan heap (" + symmetricElan.size() + " bytes) is exhausted");
        }
        return e;
    }

    private long galloc(final int align, final long size)
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
        return new ElanQueue(this);
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

    private final List<Runnable> progressFns = new ArrayList<>();

    /**
     * {@code elan_addProgressFn} / {@code elan_addPollFn}: a function the library calls while it
     * waits in a collective or in {@link #waitAll}.
     *
     * @param fn the function.
     */
    public void addProgressFn(final Runnable fn)
    {
        progressFns.add(fn);
    }

    /**
     * Runs the progress functions once.
     */
    public void progress()
    {
        for (final Runnable fn : List.copyOf(progressFns))
        {
            fn.run();
        }
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
                final ElanEvent oldest = outstanding.pollFirst();
                if (!oldest.isConsumed())
                {
                    oldest.waitEvent(waitType);
                }
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
        QsnetException.require(src.length == dst.length && dst.length == len.length && src.length > 0, "putv vectors",
            src.length + "/" + dst.length + "/" + len.length, "must have the same, non-zero length");
        ElanEvent e = put(src[0], dst[0], len[0], destVp);
        for (int i = 1; i < src.length; i++)
        {
            e = ElanEvent.link(e, put(src[i], dst[i], len[i], destVp));
        }
        return e;
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
        QsnetException.require(src.length == dst.length && dst.length == len.length && src.length > 0, "getv vectors",
            src.length + "/" + dst.length + "/" + len.length, "must have the same, non-zero length");
        ElanEvent e = get(src[0], dst[0], len[0], srcVp);
        for (int i = 1; i < src.length; i++)
        {
            e = ElanEvent.link(e, get(src[i], dst[i], len[i], srcVp));
        }
        return e;
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
     * {@code elan_gallocQueue}: a queue at the same Elan address on every member (collective).
     *
     * @param group the group.
     * @return the queue.
     */
    public ElanQueue gallocQueue(final ElanGroup group)
    {
        live();
        final ElanQueue q = new ElanQueue(this);
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

    private void reclaim()
    {
        for (int i = busy.size() - 1; i >= 0; i--)
        {
            final Slot s = busy.get(i);
            if (s.fired())
            {
                busy.remove(i);
                free.addLast(s);
            }
        }
    }

    private Slot slot()
    {
        if (free.isEmpty())
        {
            reclaim();
        }
        final Slot s = free.isEmpty() ? new Slot() : free.pollFirst();
        ctx.raw().putInt(s.word, 0);
        ctx.primeevent(s.event, 1);
        return s;
    }

    private final class OpEvent extends ElanEvent
    {
        private final Slot slot;
        private final Supplier<String> what;

        OpEvent(final Slot slot, final Supplier<String> what)
        {
            this.slot = slot;
            this.what = what;
        }

        @Override
        protected boolean complete()
        {
            return slot.fired();
        }

        @Override
        protected void block(final long how)
        {
            ctx.waitEventWord(slot.event, slot.word, how, this);
        }

        @Override
        protected void chargePoll()
        {
            process.sim().poll(profile.hostPollNs());
        }

        @Override
        protected void release()
        {
            busy.remove(slot);
            free.addLast(slot);
        }

        @Override
        public String toString()
        {
            return what.get();
        }
    }

    private long elanAddress(final String what, final long hostAddr)
    {
        final long va = ctx.main2elan(hostAddr);
        if (va == Elan3.ELAN_BAD_ADDR)
        {
            throw new QsnetException(what + " 0x" + Long.toHexString(hostAddr) + " is not Elan-mapped memory");
        }
        return va;
    }

    private void checkVp(final String what, final int v)
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
        return putDma(src, dst, len, destVp, 0);
    }

    private ElanEvent putDma(final long src, final long dst, final long len, final int destVp, final long remoteEvent)
    {
        live();
        checkVp("destVp", destVp);
        QsnetException.require(len >= 0, "len", len, "must be at least 0");
        final Slot s = slot();
        long source;
        // one rule for every size: the source must be memory the Elan can reach
        final long sourceVa = elanAddress("put source", src);
        if (len <= smallPutSize)
        {
            final byte[] b = new byte[(int)len];
            ctx.raw().read(src, b, 0, b.length);
            final byte[] padded = new byte[64];
            System.arraycopy(b, 0, padded, 0, b.length);
            // the copy into Elan memory: programmed I/O, one word at a time
            process.sim().advance(((len + 3) / 4) * profile.pioWriteNs());
            ctx.owner().machine().nic(process.node()).sdram().write(s.bounce, padded, 0, 64);
            source = ctx.sdram2elan(s.bounce);
        }
        else
        {
            source = sourceVa;
        }
        final E3DmaMain d = new E3DmaMain();
        d.dma_type = Elan3.E3_DMA_TYPE(Elan3.DMA_BYTE, Elan3.DMA_WRITE, Elan3.DMA_NORMAL, retryCount);
        d.dma_size = len;
        d.dma_source = source;
        d.dma_dest = elanAddress("put destination", dst);
        d.dma_destEvent = remoteEvent;
        d.dma_destCookieVProc = destVp;
        d.dma_srcEvent = ctx.sdram2elan(s.event);
        d.dma_srcCookieVProc = ctx.localCookie(vp, destVp);
        ctx.putdmaMain(d, s.descriptor);
        busy.add(s);
        puts++;
        return new OpEvent(s, () -> "elan_put of " + len + " bytes to VP " + destVp);
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
        live();
        checkVp("srcVp", srcVp);
        QsnetException.require(len >= 0, "len", len, "must be at least 0");
        final Slot s = slot();
        final E3DmaMain d = new E3DmaMain();
        d.dma_type = Elan3.E3_DMA_TYPE(Elan3.DMA_BYTE, Elan3.DMA_READ, Elan3.DMA_NORMAL, retryCount);
        d.dma_size = len;
        d.dma_source = elanAddress("get source", src);
        d.dma_dest = elanAddress("get destination", dst);
        d.dma_destEvent = ctx.sdram2elan(s.event);
        d.dma_destCookieVProc = ctx.localCookie(vp, srcVp);
        d.dma_srcCookieVProc = ctx.remoteCookie(vp, srcVp);
        ctx.getdmaMain(d, s.descriptor);
        busy.add(s);
        gets++;
        return new OpEvent(s, () -> "elan_get of " + len + " bytes from VP " + srcVp);
    }

    /**
     * {@code elan_putWaitAll} / {@code elan_getWaitAll}: waits until every outstanding put and get
     * has completed.
     *
     * @param how the wait type.
     */
    public void waitAll(final long how)
    {
        progress();
        for (final Slot s : new ArrayList<>(busy))
        {
            if (!s.fired())
            {
                ctx.waitEventWord(s.event, s.word, how, "an outstanding put or get (elan_putWaitAll/elan_getWaitAll)");
            }
        }
        reclaim();
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
        live();
        QsnetException.require(vps.length > 0, "vps", "[]", "must name at least one member");
        final java.util.BitSet seen = new java.util.BitSet();
        for (final int v : vps)
        {
            checkVp("group member", v);
            QsnetException.require(!seen.get(v), "group member", v, "must appear once");
            seen.set(v);
        }
        final ElanGroup g = new ElanGroup(this, nextGroupId++, vps, vp);
        areas.put(g.id, new GroupArea(g));
        if (g.self() >= 0)
        {
            gsync(g);
        }
        return g;
    }

    private GroupArea area(final ElanGroup g)
    {
        final GroupArea a = areas.get(g.id);
        if (a == null)
        {
            throw new QsnetException(g + " does not belong to this base");
        }
        if (g.self() < 0)
        {
            throw new QsnetException(g + " does not contain this process's VP " + vp + ": only members call its collectives");
        }
        return a;
    }

    private void waitWord(final long addr, final int atLeast, final Object what)
    {
        progress();
        ctx.waitFor(() -> ctx.raw().getInt(addr) >= atLeast, elanAddress("flag", addr), waitType, what);
    }

    /** A collective's wait in its user's terms, built only when a report shows it. */
    private static Supplier<String> waiting(final String call, final ElanGroup group, final String what)
    {
        return () -> what + " in " + call + " on " + group;
    }

    private static Supplier<String> gsyncRound(final ElanGroup group, final int round)
    {
        final int n = group.size();
        return () -> "VP " + group.vp((group.self() - (1 << round) % n + n) % n) + " to reach the barrier (round " + round
            + ") in elan_gsync on " + group;
    }

    /**
     * {@code elan_gsync}: a software barrier (dissemination: in round r each member writes the
     * epoch into the flag of member self + 2^r and waits for the one from self - 2^r).
     *
     * @param group the group.
     */
    public void gsync(final ElanGroup group)
    {
        live();
        final GroupArea a = area(group);
        final int epoch = ++a.epoch;
        final int n = group.size();
        final long word = allocWordSource(epoch);
        for (int r = 0, d = 1; d < n; r++, d <<= 1)
        {
            final int to = group.vp((group.self() + d) % n);
            put(word, a.flags + 4L * r, 4, to);
            waitWord(a.flags + 4L * r, epoch, gsyncRound(group, r));
        }
    }

    private long allocWordSource(final int value)
    {
        final long w = scratchWord();
        ctx.raw().putInt(w, value);
        return w;
    }

    private long scratchWordAddr;

    private long scratchWord()
    {
        if (scratchWordAddr == 0)
        {
            scratchWordAddr = ctx.allocMain(8, 8);
        }
        return scratchWordAddr;
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
        live();
        if (!group.contiguous() || group.size() < 2)
        {
            hgsyncFallbacks++;
            gsync(group);
            return;
        }
        final GroupArea a = area(group);
        // its own counters: the arrival word and the release flag count hgsync calls only
        final int epoch = ++a.hgsyncs;
        ctx.raw().putInt(a.hgArrived, epoch);
        if (group.self() == 0)
        {
            final int bvp = bcastVp(group);
            final Slot test = slot();
            ctx.broadcastTest(bvp, a.hgArrived, epoch, test.event);
            ctx.waitEventWord(test.event, test.word, waitType, waiting("elan_hgsync", group, "every member's arrival"));
            free.addLast(test);
            final long src = allocWordSource(epoch);
            final Slot s = slot();
            final E3DmaMain d = new E3DmaMain();
            d.dma_type = Elan3.E3_DMA_TYPE(Elan3.DMA_BYTE, Elan3.DMA_WRITE, Elan3.DMA_NORMAL_BROADCAST, retryCount);
            d.dma_size = 4;
            d.dma_source = elanAddress("flag", src);
            d.dma_dest = elanAddress("flag", a.hgFlag);
            d.dma_destCookieVProc = bvp;
            d.dma_srcEvent = ctx.sdram2elan(s.event);
            d.dma_srcCookieVProc = ctx.localCookie(vp, bvp);
            ctx.putdmaMain(d, s.descriptor);
            busy.add(s);
        }
        waitWord(a.hgFlag, epoch, waiting("elan_hgsync", group, "the release of the barrier"));
    }

    private int hgsyncFallbacks;
    private final Map<Integer, Integer> broadcastVps = new LinkedHashMap<>();

    private int bcastVp(final ElanGroup g)
    {
        return broadcastVps.computeIfAbsent(g.id, id ->
        {
            final int b = ctx.allocateBcastVp();
            if (ctx.addBcastVp(b, g.vp(0), g.vp(g.size() - 1)) != 0)
            {
                throw new QsnetException(g + " is not on contiguous nodes: no hardware broadcast");
            }
            return b;
        });
    }

    /**
     * @return how many hgsync calls fell back to the software barrier.
     */
    public int hgsyncFallbacks()
    {
        return hgsyncFallbacks;
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
        live();
        QsnetException.require(root >= 0 && root < group.size(), "root", root, "must be in 0.." + (group.size() - 1));
        QsnetException.require(len >= 0 && len <= STAGING, "len", len, "must be in 0.." + STAGING);
        final GroupArea a = area(group);
        a.epoch++;
        final int n = group.size();
        final int self = group.self();
        final int rel = (self - root + n) % n;
        long source = buf;
        if (rel != 0)
        {
            // wait for the parent's data in its slot, take it, re-arm, (later) tell the parent
            final int j = Integer.numberOfTrailingZeros(rel);
            source = a.bcastStaging + STAGING * j;
            ctx.waitEventWord(a.bcastEvent[j], a.bcastWord[j], waitType,
                waiting("elan_bcast", group, "the data from its parent"));
            final byte[] data = new byte[(int)len];
            ctx.raw().read(source, data, 0, data.length);
            ctx.raw().write(buf, data, 0, data.length);
            ctx.raw().putInt(a.bcastWord[j], 0);
            ctx.primeevent(a.bcastEvent[j], 1);
        }
        int children = 0;
        final int lowBit = rel == 0 ? Integer.highestOneBit(Math.max(1, n - 1)) << 1 : Integer.lowestOneBit(rel);
        for (int d = lowBit >> 1; d >= 1; d >>= 1)
        {
            if (rel + d < n)
            {
                // the child's slot for the parent 2^j = d before it
                final int j = Integer.numberOfTrailingZeros(d);
                final int child = group.vp((self + d) % n);
                putDma(source, a.bcastStaging + STAGING * j, len, child, ctx.sdram2elan(a.bcastEvent[j]));
                children++;
            }
        }
        a.acks += children;
        if (children > 0)
        {
            waitWord(a.ackCounter, a.acks, waiting("elan_bcast", group, "its children's acknowledgements"));
        }
        if (rel != 0)
        {
            // only once the children have their copies may the parent send into this slot again
            final int parent = (self - Integer.lowestOneBit(rel) + n) % n;
            ctx.atomicFetchAdd(group.vp(parent), elanAddress("counter", a.ackCounter), 1, 0, 0);
        }
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
        live();
        if (!group.contiguous() || group.size() < 2)
        {
            hgsyncFallbacks++;
            bcast(group, buf, len, root);
            return;
        }
        QsnetException.require(root >= 0 && root < group.size(), "root", root, "must be in 0.." + (group.size() - 1));
        QsnetException.require(len >= 0 && len <= STAGING, "len", len, "must be in 0.." + STAGING);
        final GroupArea a = area(group);
        a.epoch++;
        final int h = ++a.hbcasts;
        final boolean sameRoot = a.lastHbRoot == root;
        a.lastHbRoot = root;
        if (group.self() == root)
        {
            final int bvp = bcastVp(group);
            if (h > 1 && !sameRoot)
            {
                final Slot test = slot();
                ctx.broadcastTest(bvp, a.hbDone, h - 1, test.event);
                ctx.waitEventWord(test.event, test.word, waitType,
                    waiting("elan_hbcast", group, "every member's consumption of the previous hbcast"));
                free.addLast(test);
            }
            final Slot s = slot();
            final E3DmaMain d = new E3DmaMain();
            d.dma_type = Elan3.E3_DMA_TYPE(Elan3.DMA_BYTE, Elan3.DMA_WRITE, Elan3.DMA_NORMAL_BROADCAST, retryCount);
            d.dma_size = len;
            d.dma_source = elanAddress("hbcast source", buf);
            d.dma_dest = elanAddress("staging", a.staging);
            d.dma_destEvent = ctx.sdram2elan(a.releaseEvent);
            d.dma_destCookieVProc = bvp;
            d.dma_srcEvent = ctx.sdram2elan(s.event);
            d.dma_srcCookieVProc = ctx.localCookie(vp, bvp);
            ctx.putdmaMain(d, s.descriptor);
            busy.add(s);
            // the root receives its own copy too: take it off its staging event
            ctx.waitEventWord(a.releaseEvent, a.releaseWord, waitType, waiting("elan_hbcast", group, "its own copy"));
            ctx.raw().putInt(a.releaseWord, 0);
            ctx.primeevent(a.releaseEvent, 1);
            ctx.raw().putInt(a.hbDone, h);
            a.acks += group.size() - 1;
            waitWord(a.ackCounter, a.acks, waiting("elan_hbcast", group, "the members' acknowledgements"));
        }
        else
        {
            ctx.waitEventWord(a.releaseEvent, a.releaseWord, waitType,
                waiting("elan_hbcast", group, "the data from the root"));
            final byte[] data = new byte[(int)len];
            ctx.raw().read(a.staging, data, 0, data.length);
            ctx.raw().write(buf, data, 0, data.length);
            ctx.raw().putInt(a.releaseWord, 0);
            ctx.primeevent(a.releaseEvent, 1);
            ctx.raw().putInt(a.hbDone, h);
            ctx.atomicFetchAdd(group.vp(root), elanAddress("counter", a.ackCounter), 1, 0, 0);
        }
    }

    /**
     * {@code elan_lockInit}: a lock word at {@code lock} in the memory of VP {@code owner}
     * (call on the owner before anyone locks).
     *
     * @param lock  host address of the word (the same address everywhere: galloc'd).
     */
    public void lockInit(final long lock)
    {
        ctx.raw().putInt(lock, 0);
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
        live();
        checkVp("owner", owner);
        final long result = scratchResult();
        long backoffNs = 1_000;
        while (true)
        {
            final Slot s = slot();
            ctx.raw().putInt(result, -1);
            ctx.atomicTestAndWrite(owner, elanAddress("lock", lock), 0, vp + 1, result, s.event);
            ctx.waitEventWord(s.event, s.word, waitType, "the test-and-write on the lock (elan_lockLock)");
            free.addLast(s);
            if (ctx.raw().getInt(result) == 0)
            {
                lockAcquisitions++;
                return;
            }
            lockContentions++;
            process.sim().advance(backoffNs);
            backoffNs = Math.min(backoffNs * 2, 32_000);
        }
    }

    /**
     * {@code elan_lockUnLock}: releases a lock this VP holds.
     *
     * @param owner the VP whose memory holds the lock.
     * @param lock  its host address.
     */
    public void lockUnLock(final int owner, final long lock)
    {
        live();
        final long result = scratchResult();
        final Slot s = slot();
        ctx.atomicTestAndWrite(owner, elanAddress("lock", lock), vp + 1, 0, result, s.event);
        ctx.waitEventWord(s.event, s.word, waitType, "the test-and-write on the lock (elan_lockUnLock)");
        free.addLast(s);
        if (ctx.raw().getInt(result) != vp + 1)
        {
            throw new QsnetException("VP " + vp + " unlocked a lock it does not hold (held by VP " + (ctx.raw().getInt(result) - 1)
                + ")");
        }
    }

    private long resultWord;
    private long lockAcquisitions;
    private long lockContentions;

    private long scratchResult()
    {
        if (resultWord == 0)
        {
            resultWord = ctx.allocMain(8, 8);
        }
        return resultWord;
    }

    /**
     * Group statistics counters.
     *
     * @return puts, gets, hgsync/hbcast fallbacks, lock acquisitions, lock contentions (retries).
     */
    public long[] groupStats()
    {
        return new long[] {puts, gets, hgsyncFallbacks, lockAcquisitions, lockContentions};
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
        live();
        QsnetException.require(root >= 0 && root < group.size(), "root", root, "must be in 0.." + (group.size() - 1));
        final long len = (long)count * elementSize;
        QsnetException.require(len >= 0 && len <= STAGING, "count x elementSize", len, "must be in 0.." + STAGING);
        final GroupArea a = area(group);
        final int self = group.self();
        final int n = group.size();
        final byte[] acc = new byte[(int)len];
        if (a.children > 0 || self == 0)
        {
            read(src, acc);
        }
        if (a.children > 0)
        {
            ctx.waitEventWord(a.arrivalsEvent, a.arrivalsWord, waitType,
                waiting("elan_reduce", group, "the contributions of its subtree"));
            ctx.raw().putInt(a.arrivalsWord, 0);
            // re-armed before this member's partial result lets the next reduction start anywhere
            ctx.primeevent(a.arrivalsEvent, a.children);
            final byte[] in = new byte[(int)len];
            for (int j = 0; j < a.children; j++)
            {
                // child self + 2^j: the members [self + 2^j, self + 2^(j+1)), next in group order
                read(a.childStaging + STAGING * j, in);
                op.reduce(in, acc, count, elementSize);
                process.sim().advance(profile.hostPollNs() * Math.max(1, count / 8));
            }
        }
        if (self != 0)
        {
            final int parent = self - Integer.lowestOneBit(self);
            final int slot = Integer.numberOfTrailingZeros(self - parent);
            final long from = a.children > 0 ? a.partial : src;
            if (a.children > 0)
            {
                ctx.raw().write(a.partial, acc, 0, acc.length);
            }
            putDma(from, a.childStaging + STAGING * slot, len, group.vp(parent), ctx.sdram2elan(a.arrivalsEvent));
        }
        final boolean all = (flags & ELAN_RESULT_ALL) != 0;
        if (all)
        {
            if (self == 0)
            {
                ctx.raw().write(dst, acc, 0, acc.length);
            }
            // the result from index 0 to everyone, which also releases everyone
            bcast(group, dst, len, 0);
            return;
        }
        if (root != 0)
        {
            if (self == 0)
            {
                ctx.raw().write(a.partial, acc, 0, acc.length);
                putDma(a.partial, dst, len, group.vp(root), ctx.sdram2elan(a.resultEvent)).waitEvent(waitType);
            }
            else if (self == root)
            {
                ctx.waitEventWord(a.resultEvent, a.resultWord, waitType);
                ctx.raw().putInt(a.resultWord, 0);
                ctx.primeevent(a.resultEvent, 1);
            }
        }
        else if (self == 0)
        {
            ctx.raw().write(dst, acc, 0, acc.length);
        }
        bcast(group, dst, 0, root);
    }

    private void read(final long addr, final byte[] into)
    {
        ctx.raw().read(addr, into, 0, into.length);
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
