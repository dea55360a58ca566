package org.qsnet.elan3;

/**
 * The RMS calls a legacy program makes, for the process on the calling thread.
 */
public final class Rms
{
    private Rms()
    {
    }

    /**
     * {@code getenv} for the emulated process: {@code RMS_NPROCS}, {@code RMS_RANK},
     * {@code RMS_NODEID}, {@code RMS_NNODES}, {@code LIBELAN_ECAP0}, ...
     *
     * @param name the variable.
     * @return its value, or null.
     */
    public static String getenv(final String name)
    {
        return ElanProcess.current().getenv(name);
    }

    /**
     * {@code rms_getcap(0, &cap)}: the process's capability.
     *
     * @return a copy of it.
     */
    public static ElanCapability getcap()
    {
        return ElanProcess.current().capability();
    }
}
