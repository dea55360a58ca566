package org.qsnet.bench.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

import org.qsnet.elan3.Rms;

/**
 * A user's program for {@code prun}: each rank appends "rank pid" to the file {@code args[0]}, so
 * a test sees which operating-system process (JVM) ran it.
 */
public final class RankPid
{
    private RankPid()
    {
    }

    /**
     * @param args the file to append to.
     * @throws IOException if it cannot be written.
     */
    public static void main(final String[] args) throws IOException
    {
        final String line = Rms.getenv("RMS_RANK") + " " + ProcessHandle.current().pid() + System.lineSeparator();
        // one short appending write: the lines of ranks in several JVMs do not mix
        Files.writeString(Path.of(args[0]), line, StandardOpenOption.CREATE, StandardOpenOption.APPEND,
            StandardOpenOption.WRITE);
    }
}
