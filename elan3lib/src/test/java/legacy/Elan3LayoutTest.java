package legacy;

import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.qsnet.elan3.Prun;
import org.qsnet.fabric.machine.PlatformProfile;

/** {@link Elan3Layout} under {@code prun -m block|cyclic -B base}. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class Elan3LayoutTest
{
    @ParameterizedTest(name = "{0} ranks on {1} nodes from node {3}, cyclic {2}")
    @CsvSource({"8, 4, false, 0", "8, 4, true, 0", "6, 3, true, 5", "6, 2, false, 3", "4, 4, true, 2"})
    void shouldLayOutVpsAsTheCapabilitySays(final int procs, final int nodes, final boolean cyclic, final int base)
    {
        Prun.run(PlatformProfile.pentium3He(), new Prun.Options(procs, nodes, cyclic, base, Map.of()), Elan3Layout.class,
            cyclic ? "cyclic" : "block", Integer.toString(nodes)).throwIfFailed();
    }
}
