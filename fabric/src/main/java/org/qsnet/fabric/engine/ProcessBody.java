package org.qsnet.fabric.engine;

/**
 * The user code of a simulated process.
 */
@FunctionalInterface
public interface ProcessBody
{
    /**
     * Runs the process's program.
     *
     * @param self the process, through which the code reads and advances its clock.
     * @throws Exception any failure, reported as the process's outcome.
     */
    void run(SimProcess self) throws Exception;
}
