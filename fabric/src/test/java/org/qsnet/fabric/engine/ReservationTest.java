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
        a.reserve(r, 10, t -> order.add("reserved"));
        a.schedule(10, t -> order.add("x"));
        b.schedule(10, t -> order.add("y"));
        // scheduled after x, but reserved before it: it runs first, as it would have if scheduled then
        r.schedule();
        k.run();
        assertEquals(List.of("reserved", "x", "y"), order);
        assertFalse(r.held());
    }

    @Test
    void shouldTakeInKeyOrderTheReservedEventsThatOrderBeforeTheEventRunning()
    {
        final Kernel k = new Kernel();
        final Origin low = k.origin(0, "low");
        final Origin a = k.origin(1, "a");
        final Origin high = k.origin(2, "high");
        final List<String> seen = new ArrayList<>();
        final Reservation r1 = a.newReservation();
        final Reservation r2 = a.newReservation();
        final Reservation r3 = a.newReservation();
        a.reserve(r2, 5, t -> seen.add("r2 at " + t));
        a.reserve(r1, 3, t -> seen.add("r1 at " + t));
        a.reserve(r3, 6, t -> seen.add("r3 at " + t));
        low.schedule(5, t ->
        {
            a.catchUp();
            seen.add("low at 5");
        });
        high.schedule(5, t ->
        {
            a.catchUp();
            seen.add("high at 5");
        });
        k.runUntil(5);
        // r1 orders before low's event; r2 (origin 1 at 5) after it and before high's; r3 is due later
        assertEquals(List.of("r1 at 3", "low at 5", "r2 at 5", "high at 5"), seen);
        assertTrue(r3.held());
        k.runUntil(6);
        assertEquals("r3 at 6", seen.get(seen.size() - 1), "taken at the end of the run that reaches its time");
        assertFalse(r3.held());
    }

    @Test
    void shouldTakeDueReservedEventsBeforeItsOriginSchedulesAnything()
    {
        final Kernel k = new Kernel();
        final Origin a = k.origin(1, "a");
        final Origin b = k.origin(2, "b");
        final List<String> order = new ArrayList<>();
        final Reservation r = a.newReservation();
        final Reservation next = a.newReservation();
        // the reserved event reserves its successor, as a chain of events would schedule it
        a.reserve(r, 4, t -> a.reserve(next, 10, u -> order.add("next")));
        b.schedule(6, t -> a.schedule(10, u -> order.add("scheduled at 6")));
        b.schedule(7, t -> next.schedule());
        k.run();
        // the successor was reserved at 4, before a's event scheduled at 6: it runs first at 10
        assertEquals(List.of("next", "scheduled at 6"), order);
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

    private static long[] run(final boolean reserve)
    {
        final Kernel k = new Kernel();
        final Origin a = k.origin(1, "a");
        final Origin b = k.origin(2, "b");
        final Reservation r = a.newReservation();
        a.schedule(3, t -> { });
        if (reserve)
        {
            a.reserve(r, 7, t -> { });
            b.schedule(9, t -> a.catchUp());
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
        a.reserve(r, 10, t -> order.add("second"));
        // the rank limit is reached here: pending ranks and the held one are renumbered
        a.schedule(10, t -> order.add("third"));
        a.schedule(10, t -> order.add("fourth"));
        r.schedule();
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
        a.reserve(r, 5, t -> { });
        b.schedule(6, t -> caught.add(assertThrows(RuntimeException.class, r::schedule)));
        k.runUntil(6);
        assertEquals(1, caught.size());
        assertTrue(caught.get(0).getMessage().contains("take it"), caught.get(0).getMessage());
    }

    /**
     * {@link Kernel#quiescent()} counts a reservation ordering after what runs now as pending work,
     * and one ordering before it (happened, taken lazily by its owner) as none (it looked at the
     * origins that had ever reserved, so a run that had reserved once was never quiescent again, and
     * the NIC's barrier retries could not end a deadlock there).
     */
    @Test
    void shouldBeQuiescentOnlyWhenNoEventIsQueuedOrReserved()
    {
        final Kernel k = new Kernel();
        final Origin a = k.origin(1, "a");
        final Origin b = k.origin(2, "b");
        final List<Boolean> seen = new ArrayList<>();
        final Reservation r = a.newReservation();
        a.reserve(r, 30, t -> { });
        b.schedule(20, t -> seen.add(k.quiescent()));
        k.runUntil(25);
        b.schedule(40, t -> seen.add(k.quiescent()));
        k.run();
        assertFalse(r.held());
        assertEquals(List.of(false, true), seen, "at 20 the reservation at 30 is pending; at 40 nothing is");
    }
}
