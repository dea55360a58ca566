package org.qsnet.fabric.network;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/**
 * The shift-and-mask digits and nearest-common-ancestor levels of power-of-two arities equal the
 * arithmetic definition (division and remainder), which other arities keep using.
 */
class TopologyDigitsTest
{
    @Test
    void shouldGiveTheArithmeticDigitsAndLevelsForEveryPairOfNodes()
    {
        for (final int[] kn : new int[][] {{2, 6}, {4, 1}, {4, 3}, {4, 4}, {8, 3}, {3, 4}, {5, 3}})
        {
            final int k = kn[0];
            final int n = kn[1];
            final Topology t = new Topology(k, n);
            final int nodes = t.nodeCount();
            for (int a = 0; a < nodes; a++)
            {
                for (int d = 0; d < n; d++)
                {
                    assertEquals(a / pow(k, d) % k, t.digit(a, d), "digit " + d + " of " + a + " (k=" + k + ")");
                }
                for (int b = 0; b < nodes; b++)
                {
                    assertEquals(referenceLevel(k, n, a, b), t.ncaLevel(a, b), "ncaLevel(" + a + ", " + b + "), k=" + k
                        + ", n=" + n);
                }
            }
        }
    }

    private static int referenceLevel(final int k, final int n, final int a, final int b)
    {
        for (int i = n - 1; i >= 1; i--)
        {
            if (a / pow(k, i) % k != b / pow(k, i) % k)
            {
                return i + 1;
            }
        }
        return 1;
    }

    private static int pow(final int k, final int e)
    {
        int p = 1;
        for (int i = 0; i < e; i++)
        {
            p *= k;
        }
        return p;
    }
}
