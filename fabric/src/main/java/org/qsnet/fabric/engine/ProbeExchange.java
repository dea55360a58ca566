package org.qsnet.fabric.engine;

/**
 * What a partition's kernel needs from the rest of a partitioned run to answer
 * {@link QuiescenceProbe}s: a way to ship probes and answers to the other partitions, and whether
 * this partition has shipped work in the current window that another partition will run (that
 * work is pending, though not in this kernel's queue). The network's side of a partitioned run
 * implements it.
 */
public interface ProbeExchange
{
    /**
     * @return how many partitions the run has (each answers every probe).
     */
    int partitionCount();

    /**
     * @return the least distance, ns, between an event's scheduling and its time for the other
     *         partitions to receive its probe before their window reaches it (the lookahead).
     */
    long probeLeadNs();

    /**
     * Ships a probe to every other partition: each runs a probe event under this key.
     *
     * @param originId the probed event's origin.
     * @param seq      its sequence number there.
     * @param timeNs   its time.
     */
    void announceProbe(int originId, long seq, long timeNs);

    /**
     * Ships this partition's answer to a probe to the partition that owns it.
     *
     * @param originId  the probed event's origin.
     * @param seq       its sequence number there.
     * @param quiescent whether nothing was pending in this partition at that key.
     * @param resumes   this partition's process resumptions so far.
     * @param progress  this partition's {@link Kernel#progressCount()} there.
     * @param pendingResumes this partition's {@link Kernel#pendingResumes()} there.
     */
    void answerProbe(int originId, long seq, boolean quiescent, long resumes, long progress, int pendingResumes);

    /**
     * @return whether this partition shipped, in the window running, events (or answers that
     *         schedule events at its end) that other partitions will run.
     */
    boolean shippedWorkPending();
}
