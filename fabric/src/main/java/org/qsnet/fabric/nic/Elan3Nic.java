package org.qsnet.fabric.nic;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.qsnet.fabric.QsnetException;
import org.qsnet.fabric.engine.Kernel;
import org.qsnet.fabric.engine.Origin;
import org.qsnet.fabric.engine.SimProcess;
import org.qsnet.fabric.memory.SparseMemory;
import org.qsnet.fabric.network.Fabric;
import org.qsnet.fabric.network.Packet;
import org.qsnet.fabric.network.PacketEndpoint;

/**
 * The Elan3 network interface of one node: the composition root of its units, each a class of this
 * package that owns its state, wired to the shared resources they contend for, with the platform
 * profile's parameters:
 * <ul>
 *   <li>{@link CommandProcessor}: takes a descriptor address from the host (user level), reads and
 *       checks the descriptor, queues it; builds remote atomics and barrier tests;</li>
 *   <li>{@link DmaEngine}: turns queued descriptors into packets of at most 5 x 64 B, one packet at a
 *       time from each queued DMA in turn (time-slicing: a small DMA is not stuck behind a large
 *       one), staging the next packet while up to one packet per virtual channel is in flight;
 *       retries, failures and source events on the acknowledgements;</li>
 *   <li>{@link Inputter}: accepts packets, checks context and key, translates through the MMU and TLB,
 *       writes memory (SDRAM, or host memory across PCI), takes queued DMAs, answers atomics, acks;</li>
 *   <li>{@link EventProcessor}: count, block copy into host memory, word copy, chained DMAs;</li>
 *   <li>{@link ThreadProcessor}: a resource with a cost per operation, for the libraries above that
 *       run on the NIC (Tports matching), see {@link #threadWork};</li>
 *   <li>{@link Translator}: the TLB, the page-table walk in SDRAM and the driver's loads of host
 *       pages' entries on a translation fault;</li>
 *   <li>{@link NicResources}, shared: the microcode processor (threads for commands, DMA, inputter,
 *       events), the internal data bus (outgoing and incoming data), SDRAM and the PCI bus (with
 *       start-up per burst and turnaround on buses that cannot interleave directions).</li>
 * </ul>
 * Latency and bandwidth are never written down here: they come out of these resources, the
 * fabric's circuits and the host costs the library charges. This class keeps the public API the
 * libraries drive, the hardware contexts and the SDRAM, and delegates everything else (its length
 * is that API's Javadoc: no mechanism is left in it).
 *
 * <pre>
 *  host --putdma--> [cmd proc] --> DMA queue --> [DMA thread: microcode, source read (SDRAM|PCI),
 *  internal bus] --> staged packet --(free VC)--> fabric ... --> [inputter: microcode, TLB,
 *  internal bus, write (SDRAM|PCI)] --> memory, dest event --> ack --> source: src event
 * </pre>
 *
 * <p>About 460 lines: the composition root of those units and the public API that Elan3lib
 * drives, each method a delegation with its contract's Javadoc (the mechanisms are in the
 * units, as said above).
 */
public final class Elan3Nic implements PacketEndpoint
{
    /** Size of the Elan SDRAM: 64 MB. */
    public static final long SDRAM_BYTES = 64L << 20;
    /** First SDRAM offset handed to allocators (below: the NIC's own tables). */
    public static final long SDRAM_ALLOC_BASE = 0x10000;

    private final int node;
    private final Elan3Timing profile;
    private final Origin origin;
    final SparseMemory sdram;
    /** Attached hardware contexts by number (the inputter looks packets' destinations up here). */
    final Map<Integer, NicContext> contexts = new HashMap<>();
    /** The context {@link #context(int)} found last: packets for one context come in runs. */
    private NicContext lastContext;
    private long sdramAllocTop = SDRAM_ALLOC_BASE;

    private final NicResources shared;
    private final Translator translator;
    final CommandProcessor commands;
    final DmaEngine dma;
    final Inputter inputter;
    final EventProcessor events;
    private final ThreadProcessor threads;

