package org.qsnet.fabric;

/**
 * Root of every exception the emulator throws for misuse, bad configuration or a broken
 * invariant. The message names the argument, the value and the rule that was broken.
 */
public class QsnetException extends RuntimeException
{
    private static final long serialVersionUID = 1L;

    /**
     * Creates an exception with a message that names the argument, the value and the rule.
     *
     * @param message what was wrong, e.g. {@code "dim 7 is outside 1..6"}.
     */
    public QsnetException(final String message)
    {
        super(message);
    }

    /**
     * Creates an exception with a cause.
     *
     * @param message what was wrong.
     * @param cause   the underlying failure.
     */
    public QsnetException(final String message, final Throwable cause)
    {
        super(message, cause);
    }

    /**
     * Checks an argument and throws a {@link QsnetException} naming it when the rule fails.
     *
     * @param ok       whether the rule holds.
     * @param argument the argument's name.
     * @param value    the value given.
     * @param rule     the rule, e.g. {@code "must be in 1..6"}.
     */
    public static void require(final boolean ok, final String argument, final Object value, final String rule)
    {
        if (!ok)
        {
            throw new QsnetException(argument + " " + value + " " + rule);
        }
    }
}
