package org.qsnet.fabric.engine;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

/**
 * The JDK's one-shot delimited continuations ({@code jdk.internal.vm.Continuation}, what virtual
 * threads are built on), reached through method handles so that the code compiles against the
 * public API of Java 21 and runs without them when the JVM does not export the package.
 *
 * <p>Why the kernel uses them: a hand-off between two simulated processes on virtual threads is
 * an unpark (a submission to the virtual-thread scheduler) and a park (an unmount, then the
 * scheduler's loop mounting the other thread), about 175 ns on the reference host; a yield to a
 * loop that runs the next continuation is about 95 ns (both measured with a bare two-party
 * ping-pong on JDK 25). Processes keep every other property: each has its own stack, runs only
 * on its turn, and is resumed by the same events in the same order.
 *
 * <p>Enabled when the JVM runs with {@code --add-exports=java.base/jdk.internal.vm=ALL-UNNAMED}
 * (in the project's {@code qsnet.jvm.flags}: the launchers, the tests and JMH use it) and the
 * system property {@code qsnet.carrier} is not {@code virtual}. Otherwise every process is a
 * virtual thread, as before: the same simulated results, a slower hand-off.
 */
final class Continuations
{
    /** Whether processes run as continuations on {@link CarrierThread}s (else on virtual threads). */
    static final boolean ENABLED;
    /** Why they are not, for the README's and the launcher's diagnostics; empty when enabled. */
    static final String WHY_NOT;

    private static final Object SCOPE;
    private static final MethodHandle NEW;
    private static final MethodHandle RUN;
    private static final MethodHandle YIELD;
    private static final MethodHandle IS_DONE;
    private static final MethodHandle STACK;

    static
    {
        Object scope = null;
        MethodHandle create = null;
        MethodHandle run = null;
        MethodHandle yield = null;
        MethodHandle isDone = null;
        MethodHandle stack = null;
        String whyNot = "";
        if ("virtual".equals(System.getProperty("qsnet.carrier")))
        {
            whyNot = "-Dqsnet.carrier=virtual";
        }
        else
        {
            try
            {
                final Class<?> scopeClass = Class.forName("jdk.internal.vm.ContinuationScope");
                final Class<?> contClass = Class.forName("jdk.internal.vm.Continuation");
                final MethodHandles.Lookup l = MethodHandles.lookup();
                scope = l.findConstructor(scopeClass, MethodType.methodType(void.class, String.class))
                    .invoke("qsnet-process");
                create = l.findConstructor(contClass, MethodType.methodType(void.class, scopeClass, Runnable.class))
                    .bindTo(scope).asType(MethodType.methodType(Object.class, Runnable.class));
                run = l.findVirtual(contClass, "run", MethodType.methodType(void.class))
                    .asType(MethodType.methodType(void.class, Object.class));
                yield = MethodHandles.insertArguments(
                    l.findStatic(contClass, "yield", MethodType.methodType(boolean.class, scopeClass)), 0, scope);
                isDone = l.findVirtual(contClass, "isDone", MethodType.methodType(boolean.class))
                    .asType(MethodType.methodType(boolean.class, Object.class));
                stack = l.findVirtual(contClass, "getStackTrace", MethodType.methodType(StackTraceElement[].class))
                    .asType(MethodType.methodType(StackTraceElement[].class, Object.class));
            }
            catch (final Throwable t)
            {
                // not exported to this module (no --add-exports), or an older JDK: virtual threads
                whyNot = "jdk.internal.vm is not exported to this code (" + t.getClass().getSimpleName()
                    + "): add --add-exports=java.base/jdk.internal.vm=ALL-UNNAMED";
                scope = null;
            }
        }
        ENABLED = whyNot.isEmpty();
        WHY_NOT = whyNot;
        SCOPE = scope;
        NEW = create;
        RUN = run;
        YIELD = yield;
        IS_DONE = isDone;
        STACK = stack;
    }

    private Continuations()
    {
    }

    /** A new continuation that runs {@code body} when first run. */
    static Object create(final Runnable body)
    {
        try
        {
            return NEW.invokeExact(body);
        }
        catch (final Throwable t)
        {
            throw new IllegalStateException("cannot create a continuation", t);
        }
    }

    /** Runs {@code c} until it yields or ends, on the calling (carrier) thread. */
    static void run(final Object c)
    {
        try
        {
            RUN.invokeExact(c);
        }
        catch (final RuntimeException | Error e)
        {
            throw e;
        }
        catch (final Throwable t)
        {
            throw new IllegalStateException(t);
        }
    }

    /**
     * Suspends the running continuation; returns when it is run again.
     *
     * @throws IllegalStateException when it cannot be suspended (the JDK's "pinned": a monitor
     *                               held on JDK 21-23, a native frame, a class initialiser).
     */
    static void yieldNow()
    {
        final boolean yielded;
        try
        {
            yielded = (boolean)YIELD.invokeExact();
        }
        catch (final RuntimeException | Error e)
        {
            throw e;
        }
        catch (final Throwable t)
        {
            throw new IllegalStateException(t);
        }
        if (!yielded)
        {
            throw new IllegalStateException("the continuation could not be suspended (pinned)");
        }
    }

    static boolean isDone(final Object c)
    {
        try
        {
            return (boolean)IS_DONE.invokeExact(c);
        }
        catch (final Throwable t)
        {
            throw new IllegalStateException(t);
        }
    }

    /** The stack of a suspended continuation, innermost frame first. */
    static StackTraceElement[] stackTrace(final Object c)
    {
        try
        {
            return (StackTraceElement[])STACK.invokeExact(c);
        }
        catch (final Throwable t)
        {
            return new StackTraceElement[0];
        }
    }
}