    /**
     * Builds the NIC of a node and attaches it to the network (the assembled machine does this once
     * per node).
     *
     * @param kernel  the kernel driving the machine.
     * @param profile the NIC's and the host driver's timings.
     * @param fabric  the network the NIC attaches to.
     * @param node    the node.
     */
    public Elan3Nic(final Kernel kernel, final Elan3Timing profile, final Fabric fabric, final int node)
    {
        this.node = node;
        this.profile = profile;
        this.origin = fabric.nodeOrigin(node);
        this.sdram = new SparseMemory("SDRAM of node " + node, SDRAM_BYTES);
        this.shared = new NicResources(profile);
        this.translator = new Translator(profile, shared.sdramBus);
        this.commands = new CommandProcessor(this, profile, fabric.config(), kernel, origin, shared);
        this.dma = new DmaEngine(this, profile, fabric.config(), origin, fabric.attach(node, this), shared, translator);
        this.inputter = new Inputter(this, profile, fabric.config(), origin, shared, translator);
        this.events = new EventProcessor(this, profile, kernel, origin, shared);
        this.threads = new ThreadProcessor(profile, origin, inputter);
    }

    /**
     * @return the node.
     */
    public int node()
    {
        return node;
    }

    /**
     * @return queued packets this NIC's inputter received a second time and discarded (their first
     *         copy had been taken), since the machine was built.
     */
    public long duplicatesDiscarded()
    {
        return inputter.duplicatesDiscarded;
    }

    /**
     * @return queued DMAs whose retries ran out against a full queue and that the driver restarted.
     */
    public long driverRestarts()
    {
        return dma.driverRestarts;
    }

    /**
     * @return queued packets this NIC's inputter refused because an earlier packet of their stream
     *         had not landed yet (it was being retried after a CRC error); each was sent again.
     */
    public long outOfOrderRefusals()
    {
        return inputter.outOfOrderRefusals;
    }

    /**
     * @return the origin under which this NIC schedules its events (for code running on the NIC).
     */
    public Origin origin()
    {
        return origin;
    }

    /**
     * @return the NIC's timings (the platform profile).
     */
    public Elan3Timing profile()
    {
        return profile;
    }

    /**
     * @return the node's Elan SDRAM.
     */
    public SparseMemory sdram()
    {
        return sdram;
    }

    /**
     * @return translation faults so far: pages of main memory whose entry the driver loaded into the
     * NIC's table on the NIC's first access.
     */
    public long pteLoads()
    {
        return translator.pteLoads;
    }

    /**
     * @return the TLB (for its hit and miss counts).
     */
    Tlb tlb()
    {
        return translator.tlb;
    }

    /**
     * @return the NIC's resources: microcode, thread processor, internal bus, SDRAM, PCI.
     */
    List<Resource> resources()
    {
        return List.of(shared.microcode, threads.resource(), shared.internalBus, shared.sdramBus, shared.pci);
    }

    /**
     * Runs work on the NIC's thread processor (the SPARC-based engine on which Tports and MPI
     * match tags without the host): {@code operations} operations of the profile's
     * {@code threadOpNs} each, first come first served.
     *
     * @param readyNs    when the work can start.
     * @param operations operations, at least 0.
     * @return when the work ends.
     */
    public long threadWork(final long readyNs, final int operations)
    {
        QsnetException.require(operations >= 0, "operations", operations, "must be at least 0");
        return threads.work(readyNs, operations);
    }

    /**
     * @return DMA descriptors started.
     */
    public long dmasStarted()
    {
        return dma.dmasStarted;
    }

    /**
     * @return packets sent.
     */
    public long packetsSent()
    {
        return dma.packetsSent;
    }

    /**
     * @return packets received.
     */
    public long packetsReceived()
    {
        return inputter.packetsReceived;
    }

    /**
     * @return payload bytes sent.
     */
    public long bytesSent()
    {
        return dma.bytesSent;
    }

    // ------------------------------------------------------------------ contexts and memory

    /**
     * Attaches a process to a hardware context ({@code elan3_attach}): {@link #create} then
     * {@link #claim}.
     *
     * @param contextNumber the context, unique on this node.
     * @param key           the capability's key words.
     * @param main          the process's main memory.
     * @param process       the process, to which faults are reported; may be null.
     * @return the context.
     */
    public NicContext attach(final int contextNumber, final int[] key, final SparseMemory main, final SimProcess process)
    {
        final NicContext c = create(contextNumber, key, main, process);
        claim(c);
        return c;
    }

