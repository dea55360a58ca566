package org.qsnet.fabric.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;

import org.junit.jupiter.api.Test;
import org.qsnet.fabric.QsnetException;

class LauncherRankTest
{
    private static String failure(final Map<String, String> env)
    {
        return assertThrows(QsnetException.class, () -> LauncherRank.fromEnvironment(env)).getMessage();
    }

    @Test
    void shouldReadSlurmWithItsNode()
    {
        assertEquals(new LauncherRank(3, 8, 1, "SLURM_PROCID/SLURM_NTASKS"),
            LauncherRank.fromEnvironment(Map.of("SLURM_PROCID", "3", "SLURM_NTASKS", "8", "SLURM_NODEID", "1")));
    }

    @Test
    void shouldReadOpenMpiPmiAndRms()
    {
        assertEquals(new LauncherRank(0, 2, -1, "OMPI_COMM_WORLD_RANK/OMPI_COMM_WORLD_SIZE"),
            LauncherRank.fromEnvironment(Map.of("OMPI_COMM_WORLD_RANK", "0", "OMPI_COMM_WORLD_SIZE", "2")));
        assertEquals(new LauncherRank(5, 6, -1, "PMI_RANK/PMI_SIZE"),
            LauncherRank.fromEnvironment(Map.of("PMI_RANK", "5", "PMI_SIZE", "6")));
        assertEquals(new LauncherRank(1, 4, 0, "RMS_RANK/RMS_NPROCS"),
            LauncherRank.fromEnvironment(Map.of("RMS_RANK", "1", "RMS_NPROCS", "4", "RMS_NODEID", "0")));
    }

    @Test
    void shouldAcceptAgreeingFamiliesAndTakeTheNodeFromAnyOfThem()
    {
        assertEquals(new LauncherRank(2, 4, 7, "SLURM_PROCID/SLURM_NTASKS"), LauncherRank.fromEnvironment(
            Map.of("SLURM_PROCID", "2", "SLURM_NTASKS", "4", "PMI_RANK", "2", "PMI_SIZE", "4", "RMS_RANK", "2", "RMS_NPROCS", "4",
                "RMS_NODEID", "7")));
    }

    @Test
    void shouldRejectPartialInconsistentAndMalformedVariables()
    {
        assertTrue(failure(Map.of("SLURM_PROCID", "1")).contains("SLURM_PROCID=1 is set but SLURM_NTASKS is not"));
        assertTrue(failure(Map.of("PMI_SIZE", "4")).contains("PMI_SIZE=4 is set but PMI_RANK is not"));
        assertTrue(failure(Map.of("OMPI_COMM_WORLD_RANK", "1", "OMPI_COMM_WORLD_SIZE", "2", "PMI_RANK", "0", "PMI_SIZE", "2"))
            .contains("OMPI_COMM_WORLD_RANK/OMPI_COMM_WORLD_SIZE = 1/2 disagrees with PMI_RANK/PMI_SIZE = 0/2"));
        assertTrue(failure(Map.of("RMS_RANK", "4", "RMS_NPROCS", "4")).contains("RMS_RANK 4 must be below RMS_NPROCS 4"));
        assertTrue(failure(Map.of("PMI_RANK", "x", "PMI_SIZE", "4")).contains("PMI_RANK x is not an integer"));
        assertTrue(failure(Map.of("PMI_RANK", "0", "PMI_SIZE", "0")).contains("PMI_SIZE 0 must be at least 1"));
        assertTrue(failure(Map.of("PMI_RANK", "-1", "PMI_SIZE", "2")).contains("PMI_RANK -1 must not be negative"));
        assertTrue(failure(Map.of()).contains("none of SLURM_PROCID/SLURM_NTASKS"));
        assertTrue(LauncherRank.detect(Map.of("HOME", "/root")).isEmpty());
    }
}
