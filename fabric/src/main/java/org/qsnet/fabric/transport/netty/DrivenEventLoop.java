package org.qsnet.fabric.transport.netty;

import java.util.Queue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantLock;

import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelPromise;
import io.netty.channel.DefaultChannelPromise;
import io.netty.channel.IoEventLoop;
import io.netty.channel.IoEventLoopGroup;
import io.netty.channel.IoHandle;
import io.netty.channel.IoHandler;
import io.netty.channel.IoHandlerContext;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.IoRegistration;
import io.netty.util.concurrent.AbstractScheduledEventExecutor;
import io.netty.util.concurrent.DefaultPromise;
import io.netty.util.concurrent.Future;
import io.netty.util.concurrent.GlobalEventExecutor;
import io.netty.util.concurrent.Promise;
import org.jctools.queues.MpscUnboundedArrayQueue;

/**
 * A Netty event loop without a thread of its own: whichever thread holds its drive lock runs its I/O
 * and tasks, so the thread that polls a transport reads its sockets itself (one wake-up per frame, as
 * a blocking socket read) and the thread that offers a frame writes it to the socket itself.
 *
 * <p>Netty 4.2's {@code ManualIoEventLoop} is the model (same {@link IoHandler} contract, same
 * blocking context), with one difference that is the reason for this class: its owning thread is
 * fixed for its life, while a transport's loop must be driven by the polling thread, by the offering
 * thread (the contract lets them differ), by the thread that connects or closes, and by a keeper
 * thread while none of them calls in (heartbeats must go out while the simulation computes). Here
 * {@link #inEventLoop(Thread)} is true for the current holder of the lock; a thread without it hands
 * its work over as a task and wakes the loop, as with any Netty event loop.
 *
 * <pre>
 *   acquire() ─► runNow() / run(waitNs) / runTasks() / direct channel writes ─► release()
 *   (reentrant; release() after the last nested acquire() gives the loop up)
 * </pre>
 */
final class DrivenEventLoop extends AbstractScheduledEventExecutor implements IoEventLoop
{
    private final ReentrantLock lock = new ReentrantLock();
    private final AtomicInteger wanted = new AtomicInteger();
    private final Queue<Runnable> tasks = new MpscUnboundedArrayQueue<>(256);
    private final IoHandler handler;
    private final Promise<Void> termination = new DefaultPromise<>(GlobalEventExecutor.INSTANCE);
    private final IoHandlerContext nonBlocking = new IoHandlerContext()
    {
        @Override
        public boolean canBlock()
        {
            return false;
        }

        @Override
        public long delayNanos(final long currentTimeNanos)
        {
            return 0;
        }

        @Override
        public long deadlineNanos()
        {
            return -1;
        }
    };
    private final Blocking blocking = new Blocking();
    private volatile Thread driver;
    private volatile boolean shutDown;
    private volatile long drives;
    private boolean initialized;
    private boolean destroyed;

    DrivenEventLoop(final IoHandlerFactory factory)
    {
        this.handler = factory.newHandler(this);
    }

    /**
     * Takes the loop; if another thread drives it (the keeper blocked for I/O), wakes that thread
     * and waits for it to give the loop up.
     */
    void acquire()
    {
        if (!lock.tryLock())
        {
            wanted.incrementAndGet();
            try
            {
                // the driver re-reads wanted after publishing that it will block (canBlock), and
                // wakeup() writes the eventfd only if it has: one of the two sees the other
                handler.wakeup();
                lock.lock();
            }
            finally
            {
                wanted.decrementAndGet();
            }
        }
        driver = Thread.currentThread();
        init();
    }

    /**
     * Whether a thread waits in {@link #acquire()}: a keeper then leaves the loop to it.
     *
     * @return true if one waits.
     */
    boolean isWanted()
    {
        return wanted.get() != 0;
    }

    /**
     * Takes the loop if no other thread drives it.
     *
     * @return true if taken (then {@link #release()} it).
     */
    boolean tryAcquire()
    {
        if (!lock.tryLock())
        {
            return false;
        }
        driver = Thread.currentThread();
        init();
        return true;
    }

    private void init()
    {
        if (!initialized)
        {
            initialized = true;
            handler.initialize();
        }
    }

    /** Gives the loop up (after the outermost acquire). */
    void release()
    {
        if (lock.getHoldCount() == 1)
        {
            drives++;
            driver = null;
        }
        lock.unlock();
    }

    /**
     * How many times the loop has been given up: a keeper sees from it whether anyone drove the loop.
     *
     * @return a counter.
     */
    long drives()
    {
        return drives;
    }

    /**
     * Runs ready I/O and tasks without blocking; the caller holds the loop.
     *
     * @return the number of I/O events and tasks run.
     */
    int runNow()
    {
        return run(nonBlocking);
    }

