package org.qsnet.fabric.transport.local;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import net.openhft.chronicle.bytes.BytesStore;
import net.openhft.chronicle.core.io.SingleThreadedChecked;
import org.qsnet.fabric.transport.FrameRing;
import org.qsnet.fabric.transport.RingTransport;
import org.qsnet.fabric.transport.TransportContext;

/**
 * The in-JVM transport: every partition of a job in one JVM, each ordered pair joined by a
 * {@link FrameRing} in native memory. There is nothing to authenticate and no peer can die apart
 * from the JVM, so there is no heartbeat; framing is validated as in the other transports.
 */
public final class LocalTransport extends RingTransport
{
    private final Runnable onClose;

    private LocalTransport(final TransportContext context, final Runnable onClose)
    {
        super(context);
        this.onClose = onClose;
    }

    /**
     * Creates every endpoint of a job, joined in this JVM.
     *
     * @param context the job's context (its partition is ignored; its partition count is used).
     * @return the endpoints, indexed by partition.
     */
    public static List<LocalTransport> createJob(final TransportContext context)
    {
        context.validate();
        final int n = context.partitionCount();
        final int capacity = FrameRing.capacityFor(context.maxPayloadBytes());
        final List<BytesStore<?, ?>> stores = new ArrayList<>();
        final AtomicInteger open = new AtomicInteger(n);
        final Runnable release = () ->
        {
            if (open.decrementAndGet() == 0)
            {
                stores.forEach(BytesStore::releaseLast);
            }
        };
        final List<LocalTransport> endpoints = new ArrayList<>(n);
        for (int p = 0; p < n; p++)
        {
            endpoints.add(new LocalTransport(context.forPartition(p), release));
        }
        for (int from = 0; from < n; from++)
        {
            for (int to = 0; to < n; to++)
            {
                if (from == to)
                {
                    continue;
                }
                final ByteBuffer memory = ByteBuffer.allocateDirect(Math.toIntExact(FrameRing.footprint(capacity)));
                final BytesStore<?, ByteBuffer> store = BytesStore.wrap(memory);
                if (store instanceof SingleThreadedChecked checked)
                {
                    checked.singleThreadedCheckDisabled(true);
                }
                stores.add(store);
                final FrameRing producer = new FrameRing(store, memory, 0, capacity, context.maxPayloadBytes());
                final FrameRing consumer = new FrameRing(store, memory, 0, capacity, context.maxPayloadBytes());
                endpoints.get(from).outgoing[to] = producer;
                endpoints.get(to).incoming[from] = consumer;
            }
        }
        return Collections.unmodifiableList(endpoints);
    }

    @Override
    public void close()
    {
        if (markClosed())
        {
            closeOutgoing();
            onClose.run();
        }
    }
}
