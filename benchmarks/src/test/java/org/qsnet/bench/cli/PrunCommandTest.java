package org.qsnet.bench.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.qsnet.elan3.Elan3;
import org.qsnet.elan3.Elan3Context;
import org.qsnet.elan3.ElanProcess;
import org.qsnet.elan3.Rms;

/**
 * {@code prun} as a user runs it: the command line through picocli, programs in a package of
 * their own (loaded per rank), output and exit status checked.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class PrunCommandTest
{
    private static final String HERE = PrunCommandTest.class.getName();

    /** Exit status, stdout, stderr. */
    private static String[] prun(final String... args)
    {
        return Captured.run(PrunCommand::execute, args);
    }

    /** A port of a C program whose rank and peer table are globals. */
    public static final class StaticRank
    {
        static int myRank = -1;
        static final int[] PEERS = new int[16];

        private StaticRank()
        {
        }

        /**
         * @param args unused.
         */
        public static void main(final String[] args)
        {
            myRank = Integer.parseInt(Rms.getenv("RMS_RANK"));
            PEERS[myRank] = 1;
            // every rank has set its globals before any reaches 1 us
            ElanProcess.current().sim().advance(1_000);
            if (myRank != ElanProcess.current().rank() || Arrays.stream(PEERS).sum() != 1)
            {
                throw new IllegalStateException("rank " + ElanProcess.current().rank() + " sees my_rank " + myRank
                    + " and peers " + Arrays.toString(PEERS));
            }
            System.out.println("my_rank " + myRank);
        }
    }

    /** Prints its arguments on stdout, a line in two pieces around a library call, and a line on stderr. */
    public static final class Echo
    {
        private Echo()
        {
        }

        /**
         * @param args printed.
         */
        public static void main(final String[] args)
        {
            final ElanProcess p = ElanProcess.current();
            System.out.println(List.of(args));
            System.out.print("first half, ");
            // the other rank runs meanwhile and prints its own pieces
            p.sim().advance(100 + 100L * p.rank());
            System.out.println("second half");
            System.err.println("a warning from rank " + p.rank());
        }
    }

    /** Rank 1 throws; rank 0 then waits for ever for the event rank 1 would have set. */
    public static final class ThrowThenBlock
    {
        private ThrowThenBlock()
        {
        }

        /**
         * @param args unused.
         */
        public static void main(final String[] args)
        {
            final Elan3Context ctx = Elan3Context.open();
            final long ev = ctx.allocElan(Elan3.E3_EVENT_ALIGN, Elan3.E3_BLOCK_COPY_EVENT_SIZE);
            final long word = ctx.allocMain(8, 8);
            ctx.initeventWord(ev, word);
            ctx.primeevent(ev, 1);
            if (ElanProcess.current().rank() == 1)
            {
                throw new IllegalStateException("boom from rank 1");
            }
            ctx.waitEventWord(ev, word, Elan3.ELAN_WAIT_EVENT);
        }
    }

    /** Never finishes: rank 0 waits for an event nobody sets, the others compute for ever. */
    public static final class Forever
    {
        private Forever()
        {
        }

        /**
         * @param args unused.
         */
        public static void main(final String[] args)
        {
            final ElanProcess p = ElanProcess.current();
            if (p.rank() == 0)
            {
                final Elan3Context ctx = Elan3Context.open();
                final long ev = ctx.allocElan(Elan3.E3_EVENT_ALIGN, Elan3.E3_BLOCK_COPY_EVENT_SIZE);
                final long word = ctx.allocMain(8, 8);
                ctx.initeventWord(ev, word);
                ctx.primeevent(ev, 1);
                ctx.waitEventWord(ev, word, Elan3.ELAN_WAIT_EVENT);
            }
            while (true)
            {
                p.sim().compute(1_000);
            }
        }
    }

    @Test
    void shouldGiveEachOfSixteenRanksItsOwnGlobals()
    {
        final String[] r = prun("-n", "16", "-t", HERE + "$StaticRank");
        assertEquals("0", r[0], r[2]);
        for (int rank = 0; rank < 16; rank++)
        {
            assertTrue(r[1].contains(rank + ": my_rank " + rank + "\n"), r[1]);
        }
    }

    @Test
    void shouldPassEveryArgumentAfterTheClassToTheProgram()
    {
        final String[] r = prun("-n", "2", HERE + "$Echo", "-n", "5", "--help", "-t", "--", "x y");
        assertEquals("0", r[0], r[2]);
        // without -t the ranks' pieces of lines mix, as on a real terminal: count the whole lists
        assertEquals(2, r[1].split("\\[-n, 5, --help, -t, --, x y\\]", -1).length - 1, r[1]);
    }

    @Test
    void shouldLabelStdoutAndStderrLinesWithTheRankWithoutMixingRanksPieces()
    {
        final String[] r = prun("-n", "2", "-t", HERE + "$Echo", "a");
        assertEquals("0", r[0], r[2]);
        assertEquals("0: [a]\n1: [a]\n0: first half, second half\n1: first half, second half\n", r[1]);
        assertTrue(r[2].startsWith("0: a warning from rank 0\n1: a warning from rank 1\nprun: 2 processes on pentium3-he"),
            r[2]);
    }

    @Test
    void shouldPrintTheThrownExceptionWithItsStackFirstThenTheEndOfTheJob()
    {
        final String[] r = prun("-n", "2", HERE + "$ThrowThenBlock");
        assertEquals("1", r[0], r[2]);
        final String err = r[2];
        final int thrown = err.indexOf("prun: job 0 rank 1 failed:\njava.lang.IllegalStateException: boom from rank 1\n\tat ");
        final int frame = err.indexOf("PrunCommandTest$ThrowThenBlock.main(PrunCommandTest.java:");
        final int deadlock = err.indexOf("then the run was ended at ");
        assertTrue(thrown == 0 && frame > thrown && deadlock > frame, err);
        assertTrue(err.contains("job 0 rank 0: BLOCKED, clock "), err);
        assertTrue(err.contains(", in Elan3Context.waitEventWord, called at " + HERE + "$ThrowThenBlock.main(PrunCommandTest.java:"),
            err);
        assertTrue(err.contains("waits for elan3_waitevent_word on event 0x"), err);
    }

    @Test
    void shouldEndAJobAtTheSimulatedTimeLimitWithWhereEachRankIs()
    {
        final String[] r = prun("-n", "3", "--max-sim-us", "20", HERE + "$Forever");
        assertEquals("1", r[0], r[2]);
        assertTrue(r[2].startsWith("prun: simulated time limit of 20.000 us reached (the job has not finished); where each rank is:\n"),
            r[2]);
        assertTrue(r[2].contains("  job 0 rank 0: BLOCKED, clock "), r[2]);
        assertTrue(r[2].contains("  job 0 rank 1: RUNNING, clock 20.000 us, in SimProcess.compute, called at " + HERE
            + "$Forever.main(PrunCommandTest.java:"), r[2]);
    }

    @Test
    void shouldEndAJobByTheWallClockTimeoutWithWhereEachRankIs()
    {
        final String[] r = prun("-n", "3", "--timeout", "0.3", HERE + "$Forever");
        assertEquals("1", r[0], r[2]);
        assertTrue(r[2].startsWith("prun: watchdog (a wall-clock safety net, not a result): the run took more than 300 ms"), r[2]);
        assertTrue(r[2].contains("  job 0 rank 0: BLOCKED, clock "), r[2]);
        assertTrue(r[2].contains("  job 0 rank 2: RUNNING, clock "), r[2]);
    }

    @Test
    void shouldRejectAProgramThatIsNotThereOrInTheLibrary()
    {
        final String[] missing = prun("-n", "2", "org.example.NoSuchProgram");
        assertEquals("2", missing[0]);
        assertEquals("prun: MAIN-CLASS org.example.NoSuchProgram is not on the class path (add it with CLASSPATH)\n", missing[2]);
        final String[] library = prun("-n", "2", "org.qsnet.elan3.Elan3lib");
        assertEquals("2", library[0]);
        assertTrue(library[2].contains("is in a package of the emulator's library or the JDK"), library[2]);
    }
}
