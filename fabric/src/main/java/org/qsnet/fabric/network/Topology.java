package org.qsnet.fabric.network;

import org.qsnet.fabric.QsnetException;

/**
 * A k-ary n-tree: {@code k^n} nodes and {@code n * k^(n-1)} switches in {@code n} levels.
 *
 * <p>Numbering follows the k-ary n-tree literature (Petrini and Vanneschi). A node is an
 * n-digit base-k word {@code p = p(n-1) .. p(0)}. A switch is a pair {@code <w, l>}: a level
 * {@code l} in {@code 1..n} (1 = the leaves, next to the nodes; n = the top) and an
 * (n-1)-digit word {@code w}. Node {@code p} hangs off down port {@code p(0)} of leaf switch
 * {@code <p div k, 1>}. Up port {@code j} of {@code <w, l>} leads to {@code <w', l+1>}, where
 * {@code w'} is {@code w} with digit {@code l-1} replaced by {@code j}; it arrives there on down
 * port {@code w(l-1)}. So the subtree under a level-l switch is the contiguous block of
 * {@code k^l} nodes whose digits {@code p(n-1)..p(l)} equal {@code w(n-2)..w(l-1)}.
 *
 * <pre>
 *  n = 2, k = 4:         level 2   <0,2> <1,2> <2,2> <3,2>
 *                                     \  every leaf has one up link to each /
 *                        level 1   <0,1> <1,1> <2,1> <3,1>
 *                                   ||||  ||||  ||||  ||||
 *                        nodes      0..3  4..7  8..11 12..15
 * </pre>
 *
 * <p>Switch ids: {@code (l - 1) * k^(n-1) + w}.
 */
public final class Topology
{
    /** Largest supported arity (an Elite has 8 ports: k down + k up, so 4 for the real switch). */
    public static final int MAX_K = 8;
    /** Largest supported dimension. */
    public static final int MAX_DIM = 6;
    /** Largest supported network. */
    public static final int MAX_NODES = 65_536;

    private final int k;
    private final int n;
    private final int nodes;
    private final int switchesPerLevel;
    private final int[] pow;
    /** log2 of the arity when it is a power of two (digits by shift and mask), else -1. */
    private final int kBits;

    /**
     * @param k arity, 2..8 (4 for the Elite).
     * @param n dimension, 1..6.
     */
    public Topology(final int k, final int n)
    {
        QsnetException.require(k >= 2 && k <= MAX_K, "k", k, "must be in 2.." + MAX_K);
        QsnetException.require(n >= 1 && n <= MAX_DIM, "dim", n, "must be in 1.." + MAX_DIM);
        long size = 1;
        for (int i = 0; i < n; i++)
        {
            size *= k;
        }
        QsnetException.require(size <= MAX_NODES, "k^dim", size, "must be at most " + MAX_NODES + " nodes");
        this.k = k;
        this.n = n;
        this.nodes = (int)size;
        this.switchesPerLevel = nodes / k;
        this.kBits = Integer.bitCount(k) == 1 ? Integer.numberOfTrailingZeros(k) : -1;
        this.pow = new int[n + 1];
        pow[0] = 1;
        for (int i = 1; i <= n; i++)
        {
            pow[i] = pow[i - 1] * k;
        }
    }

    /**
     * @return the arity.
     */
    public int k()
    {
        return k;
    }

    /**
     * @return the dimension (number of switch levels).
     */
    public int dim()
    {
        return n;
    }

    /**
     * @return number of nodes, {@code k^n}.
     */
    public int nodeCount()
    {
        return nodes;
    }

    /**
     * @return switches per level, {@code k^(n-1)}.
     */
    public int switchesPerLevel()
    {
        return switchesPerLevel;
    }

    /**
     * @return number of switches, {@code n * k^(n-1)}.
     */
    public int switchCount()
    {
        return n * switchesPerLevel;
    }

    /**
     * @param e exponent 0..n.
     * @return {@code k^e}.
     */
    public int pow(final int e)
    {
        return pow[e];
    }

    /**
     * @param x     a node or switch word.
     * @param digit digit index, 0 = least significant.
     * @return the base-k digit.
     */
    public int digit(final int x, final int digit)
    {
        if (kBits >= 0)
        {
            return (x >>> (kBits * digit)) & (k - 1);
        }
        return (x / pow[digit]) % k;
    }

    /**
     * @param level 1..n.
     * @param word  0..k^(n-1)-1.
     * @return the switch id.
     */
    public int switchId(final int level, final int word)
    {
        return (level - 1) * switchesPerLevel + word;
    }

    /**
     * @param switchId a switch id.
     * @return its level, 1..n.
     */
    public int levelOf(final int switchId)
    {
        return switchId / switchesPerLevel + 1;
    }

    /**
     * @param switchId a switch id.
     * @return its word.
     */
    public int wordOf(final int switchId)
    {
        return switchId % switchesPerLevel;
    }

    /**
     * @param word  switch word.
     * @param digit which digit.
     * @param value new value of the digit.
     * @return the word with that digit replaced.
     */
    public int withDigit(final int word, final int digit, final int value)
    {
        return word + (value - digit(word, digit)) * pow[digit];
    }

    /**
     * The level of the nearest common ancestors of two nodes: 1 + the index of the most
     * significant digit in which they differ (1 for the same node, which loops through its leaf).
     *
     * @param a a node.
     * @param b a node.
     * @return 1..n.
     */
    public int ncaLevel(final int a, final int b)
    {
        if (kBits > 0)
        {
            // the most significant differing digit, from the most significant differing bit
            final int x = a ^ b;
            final int top = x == 0 ? 0 : (31 - Integer.numberOfLeadingZeros(x)) / kBits;
            return top >= 1 ? top + 1 : 1;
        }
        int level = 1;
        for (int i = n - 1; i >= 1; i--)
        {
            if (digit(a, i) != digit(b, i))
            {
                level = i + 1;
                break;
            }
        }
        return level;
    }

    /**
     * @param node a node.
     * @return the id of its leaf switch.
     */
    public int leafOf(final int node)
    {
        return switchId(1, node / k);
    }

    /**
     * @param switchId a switch.
     * @return the first node of the contiguous block under it.
     */
    public int subtreeFirstNode(final int switchId)
    {
        final int level = levelOf(switchId);
        return (wordOf(switchId) / pow[level - 1]) * pow[level];
    }

    /**
     * Checks a node id.
     *
     * @param name argument name for the message.
     * @param node the node id.
     */
    public void checkNode(final String name, final int node)
    {
        if (node < 0 || node >= nodes)
        {
            throw new QsnetException(name + " " + node + " is outside the nodes 0.." + (nodes - 1));
        }
    }

    @Override
    public String toString()
    {
        return k + "-ary " + n + "-tree (" + nodes + " nodes, " + switchCount() + " switches)";
    }
}
