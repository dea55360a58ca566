package org.qsnet.fabric.nic;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.qsnet.fabric.QsnetException;
import org.qsnet.fabric.engine.Signal;
import org.qsnet.fabric.engine.SimProcess;
import org.qsnet.fabric.memory.MemoryFault;
import org.qsnet.fabric.memory.Mmu;
import org.qsnet.fabric.memory.SparseMemory;

/**
 * A hardware context of an Elan3: the slot a process attached to, with its capability key, its
 * VP table, its MMU, its main memory and the addresses its process waits on.
 *
 * <p>Near 500 lines because it is the whole of the context as Elan3lib sees it (small accessors,
 * each with its Javadoc) and the context's checked memory access, which every unit of the NIC
 * goes through; it holds state, no mechanism of its own, so there is nothing to split off.
 */
public final class NicContext
{
    final Elan3Nic nic;
    final int number;
    final int[] key;
    final Mmu mmu;
    final SparseMemory main;
    final SimProcess process;
    /**
     * Watched addresses, sorted, and their signals (the first {@link #watchedCount}): a write of a
     * range wakes the watchers inside it through a binary search, without a scan of all and without
     * a boxed key or a map view per write.
     */
    private long[] watchedVa = new long[4];
    private Signal[] watchedSignal = new Signal[4];
    private int watchedCount;
    final List<String> faults = new ArrayList<>();
    int[] vpNode = new int[0];
    int[] vpContext = new int[0];
    /** Queued-DMA streams leaving this context: next sequence number per (node, context, queue). */
    final LongLongMap queueTxSeq = new LongLongMap();
    /** Queued-DMA streams arriving at this context's queues: next expected sequence number. */
    final LongLongMap queueRxSeq = new LongLongMap();
    final Map<Integer, int[]> broadcastVps = new HashMap<>();
    final Map<Long, QueueThread> queueThreads = new HashMap<>();
    int myVp = -1;
    boolean inputBlocked;
    boolean detached;

    NicContext(final Elan3Nic nic, final int number, final int[] key, final SparseMemory main, final SimProcess process)
    {
        this.nic = nic;
        this.number = number;
        this.key = key.clone();
        this.main = main;
        this.process = process;
        this.mmu = new Mmu("context 0x" + Integer.toHexString(number) + " on node " + nic.node());
    }

    /**
     * @return the NIC.
     */
    public Elan3Nic nic()
    {
        return nic;
    }

    /**
     * @return the hardware context number.
     */
    public int number()
    {
        return number;
    }

    /**
     * @return the MMU of this context.
     */
    public Mmu mmu()
    {
        return mmu;
    }

    /**
     * @return the process's main memory (offsets are host addresses minus the host base).
     */
    public SparseMemory mainMemory()
    {
        return main;
    }

    /**
     * @return the process attached, or null.
     */
    public SimProcess process()
    {
        return process;
    }

    /**
     * @return this process's VP, -1 before {@link #setVpTable}.
     */
    public int myVp()
    {
        return myVp;
    }

    /**
     * @return the number of VPs in the table.
     */
    public int vpCount()
    {
        return vpNode.length;
    }

    /**
     * Loads the VP table: VP i lives on {@code node[i]}, context {@code context[i]}; node -1 is a hole.
     *
     * @param myVp    this process's VP.
     * @param node    node per VP.
     * @param context hardware context per VP.
     */
    public void setVpTable(final int myVp, final int[] node, final int[] context)
    {
        QsnetException.require(node.length == context.length, "VP table", node.length, "node and context tables differ in length");
        QsnetException.require(myVp >= 0 && myVp < node.length, "myVp", myVp, "must be in 0.." + (node.length - 1));
        this.myVp = myVp;
        this.vpNode = node.clone();
        this.vpContext = context.clone();
    }

    /**
     * @param vp a VP.
     * @return its node, or -1 for a hole or a VP outside the table.
     */
    public int nodeOf(final int vp)
    {
        return vp >= 0 && vp < vpNode.length ? vpNode[vp] : -1;
    }

