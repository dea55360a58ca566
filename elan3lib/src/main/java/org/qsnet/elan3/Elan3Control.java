package org.qsnet.elan3;

/**
 * The handle {@code elan3_control_open(rail)} returns: the driver's control device of one rail
 * on the calling process's node ({@code /dev/elan3/control<rail>}), through which
 * {@code elan3_create} registers a capability. The emulator does not model privileges: any
 * process may open it.
 */
public final class Elan3Control
{
    final ElanProcess process;
    final int rail;
    boolean closed;

    Elan3Control(final ElanProcess process, final int rail)
    {
        this.process = process;
        this.rail = rail;
    }

    /**
     * @return the rail.
     */
    public int rail()
    {
        return rail;
    }

    @Override
    public String toString()
    {
        return "elan3 control of rail " + rail + " on node " + process.node() + (closed ? " (closed)" : "");
    }
}
