package org.qsnet.bench.traffic;

/**
 * The measured outcome of one offered load.
 *
 * @param pattern          the workload's label.
 * @param nodes            active nodes.
 * @param offeredLoad      offered load per sending node, fraction of the injection limit.
 * @param generatedLoad    load actually generated during the window by the measured senders
 *                         (random arrivals).
 * @param acceptedLoad     payload delivered per sending node, fraction of the injection limit
 *                         (for {@code combined}: the compute job's).
 * @param aggregateMBs     payload delivered in total, MB/s (10^6 B/s).
 * @param perNodeMinMBs    smallest per-sender delivered bandwidth, MB/s.
 * @param perNodeMeanMBs   mean per-sender delivered bandwidth, MB/s.
 * @param perNodeMaxMBs    largest per-sender delivered bandwidth, MB/s.
 * @param meanLatencyUs    mean message latency (generation to last byte delivered), us.
 * @param messages         messages completed in the window.
 * @param otherJobMBs      combined only: the I/O job's delivered bandwidth, MB/s; else 0.
 * @param linkErrors       CRC retries, out-of-order refusals and discarded duplicates of the run
 *                         (non-zero only with {@code crcErrorRate} set).
 */
public record TrafficPoint(
    String pattern,
    int nodes,
    double offeredLoad,
    double generatedLoad,
    double acceptedLoad,
    double aggregateMBs,
    double perNodeMinMBs,
    double perNodeMeanMBs,
    double perNodeMaxMBs,
    double meanLatencyUs,
    long messages,
    double otherJobMBs,
    org.qsnet.fabric.model.LinkErrorStats linkErrors)
{
}