    /**
     * Creates a hardware context ({@code elan3_init}) without claiming its number: packets for it
     * are refused until {@link #claim}.
     *
     * @param contextNumber the context.
     * @param key           the capability's key words.
     * @param main          the process's main memory.
     * @param process       the process, to which faults are reported; may be null.
     * @return the context.
     */
    public NicContext create(final int contextNumber, final int[] key, final SparseMemory main, final SimProcess process)
    {
        QsnetException.require(contextNumber >= 0 && contextNumber < 4096, "context", contextNumber, "must be in 0..4095");
        return new NicContext(this, contextNumber, key, main, process);
    }

    /**
     * Claims a created context's number on this node ({@code elan3_attach}).
     *
     * @param c the context.
     */
    public void claim(final NicContext c)
    {
        if (!tryClaim(c))
        {
            throw new QsnetException("context 0x" + Integer.toHexString(c.number) + " on node " + node
                + " is already attached");
        }
    }

    /**
     * Claims a created context's number on this node if no other context holds it.
     *
     * @param c the context.
     * @return whether {@code c} holds its number now (also when it did already).
     */
    public boolean tryClaim(final NicContext c)
    {
        return contexts.putIfAbsent(c.number, c) == null || contexts.get(c.number) == c;
    }

    /**
     * Detaches a context ({@code elan3_detach}): packets for it are refused from now on.
     *
     * @param ctx the context.
     */
    public void detach(final NicContext ctx)
    {
        ctx.detached = true;
        // a context never claimed (its attach failed) leaves the one holding its number alone
        contexts.remove(ctx.number, ctx);
        lastContext = null;
        translator.tlb.flush(ctx.number);
    }

    /**
     * Reserves a page-aligned region of SDRAM (a context's Elan heap).
     *
     * @param bytes size.
     * @return its SDRAM offset.
     */
    public long reserveSdram(final long bytes)
    {
        final long size = (bytes + SparseMemory.PAGE_SIZE - 1) & -SparseMemory.PAGE_SIZE;
        if (sdramAllocTop + size > SDRAM_BYTES)
        {
            throw new QsnetException("SDRAM of node " + node + " is exhausted: " + size + " bytes asked, "
                + (SDRAM_BYTES - sdramAllocTop) + " left of 64 MB");
        }
        final long at = sdramAllocTop;
        sdramAllocTop += size;
        return at;
    }

    /**
     * Flushes a context's TLB entries after its mappings changed.
     *
     * @param ctx the context.
     */
    public void flushTlb(final NicContext ctx)
    {
        translator.tlb.flush(ctx.number);
    }

    // ------------------------------------------------------------------ to the units

    /**
     * The host hands the command processor the Elan address of a descriptor ({@code elan3_putdma}).
     * The descriptor is read and checked now, as the command processor does; a bad one is
     * rejected with a {@link QsnetException} naming the field. The host's own cost (programmed
     * I/O) is charged by the library before this call.
     *
     * @param ctx    the issuing context.
     * @param descVa Elan address of the descriptor.
     * @return an id of the DMA, unique on the machine (see {@link LandingObserver}).
     */
    public long command(final NicContext ctx, final long descVa)
    {
        return commands.command(ctx, descVa);
    }

    /**
     * Watches data landing in this NIC's memory, for measurement tools (the traffic experiments).
     */
    @FunctionalInterface
    public interface LandingObserver
    {
        /**
         * A packet's data has been written at this node.
         *
         * @param dmaId  the id {@link #command} returned for the DMA (for a read: the requester's).
         * @param bytes  data bytes of the packet.
         * @param complete whether every packet of the DMA has now been written here (the packet
         *                 that completes it need not be the last by index: one retried after a
         *                 CRC error lands later).
         * @param timeNs   when the write completed.
         */
        void landed(long dmaId, int bytes, boolean complete, long timeNs);
    }

    /**
     * @param observer told of every packet's data landing here; null for none.
     */
    public void observe(final LandingObserver observer)
    {
        inputter.observer = observer;
    }

