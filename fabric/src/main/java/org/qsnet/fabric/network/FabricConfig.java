package org.qsnet.fabric.network;

import org.qsnet.fabric.QsnetException;

/**
 * Every parameter of the switch fabric, immutable. Defaults are the Elite and QM-400 link
 * figures of CALIBRATION.md.
 *
 * @param k                     arity of the fat tree (4 for the Elite).
 * @param dim                   dimension, 1..6.
 * @param linkPsPerByte         link time per byte in picoseconds: 2500 = 400 MB/s per direction.
 * @param wireDelayNs           propagation delay of one link (cable and link logic), ns.
 * @param switchDelayNs         Elite flow-through latency, ns (35).
 * @param virtualChannels       virtual channels per link direction (2).
 * @param maxPayloadBytes       payload per data packet: 5 write-block transactions of 64 B (320).
 * @param packetOverheadBytes   route, transaction headers, CRCs and EOP of a packet (58).
 * @param packetGapNs           idle time of a link between two packet bodies (flow control, route
 *                              set-up): 10 ns makes full packets 955 ns apart, the measured 335 MB/s.
 * @param ackTurnaroundNs       time at the destination between the tail and the ack leaving,
 *                              when the endpoint adds nothing of its own.
 * @param adaptiveAscent        least-loaded up link of the group (true) or destination-digit up
 *                              links (false, for comparison).
 * @param agingNs               a waiting low-priority header is served as high priority after
 *                              this long (0 = no aging).
 * @param crcErrorRate          probability that a packet arrives corrupted (CRC error) and is
 *                              retransmitted, 0..1.
 * @param seed                  seed of every random stream of the fabric.
 * @param analyticTiming        {@code --timing analytic}: a packet's times come from a LogGP-style
 *                              formula of these parameters (path latency, the source link's
 *                              serialisation, no contention anywhere else) instead of the wormhole
 *                              model; for functional runs at scale, labelled as such.
 */
