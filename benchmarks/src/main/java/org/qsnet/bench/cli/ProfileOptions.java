package org.qsnet.bench.cli;

import java.util.LinkedHashMap;
import java.util.Map;

import org.qsnet.fabric.machine.PlatformProfile;

import picocli.CommandLine.Option;

/**
 * A platform profile, with any of its parameters (or its fabric's) overridden.
 */
public final class ProfileOptions
{
    @Option(names = "--profile", defaultValue = "pentium3-he",
        description = "Platform profile: pentium3-he, alpha-es40, xeon-gc. Default: ${DEFAULT-VALUE}.")
    String profile;

    @Option(names = "--set", paramLabel = "NAME=VALUE",
        description = "Override a profile or fabric parameter, e.g. --set pciMHz=33 --set tlbEntries=32 --set wireDelayNs=30.")
    Map<String, String> overrides = new LinkedHashMap<>();

    @Option(names = "--timing", defaultValue = "exact", description = "exact (the wormhole model) or analytic (LogGP-style "
        + "formula, no contention; results labelled timing=analytic). Default: ${DEFAULT-VALUE}.")
    String timing;

    /**
     * @return the profile these options describe.
     */
    public PlatformProfile profile()
    {
        final PlatformProfile p = FabricOptions.applyProfile(PlatformProfile.named(profile), overrides);
        return FabricOptions.analytic(timing) ? p.withFabric(p.fabric().withAnalyticTiming(true)) : p;
    }
}
