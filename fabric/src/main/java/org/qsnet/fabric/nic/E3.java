package org.qsnet.fabric.nic;

/**
 * The Elan3's memory formats as its microcode reads them: DMA descriptors, events and input
 * queues, with their constants. The values are this emulator's (the real headers are not
 * public, see ELAN-API.md §5); the names are the hardware's.
 *
 * <pre>
 * E3_DMA (32 bytes, E3_DMA_ALIGN)           E3_Event (8 bytes)       E3_BlockCopyEvent (16 bytes)
 *  0 dma_type    E3_DMA_TYPE(...)            0 ev_Count               0 ev_Count
 *  4 dma_size                                4 ev_Type                4 ev_Type  = EV_TYPE_BCOPY{,_WORD}
 *  8 dma_source                                = code | address       8 source block / word value
 * 12 dma_dest                                                         12 destination (main memory)
 * 16 dma_destEvent  (queue for DMA_QUEUED)
 * 20 dma_destCookieVProc                    E3_Queue (64 bytes, in SDRAM)
 * 24 dma_srcEvent                            0 q_state  4 q_size  8 q_base  12 q_top
 * 28 dma_srcCookieVProc                     16 q_fptr  20 q_bptr  24..39 q_event (E3_BlockCopyEvent)
 *
 * dma_type: bits 0-1 data type, bit 2 direction, bits 3-4 opcode, bits 8-13 failCount
 * ev_Type:  bits 0-2 code (none, block copy, word copy, DMA), bits 5-31 descriptor address
 *           for EV_TYPE_DMA (descriptors are 32-byte aligned)
 * </pre>
 */
public final class E3
{
    private E3()
    {
    }

    /** Size of a DMA descriptor. */
    public static final int DMA_SIZE = 32;
    /** Alignment of a DMA descriptor. */
    public static final int DMA_ALIGN = 32;
    /** Offsets of the descriptor fields. */
    public static final int DMA_TYPE = 0;
    /** @see #DMA_TYPE */
    public static final int DMA_SIZE_FIELD = 4;
    /** @see #DMA_TYPE */
    public static final int DMA_SOURCE = 8;
    /** @see #DMA_TYPE */
    public static final int DMA_DEST = 12;
    /** @see #DMA_TYPE */
    public static final int DMA_DEST_EVENT = 16;
    /** @see #DMA_TYPE */
    public static final int DMA_DEST_COOKIE_VPROC = 20;
    /** @see #DMA_TYPE */
    public static final int DMA_SRC_EVENT = 24;
    /** @see #DMA_TYPE */
    public static final int DMA_SRC_COOKIE_VPROC = 28;

    /** Data types. */
    public static final int DMA_BYTE = 0;
    /** @see #DMA_BYTE */
    public static final int DMA_HALFWORD = 1;
    /** @see #DMA_BYTE */
    public static final int DMA_WORD = 2;
    /** @see #DMA_BYTE */
    public static final int DMA_DOUBLE = 3;
    /** Directions. */
    public static final int DMA_WRITE = 0;
    /** @see #DMA_WRITE */
    public static final int DMA_READ = 1;
    /** Opcodes. */
    public static final int DMA_NORMAL = 0;
    /** @see #DMA_NORMAL */
    public static final int DMA_QUEUED = 1;
    /** @see #DMA_NORMAL */
    public static final int DMA_NORMAL_BROADCAST = 2;
    /** @see #DMA_NORMAL */
    public static final int DMA_QUEUED_BROADCAST = 3;

    /**
     * Encodes {@code dma_type}.
     *
     * @param dataType  DMA_BYTE .. DMA_DOUBLE.
     * @param direction DMA_WRITE or DMA_READ.
     * @param opcode    DMA_NORMAL, DMA_QUEUED, DMA_NORMAL_BROADCAST.
     * @param failCount retries of a packet the remote rejects (queue full), 0..63.
     * @return the type word.
     */
    public static int dmaType(final int dataType, final int direction, final int opcode, final int failCount)
    {
        return (dataType & 3) | ((direction & 1) << 2) | ((opcode & 3) << 3) | ((failCount & 63) << 8);
    }

    /** @param type a type word. @return its data type. */
    public static int dataType(final int type)
    {
        return type & 3;
    }

    /** @param type a type word. @return its direction. */
    public static int direction(final int type)
    {
        return (type >>> 2) & 1;
    }

    /** @param type a type word. @return its opcode. */
    public static int opcode(final int type)
    {
        return (type >>> 3) & 3;
    }

    /** @param type a type word. @return its fail count. */
    public static int failCount(final int type)
    {
        return (type >>> 8) & 63;
    }

    /** Size of a plain event. */
    public static final int EVENT_SIZE = 8;
    /** Size of a block-copy event. */
    public static final int BCOPY_EVENT_SIZE = 16;
    /** Alignment of events. */
    public static final int EVENT_ALIGN = 8;
    /** Event fields. */
    public static final int EV_COUNT = 0;
    /** @see #EV_COUNT */
    public static final int EV_TYPE = 4;
    /** @see #EV_COUNT */
    public static final int EV_SOURCE = 8;
    /** @see #EV_COUNT */
    public static final int EV_DEST = 12;
    /** Event codes. */
    public static final int EV_TYPE_NONE = 0;
    /** @see #EV_TYPE_NONE */
    public static final int EV_TYPE_BCOPY = 1;
    /** @see #EV_TYPE_NONE */
    public static final int EV_TYPE_BCOPY_WORD = 2;
    /** @see #EV_TYPE_NONE */
    public static final int EV_TYPE_DMA = 3;
    /** A 64-byte block copied by a block-copy event. */
    public static final int BLK_SIZE = 64;
    /** Alignment of blocks. */
    public static final int BLK_ALIGN = 64;
    /** Value a word-copy event writes into its main-memory word. */
    public static final int EVENT_WORD_FIRED = 1;

    /** Size of a queue header. */
    public static final int QUEUE_SIZE = 64;
    /** Alignment of a queue header. */
    public static final int QUEUE_ALIGN = 64;
    /** Queue fields. */
    public static final int Q_STATE = 0;
    /** @see #Q_STATE */
    public static final int Q_SIZE = 4;
    /** @see #Q_STATE */
    public static final int Q_BASE = 8;
    /** @see #Q_STATE */
    public static final int Q_TOP = 12;
    /** @see #Q_STATE */
    public static final int Q_FPTR = 16;
    /** @see #Q_STATE */
    public static final int Q_BPTR = 20;
    /** @see #Q_STATE */
    public static final int Q_EVENT = 24;
    /** q_state bits. */
    public static final int QUEUE_LOCKED = 1;
    /** @see #QUEUE_LOCKED */
    public static final int QUEUE_FULL = 2;

    /** Remote atomic operations (non-write-block transactions). */
    public static final int ATOMIC_FETCH_ADD = 1;
    /** @see #ATOMIC_FETCH_ADD */
    public static final int ATOMIC_TEST_AND_WRITE = 2;
}