    /**
     * @param vp a VP.
     * @return its hardware context number, or -1 outside the table.
     */
    public int vpContextOf(final int vp)
    {
        return vp >= 0 && vp < vpContext.length ? vpContext[vp] : -1;
    }

    /**
     * Wakes whoever waits on an address a library running beside the NIC (shared memory) wrote.
     *
     * @param va the Elan address written.
     */
    public void signalWrite(final long va)
    {
        notifyWrite(va);
    }

    /**
     * Binds a broadcast VP to a contiguous VP range.
     *
     * @param bcastVp the broadcast VP (at or above the VP count).
     * @param lowVp   first VP.
     * @param highVp  last VP.
     */
    public void addBroadcastVp(final int bcastVp, final int lowVp, final int highVp)
    {
        QsnetException.require(bcastVp >= vpNode.length, "bcastVp", bcastVp, "must not be an ordinary VP (0.."
            + (vpNode.length - 1) + ")");
        QsnetException.require(lowVp >= 0 && highVp >= lowVp && highVp < vpNode.length, "VP range", lowVp + ".." + highVp,
            "must lie within 0.." + (vpNode.length - 1));
        int prevNode = -1;
        for (int vp = lowVp; vp <= highVp; vp++)
        {
            final int n = vpNode[vp];
            if (n < 0)
            {
                throw new QsnetException("VP range " + lowVp + ".." + highVp + " has a hole at VP " + vp
                    + ": hardware broadcast needs contiguous nodes");
            }
            if (prevNode >= 0 && n != prevNode && n != prevNode + 1)
            {
                throw new QsnetException("VP range " + lowVp + ".." + highVp + " spans nodes " + prevNode + " and " + n
                    + ": hardware broadcast needs contiguous, ascending nodes");
            }
            prevNode = n;
        }
        broadcastVps.put(bcastVp, new int[] {lowVp, highVp});
    }

    /**
     * @param bcastVp a VP.
     * @return its range {lowVp, highVp}, or null if it is not a broadcast VP.
     */
    public int[] broadcastRange(final int bcastVp)
    {
        return broadcastVps.get(bcastVp);
    }

    /**
     * Holds off (true) or lets in (false) packets for this context: {@code elan3_block_inputter}.
     *
     * @param blocked whether to hold them off.
     */
    public void blockInputter(final boolean blocked)
    {
        this.inputBlocked = blocked;
    }

    /**
     * Code the NIC's thread processor runs when a queued DMA lands in a queue (Tports matching):
     * it is called at the time the slot has been written, instead of the queue's event firing.
     */
    @FunctionalInterface
    public interface QueueThread
    {
        /**
         * @param slotVa Elan address of the slot just written.
         * @param length bytes written.
         * @param timeNs when.
         */
        void onSlot(long slotVa, int length, long timeNs);
    }

    /**
     * Hands arrivals in the queue at {@code queueVa} to a thread running on the NIC.
     *
     * @param queueVa the queue's Elan address.
     * @param thread  the code.
     */
    public void runThreadOnQueue(final long queueVa, final QueueThread thread)
    {
        queueThreads.put(queueVa, thread);
    }

    private Object library;

    /**
     * @return what a library attached to this context (its per-process state on the node), or null.
     */
    public Object library()
    {
        return library;
    }

    /**
     * Attaches a library's per-process state, so that a process on the same node can reach it
     * through shared memory (Tports' shared-memory path).
     *
     * @param state the state.
     */
    public void attachLibrary(final Object state)
    {
        this.library = state;
    }

    /**
     * @return the capability key words.
     */
    public int[] key()
    {
        return key.clone();
    }

    boolean keyMatches(final int[] other)
    {
        return Arrays.equals(key, other);
    }

