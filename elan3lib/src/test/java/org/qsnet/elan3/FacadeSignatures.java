package org.qsnet.elan3;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Parameter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Checks a C facade against signatures transcribed from ELAN-API.md: each table line is a
 * catalog row as written there ({@code name(params) -> return}), each parameter a C type and/or a
 * name. The C types and the catalog's abbreviations ({@code ctx}, {@code ev}, {@code cap}, ...)
 * map to Java types by one table (the porting rules of the facades' Javadoc); where the catalog
 * names a parameter, the Java parameter must carry that name (so two {@code int}s cannot swap
 * unnoticed); names in capitals are macro values the catalog passes, not names.
 */
public final class FacadeSignatures
{
    /** C type (or abbreviation) to the Java type's name (nested classes as Outer.Inner). */
    private static final Map<String, String> TYPES = new LinkedHashMap<>();
    /** Catalog abbreviations: a bare parameter name and the C type it stands for. */
    private static final Map<String, String> NAMES = new LinkedHashMap<>();

    static
    {
        for (final String t : new String[] {"int", "unsigned", "E3_uint32", "E3_int32", "ELAN_FLAGS", "type word"})
        {
            TYPES.put(t, "int");
        }
        for (final String t : new String[] {"E3_Addr", "ELAN_ADDR", "sdramaddr_t", "void*", "caddr_t", "size", "size_t",
            "ELAN_SIZE_T", "E3_Event_Blk*", "volatile E3_uint32*", "ELAN_LOCK*", "long"})
        {
            TYPES.put(t, "long");
        }
        TYPES.put("bool", "boolean");
        TYPES.put("char*", "String");
        TYPES.put("const char*", "String");
        TYPES.put("char* buf", "StringBuilder");
        TYPES.put("int*", "int[]");
        TYPES.put("ELAN_SIZE_T*", "long[]");
        TYPES.put("size*", "long[]");
        TYPES.put("src[]", "long[]");
        TYPES.put("dst[]", "long[]");
        TYPES.put("lens", "long[]");
        TYPES.put("ELAN3_CTX*", "Elan3Context");
        TYPES.put("ELAN3_SDRAM*", "Elan3Sdram");
        TYPES.put("ELAN_CAPABILITY*", "ElanCapability");
        TYPES.put("ELAN_LOCATION", "ElanLocation");
        TYPES.put("ELAN3_DEVINFO*", "Elan3DevInfo");
        TYPES.put("ELAN_POSITION*", "ElanPosition");
        TYPES.put("ELAN_DEVINFO*", "ElanDevInfo");
        TYPES.put("char* host", "String");
        TYPES.put("E3_DMA_MAIN*", "E3DmaMain");
        TYPES.put("handle (ELAN3_CTX*/void*)", "Elan3Control");
        TYPES.put("nanoseconds", "long");
        TYPES.put("SDRAM handle (void*/ADDR_SDRAM)", "long");
        TYPES.put("ELAN_GROUPSTATS*", "ElanGroupStats");
        TYPES.put("ELAN_STATE*", "ElanBase");
        TYPES.put("ELAN_BASE*", "ElanBase");
        TYPES.put("ELAN_GROUP*", "ElanGroup");
        TYPES.put("ELAN_EVENT*", "ElanEvent");
        TYPES.put("ELAN_QUEUE*", "ElanQueue");
        TYPES.put("ELAN_QUEUE_TX*", "ElanQueue.Tx");
        TYPES.put("ELAN_QUEUE_RX*", "ElanQueue.Rx");
        TYPES.put("ELAN_MAIN_QUEUE*", "ElanQueue.Main");
        TYPES.put("ELAN_PGCTRL*", "ElanBase.PutGet");
        TYPES.put("ELAN_REDUCER", "ElanReducer");
        TYPES.put("ELAN_POLLFN", "ElanPollFn");
        TYPES.put("ELAN_PROGFN", "ElanPollFn");
        TYPES.put("void* handle", "Object");
        TYPES.put("void* fnHandle", "Object");
        TYPES.put("ELAN_TPORT*", "Tport");
        TYPES.put("ELAN_TPORTSTATS*", "Tport.TportStats");
        TYPES.put("void", "void");
        // ELAN-API.md §1.4: "ctx is ELAN3_CTX*, ev is an sdramaddr_t event, and sdram is ctx->sdram"
        NAMES.put("ctx", "ELAN3_CTX*");
        NAMES.put("ev", "sdramaddr_t");
        NAMES.put("sdram", "ELAN3_SDRAM*");
        NAMES.put("ctx->sdram", "ELAN3_SDRAM*");
        NAMES.put("ctl", "handle (ELAN3_CTX*/void*)");
        NAMES.put("handle", "void*");
        NAMES.put("cap", "ELAN_CAPABILITY*");
        NAMES.put("size", "size_t");
        NAMES.put("align", "int");
        NAMES.put("how", "long");
        NAMES.put("word", "volatile E3_uint32*");
        NAMES.put("blk", "E3_Event_Blk*");
        NAMES.put("dma", "sdramaddr_t");
        NAMES.put("value", "long");
        NAMES.put("myVp", "int");
        NAMES.put("remoteVp", "int");
        NAMES.put("dataType", "int");
        NAMES.put("failCount", "int");
        NAMES.put("capIndex", "int");
        NAMES.put("state", "ELAN_STATE*");
        NAMES.put("base", "ELAN_BASE*");
        NAMES.put("group", "ELAN_GROUP*");
        NAMES.put("mq", "ELAN_MAIN_QUEUE*");
        NAMES.put("buf", "void*");
        NAMES.put("len", "size_t");
        NAMES.put("root", "int");
        NAMES.put("flags", "int");
        NAMES.put("x", "long");
        NAMES.put("a", "ELAN_EVENT*");
        NAMES.put("src", "void*");
        NAMES.put("dst", "void*");
        NAMES.put("vp", "int");
        NAMES.put("rail", "int");
        NAMES.put("q", "ELAN_QUEUE*");
        NAMES.put("nslots", "int");
        NAMES.put("smallmsg", "int");
        NAMES.put("bigmsg", "int");
        NAMES.put("stripemsg", "int");
        NAMES.put("waitType", "long");
        NAMES.put("retryCount", "int");
        NAMES.put("shm_fifodepth", "int");
        NAMES.put("shm_fragsize", "int");
        NAMES.put("&shm_key", "int");
        NAMES.put("senderMask", "int");
        NAMES.put("senderSel", "int");
        NAMES.put("tagMask", "int");
        NAMES.put("tagSel", "int");
        NAMES.put("smallPut", "int");
        NAMES.put("splitPut", "int");
        NAMES.put("splitGet", "int");
        NAMES.put("throttle", "int");
        NAMES.put("relNode", "int");
    }

    private static final Pattern ROW = Pattern.compile("\\s*(\\w+)\\s*\\(([^)]*)\\)\\s*(?:->\\s*(.+?))?\\s*");

    /** One parameter as the catalog gives it: the Java type it maps to, and its name or null. */
    record Param(String cText, String javaType, String name)
    {
    }

    /** One catalog row. */
    record Row(String name, List<Param> params, String javaReturn, String text)
    {
    }

    private FacadeSignatures()
    {
    }

    private static String typeOf(final String cType, final String where)
    {
        final String t = TYPES.containsKey(cType.trim()) ? TYPES.get(cType.trim())
            : TYPES.get(cType.replace(" *", "*").replace("* ", "*").trim());
        if (t == null)
        {
            fail("no Java type for C type '" + cType + "' in " + where);
        }
        return t;
    }

    private static Param param(final String raw, final String where, final Map<String, String> names)
    {
        String p = raw.replaceAll("/\\*.*?\\*/", "").trim().replaceAll("\\s+", " ").replace(" *", "* ").replaceAll("\\*\\s+", "* ").trim();
        if (p.equals("x"))
        {
            // the catalog's placeholder for "an address of either kind"
            return new Param(raw.trim(), "long", null);
        }
        if (p.startsWith("&") && !names.containsKey(p) && names.containsKey(p.substring(1)))
        {
            // &name: a pointer to the variable (an out-parameter)
            final String c = names.get(p.substring(1));
            return new Param(raw.trim(), typeOf(c.endsWith("*") ? c : c + "*", where), p.substring(1));
        }
        if (names.containsKey(p))
        {
            final String c = names.get(p);
            final String name = p.replace("&", "").replace("ctx->", "");
            return new Param(raw.trim(), TYPES.containsKey(c + " " + name) ? TYPES.get(c + " " + name) : typeOf(c, where),
                name);
        }
        if (TYPES.containsKey(p) || TYPES.containsKey(p.replace("* ", "*")))
        {
            return new Param(raw.trim(), typeOf(p, where), null);
        }
        if (p.matches("[A-Z0-9_ /]+"))
        {
            // a macro value the catalog passes (DMA_WRITE / DMA_READ, ELAN_VERSION): an int, no name
            return new Param(raw.trim(), "int", null);
        }
        final int cut = p.lastIndexOf(' ');
        if (cut < 0)
        {
            fail("parameter '" + raw + "' of " + where + " is neither a known C type nor a known abbreviation");
        }
        final String cType = p.substring(0, cut).trim();
        final String name = p.substring(cut + 1).trim();
        final String special = TYPES.get(cType + " " + name);
        return new Param(raw.trim(), special != null ? special : typeOf(cType, where), name.equals("?") ? null : name);
    }

    /**
     * Parses catalog rows.
     *
     * @param rows {@code name(params) -> return}; no {@code ->} when the catalog gives no return
     *             (then it is not checked).
     * @return the rows.
     */
    public static List<Row> parse(final String... rows)
    {
        return parse(Map.of(), rows);
    }

    /**
     * Parses catalog rows of a section whose abbreviations differ from §1.4's.
     *
     * @param abbreviations bare names and the C types they stand for in these rows (over the defaults).
     * @param rows          the rows.
     * @return the rows.
     */
    public static List<Row> parse(final Map<String, String> abbreviations, final String... rows)
    {
        final Map<String, String> names = new LinkedHashMap<>(NAMES);
        names.putAll(abbreviations);
        final List<Row> out = new ArrayList<>();
        for (final String r : rows)
        {
            final Matcher m = ROW.matcher(r);
            assertTrue(m.matches(), "table row '" + r + "' is not name(params) -> return");
            final List<Param> ps = new ArrayList<>();
            if (!m.group(2).isBlank())
            {
                for (final String p : m.group(2).split(","))
                {
                    ps.add(param(p, m.group(1), names));
                }
            }
            final String ret = m.group(3) == null ? null : typeOf(m.group(3).trim(), m.group(1) + " (return)");
            out.add(new Row(m.group(1), ps, ret, r.trim()));
        }
        return out;
    }

    private static String javaName(final Class<?> c)
    {
        if (c.isArray())
        {
            return javaName(c.getComponentType()) + "[]";
        }
        if (c.isPrimitive())
        {
            return c.getName();
        }
        final String canonical = c.getCanonicalName();
        final String pkg = c.getPackageName();
        return pkg.isEmpty() ? canonical : canonical.substring(pkg.length() + 1);
    }

    /**
     * Checks a facade class against the table: every row is a public static method of the same
     * name, the only one of that name, with the row's arity, parameter types, parameter names
     * (where the catalog names them) and return type (where the catalog gives it); every row not
     * provided is listed with its reason; every other public static method is a listed extension.
     *
     * @param facade      the facade class.
     * @param table       rows of the catalog for this facade.
     * @param notProvided catalog calls the facade deliberately lacks, with the reason.
     * @param extensions  public methods that are not catalog calls (errno, emulator extras).
     */
    public static void assertMatchesCatalog(final Class<?> facade, final List<Row> table, final Map<String, String> notProvided,
        final Set<String> extensions)
    {
        final Map<String, List<Method>> methods = new TreeMap<>();
        for (final Method m : facade.getDeclaredMethods())
        {
            if (Modifier.isPublic(m.getModifiers()) && Modifier.isStatic(m.getModifiers()))
            {
                methods.computeIfAbsent(m.getName(), k -> new ArrayList<>()).add(m);
            }
        }
        final List<String> problems = new ArrayList<>();
        final Set<String> inTable = new TreeSet<>();
        for (final Row row : table)
        {
            inTable.add(row.name());
            if (notProvided.containsKey(row.name()))
            {
                if (methods.containsKey(row.name()))
                {
                    problems.add(row.name() + " is listed as not provided but exists");
                }
                continue;
            }
            final List<Method> ms = methods.get(row.name());
            if (ms == null)
            {
                problems.add(row.name() + " is missing (catalog: " + row.text() + ")");
                continue;
            }
            if (ms.size() != 1)
            {
                problems.add(row.name() + " has " + ms.size() + " overloads: a legacy call must map to exactly one");
                continue;
            }
            final Method m = ms.get(0);
            final Parameter[] ps = m.getParameters();
            if (ps.length != row.params().size())
            {
                problems.add(row.name() + " takes " + ps.length + " arguments, the catalog " + row.params().size() + ": "
                    + row.text());
                continue;
            }
            for (int i = 0; i < ps.length; i++)
            {
                final Param want = row.params().get(i);
                assertTrue(ps[i].isNamePresent(), "compile with -parameters: " + m);
                if (!javaName(ps[i].getType()).equals(want.javaType()))
                {
                    problems.add(row.name() + " argument " + (i + 1) + " ('" + want.cText() + "') is "
                        + javaName(ps[i].getType()) + ", the catalog maps to " + want.javaType());
                }
                if (want.name() != null && !want.name().matches("[A-Z0-9_]+") && !ps[i].getName().equals(want.name()))
                {
                    problems.add(row.name() + " argument " + (i + 1) + " is named " + ps[i].getName() + ", the catalog "
                        + want.name());
                }
            }
            if (row.javaReturn() != null && !javaName(m.getReturnType()).equals(row.javaReturn()))
            {
                problems.add(row.name() + " returns " + javaName(m.getReturnType()) + ", the catalog maps to "
                    + row.javaReturn());
            }
        }
        for (final String name : methods.keySet())
        {
            if (!inTable.contains(name) && !extensions.contains(name))
            {
                problems.add(name + " is neither in the catalog table nor a listed extension");
            }
        }
        for (final String name : notProvided.keySet())
        {
            if (!inTable.contains(name))
            {
                problems.add(name + " is listed as not provided but is not in the table");
            }
        }
        for (final String name : extensions)
        {
            if (!methods.containsKey(name))
            {
                problems.add(name + " is listed as an extension but does not exist");
            }
        }
        assertEquals(List.of(), problems, facade.getSimpleName() + " differs from ELAN-API.md");
    }
}
