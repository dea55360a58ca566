package org.qsnet.elan3;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.security.CodeSource;
import java.security.ProtectionDomain;
import java.security.cert.Certificate;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The class loader of one rank's program: what a process image was to a C program. Classes of
 * the program (everything its {@link Source} holds that is not the emulator's library nor the
 * JDK) are defined here, child-first, so every rank has its own copy and its own static fields —
 * a port's C globals. The library ({@code org.qsnet.fabric}, {@code elan3}, {@code elan},
 * {@code tports}, {@code mpi}), the JDK and whatever the source does not hold (the emulator's
 * dependencies) come from the parent, shared by all ranks, so the ranks meet in one emulated
 * machine.
 */
final class RankClassLoader extends ClassLoader
{
    static
    {
        registerAsParallelCapable();
    }

    private static final String[] SHARED = {"java.", "javax.", "jdk.", "sun.", "com.sun.", "org.qsnet.fabric.",
        "org.qsnet.elan3.", "org.qsnet.elan.", "org.qsnet.tports.", "mpi."};

    /**
     * Where a program's class files come from, shared by the loaders of all its ranks (one open
     * class path, however many ranks): a loader that finds the bytes, and optionally the one
     * package prefix it may serve (a program bundled in the emulator's own jar, which holds the
     * library and its dependencies too, takes only its own package from it).
     */
    static final class Source
    {
        private final ClassLoader bytes;
        private final String onlyPrefix;
        private final Map<String, ProtectionDomain> domains = new ConcurrentHashMap<>();

        /**
         * @param bytes      finds class files by resource name.
         * @param onlyPrefix the only class-name prefix served, or null for every class not shared.
         */
        Source(final ClassLoader bytes, final String onlyPrefix)
        {
            this.bytes = bytes;
            this.onlyPrefix = onlyPrefix;
        }

        boolean serves(final String className)
        {
            return !shared(className) && (onlyPrefix == null || className.startsWith(onlyPrefix));
        }

        /** The protection domain of the class path entry (directory or jar) that holds a class file. */
        ProtectionDomain domain(final URL classFile, final String path)
        {
            final String s = classFile.toString();
            final int bang = s.indexOf("!/");
            final String root = s.startsWith("jar:") && bang > 0 ? s.substring(4, bang)
                : s.endsWith(path) ? s.substring(0, s.length() - path.length()) : s;
            return domains.computeIfAbsent(root, r ->
            {
                try
                {
                    return new ProtectionDomain(new CodeSource(java.net.URI.create(r).toURL(), (Certificate[])null), null);
                }
                catch (final java.net.MalformedURLException | IllegalArgumentException e)
                {
                    return new ProtectionDomain(null, null);
                }
            });
        }
    }

    private final Source source;

    /**
     * @param name   the rank, for diagnostics.
     * @param source the program's class files.
     * @param parent the launcher's class loader: the library, the JDK and the dependencies.
     */
    RankClassLoader(final String name, final Source source, final ClassLoader parent)
    {
        super(name, parent);
        this.source = source;
    }

    /**
     * @param className a binary class name.
     * @return whether all ranks share the class: the JDK's and the emulator library's packages.
     */
    static boolean shared(final String className)
    {
        for (final String p : SHARED)
        {
            if (className.startsWith(p))
            {
                return true;
            }
        }
        return false;
    }

    @Override
    protected Class<?> loadClass(final String name, final boolean resolve) throws ClassNotFoundException
    {
        if (!source.serves(name))
        {
            return super.loadClass(name, resolve);
        }
        synchronized (getClassLoadingLock(name))
        {
            Class<?> c = findLoadedClass(name);
            if (c == null)
            {
                c = defineFromSource(name);
            }
            if (c == null)
            {
                c = getParent().loadClass(name);
            }
            if (resolve)
            {
                resolveClass(c);
            }
            return c;
        }
    }

    private Class<?> defineFromSource(final String name) throws ClassNotFoundException
    {
        final String path = name.replace('.', '/') + ".class";
        final URL url = source.bytes.getResource(path);
        if (url == null)
        {
            return null;
        }
        final byte[] b;
        try (InputStream in = url.openStream())
        {
            b = in.readAllBytes();
        }
        catch (final IOException e)
        {
            throw new ClassNotFoundException(name + ": " + e.getMessage(), e);
        }
        return defineClass(name, b, 0, b.length, source.domain(url, path));
    }
}