    /**
     * The signal a process parks on to wait for the NIC to write this Elan address.
     *
     * @param va an Elan address of this context.
     * @return its signal.
     */
    public Signal watch(final long va)
    {
        int i = Arrays.binarySearch(watchedVa, 0, watchedCount, va);
        if (i >= 0)
        {
            return watchedSignal[i];
        }
        i = -i - 1;
        if (watchedCount == watchedVa.length)
        {
            watchedVa = Arrays.copyOf(watchedVa, watchedCount * 2);
            watchedSignal = Arrays.copyOf(watchedSignal, watchedCount * 2);
        }
        System.arraycopy(watchedVa, i, watchedVa, i + 1, watchedCount - i);
        System.arraycopy(watchedSignal, i, watchedSignal, i + 1, watchedCount - i);
        final Signal s = new Signal(() -> "NIC write to 0x" + Long.toHexString(va) + " in context 0x"
            + Integer.toHexString(number) + " on node " + nic.node());
        watchedVa[i] = va;
        watchedSignal[i] = s;
        watchedCount++;
        return s;
    }

    /**
     * The signal a process parks on to wait for the NIC's next write to any address of this context
     * (a library that runs a program's poll function while it waits, whatever the function looks at);
     * {@link #notifiedWrites()} tells a write that came before the process parked.
     *
     * @return the signal.
     */
    public Signal anyWrite()
    {
        if (anyWrite == null)
        {
            anyWrite = new Signal(() -> "a NIC write in context 0x" + Integer.toHexString(number) + " on node " + nic.node());
        }
        return anyWrite;
    }

    /**
     * @return how many times the NIC has announced a write into this context's memory (watched or
     *         not), each of which fires {@link #anyWrite()}.
     */
    public long notifiedWrites()
    {
        return notifiedWrites;
    }

    private Signal anyWrite;
    private long notifiedWrites;

    private void noteWrite()
    {
        notifiedWrites++;
        if (anyWrite != null)
        {
            anyWrite.fire();
        }
    }

    void notifyWrite(final long va)
    {
        noteWrite();
        if (watchedCount == 0)
        {
            return;
        }
        final int i = Arrays.binarySearch(watchedVa, 0, watchedCount, va);
        if (i >= 0)
        {
            watchedSignal[i].fire();
        }
    }

    /** Wakes whoever watches an address the NIC just wrote within {@code [va, va + length)}, lowest first. */
    void notifyWrite(final long va, final int length)
    {
        noteWrite();
        if (watchedCount == 0)
        {
            return;
        }
        int i = Arrays.binarySearch(watchedVa, 0, watchedCount, va);
        if (i < 0)
        {
            i = -i - 1;
        }
        final long end = va + Math.max(1, length);
        for (; i < watchedCount && watchedVa[i] < end; i++)
        {
            watchedSignal[i].fire();
        }
    }

    /**
     * @return faults the NIC recorded for this context, oldest first.
     */
    public List<String> faults()
    {
        return List.copyOf(faults);
    }

    void fault(final String message)
    {
        faults.add(message);
        if (process != null)
        {
            process.failWith(new MemoryFault(message));
        }
    }

    // ------------------------------------------------------------ access through the MMU

    /** Writes made through this context's MMU (by the NIC, or a library on its behalf). */
    private long writes;

    /**
     * How many writes have gone through this context's MMU: a host that saw the same count
     * before and after knows the NIC wrote nothing in between (its cached lines are still valid).
     *
     * @return the count.
     */
    public long writeCount()
    {
        return writes;
    }

    private SparseMemory memoryOf(final long translated)
    {
        return Mmu.isSdram(translated) ? nic.sdram : main;
    }

    /**
     * Reads a 32-bit word at an Elan address (host or NIC access, no time charged here).
     *
     * @param va     the address.
     * @param rights the rights needed.
     * @return the word.
     */
    public int getInt(final long va, final int rights)
    {
        final long t = mmu.translate(va, rights, "load");
        return memoryOf(t).getInt(Mmu.offset(t));
    }

    /**
     * Writes a 32-bit word at an Elan address.
     *
     * @param va     the address.
     * @param value  the word.
     * @param rights the rights needed.
     */
    public void putInt(final long va, final int value, final int rights)
    {
        writes++;
        final long t = mmu.translate(va, rights, "store");
        memoryOf(t).putInt(Mmu.offset(t), value);
    }

