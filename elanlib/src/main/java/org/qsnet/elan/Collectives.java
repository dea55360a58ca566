package org.qsnet.elan;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;

import org.qsnet.elan3.E3DmaMain;
import org.qsnet.elan3.Elan3;
import org.qsnet.elan3.Elan3Context;
import org.qsnet.elan3.ElanProcess;
import org.qsnet.fabric.QsnetException;
import org.qsnet.fabric.machine.PlatformProfile;

/**
 * Elanlib's groups and collectives behind {@link ElanBase}: group creation and each group's
 * collective memory, {@code elan_gsync}, {@code elan_hgsync}, {@code elan_bcast}, {@code elan_hbcast}
 * and {@code elan_reduce}, built from one-sided puts, events, remote atomics and the Elan's hardware
 * broadcast and barrier test.
 */
final class Collectives
{
    private final ElanBase base;
    private final OneSided oneSided;
    private final Elan3Context ctx;
    private final ElanProcess process;
    private final PlatformProfile profile;
    private final int vp;
    private final long waitType;
    private final int retryCount;
    private final Map<Integer, GroupArea> areas = new LinkedHashMap<>();
    private int nextGroupId;

    Collectives(final ElanBase base, final OneSided oneSided)
    {
        this.base = base;
        this.oneSided = oneSided;
        this.ctx = base.ctx();
        this.process = base.process;
        this.profile = base.profile();
        this.vp = base.vp;
        this.waitType = base.waitType;
        this.retryCount = base.retryCount;
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
         * elan_bcast's staging: one slot of {@link #ElanBase.STAGING} bytes per possible parent. In the binomial
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
        /** One slot of {@link #ElanBase.STAGING} bytes per reduction child: O(log P), not O(P). */
        final long childStaging;
        /** This member's partial result, sent up the reduction tree. */
        final long partial;
        final long resultEvent;
        final long resultWord;

        GroupArea(final ElanGroup g)
        {
            flags = base.galloc(8, 4L * ElanBase.MAX_ROUNDS);
            counter = base.galloc(8, 8);
            ackCounter = base.galloc(8, 8);
            hgFlag = base.galloc(8, 8);
            hgArrived = base.galloc(8, 8);
            staging = base.galloc(64, ElanBase.STAGING);
            hbDone = base.galloc(8, 8);
            final int levels = Math.max(1, treeLevels(g.size()));
            bcastStaging = base.galloc(64, ElanBase.STAGING * levels);
            bcastEvent = new long[levels];
            bcastWord = new long[levels];
            for (int j = 0; j < levels; j++)
            {
                bcastEvent[j] = base.gallocEvent();
                bcastWord[j] = base.galloc(8, 8);
                ctx.initeventWord(bcastEvent[j], bcastWord[j]);
                ctx.primeevent(bcastEvent[j], 1);
            }
            // the same size on every member, so that the heap stays symmetric
            childStaging = base.galloc(64, ElanBase.STAGING * Math.max(1, treeLevels(g.size())));
            partial = base.galloc(64, ElanBase.STAGING);
            arrivalsEvent = base.gallocEvent();
            arrivalsWord = base.galloc(8, 8);
            releaseEvent = base.gallocEvent();
            releaseWord = base.galloc(8, 8);
            resultEvent = base.gallocEvent();
            resultWord = base.galloc(8, 8);
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

    /** A new group with the next id, and its collective memory carved from the collective heaps. */
    ElanGroup newGroup(final int[] vps)
    {
        final ElanGroup g = new ElanGroup(base, nextGroupId++, vps, vp);
        areas.put(g.id, new GroupArea(g));
        return g;
    }

    ElanGroup group(final int[] vps)
    {
        base.live();
        QsnetException.require(vps.length > 0, "vps", "[]", "must name at least one member");
        final java.util.BitSet seen = new java.util.BitSet();
        for (final int v : vps)
        {
            base.checkVp("group member", v);
            QsnetException.require(!seen.get(v), "group member", v, "must appear once");
            seen.set(v);
        }
        final ElanGroup g = newGroup(vps);
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
        final java.util.function.BooleanSupplier ready = () -> ctx.raw().getInt(addr) >= atLeast;
        if (base.pollsWhileWaiting())
        {
            ctx.waitForPolling(ready, base.elanAddress("flag", addr), waitType, what, base::runPollFns);
            return;
        }
        base.progress();
        ctx.waitFor(ready, base.elanAddress("flag", addr), waitType, what);
    }

    /** A collective's wait for a word event, running the program's poll functions meanwhile. */
    private void waitEvent(final long ev, final long word, final Object what)
    {
        if (base.pollsWhileWaiting())
        {
            ctx.waitEventWordPolling(ev, word, waitType, what, base::runPollFns);
            return;
        }
        ctx.waitEventWord(ev, word, waitType, what);
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

    void gsync(final ElanGroup group)
    {
        base.live();
        final GroupArea a = area(group);
        final int epoch = ++a.epoch;
        final int n = group.size();
        final long word = allocWordSource(epoch);
        for (int r = 0, d = 1; d < n; r++, d <<= 1)
        {
            final int to = group.vp((group.self() + d) % n);
            oneSided.put(word, a.flags + 4L * r, 4, to);
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

    void hgsync(final ElanGroup group)
    {
        base.live();
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
            final OneSided.Slot test = oneSided.slot();
            ctx.broadcastTest(bvp, a.hgArrived, epoch, test.event);
            waitEvent(test.event, test.word, waiting("elan_hgsync", group, "every member's arrival"));
            oneSided.recycle(test);
            final long src = allocWordSource(epoch);
            final OneSided.Slot s = oneSided.slot();
            final E3DmaMain d = new E3DmaMain();
            d.dma_type = Elan3.E3_DMA_TYPE(Elan3.DMA_BYTE, Elan3.DMA_WRITE, Elan3.DMA_NORMAL_BROADCAST, retryCount);
            d.dma_size = 4;
            d.dma_source = base.elanAddress("flag", src);
            d.dma_dest = base.elanAddress("flag", a.hgFlag);
            d.dma_destCookieVProc = bvp;
            d.dma_srcEvent = ctx.sdram2elan(s.event);
            d.dma_srcCookieVProc = ctx.localCookie(vp, bvp);
            ctx.putdmaMain(d, s.descriptor);
            oneSided.track(s);
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

    int hgsyncFallbacks()
    {
        return hgsyncFallbacks;
    }

    void bcast(final ElanGroup group, final long buf, final long len, final int root)
    {
        base.live();
        if (len > ElanBase.STAGING)
        {
            // libelan segments a broadcast through its group_rbufsize buffers (group_maxsegs): one after another
            for (long off = 0; off < len; off += ElanBase.STAGING)
            {
                bcast(group, buf + off, Math.min(ElanBase.STAGING, len - off), root);
            }
            return;
        }
        if (root < 0 || root >= group.size())
        {
            QsnetException.require(false, "root", root, "must be in 0.." + (group.size() - 1));
        }
        QsnetException.require(len >= 0 && len <= ElanBase.STAGING, "len", len, "must be in 0.." + ElanBase.STAGING);
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
            source = a.bcastStaging + ElanBase.STAGING * j;
            waitEvent(a.bcastEvent[j], a.bcastWord[j],
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
                oneSided.putDma(source, a.bcastStaging + ElanBase.STAGING * j, len, child, ctx.sdram2elan(a.bcastEvent[j]));
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
            ctx.atomicFetchAdd(group.vp(parent), base.elanAddress("counter", a.ackCounter), 1, 0, 0);
        }
    }

    void hbcast(final ElanGroup group, final long buf, final long len, final int root)
    {
        base.live();
        if (len > ElanBase.STAGING)
        {
            for (long off = 0; off < len; off += ElanBase.STAGING)
            {
                hbcast(group, buf + off, Math.min(ElanBase.STAGING, len - off), root);
            }
            return;
        }
        if (!group.contiguous() || group.size() < 2)
        {
            hgsyncFallbacks++;
            bcast(group, buf, len, root);
            return;
        }
        if (root < 0 || root >= group.size())
        {
            QsnetException.require(false, "root", root, "must be in 0.." + (group.size() - 1));
        }
        QsnetException.require(len >= 0 && len <= ElanBase.STAGING, "len", len, "must be in 0.." + ElanBase.STAGING);
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
                final OneSided.Slot test = oneSided.slot();
                ctx.broadcastTest(bvp, a.hbDone, h - 1, test.event);
                waitEvent(test.event, test.word,
                    waiting("elan_hbcast", group, "every member's consumption of the previous hbcast"));
                oneSided.recycle(test);
            }
            final OneSided.Slot s = oneSided.slot();
            final E3DmaMain d = new E3DmaMain();
            d.dma_type = Elan3.E3_DMA_TYPE(Elan3.DMA_BYTE, Elan3.DMA_WRITE, Elan3.DMA_NORMAL_BROADCAST, retryCount);
            d.dma_size = len;
            d.dma_source = base.elanAddress("hbcast source", buf);
            d.dma_dest = base.elanAddress("staging", a.staging);
            d.dma_destEvent = ctx.sdram2elan(a.releaseEvent);
            d.dma_destCookieVProc = bvp;
            d.dma_srcEvent = ctx.sdram2elan(s.event);
            d.dma_srcCookieVProc = ctx.localCookie(vp, bvp);
            ctx.putdmaMain(d, s.descriptor);
            oneSided.track(s);
            // the root receives its own copy too: take it off its staging event
            waitEvent(a.releaseEvent, a.releaseWord, waiting("elan_hbcast", group, "its own copy"));
            ctx.raw().putInt(a.releaseWord, 0);
            ctx.primeevent(a.releaseEvent, 1);
            ctx.raw().putInt(a.hbDone, h);
            a.acks += group.size() - 1;
            waitWord(a.ackCounter, a.acks, waiting("elan_hbcast", group, "the members' acknowledgements"));
        }
        else
        {
            waitEvent(a.releaseEvent, a.releaseWord,
                waiting("elan_hbcast", group, "the data from the root"));
            final byte[] data = new byte[(int)len];
            ctx.raw().read(a.staging, data, 0, data.length);
            ctx.raw().write(buf, data, 0, data.length);
            ctx.raw().putInt(a.releaseWord, 0);
            ctx.primeevent(a.releaseEvent, 1);
            ctx.raw().putInt(a.hbDone, h);
            ctx.atomicFetchAdd(group.vp(root), base.elanAddress("counter", a.ackCounter), 1, 0, 0);
        }
    }

    void reduce(final ElanGroup group, final long src, final long dst, final int count, final int elementSize,
        final ElanBase.Reducer op, final int root, final int flags)
    {
        base.live();
        if (root < 0 || root >= group.size())
        {
            QsnetException.require(false, "root", root, "must be in 0.." + (group.size() - 1));
        }
        final long len = (long)count * elementSize;
        if (len > ElanBase.STAGING && elementSize > 0 && elementSize <= ElanBase.STAGING)
        {
            // segments of whole elements, one reduction after another (elementwise, so the result is the same)
            final int per = (int)(ElanBase.STAGING / elementSize);
            for (int first = 0; first < count; first += per)
            {
                final long off = (long)first * elementSize;
                reduce(group, src + off, dst + off, Math.min(per, count - first), elementSize, op, root, flags);
            }
            return;
        }
        QsnetException.require(len >= 0 && len <= ElanBase.STAGING, "count x elementSize", len, "must be in 0.." + ElanBase.STAGING);
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
            waitEvent(a.arrivalsEvent, a.arrivalsWord,
                waiting("elan_reduce", group, "the contributions of its subtree"));
            ctx.raw().putInt(a.arrivalsWord, 0);
            // re-armed before this member's partial result lets the next reduction start anywhere
            ctx.primeevent(a.arrivalsEvent, a.children);
            final byte[] in = new byte[(int)len];
            for (int j = 0; j < a.children; j++)
            {
                // child self + 2^j: the members [self + 2^j, self + 2^(j+1)), next in group order
                read(a.childStaging + ElanBase.STAGING * j, in);
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
            oneSided.putDma(from, a.childStaging + ElanBase.STAGING * slot, len, group.vp(parent), ctx.sdram2elan(a.arrivalsEvent));
        }
        final boolean all = (flags & ElanBase.ELAN_RESULT_ALL) != 0;
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
                oneSided.putDma(a.partial, dst, len, group.vp(root), ctx.sdram2elan(a.resultEvent)).waitEvent(waitType);
            }
            else if (self == root)
            {
                waitEvent(a.resultEvent, a.resultWord, null);
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
}
