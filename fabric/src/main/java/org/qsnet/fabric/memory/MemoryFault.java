package org.qsnet.fabric.memory;

import org.qsnet.fabric.QsnetException;

/**
 * An access the Elan MMU refused: unmapped, or without the right. Raised at the initiator of
 * the access, recorded as the hardware's trap would be; never a silent corruption.
 */
public final class MemoryFault extends QsnetException
{
    private static final long serialVersionUID = 1L;

    /**
     * @param message the address, the access and the reason.
     */
    public MemoryFault(final String message)
    {
        super(message);
    }
}
