package org.qsnet.elan3;

/**
 * The program of one process of an SPMD job.
 */
@FunctionalInterface
public interface ElanMain
{
    /**
     * Runs one rank.
     *
     * @param process the rank's environment and machine.
     * @param args    the job's arguments.
     * @throws Exception any failure, reported as the rank's outcome.
     */
    void main(ElanProcess process, String[] args) throws Exception;
}
