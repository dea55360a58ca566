package org.qsnet.fabric.transport.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.qsnet.fabric.transport.FrameDescriptor;
import org.qsnet.fabric.transport.Transport;
import org.qsnet.fabric.transport.TransportContext;
import org.qsnet.fabric.transport.TransportException;

/**
 * {@code Transport.send} to a live peer that never polls ends with a clear error after
 * {@link Transport#SEND_STALL_NS} instead of waiting forever (10 s: tagged slow).
 */
class SendStallTest
{
    @Test
    @Tag("slow")
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void shouldFailASendThatThePeerNeverDrains()
    {
        final TransportContext ctx = new TransportContext().jobId(7).jobKey(
            "send-stall-test-key-0123456789abcd".getBytes(StandardCharsets.US_ASCII)).partition(0, 2)
            .maxPayloadBytes(1024).heartbeat(100, 2_000).connectTimeoutMs(10_000);
        final List<LocalTransport> job = LocalTransport.createJob(ctx);
        try
        {
            final Transport sender = job.get(0);
            final long start = System.nanoTime();
            final TransportException e = assertThrows(TransportException.class, () ->
            {
                for (int i = 0; ; i++)
                {
                    sender.send(1, FrameDescriptor.MIN_APPLICATION_TYPE, i, i, ByteBuffer.allocate(1024));
                }
            });
            final long s = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start);
            assertEquals(1, e.peer());
            assertTrue(e.getMessage().contains("does not poll"), e.getMessage());
            assertTrue(s >= 9 && s < 30, "gave up after " + s + " s");
        }
        finally
        {
            job.forEach(Transport::close);
        }
    }
}
