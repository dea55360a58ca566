package mpi;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * A collective run as a schedule (libNBC's model): a list of rounds, each a set of non-blocking
 * Tports sends and receives, with local work (reductions, copies) between rounds. A non-blocking
 * collective builds its schedule, starts round 0 and returns the schedule as its request; the
 * schedule then advances whenever the rank makes an MPI call (test, wait, any other call: see
 * {@link Rank#enter()}), so the rank may compute while the NICs move round 0's messages and match
 * receives. Intercommunicator collectives run as schedules too (their blocking forms start one and
 * wait for it).
 *
 * <pre>
 *  call: build rounds, take a tag ──► start round 0 ──► return
 *  test / wait / any MPI call:
 *    every send and receive of round k complete? ──► receive sinks run (in posting order:
 *    reductions, charged as the blocking algorithms charge them) ──► round k+1 starts
 *    ... no round left ──► the finisher unpacks into the user's buffers ──► complete
 * </pre>
 *
 * <p>Tags: a schedule takes the communicator's next collective sequence number as its tag, on
 * the collective context, so concurrent collectives and point-to-point never match each other's
 * messages. MPI requires every rank to start the collectives of a communicator in the same order,
 * which makes the numbers agree. Within one schedule, messages between one pair of ranks are
 * matched in the order sent (Tports' order), which is the order of the rounds.
 */
final class Schedule extends Request
{
    /** One round: it issues its sends and receives (and may first do local work). */
    @FunctionalInterface
    interface Round
    {
        void start(Schedule s) throws MPIException;
    }

    /** Takes a received message once its round is complete. */
    @FunctionalInterface
    interface Sink
    {
        void accept(byte[] data) throws MPIException;
    }

    /** Local work at the end of the schedule (unpacking results into user buffers). */
    @FunctionalInterface
    interface Step
    {
        void run() throws MPIException;
    }

    private static final byte[] EMPTY = new byte[0];

    final int tag;
    private final String what;
    private final ArrayDeque<Round> rounds = new ArrayDeque<>();
    private final List<Request> inFlight = new ArrayList<>();
    private final List<Sink> sinks = new ArrayList<>();
    private Step finisher;
    private boolean done;

    Schedule(final CommState comm, final String what)
    {
        super(comm);
        this.tag = comm.nextCollTag();
        this.what = what;
    }

    /** Appends a round. */
    Schedule then(final Round r)
    {
        rounds.addLast(r);
        return this;
    }

    /** Sets the work done once every round is complete. */
    Schedule last(final Step f)
    {
        finisher = f;
        return this;
    }

    /** In a round: sends {@code data} to {@code peer} of {@code via} (a communicator, or an intercommunicator's local group). */
    void send(final CommState via, final int peer, final byte[] data)
    {
        inFlight.add(via.sendWire(via.context + 1, data == null ? EMPTY : data, peer, tag, false));
        sinks.add(null);
    }

    /** In a round: receives at most {@code max} bytes from {@code peer} of {@code via}; {@code sink} (may be null) takes them. */
    void recv(final CommState via, final int peer, final int max, final Sink sink)
    {
        inFlight.add(via.recvWire(via.context + 1, max, peer, tag));
        sinks.add(sink);
    }

    /** Starts round 0 (and every round that has nothing to wait for) and registers the schedule with its rank. */
    Schedule start() throws MPIException
    {
        comm.rank.schedules.add(this);
        if (!progress())
        {
            return this;
        }
        if (failure != null)
        {
            // a collective that fails at once fails its call, as the blocking form would
            final MPIException f = failure;
            failure = null;
            status = Status.empty();
            throw f;
        }
        return this;
    }

    /**
     * Advances the schedule as far as it goes without waiting: tests the current round's
     * operations (a poll each, as {@code MPI_Test} does) and starts the next rounds.
     *
     * @return whether the schedule is complete (or failed).
     */
    boolean progress()
    {
        try
        {
            while (!done)
            {
                for (final Request r : inFlight)
                {
                    if (!r.poll())
                    {
                        return false;
                    }
                }
                endRound();
                final Round next = rounds.pollFirst();
                if (next == null)
                {
                    if (finisher != null)
                    {
                        finisher.run();
                    }
                    finish(null);
                    return true;
                }
                next.start(this);
            }
            return true;
        }
        catch (final MPIException e)
        {
            finish(e);
            return true;
        }
    }

    private void endRound() throws MPIException
    {
        for (int i = 0; i < inFlight.size(); i++)
        {
            final Request r = inFlight.get(i);
            r.block();
            final Sink k = sinks.get(i);
            if (k != null)
            {
                k.accept(r.received);
            }
        }
        inFlight.clear();
        sinks.clear();
    }

    private void finish(final MPIException e)
    {
        done = true;
        comm.rank.schedules.remove(this);
        if (e != null)
        {
            failure = new MPIException(e.getErrorClass(), what + " on " + comm + ": " + e.getMessage());
        }
        else
        {
            status = Status.empty();
        }
    }

    @Override
    boolean poll() throws MPIException
    {
        return status != null || failure != null || progress();
    }

    @Override
    Status block() throws MPIException
    {
        while (!progress())
        {
            if (comm.rank.schedules.size() > 1)
            {
                // other schedules may be what this one waits for (at this rank or, through their
                // messages, at another): advance them all, then park until an operation of any of
                // them completes (a deadlock report then names them all)
                comm.rank.progressSchedules();
                if (status != null || failure != null)
                {
                    break;
                }
                comm.rank.parkOnAny(new ArrayList<>(), this);
                continue;
            }
            // only this one: park on its first outstanding operation (a parked rank is what a
            // deadlock report sees)
            for (final Request r : inFlight)
            {
                if (r.status == null && r.failure == null)
                {
                    r.awaitCompletion();
                    break;
                }
            }
        }
        return super.block();
    }

    /** Adds the send and receive events of the current round that have not completed. */
    void pendingEvents(final List<org.qsnet.elan.ElanEvent> out)
    {
        for (final Request r : inFlight)
        {
            if (r.status == null && r.failure == null)
            {
                if (r.tx != null)
                {
                    out.add(r.tx);
                }
                else if (r.rx != null)
                {
                    out.add(r.rx);
                }
            }
        }
    }

    @Override
    boolean pending()
    {
        return !done;
    }

    @Override
    public String toString()
    {
        return what + " on " + comm + " (collective tag " + tag + ")";
    }
}