public record FabricConfig(
    int k,
    int dim,
    long linkPsPerByte,
    long wireDelayNs,
    long switchDelayNs,
    int virtualChannels,
    int maxPayloadBytes,
    int packetOverheadBytes,
    long packetGapNs,
    long ackTurnaroundNs,
    boolean adaptiveAscent,
    long agingNs,
    double crcErrorRate,
    long seed,
    boolean analyticTiming)
{
    /**
     * Validates every parameter.
     */
    public FabricConfig
    {
        QsnetException.require(k >= 2 && k <= Topology.MAX_K, "k", k, "must be in 2.." + Topology.MAX_K);
        QsnetException.require(dim >= 1 && dim <= Topology.MAX_DIM, "dim", dim, "must be in 1.." + Topology.MAX_DIM);
        QsnetException.require(linkPsPerByte >= 1, "linkPsPerByte", linkPsPerByte, "must be at least 1");
        QsnetException.require(wireDelayNs >= 0, "wireDelayNs", wireDelayNs, "must be at least 0");
        QsnetException.require(switchDelayNs >= 0, "switchDelayNs", switchDelayNs, "must be at least 0");
        QsnetException.require(virtualChannels >= 1 && virtualChannels <= 8, "virtualChannels", virtualChannels,
            "must be in 1..8");
        QsnetException.require(maxPayloadBytes >= 1, "maxPayloadBytes", maxPayloadBytes, "must be at least 1");
        QsnetException.require(packetOverheadBytes >= 0, "packetOverheadBytes", packetOverheadBytes, "must be at least 0");
        QsnetException.require(packetGapNs >= 0, "packetGapNs", packetGapNs, "must be at least 0");
        QsnetException.require(ackTurnaroundNs >= 0, "ackTurnaroundNs", ackTurnaroundNs, "must be at least 0");
        QsnetException.require(agingNs >= 0, "agingNs", agingNs, "must be at least 0");
        QsnetException.require(crcErrorRate >= 0 && crcErrorRate < 1, "crcErrorRate", crcErrorRate, "must be in [0, 1)");
    }

    /**
     * The Elite / QM-400 defaults for a 4-ary tree of the given dimension.
     *
     * @param dim 1..6.
     * @return the configuration.
     */
    public static FabricConfig elite(final int dim)
    {
        return new FabricConfig(4, dim, 2500, 20, 35, 2, 320, 58, 10, 20, true, 0, 0.0, 1, false);
    }

    /**
     * @param v new arity.
     * @return a copy with {@code k} replaced.
     */
    public FabricConfig withK(final int v)
    {
        return new FabricConfig(v, dim, linkPsPerByte, wireDelayNs, switchDelayNs, virtualChannels, maxPayloadBytes,
            packetOverheadBytes, packetGapNs, ackTurnaroundNs, adaptiveAscent, agingNs, crcErrorRate, seed, analyticTiming);
    }

    /**
     * @param v new dimension.
     * @return a copy with {@code dim} replaced.
     */
    public FabricConfig withDim(final int v)
    {
        return new FabricConfig(k, v, linkPsPerByte, wireDelayNs, switchDelayNs, virtualChannels, maxPayloadBytes,
            packetOverheadBytes, packetGapNs, ackTurnaroundNs, adaptiveAscent, agingNs, crcErrorRate, seed, analyticTiming);
    }

    /**
     * @param v virtual channels per link direction.
     * @return a copy with {@code virtualChannels} replaced.
     */
    public FabricConfig withVirtualChannels(final int v)
    {
        return new FabricConfig(k, dim, linkPsPerByte, wireDelayNs, switchDelayNs, v, maxPayloadBytes,
            packetOverheadBytes, packetGapNs, ackTurnaroundNs, adaptiveAscent, agingNs, crcErrorRate, seed, analyticTiming);
    }

    /**
     * @param v adaptive (true) or deterministic (false) ascent.
     * @return a copy with {@code adaptiveAscent} replaced.
     */
    public FabricConfig withAdaptiveAscent(final boolean v)
    {
        return new FabricConfig(k, dim, linkPsPerByte, wireDelayNs, switchDelayNs, virtualChannels, maxPayloadBytes,
            packetOverheadBytes, packetGapNs, ackTurnaroundNs, v, agingNs, crcErrorRate, seed, analyticTiming);
    }

    /**
     * @param v CRC error probability per packet.
     * @return a copy with {@code crcErrorRate} replaced.
     */
    public FabricConfig withCrcErrorRate(final double v)
    {
        return new FabricConfig(k, dim, linkPsPerByte, wireDelayNs, switchDelayNs, virtualChannels, maxPayloadBytes,
            packetOverheadBytes, packetGapNs, ackTurnaroundNs, adaptiveAscent, agingNs, v, seed, analyticTiming);
    }

    /**
     * @param v the seed.
     * @return a copy with {@code seed} replaced.
     */
    public FabricConfig withSeed(final long v)
    {
        return new FabricConfig(k, dim, linkPsPerByte, wireDelayNs, switchDelayNs, virtualChannels, maxPayloadBytes,
            packetOverheadBytes, packetGapNs, ackTurnaroundNs, adaptiveAscent, agingNs, crcErrorRate, v, analyticTiming);
    }

    /**
     * @param v wire delay per link, ns.
     * @return a copy with {@code wireDelayNs} replaced.
     */
    public FabricConfig withWireDelayNs(final long v)
    {
        return new FabricConfig(k, dim, linkPsPerByte, v, switchDelayNs, virtualChannels, maxPayloadBytes,
            packetOverheadBytes, packetGapNs, ackTurnaroundNs, adaptiveAscent, agingNs, crcErrorRate, seed, analyticTiming);
    }

    /**
     * @param v aging threshold, ns (0 = none).
     * @return a copy with {@code agingNs} replaced.
     */
    public FabricConfig withAgingNs(final long v)
    {
        return new FabricConfig(k, dim, linkPsPerByte, wireDelayNs, switchDelayNs, virtualChannels, maxPayloadBytes,
            packetOverheadBytes, packetGapNs, ackTurnaroundNs, adaptiveAscent, v, crcErrorRate, seed, analyticTiming);
    }

    /**
     * @param v whether packet times come from the analytic model ({@code --timing analytic}).
     * @return a copy with {@code analyticTiming} replaced.
     */
    public FabricConfig withAnalyticTiming(final boolean v)
    {
        return new FabricConfig(k, dim, linkPsPerByte, wireDelayNs, switchDelayNs, virtualChannels, maxPayloadBytes,
            packetOverheadBytes, packetGapNs, ackTurnaroundNs, adaptiveAscent, agingNs, crcErrorRate, seed, v);
    }

    /**
     * The record's form, with {@code timing=analytic} at the end only in that mode (so the
     * exact mode's reports read as they always did).
     */
    @Override
    public String toString()
    {
        return "FabricConfig[k=" + k + ", dim=" + dim + ", linkPsPerByte=" + linkPsPerByte + ", wireDelayNs=" + wireDelayNs
            + ", switchDelayNs=" + switchDelayNs + ", virtualChannels=" + virtualChannels + ", maxPayloadBytes="
            + maxPayloadBytes + ", packetOverheadBytes=" + packetOverheadBytes + ", packetGapNs=" + packetGapNs
            + ", ackTurnaroundNs=" + ackTurnaroundNs + ", adaptiveAscent=" + adaptiveAscent + ", agingNs=" + agingNs
            + ", crcErrorRate=" + crcErrorRate + ", seed=" + seed + (analyticTiming ? ", timing=analytic" : "") + "]";
    }

    /**
     * Time a packet of {@code wireBytes} occupies a link direction, rounded up to whole ns.
     *
     * @param wireBytes bytes on the wire, overhead included.
     * @return ns.
     */
    public long serializationNs(final int wireBytes)
    {
        return (wireBytes * linkPsPerByte + 999) / 1000;
    }

    /**
     * @return peak payload bandwidth of one link direction with full packets, bytes per second.
     */
    public double peakPayloadBytesPerSecond()
    {
        return maxPayloadBytes * 1e9 / (serializationNs(maxPayloadBytes + packetOverheadBytes) + packetGapNs);
    }
}