    /**
     * Runs ready I/O and tasks, blocking up to {@code waitNanos} for I/O, a task or a wake-up when
     * there is none; the caller holds the loop.
     *
     * @param waitNanos the longest wait, at least 1.
     * @return the number of I/O events and tasks run.
     */
    int run(final long waitNanos)
    {
        blocking.maxBlockingNanos = Math.max(1, waitNanos);
        return run(blocking);
    }

    private int run(final IoHandlerContext context)
    {
        if (destroyed)
        {
            return 0;
        }
        return handler.run(context) + runTasks();
    }

    /**
     * Runs the tasks handed over by other threads and the scheduled tasks that are due; the caller
     * holds the loop. A thread that takes the loop to write runs them first, so that a frame it
     * handed over while another thread drove goes out before the one it writes now.
     *
     * @return the number of tasks run.
     */
    int runTasks()
    {
        fetchFromScheduledTaskQueue(tasks);
        int count = 0;
        Runnable task;
        while ((task = tasks.poll()) != null)
        {
            safeExecute(task);
            count++;
        }
        return count;
    }

    /**
     * Ends the loop: runs what is pending, cancels the timers and releases the I/O handler's
     * resources. The caller holds the loop and has closed its channels.
     */
    void destroy()
    {
        if (destroyed)
        {
            return;
        }
        shutDown = true;
        runTasks();
        cancelScheduledTasks();
        handler.prepareToDestroy();
        handler.destroy();
        destroyed = true;
        runTasks();
        termination.trySuccess(null);
    }

    @Override
    public boolean inEventLoop(final Thread thread)
    {
        return driver == thread;
    }

    @Override
    public void execute(final Runnable command)
    {
        tasks.add(command);
        if (!inEventLoop() && !destroyed)
        {
            handler.wakeup();
        }
    }

    @Override
    public DrivenEventLoop next()
    {
        return this;
    }

    @Override
    public IoEventLoopGroup parent()
    {
        return null;
    }

    @Deprecated
    @Override
    public ChannelFuture register(final Channel channel)
    {
        return register(new DefaultChannelPromise(channel, this));
    }

    @Deprecated
    @Override
    public ChannelFuture register(final ChannelPromise promise)
    {
        promise.channel().unsafe().register(this, promise);
        return promise;
    }

    @Deprecated
    @Override
    public ChannelFuture register(final Channel channel, final ChannelPromise promise)
    {
        channel.unsafe().register(this, promise);
        return promise;
    }

    @Override
    public Future<IoRegistration> register(final IoHandle handle)
    {
        final Promise<IoRegistration> promise = newPromise();
        if (inEventLoop())
        {
            register(handle, promise);
        }
        else
        {
            execute(() -> register(handle, promise));
        }
        return promise;
    }

    private void register(final IoHandle handle, final Promise<IoRegistration> promise)
    {
        try
        {
            promise.setSuccess(handler.register(handle));
        }
        catch (final Exception e)
        {
            promise.setFailure(e);
        }
    }

    @Override
    public boolean isCompatible(final Class<? extends IoHandle> handleType)
    {
        return handler.isCompatible(handleType);
    }

    @Override
    public boolean isIoType(final Class<? extends IoHandler> handlerType)
    {
        return handler.getClass().equals(handlerType);
    }

    @Override
    public boolean isShuttingDown()
    {
        return shutDown;
    }

    @Override
    public Future<?> shutdownGracefully(final long quietPeriod, final long timeout, final TimeUnit unit)
    {
        // the transport ends the loop itself (destroy(), by the thread that closes it)
        shutDown = true;
        return termination;
    }

    @Override
    public Future<?> terminationFuture()
    {
        return termination;
    }

    @Deprecated
    @Override
    public void shutdown()
    {
        shutDown = true;
    }

    @Override
    public boolean isShutdown()
    {
        return shutDown;
    }

    @Override
    public boolean isTerminated()
    {
        return termination.isDone();
    }

    @Override
    public boolean awaitTermination(final long timeout, final TimeUnit unit) throws InterruptedException
    {
        return termination.await(timeout, unit);
    }

    /** As {@code ManualIoEventLoop}'s: block for I/O until a due timer, a task or the caller's limit. */
    private final class Blocking implements IoHandlerContext
    {
        long maxBlockingNanos = 1;

        @Override
        public boolean canBlock()
        {
            return tasks.isEmpty() && !hasScheduledTasks() && wanted.get() == 0;
        }

        @Override
        public long delayNanos(final long currentTimeNanos)
        {
            return Math.min(maxBlockingNanos, DrivenEventLoop.this.delayNanos(currentTimeNanos, maxBlockingNanos));
        }

        @Override
        public long deadlineNanos()
        {
            final long next = nextScheduledTaskDeadlineNanos();
            final long now = ticker().nanoTime();
            if (next == -1 || next - now > maxBlockingNanos)
            {
                return now + maxBlockingNanos;
            }
            return next;
        }
    }
}
