package org.qsnet.bench.traffic;

import java.util.Locale;

import org.qsnet.fabric.QsnetException;

/**
 * The traffic workloads of the published 64-node experiments.
 */
public enum Pattern
{
    /** Each node picks a random destination (not itself) per message. */
    UNIFORM("uniform"),
    /** Fixed partner: the node's bits reversed. */
    BIT_REVERSAL("bit-reversal"),
    /** Fixed partner: most and least significant bits swapped. */
    BUTTERFLY("butterfly"),
    /** Fixed partner: every bit complemented. */
    COMPLEMENT("complement"),
    /** Fixed partner: the two halves of the bits swapped (a rotation by half for an odd count). */
    TRANSPOSE("transpose"),
    /** Fixed partner: the bits rotated left by one. */
    PERFECT_SHUFFLE("perfect-shuffle"),
    /** Fixed partner: pairs 2i and 2i+1. */
    NEIGHBOR("neighbor"),
    /** Every other node writes to (or reads from) one node. */
    HOTSPOT("hotspot"),
    /** A set of I/O nodes targeted by the others. */
    MULTI_HOTSPOT("multi-hotspot"),
    /** An I/O job (multi-hotspot) and a compute job (uniform) on halves of one fabric. */
    COMBINED("combined");

    private final String label;

    Pattern(final String label)
    {
        this.label = label;
    }

    /**
     * @return the name used on the command line and in reports.
     */
    public String label()
    {
        return label;
    }

    /**
     * @return whether every node has one fixed partner.
     */
    public boolean isPermutation()
    {
        return ordinal() >= BIT_REVERSAL.ordinal() && ordinal() <= NEIGHBOR.ordinal();
    }

    /**
     * @param text a label such as {@code "bit-reversal"}.
     * @return the pattern.
     */
    public static Pattern parse(final String text)
    {
        for (final Pattern p : values())
        {
            if (p.label.equals(text.toLowerCase(Locale.ROOT)))
            {
                return p;
            }
        }
        final StringBuilder sb = new StringBuilder();
        for (final Pattern p : values())
        {
            sb.append(sb.length() == 0 ? "" : ", ").append(p.label);
        }
        throw new QsnetException("pattern '" + text + "' is not one of: " + sb);
    }

    /**
     * The fixed partner of a node under a permutation.
     *
     * @param node  the node, 0..nodes-1.
     * @param nodes a power of two.
     * @return the partner.
     */
    public int partner(final int node, final int nodes)
    {
        QsnetException.require(Integer.bitCount(nodes) == 1 && nodes >= 2, "nodes", nodes,
            "must be a power of two for permutation " + label);
        final int b = Integer.numberOfTrailingZeros(nodes);
        final int mask = nodes - 1;
        switch (this)
        {
            case BIT_REVERSAL:
                return Integer.reverse(node) >>> (32 - b);
            case BUTTERFLY:
            {
                final int hi = (node >> (b - 1)) & 1;
                final int lo = node & 1;
                int r = node & ~(1 << (b - 1)) & ~1;
                r |= lo << (b - 1);
                r |= hi;
                return r;
            }
            case COMPLEMENT:
                return ~node & mask;
            case TRANSPOSE:
            {
                final int h = b / 2;
                return ((node << h) | (node >>> (b - h))) & mask;
            }
            case PERFECT_SHUFFLE:
                return ((node << 1) | (node >>> (b - 1))) & mask;
            case NEIGHBOR:
                return node ^ 1;
            default:
                throw new QsnetException("pattern " + label + " has no fixed partner");
        }
    }

    @Override
    public String toString()
    {
        return label;
    }
}
