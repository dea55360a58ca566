package org.qsnet.fabric.transport;

import static org.qsnet.fabric.QsnetException.require;

import java.util.Arrays;

/**
 * Configuration of one transport endpoint: the job's id and key, this endpoint's partition, frame
 * limits and the heartbeat. Setters return the context for chaining; {@link #validate()} checks every
 * rule and is called by each transport when it opens.
 */
public final class TransportContext
{
    /** Default largest payload: 1 MiB. */
    public static final int DEFAULT_MAX_PAYLOAD_BYTES = 1 << 20;
    /** Default interval between heartbeats: 250 ms. */
    public static final long DEFAULT_HEARTBEAT_INTERVAL_MS = 250;
    /** Default silence after which a peer is declared dead: 3 s. */
    public static final long DEFAULT_HEARTBEAT_TIMEOUT_MS = 3_000;
    /** Default time allowed for all peers to connect and authenticate: 20 s. */
    public static final long DEFAULT_CONNECT_TIMEOUT_MS = 20_000;
    /** Shortest job key accepted: 16 bytes. */
    public static final int MIN_KEY_BYTES = 16;

    private long jobId;
    private byte[] jobKey;
    private int partition;
    private int partitionCount = 1;
    private int maxPayloadBytes = DEFAULT_MAX_PAYLOAD_BYTES;
    private long heartbeatIntervalMs = DEFAULT_HEARTBEAT_INTERVAL_MS;
    private long heartbeatTimeoutMs = DEFAULT_HEARTBEAT_TIMEOUT_MS;
    private long connectTimeoutMs = DEFAULT_CONNECT_TIMEOUT_MS;

    /**
     * Sets the job id: peers of another job are refused.
     *
     * @param jobId the job id.
     * @return this context.
     */
    public TransportContext jobId(final long jobId)
    {
        this.jobId = jobId;
        return this;
    }

    /**
     * Sets the job key, shared by every partition and never sent on the wire.
     *
     * @param jobKey at least {@link #MIN_KEY_BYTES} bytes (copied).
     * @return this context.
     */
    public TransportContext jobKey(final byte[] jobKey)
    {
        require(jobKey != null && jobKey.length >= MIN_KEY_BYTES, "jobKey length",
            jobKey == null ? "null" : jobKey.length, "must be at least " + MIN_KEY_BYTES + " bytes");
        this.jobKey = jobKey.clone();
        return this;
    }

    /**
     * Sets this endpoint's partition and the partition count.
     *
     * @param partition      this endpoint's partition.
     * @param partitionCount the number of partitions.
     * @return this context.
     */
    public TransportContext partition(final int partition, final int partitionCount)
    {
        require(partitionCount >= 1, "partitionCount", partitionCount, "must be at least 1");
        require(partition >= 0 && partition < partitionCount, "partition", partition,
            "must be in 0.." + (partitionCount - 1));
        this.partition = partition;
        this.partitionCount = partitionCount;
        return this;
    }

    /**
     * Sets the largest payload of a frame.
     *
     * @param maxPayloadBytes in 0..{@link FrameDescriptor#MAX_PAYLOAD_LIMIT}.
     * @return this context.
     */
    public TransportContext maxPayloadBytes(final int maxPayloadBytes)
    {
        require(maxPayloadBytes >= 0 && maxPayloadBytes <= FrameDescriptor.MAX_PAYLOAD_LIMIT, "maxPayloadBytes",
            maxPayloadBytes, "must be in 0.." + FrameDescriptor.MAX_PAYLOAD_LIMIT);
        this.maxPayloadBytes = maxPayloadBytes;
        return this;
    }

    /**
     * Sets the heartbeat: every {@code intervalMs} each endpoint shows it is alive; a peer silent
     * for {@code timeoutMs} is reported dead.
     *
     * @param intervalMs at least 10 ms.
     * @param timeoutMs  at least twice the interval.
     * @return this context.
     */
    public TransportContext heartbeat(final long intervalMs, final long timeoutMs)
    {
        require(intervalMs >= 10, "heartbeat intervalMs", intervalMs, "must be at least 10");
        require(timeoutMs >= 2 * intervalMs, "heartbeat timeoutMs", timeoutMs,
            "must be at least twice the interval " + intervalMs);
        this.heartbeatIntervalMs = intervalMs;
        this.heartbeatTimeoutMs = timeoutMs;
        return this;
    }

    /**
     * Sets the time allowed for every peer to connect and authenticate.
     *
     * @param connectTimeoutMs at least 1 ms.
     * @return this context.
     */
    public TransportContext connectTimeoutMs(final long connectTimeoutMs)
    {
        require(connectTimeoutMs >= 1, "connectTimeoutMs", connectTimeoutMs, "must be at least 1");
        this.connectTimeoutMs = connectTimeoutMs;
        return this;
    }

    /**
     * Checks that the job key is set (the other fields have valid defaults).
     *
     * @return this context.
     * @throws org.qsnet.fabric.QsnetException naming what is missing.
     */
    public TransportContext validate()
    {
        require(jobKey != null, "jobKey", "null", "must be set (the job's shared secret)");
        return this;
    }

    /**
     * The job id.
     *
     * @return the job id.
     */
    public long jobId()
    {
        return jobId;
    }

    /**
     * A copy of the job key.
     *
     * @return the key bytes, or null if unset.
     */
    public byte[] jobKey()
    {
        return jobKey == null ? null : Arrays.copyOf(jobKey, jobKey.length);
    }

    /**
     * This endpoint's partition.
     *
     * @return the partition.
     */
    public int partition()
    {
        return partition;
    }

    /**
     * The number of partitions.
     *
     * @return the count.
     */
    public int partitionCount()
    {
        return partitionCount;
    }

    /**
     * The largest payload of a frame.
     *
     * @return bytes.
     */
    public int maxPayloadBytes()
    {
        return maxPayloadBytes;
    }

    /**
     * The heartbeat interval.
     *
     * @return milliseconds.
     */
    public long heartbeatIntervalMs()
    {
        return heartbeatIntervalMs;
    }

    /**
     * The silence after which a peer is reported dead.
     *
     * @return milliseconds.
     */
    public long heartbeatTimeoutMs()
    {
        return heartbeatTimeoutMs;
    }

    /**
     * The time allowed for every peer to connect and authenticate.
     *
     * @return milliseconds.
     */
    public long connectTimeoutMs()
    {
        return connectTimeoutMs;
    }

    /**
     * A copy of this context for another partition of the same job.
     *
     * @param otherPartition the partition of the copy.
     * @return a new context.
     */
    public TransportContext forPartition(final int otherPartition)
    {
        final TransportContext c = new TransportContext();
        c.jobId = jobId;
        c.jobKey = jobKey;
        c.maxPayloadBytes = maxPayloadBytes;
        c.heartbeatIntervalMs = heartbeatIntervalMs;
        c.heartbeatTimeoutMs = heartbeatTimeoutMs;
        c.connectTimeoutMs = connectTimeoutMs;
        return c.partition(otherPartition, partitionCount);
    }
}