    @Override
    public void onAck(final Packet packet, final long timeNs)
    {
        dma.onAck(packet, timeNs);
    }

    @Override
    public long onArrival(final Packet packet, final long timeNs)
    {
        return inputter.onArrival(packet, timeNs);
    }

    /**
     * The thread processor copies {@code data} into the context's memory at {@code va} (host
     * memory across PCI, or SDRAM) and then writes {@code doneValue} into the word at
     * {@code doneVa} (0 for none), waking whoever waits on either. Used by the code that runs on
     * the NIC (Tports delivering a matched message).
     *
     * @param c         the context.
     * @param va        destination Elan address (ignored when {@code data} is empty).
     * @param data      bytes to write.
     * @param doneVa    completion word, or 0.
     * @param doneValue value written there.
     * @param readyNs   when the copy can start.
     * @return when the completion word is written.
     */
    public long threadCopy(final NicContext c, final long va, final byte[] data, final long doneVa, final int doneValue,
        final long readyNs)
    {
        return threads.copy(c, va, data, doneVa, doneValue, readyNs);
    }

    /**
     * The host sets an event ({@code elan3_setevent}): one decrement, through the command
     * processor.
     *
     * @param ctx  the context.
     * @param evVa the event's Elan address.
     */
    public void hostSetEvent(final NicContext ctx, final long evVa)
    {
        commands.hostSetEvent(ctx, evVa);
    }

    /**
     * Re-arms an event for one more set ({@code elan3_waitevent}): one is added to its count, in
     * the order of the sets the NIC applies. Sets that arrived while the consumer was between two
     * waits have already taken the count to zero or below; the event then fires at once, once for
     * each of them as the consumer re-arms, so no arrival is lost.
     *
     * @param ctx  the context.
     * @param evVa the event's Elan address.
     */
    public void rearmEvent(final NicContext ctx, final long evVa)
    {
        events.rearmEvent(ctx, evVa);
    }

    /**
     * A remote atomic operation on a 32-bit word, as a non-write-block transaction whose result
     * returns in the acknowledgement.
     *
     * @param ctx      the issuing context.
     * @param op       {@link E3#ATOMIC_FETCH_ADD} or {@link E3#ATOMIC_TEST_AND_WRITE}.
     * @param vp       the remote VP.
     * @param remoteVa the word's Elan address at the remote.
     * @param operand  value added, or written if the word equals {@code compare}.
     * @param compare  the expected value (test-and-write).
     * @param resultVa local Elan address that receives the old value, 0 for none.
     * @param srcEvent local event set on completion, 0 for none.
     */
    public void atomic(final NicContext ctx, final int op, final int vp, final long remoteVa, final long operand,
        final long compare, final long resultVa, final long srcEvent)
    {
        commands.atomic(ctx, op, vp, remoteVa, operand, compare, resultVa, srcEvent);
    }

    /**
     * The Elan's hardware barrier: a broadcast test transaction to the VPs of {@code bcastVp} that
     * reads the word at {@code wordVa} in each; the acknowledgements combine on the way back, and
     * the test is repeated until every word has reached {@code expected}; then {@code srcEvent} is
     * set.
     *
     * @param ctx      the issuing context.
     * @param bcastVp  a broadcast VP (see {@link NicContext#addBroadcastVp}).
     * @param wordVa   the word's Elan address (the same in every member).
     * @param expected the value every word must have reached.
     * @param srcEvent local event set when all are ready.
     */
    public void broadcastTest(final NicContext ctx, final int bcastVp, final long wordVa, final int expected,
        final long srcEvent)
    {
        commands.broadcastTest(ctx, bcastVp, wordVa, expected, srcEvent);
    }

    /**
     * @param number a hardware context number.
     * @return the context attached under it, or null.
     */
    public NicContext context(final int number)
    {
        final NicContext last = lastContext;
        if (last != null && last.number == number && !last.detached)
        {
            return last;
        }
        final NicContext c = contexts.get(number);
        lastContext = c;
        return c;
    }

    /**
     * @return contexts attached now, by number.
     */
    public List<NicContext> contexts()
    {
        return new ArrayList<>(contexts.values());
    }
}
