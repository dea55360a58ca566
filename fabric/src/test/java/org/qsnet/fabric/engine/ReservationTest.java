package org.qsnet.fabric.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

class ReservationTest
{
    @Test
    void shouldRunAReservedEventAtTheKeyItWasReservedUnder()
    {
        final Kernel k = new Kernel();
        final Origin a = k.origin(1, "a");
        final Origin b = k.origin(2, "b");
        final List<String> order = new ArrayList<>();
        final Reservation r = a.newReservation();
        a.reserve(r, 10);
        a.schedule(10, t -> order.add("x"));
        b.schedule(10, t -> order.add("y"));
        // scheduled after x, but reserved before it: it runs first, as it would have if scheduled then
        r.schedule(t -> order.add("reserved"));
        k.run();
        assertEquals(List.of("reserved", "x", "y"), order);
        assertFalse(r.held());
    }

    @Test
    void shouldTellWhetherTheReservedEventOrdersBeforeTheEventRunning()
    {
        final Kernel k = new Kernel();
        final Origin low = k.origin(0, "low");
        final Origin a = k.origin(1, "a");
        final Origin high = k.origin(2, "high");
        final Reservation r = a.newReservation();
        final List<String> seen = new ArrayList<>();
        a.reserve(r, 5);
        low.schedule(5, t -> seen.add("low " + r.precedesCurrentEvent()));
        low.schedule(4, t -> seen.add("early " + r.precedesCurrentEvent()));
        high.schedule(5, t ->
        {
            seen.add("high " + r.precedesCurrentEvent());
            seen.add("took " + r.take());
            seen.add("after " + r.precedesCurrentEvent());
        });
        k.run();
        assertEquals(List.of("early false", "low false", "high true", "took 5", "after false"), seen);
    }

    @Test
    void shouldCountATakenEventInTheDigestAsTheDispatchedEvent()
    {
        final long[] dispatched = run(false);
        final long[] taken = run(true);
        assertEquals(dispatched[0], taken[0], "digest of event keys");
        assertEquals(dispatched[1], taken[1], "events in the digest");
        assertEquals(dispatched[2] - 1, taken[2], "one event fewer dispatched");
    }

    private static long[] run(final boolean take)
    {
        final Kernel k = new Kernel();
        final Origin a = k.origin(1, "a");
        final Origin b = k.origin(2, "b");
        final Reservation r = a.newReservation();
        a.schedule(3, t -> { });
        if (take)
        {
            a.reserve(r, 7);
            b.schedule(9, t -> r.take());
        }
        else
        {
            a.schedule(7, t -> { });
            b.schedule(9, t -> { });
        }
        a.schedule(8, t -> { });
        k.run();
        return new long[] {k.traceSum(), k.tracedEvents(), k.eventCount()};
    }

    @Test
    void shouldKeepAHeldKeyInOrderWhenTheQueueRenumbersItsRanks()
    {
        final Kernel k = new Kernel();
        final Origin a = k.origin(1, "a");
        final List<String> order = new ArrayList<>();
        final Reservation r = a.newReservation();
        k.setNextRankForTest((1L << 32) - 2);
        a.schedule(10, t -> order.add("first"));
        a.reserve(r, 10);
        // the rank limit is reached here: pending ranks and the held one are renumbered
        a.schedule(10, t -> order.add("third"));
        a.schedule(10, t -> order.add("fourth"));
        r.schedule(t -> order.add("second"));
        k.run();
        assertEquals(List.of("first", "second", "third", "fourth"), order);
    }

    @Test
    void shouldRefuseToScheduleAReservedEventThatOrdersBeforeTheEventRunning()
    {
        final Kernel k = new Kernel();
        final Origin a = k.origin(1, "a");
        final Origin b = k.origin(2, "b");
        final Reservation r = a.newReservation();
        final List<Throwable> caught = new ArrayList<>();
        a.reserve(r, 5);
        b.schedule(6, t -> caught.add(assertThrows(RuntimeException.class, () -> r.schedule(x -> { }))));
        k.run();
        assertEquals(1, caught.size());
        assertTrue(caught.get(0).getMessage().contains("take it instead"), caught.get(0).getMessage());
        assertTrue(r.held(), "the refused event is still held, to be taken");
    }
}
