package org.qsnet.fabric.transport.netty;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import org.junit.jupiter.api.Test;

/** The leak check itself: a buffer dropped without release makes it fail. */
class NettyLeakCheckTest
{
    @Test
    void shouldFailWhenABufferIsNeverReleased() throws Exception
    {
        final NettyLeakCheck check = new NettyLeakCheck();
        check.beforeEach(null);
        leak();
        final AssertionError e = assertThrows(AssertionError.class, () -> check.afterEach(null));
        assertTrue(e.getMessage().contains("leak"), e.getMessage());
        check.beforeEach(null);
        check.afterEach(null);
    }

    private static void leak()
    {
        final ByteBuf b = PooledByteBufAllocator.DEFAULT.directBuffer(128);
        b.writeLong(1);
    }
}