    /** One piece of a range that lies within one page: its memory, offset, and position in the range. */
    @FunctionalInterface
    private interface PageChunk
    {
        void accept(SparseMemory memory, long offset, int position, int length);
    }

    private void eachPage(final long va, final int length, final int rights, final String what, final PageChunk chunk)
    {
        long a = va;
        int position = 0;
        while (position < length)
        {
            final int n = Math.min(length - position, SparseMemory.PAGE_SIZE - (int)(a & (SparseMemory.PAGE_SIZE - 1)));
            final long t = mmu.translate(a, rights, what);
            chunk.accept(memoryOf(t), Mmu.offset(t), position, n);
            a += n;
            position += n;
        }
    }

    /**
     * Copies bytes out of the context's address space, page by page through the MMU.
     *
     * @param va     first address.
     * @param dst    destination.
     * @param off    first index.
     * @param length bytes.
     * @param rights rights needed.
     * @param what   the access, for faults.
     */
    public void read(final long va, final byte[] dst, final int off, final int length, final int rights, final String what)
    {
        eachPage(va, length, rights, what, (m, o, pos, n) -> m.read(o, dst, off + pos, n));
    }

    /**
     * Copies bytes into the context's address space, page by page through the MMU.
     *
     * @param va     first address.
     * @param src    source.
     * @param off    first index.
     * @param length bytes.
     * @param rights rights needed.
     * @param what   the access, for faults.
     */
    public void write(final long va, final byte[] src, final int off, final int length, final int rights, final String what)
    {
        writes++;
        eachPage(va, length, rights, what, (m, o, pos, n) -> m.write(o, src, off + pos, n));
    }

    /**
     * The allocations of a context's memory, as the library that owns the context knows them: the
     * DMA engine and the inputter refuse a transfer that runs past the end of the allocation it
     * starts in (into a neighbouring one), instead of reading or writing the neighbour.
     */
    @FunctionalInterface
    public interface Allocations
    {
        /**
         * @param va an Elan address of this context.
         * @return the Elan address just past the end of the allocation holding {@code va}, or -1
         *         when {@code va} lies in no allocation the library knows of.
         */
        long endOf(long va);
    }

    private Allocations allocations;

    /**
     * @param a the allocations of this context's memory (from its Elan3 context), or null for none.
     */
    public void allocations(final Allocations a)
    {
        this.allocations = a;
    }

    /**
     * Checks that a transfer of {@code length} bytes at {@code va} stays inside the allocation it
     * starts in.
     *
     * @param va     first address.
     * @param length bytes.
     * @param what   the access, for the fault (e.g. {@code "DMA destination"}).
     * @throws MemoryFault naming the range and the allocation's end.
     */
    public void checkAllocation(final long va, final long length, final String what)
    {
        if (allocations == null || length <= 1)
        {
            return;
        }
        final long end = allocations.endOf(va);
        if (end >= 0 && va + length > end)
        {
            throw new MemoryFault(what + " of " + length + " bytes at Elan address 0x" + Long.toHexString(va)
                + " runs " + (va + length - end) + " bytes past the end of its allocation (which ends at 0x"
                + Long.toHexString(end) + ") in " + this);
        }
    }

    /**
     * Checks that a whole range is mapped with the rights.
     *
     * @param va     first address.
     * @param length bytes.
     * @param rights rights needed.
     * @param what   the access, for the fault.
     */
    public void check(final long va, final long length, final int rights, final String what)
    {
        if (length == 0)
        {
            return;
        }
        for (long a = va & ~(long)(SparseMemory.PAGE_SIZE - 1); a < va + length; a += SparseMemory.PAGE_SIZE)
        {
            mmu.translate(Math.max(a, va), rights, what);
        }
    }

    @Override
    public String toString()
    {
        return "context 0x" + Integer.toHexString(number) + " on node " + nic.node() + " (vp " + myVp + ")";
    }
}
