package org.qsnet.bench.cli;

import java.nio.file.Path;
import java.util.concurrent.Callable;

import org.qsnet.bench.report.Drawing;
import org.qsnet.fabric.engine.Kernel;
import org.qsnet.fabric.network.EliteSwitch;
import org.qsnet.fabric.network.Fabric;
import org.qsnet.fabric.network.FabricConfig;
import org.qsnet.fabric.network.Topology;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code qsnet topology}: prints (and draws) a k-ary n-tree with its numbering.
 */
@Command(name = "topology", mixinStandardHelpOptions = true,
    description = "Prints the k-ary n-tree: every switch <word,level> with the switches its up and down ports lead to; "
        + "optionally the route tags between two nodes and a drawing.")
public final class TopologyCommand implements Callable<Integer>
{
    @Option(names = "--dim", defaultValue = "2", description = "Dimension n, 1..6. Default: ${DEFAULT-VALUE}.")
    int dim;

    @Option(names = "--k", defaultValue = "4", description = "Arity k. Default: ${DEFAULT-VALUE}.")
    int k;

    @Option(names = "--route", arity = "2", paramLabel = "NODE", description = "Print the route tags from the first node to the second.")
    int[] route;

    @Option(names = "--plot", paramLabel = "FILE.png", description = "Draw the tree as a PNG file.")
    Path plot;

    @Override
    public Integer call()
    {
        OutputOptions.writable("--plot", plot);
        final Fabric f = new Fabric(new Kernel(), FabricConfig.elite(dim).withK(k));
        final Topology t = f.topology();
        System.out.println(t);
        for (int level = t.dim(); level >= 1; level--)
        {
            System.out.println("level " + level + ":");
            for (int w = 0; w < t.switchesPerLevel(); w++)
            {
                final EliteSwitch s = f.switchAt(t.switchId(level, w));
                final StringBuilder sb = new StringBuilder("  ").append(s).append("  down:");
                for (int p = 0; p < t.k(); p++)
                {
                    sb.append(' ').append(level == 1 ? "node " + (t.subtreeFirstNode(s.id()) + p) : downNeighbour(f, s, p));
                }
                if (s.upCount() > 0)
                {
                    sb.append("  up:");
                    for (int p = 0; p < s.upCount(); p++)
                    {
                        sb.append(' ').append(upNeighbour(f, s, p));
                    }
                }
                System.out.println(sb);
            }
        }
        if (route != null)
        {
            System.out.println("route " + route[0] + " -> " + route[1] + ": " + String.join(" ", f.routeTags(route[0], route[1])));
        }
        if (plot != null)
        {
            draw(f, plot);
        }
        return 0;
    }

    private static String downNeighbour(final Fabric f, final EliteSwitch s, final int p)
    {
        final Topology t = f.topology();
        return "<" + t.withDigit(s.word(), s.level() - 2, p) + "," + (s.level() - 1) + ">";
    }

    private static String upNeighbour(final Fabric f, final EliteSwitch s, final int p)
    {
        final Topology t = f.topology();
        return "<" + t.withDigit(s.word(), s.level() - 1, p) + "," + (s.level() + 1) + ">";
    }

    private static void draw(final Fabric f, final Path file)
    {
        final Topology t = f.topology();
        final int[][][] up = new int[t.dim()][t.switchesPerLevel()][];
        for (int level = 1; level <= t.dim(); level++)
        {
            for (int w = 0; w < t.switchesPerLevel(); w++)
            {
                up[level - 1][w] = new int[level < t.dim() ? t.k() : 0];
                for (int p = 0; level < t.dim() && p < t.k(); p++)
                {
                    up[level - 1][w][p] = t.withDigit(w, level - 1, p);
                }
            }
        }
        Drawing.tree(file, t.toString(), t.k(), t.dim(), up);
    }
}
