package org.qsnet.elan3;

import org.qsnet.fabric.QsnetException;
import org.qsnet.fabric.memory.Mmu;
import org.qsnet.fabric.nic.E3;

/**
 * Elan3lib constants with their C names, and the macros of {@code elan3/*.h}.
 */
public final class Elan3
{
    private Elan3()
    {
    }

    /** Data types. */
    public static final int DMA_BYTE = E3.DMA_BYTE;
    /** @see #DMA_BYTE */
    public static final int DMA_HALFWORD = E3.DMA_HALFWORD;
    /** @see #DMA_BYTE */
    public static final int DMA_WORD = E3.DMA_WORD;
    /** @see #DMA_BYTE */
    public static final int DMA_DOUBLE = E3.DMA_DOUBLE;
    /** @see #DMA_BYTE */
    public static final int DMA_DOUBLEWORD = E3.DMA_DOUBLE;
    /** Put. */
    public static final int DMA_WRITE = E3.DMA_WRITE;
    /** Get. */
    public static final int DMA_READ = E3.DMA_READ;
    /** Opcodes. */
    public static final int DMA_NORMAL = E3.DMA_NORMAL;
    /** @see #DMA_NORMAL */
    public static final int DMA_QUEUED = E3.DMA_QUEUED;
    /** @see #DMA_NORMAL */
    public static final int DMA_NORMAL_BROADCAST = E3.DMA_NORMAL_BROADCAST;
    /** @see #DMA_NORMAL */
    public static final int DMA_QUEUED_BROADCAST = E3.DMA_QUEUED_BROADCAST;

    /** Alignments and sizes. */
    public static final int E3_DMA_ALIGN = E3.DMA_ALIGN;
    /** @see #E3_DMA_ALIGN */
    public static final int E3_DMA_SIZE = E3.DMA_SIZE;
    /** @see #E3_DMA_ALIGN */
    public static final int E3_EVENT_ALIGN = E3.EVENT_ALIGN;
    /** @see #E3_DMA_ALIGN */
    public static final int E3_EVENT_SIZE = E3.EVENT_SIZE;
    /** @see #E3_DMA_ALIGN */
    public static final int E3_BLOCK_COPY_EVENT_SIZE = E3.BCOPY_EVENT_SIZE;
    /** @see #E3_DMA_ALIGN */
    public static final int E3_BLK_ALIGN = E3.BLK_ALIGN;
    /** @see #E3_DMA_ALIGN */
    public static final int E3_BLK_SIZE = E3.BLK_SIZE;
    /** @see #E3_DMA_ALIGN */
    public static final int E3_QUEUE_ALIGN = E3.QUEUE_ALIGN;
    /** @see #E3_DMA_ALIGN */
    public static final int E3_QUEUE_SIZE = E3.QUEUE_SIZE;
    /** Queue state bits. */
    public static final int E3_QUEUE_LOCKED = E3.QUEUE_LOCKED;
    /** @see #E3_QUEUE_LOCKED */
    public static final int E3_QUEUE_FULL = E3.QUEUE_FULL;
    /** Queue header fields (offsets). */
    public static final int Q_STATE = E3.Q_STATE;
    /** @see #Q_STATE */
    public static final int Q_SIZE = E3.Q_SIZE;
    /** @see #Q_STATE */
    public static final int Q_BASE = E3.Q_BASE;
    /** @see #Q_STATE */
    public static final int Q_TOP = E3.Q_TOP;
    /** @see #Q_STATE */
    public static final int Q_FPTR = E3.Q_FPTR;
    /** @see #Q_STATE */
    public static final int Q_BPTR = E3.Q_BPTR;
    /** @see #Q_STATE */
    public static final int Q_EVENT = E3.Q_EVENT;

    /** Wait: spin until the event fires. */
    public static final long ELAN_POLL_EVENT = -1;
    /** Wait: sleep until the event fires (interrupt). */
    public static final long ELAN_WAIT_EVENT = -2;

    /** An address that is not mapped. */
    public static final long ELAN_BAD_ADDR = 0xFFFFFFFFL;
    /** The null Elan address. */
    public static final long ELAN_ADDR_NULL = 0;
    /** Every right, local and remote. */
    public static final int ELAN_PERM_REMOTEALL = Mmu.ALL;
    /** Local and remote read only. */
    public static final int ELAN_PERM_REMOTEREAD = Mmu.READ | Mmu.REMOTE_READ;
    /** Local read and write, no remote access. */
    public static final int ELAN_PERM_LOCAL = Mmu.READ | Mmu.WRITE;

    /** Remote atomics. */
    public static final int ATOMIC_FETCH_ADD = E3.ATOMIC_FETCH_ADD;
    /** @see #ATOMIC_FETCH_ADD */
    public static final int ATOMIC_TEST_AND_WRITE = E3.ATOMIC_TEST_AND_WRITE;

    /** Host addresses of main memory: host = base + main offset (as on 64-bit hosts). */
    public static final long HOST_MAIN_BASE = 0x1FF00000000L;
    /** Host window onto the node's Elan SDRAM: host = base + SDRAM offset. */
    public static final long HOST_SDRAM_BASE = 0x1FE00000000L;

    /**
     * {@code E3_DMA_TYPE(dataType, direction, opcode, failCount)}.
     *
     * @param dataType  DMA_BYTE...
     * @param direction DMA_WRITE or DMA_READ.
     * @param opcode    DMA_NORMAL, DMA_QUEUED, DMA_NORMAL_BROADCAST.
     * @param failCount retries, 0..63.
     * @return the type word.
     * @throws org.qsnet.fabric.QsnetException for a value outside its field (the C macro would let
     *     it spill into, or vanish from, the type word: a failCount of 64 is 0 retries).
     */
    public static int E3_DMA_TYPE(final int dataType, final int direction, final int opcode, final int failCount)
    {
        QsnetException.require(dataType >= DMA_BYTE && dataType <= DMA_DOUBLE, "dataType", dataType,
            "must be DMA_BYTE, DMA_HALFWORD, DMA_WORD or DMA_DOUBLE (0..3)");
        QsnetException.require(direction == DMA_WRITE || direction == DMA_READ, "direction", direction,
            "must be DMA_WRITE or DMA_READ (0, 1)");
        QsnetException.require(opcode >= DMA_NORMAL && opcode <= DMA_QUEUED_BROADCAST, "opcode", opcode,
            "must be DMA_NORMAL, DMA_QUEUED, DMA_NORMAL_BROADCAST or DMA_QUEUED_BROADCAST (0..3)");
        QsnetException.require(failCount >= 0 && failCount <= 63, "failCount", failCount, "must be in 0..63 (6 bits)");
        return E3.dmaType(dataType, direction, opcode, failCount);
    }
}
