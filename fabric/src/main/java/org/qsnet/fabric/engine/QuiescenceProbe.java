package org.qsnet.fabric.engine;

/**
 * Whether the whole run was quiescent at one event, and how many process resumptions it had seen
 * there: the evidence a component that retries for ever (the NIC's hardware-barrier test, a queued
 * DMA to a full queue) needs to know that its retries can never succeed.
 *
 * <p>The event is scheduled with {@link Origin#scheduleProbed(long, EventHandler)}. In one JVM the
 * answer is complete as the event runs: the kernel looks at its own queue. In a partitioned run
 * every other partition holds events of the same run, and it answers at the same key of the
 * event order: the owner ships the probe's key when it schedules the event (at least the
 * lookahead ahead, so every partition has it before its window), each other partition runs a
 * probe event under that key and ships its own answer back, and the answers arrive at the end of
 * that window. A component therefore decides from probes of <em>earlier</em> events, whose answers
 * are in by then, never from the one running: the same decision, at the same event, however the
 * run is partitioned.
 */
public final class QuiescenceProbe
{
    final long timeNs;
    final int originId;
    final long seq;
    private int answersMissing;
    private boolean quiescent = true;
    private long resumes;
    private long progress;
    private int pendingResumes;

    QuiescenceProbe(final long timeNs, final int originId, final long seq, final int partitions)
    {
        this.timeNs = timeNs;
        this.originId = originId;
        this.seq = seq;
        this.answersMissing = partitions;
    }

    /**
     * One partition's answer: whether it had nothing pending there, its resumptions and progress
     * so far, and its resumptions queued.
     */
    void answer(final boolean quiescentThere, final long resumesThere, final long progressThere,
        final int pendingResumesThere)
    {
        if (answersMissing == 0)
        {
            throw new org.qsnet.fabric.QsnetException("probe at " + timeNs + " ns of origin " + originId
                + " answered more often than there are partitions");
        }
        answersMissing--;
        quiescent &= quiescentThere;
        resumes += resumesThere;
        progress += progressThere;
        pendingResumes += pendingResumesThere;
    }

    /**
     * @return whether every partition has answered (in one JVM: once the event has run).
     */
    public boolean complete()
    {
        return answersMissing == 0;
    }

    /**
     * @return whether nothing at all was pending anywhere besides the probed event: no event
     *         queued or reserved, none shipped between partitions. Valid once {@link #complete()}.
     */
    public boolean quiescent()
    {
        return quiescent;
    }

    /**
     * @return the process resumptions the run had seen at the probed event, summed over the
     *         partitions (each partition's count only grows, so two probes with the same sum saw
     *         no process run in between anywhere). Valid once {@link #complete()}.
     */
    public long resumes()
    {
        return resumes;
    }

    /**
     * @return the steps of the model a waiting process could observe other than through a process
     *         ({@link Kernel#noteProgress()}: packets accepted) the run had counted at the probed
     *         event, summed over the partitions. Valid once {@link #complete()}.
     */
    public long progress()
    {
        return progress;
    }

    /**
     * @return process resumptions queued at the probed event anywhere (processes computing, or
     *         woken and about to run). Valid once {@link #complete()}.
     */
    public int pendingResumes()
    {
        return pendingResumes;
    }

    /**
     * @return the probed event's time, ns.
     */
    public long timeNs()
    {
        return timeNs;
    }

    @Override
    public String toString()
    {
        return "probe(" + timeNs + " ns, origin " + originId + ", seq " + seq + (complete()
            ? (quiescent ? ", quiescent" : ", busy") + ", resumes " + resumes : ", " + answersMissing + " answers missing") + ")";
    }
}
