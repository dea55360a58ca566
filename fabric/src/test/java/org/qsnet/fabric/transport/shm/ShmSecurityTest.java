package org.qsnet.fabric.transport.shm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.qsnet.fabric.transport.TransportContext;
import org.qsnet.fabric.transport.TransportException;

@Timeout(value = 20, unit = TimeUnit.SECONDS)
class ShmSecurityTest
{
    private static TransportContext context(final int partition, final String key)
    {
        return new TransportContext().jobId(909).jobKey(key.getBytes(StandardCharsets.US_ASCII)).partition(partition, 2)
            .maxPayloadBytes(1024).connectTimeoutMs(3_000);
    }

    @Test
    void shouldRefuseAPeerWithAnotherKeyOnBothSides() throws Exception
    {
        final Path dir = ShmTransportTest.directory();
        final CompletableFuture<ShmTransport> other = CompletableFuture.supplyAsync(
            () -> ShmTransport.open(context(1, "another-key-0123456789abcdef"), dir));
        final TransportException mine = org.junit.jupiter.api.Assertions.assertThrows(TransportException.class,
            () -> ShmTransport.open(context(0, "the-job-key-0123456789abcdef"), dir));
        assertEquals(1, mine.peer());
        assertTrue(mine.getMessage().contains("refused peer 1") && mine.getMessage().contains("job key"), mine.getMessage());
        final ExecutionException theirs = org.junit.jupiter.api.Assertions.assertThrows(ExecutionException.class,
            () -> other.get(10, TimeUnit.SECONDS));
        assertTrue(theirs.getCause().getMessage().contains("refused peer 0"), theirs.getCause().getMessage());
    }

    @Test
    void shouldKeepItsFilesOwnerOnlyAndDeleteThemOnClose() throws Exception
    {
        final Path dir = ShmTransportTest.directory().resolve("job");
        dir.toFile().deleteOnExit();
        final CompletableFuture<ShmTransport> b = CompletableFuture.supplyAsync(() -> ShmTransport.open(context(1, "the-job-key-0123456789abcdef"), dir));
        final ShmTransport a = ShmTransport.open(context(0, "the-job-key-0123456789abcdef"), dir);
        final ShmTransport t = b.get(10, TimeUnit.SECONDS);
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(dir)));
        try (var files = Files.list(dir))
        {
            files.forEach(f ->
            {
                try
                {
                    assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(f)), f.toString());
                }
                catch (final java.io.IOException e)
                {
                    throw new java.io.UncheckedIOException(e);
                }
            });
        }
        a.close();
        t.close();
        try (var files = Files.list(dir))
        {
            assertEquals(0, files.count());
        }
    }
}
