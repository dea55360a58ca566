package org.qsnet.fabric.transport.netty;

import java.util.ArrayList;
import java.util.List;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.util.ResourceLeakDetector;
import io.netty.util.internal.logging.InternalLoggerFactory;
import io.netty.util.internal.logging.JdkLoggerFactory;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Runs a test with Netty's leak detector at paranoid level and fails it if a leak is reported:
 * Netty logs through java.util.logging here, and a handler collects its "LEAK" records.
 */
public final class NettyLeakCheck implements BeforeEachCallback, AfterEachCallback
{
    static
    {
        System.setProperty("io.netty.leakDetection.level", "paranoid");
        InternalLoggerFactory.setDefaultFactory(JdkLoggerFactory.INSTANCE);
        ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.PARANOID);
    }

    private static final Logger NETTY = Logger.getLogger("io.netty");
    private static final List<String> LEAKS = new ArrayList<>();
    private static final Handler COLLECTOR = new Handler()
    {
        @Override
        public void publish(final LogRecord record)
        {
            if (record.getLevel().intValue() >= Level.WARNING.intValue() && String.valueOf(record.getMessage()).contains("LEAK"))
            {
                synchronized (LEAKS)
                {
                    LEAKS.add(record.getMessage());
                }
            }
        }

        @Override
        public void flush()
        {
        }

        @Override
        public void close()
        {
        }
    };

    static
    {
        NETTY.addHandler(COLLECTOR);
    }

    @Override
    public void beforeEach(final ExtensionContext context)
    {
        ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.PARANOID);
        synchronized (LEAKS)
        {
            LEAKS.clear();
        }
    }

    @Override
    public void afterEach(final ExtensionContext context) throws InterruptedException
    {
        // leaks are reported when a tracked buffer has been collected and another is allocated
        for (int round = 0; round < 3; round++)
        {
            System.gc();
            Thread.sleep(50);
            for (int i = 0; i < 16; i++)
            {
                final ByteBuf b = PooledByteBufAllocator.DEFAULT.directBuffer(64);
                b.release();
            }
        }
        synchronized (LEAKS)
        {
            if (!LEAKS.isEmpty())
            {
                throw new AssertionError("Netty reported " + LEAKS.size() + " buffer leak(s): " + LEAKS.get(0));
            }
        }
    }
}
