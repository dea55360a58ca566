package org.qsnet.bench.cli;

import java.lang.reflect.RecordComponent;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

import org.qsnet.fabric.QsnetException;
import org.qsnet.fabric.machine.PlatformProfile;
import org.qsnet.fabric.network.FabricConfig;

import picocli.CommandLine.Option;

/**
 * Options that shape the fabric: any {@link FabricConfig} parameter can be overridden with
 * {@code --set name=value}.
 */
public final class FabricOptions
{
    @Option(names = "--ascent", defaultValue = "adaptive",
        description = "Up-phase routing: adaptive (least-loaded up link) or deterministic (destination digit). Default: ${DEFAULT-VALUE}.")
    String ascent;

    @Option(names = "--seed", defaultValue = "1", description = "Seed of every random stream. Default: ${DEFAULT-VALUE}.")
    long seed;

    @Option(names = "--timing", defaultValue = "exact", description = "exact (the wormhole model) or analytic (LogGP-style "
        + "formula: path latency and the source link's serialisation, no contention; faster, for functional runs at "
        + "scale; results are labelled timing=analytic). Default: ${DEFAULT-VALUE}.")
    String timing;

    /** What a result in analytic timing says about itself. */
    static final String ANALYTIC_LABEL = "ANALYTIC (--timing analytic): each packet's times from a LogGP-style formula "
        + "(path latency, the source link's serialisation), no contention anywhere else; not the wormhole model";

    /**
     * Labels a table whose results come from analytic timing.
     *
     * @param table  the table.
     * @param fabric its fabric's configuration.
     * @return the table.
     */
    static org.qsnet.bench.report.Table labelTiming(final org.qsnet.bench.report.Table table, final FabricConfig fabric)
    {
        return fabric.analyticTiming() ? table.fact("timing", ANALYTIC_LABEL) : table;
    }

    /**
     * @param timing the --timing value.
     * @return whether it asks for analytic timing.
     */
    static boolean analytic(final String timing)
    {
        if (timing == null)
        {
            return false;
        }
        return switch (timing.toLowerCase(Locale.ROOT))
        {
            case "exact" -> false;
            case "analytic" -> true;
            default -> throw new QsnetException("--timing '" + timing + "' must be exact or analytic");
        };
    }

    @Option(names = "--set", paramLabel = "NAME=VALUE",
        description = "Override a fabric parameter, e.g. --set wireDelayNs=30 --set virtualChannels=1. "
            + "Names: k, dim, linkPsPerByte, wireDelayNs, switchDelayNs, virtualChannels, maxPayloadBytes, "
            + "packetOverheadBytes, packetGapNs, ackTurnaroundNs, adaptiveAscent, agingNs, crcErrorRate, seed, analyticTiming; "
            + "with a NIC profile also its parameters, e.g. pciMHz=33, sdramMBs=600, tlbEntries=32.")
    Map<String, String> overrides = new LinkedHashMap<>();

    /**
     * @param dim the tree's dimension.
     * @return the fabric configuration these options describe.
     */
    public FabricConfig config(final int dim)
    {
        final boolean adaptive = switch (ascent.toLowerCase(Locale.ROOT))
        {
            case "adaptive" -> true;
            case "deterministic" -> false;
            default -> throw new QsnetException("--ascent '" + ascent + "' must be adaptive or deterministic");
        };
        return apply(FabricConfig.elite(dim).withAdaptiveAscent(adaptive).withSeed(seed).withAnalyticTiming(analytic(timing)),
            overrides);
    }

    /**
     * Rebuilds a configuration with named parameters replaced; names of platform-profile
     * parameters are left for {@link #applyProfile}.
     *
     * @param base      the configuration.
     * @param overrides parameter name to new value.
     * @return the new configuration (validated by its constructor).
     */
    public static FabricConfig apply(final FabricConfig base, final Map<String, String> overrides)
    {
        final Map<String, String> mine = new LinkedHashMap<>(overrides);
        for (final RecordComponent c : PlatformProfile.class.getRecordComponents())
        {
            mine.remove(c.getName());
        }
        return rebuild(FabricConfig.class, base, mine, "fabric or profile parameter");
    }

    /**
     * A profile with named parameters replaced: profile parameters ({@code pciMHz=33}) and fabric
     * parameters ({@code wireDelayNs=30}) alike.
     *
     * @param base      the profile.
     * @param overrides parameter name to new value.
     * @return the new profile.
     */
    public static PlatformProfile applyProfile(final PlatformProfile base, final Map<String, String> overrides)
    {
        final Map<String, String> mine = new LinkedHashMap<>();
        for (final RecordComponent c : PlatformProfile.class.getRecordComponents())
        {
            if (overrides.containsKey(c.getName()))
            {
                mine.put(c.getName(), overrides.get(c.getName()));
            }
        }
        QsnetException.require(!mine.containsKey("fabric") && !mine.containsKey("name") && !mine.containsKey("description"),
            "--set", mine.keySet(), "cannot replace fabric, name or description");
        final PlatformProfile p = rebuild(PlatformProfile.class, base, mine, "profile parameter");
        return p.withFabric(apply(p.fabric(), overrides));
    }

    private static <R extends Record> R rebuild(final Class<R> type, final R base, final Map<String, String> overrides,
        final String what)
    {
        if (overrides.isEmpty())
        {
            return base;
        }
        final RecordComponent[] comps = type.getRecordComponents();
        final Object[] args = new Object[comps.length];
        final Class<?>[] types = new Class<?>[comps.length];
        final Map<String, String> left = new LinkedHashMap<>(overrides);
        try
        {
            for (int i = 0; i < comps.length; i++)
            {
                types[i] = comps[i].getType();
                final String v = left.remove(comps[i].getName());
                args[i] = v == null ? comps[i].getAccessor().invoke(base) : parse(comps[i].getName(), types[i], v);
            }
            if (!left.isEmpty())
            {
                final StringBuilder names = new StringBuilder();
                for (final RecordComponent c : comps)
                {
                    names.append(names.length() == 0 ? "" : ", ").append(c.getName());
                }
                throw new QsnetException("--set " + left.keySet().iterator().next() + " is not a " + what + "; one of: "
                    + names);
            }
            return type.getDeclaredConstructor(types).newInstance(args);
        }
        catch (final java.lang.reflect.InvocationTargetException e)
        {
            if (e.getCause() instanceof RuntimeException re)
            {
                throw re;
            }
            throw new QsnetException("cannot apply --set: " + e.getCause(), e.getCause());
        }
        catch (final ReflectiveOperationException e)
        {
            throw new QsnetException("cannot apply --set: " + e, e);
        }
    }

    private static Object parse(final String name, final Class<?> type, final String v)
    {
        try
        {
            if (type == int.class)
            {
                return Integer.parseInt(v.trim());
            }
            if (type == long.class)
            {
                return Long.parseLong(v.trim());
            }
            if (type == double.class)
            {
                return Double.parseDouble(v.trim());
            }
            if (type == boolean.class)
            {
                if (!v.equalsIgnoreCase("true") && !v.equalsIgnoreCase("false"))
                {
                    throw new NumberFormatException();
                }
                return Boolean.parseBoolean(v.trim());
            }
        }
        catch (final NumberFormatException e)
        {
            throw new QsnetException("--set " + name + "=" + v + " is not a valid " + type.getSimpleName());
        }
        throw new QsnetException("--set " + name + " has unsupported type " + type);
    }
}
