package mpi;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * {@code MPI_Op}: a predefined reduction operator ({@link MPI#SUM}, {@link MPI#MAXLOC}, ...) or a
 * user's ({@link #Op(UserFunction, boolean)}).
 */
public final class Op implements Freeable
{
    static final int MAX = 1;
    static final int MIN = 2;
    static final int SUM = 3;
    static final int PROD = 4;
    static final int LAND = 5;
    static final int BAND = 6;
    static final int LOR = 7;
    static final int BOR = 8;
    static final int LXOR = 9;
    static final int BXOR = 10;
    static final int MINLOC = 11;
    static final int MAXLOC = 12;
    static final int REPLACE = 13;
    static final int NO_OP = 14;
    private static final String[] NAME = {"", "MPI_MAX", "MPI_MIN", "MPI_SUM", "MPI_PROD", "MPI_LAND", "MPI_BAND",
        "MPI_LOR", "MPI_BOR", "MPI_LXOR", "MPI_BXOR", "MPI_MINLOC", "MPI_MAXLOC", "MPI_REPLACE", "MPI_NO_OP"};

    final int code;
    private final UserFunction function;
    private final boolean commute;
    private boolean freed;

    Op(final int code)
    {
        this.code = code;
        this.function = null;
        this.commute = true;
    }

    /**
     * {@code MPI_OP_CREATE}: a user operator.
     *
     * @param function the function.
     * @param commute  whether it is commutative (if not, operands are combined in rank order).
     */
    public Op(final UserFunction function, final boolean commute)
    {
        this.code = 0;
        this.function = function;
        this.commute = commute;
    }

    /**
     * {@code MPI_OP_COMMUTATIVE}.
     *
     * @return whether the operator is commutative.
     */
    public boolean isCommutative()
    {
        return commute;
    }

    /**
     * {@code MPI_OP_FREE}: frees a user operator.
     *
     * @throws MPIException with {@link MPI#ERR_OP} for a predefined operator (freeing one is
     *                      erroneous; Open MPI refuses it the same way), which stays usable.
     */
    @Override
    public void free() throws MPIException
    {
        if (code != 0)
        {
            throw new MPIException(MPI.ERR_OP, "free: " + NAME[code] + " is predefined and cannot be freed");
        }
        freed = true;
    }

    /**
     * @return whether the operator was freed.
     */
    public boolean isNull()
    {
        return freed;
    }

    @Override
    public String toString()
    {
        return code == 0 ? "user operator" : NAME[code];
    }

    /** Checks that this operator applies to the type. */
    void check(final String what, final Datatype t) throws MPIException
    {
        if (freed)
        {
            throw new MPIException(MPI.ERR_OP, what + ": the operator was freed");
        }
        if (code == 0 || code == REPLACE || code == NO_OP)
        {
            return;
        }
        if (code == MINLOC || code == MAXLOC)
        {
            if (!t.isPair())
            {
                throw new MPIException(MPI.ERR_OP, what + ": " + this + " needs a pair type (MPI.INT2, SHORT_INT, LONG_INT,"
                    + " FLOAT_INT, DOUBLE_INT), not " + t);
            }
            return;
        }
        if (t.complex && code != SUM && code != PROD)
        {
            throw new MPIException(MPI.ERR_OP, what + ": " + this + " is not defined on complex type " + t
                + " (MPI defines only MPI_SUM and MPI_PROD on complex numbers)");
        }
        for (final int k : t.kinds)
        {
            final boolean fp = k == Datatype.K_FLOAT || k == Datatype.K_DOUBLE;
            final boolean bool = k == Datatype.K_BOOLEAN;
            final boolean ok = switch (code)
            {
                case MAX, MIN, SUM, PROD -> !bool;
                case LAND, LOR, LXOR -> !fp;
                default -> !fp;
            };
            if (!ok)
            {
                throw new MPIException(MPI.ERR_OP, what + ": " + this + " is not defined on " + t);
            }
        }
    }

    /** {@code inout = in op inout} on {@code count} elements of {@code t} in the wire format. */
    void combine(final byte[] in, final byte[] inout, final int count, final Datatype t) throws MPIException
    {
        if (code == 0)
        {
            user(in, inout, count, t);
            return;
        }
        if (code == REPLACE)
        {
            System.arraycopy(in, 0, inout, 0, Math.min(in.length, inout.length));
            return;
        }
        if (code == NO_OP)
        {
            return;
        }
        final ByteBuffer a = ByteBuffer.wrap(in).order(ByteOrder.LITTLE_ENDIAN);
        final ByteBuffer b = ByteBuffer.wrap(inout).order(ByteOrder.LITTLE_ENDIAN);
        int p = 0;
        for (int i = 0; i < count; i++)
        {
            if (code == MINLOC || code == MAXLOC)
            {
                final int vk = t.kinds[0];
                final int vs = Datatype.sizeOf(vk);
                final int c = Double.compare(value(a, vk, p), value(b, vk, p));
                final int ia = a.getInt(p + vs);
                final int ib = b.getInt(p + vs);
                final boolean takeIn = (code == MAXLOC ? c > 0 : c < 0) || c == 0 && ia < ib;
                if (takeIn)
                {
                    System.arraycopy(in, p, inout, p, vs + 4);
                }
                p += vs + 4;
                continue;
            }
            if (t.complex && code == PROD)
            {
                for (int e = 0; e < t.kinds.length; e += 2)
                {
                    p = complexProduct(a, b, t.kinds[e], p);
                }
                continue;
            }
            for (final int k : t.kinds)
            {
                p = element(a, b, k, p);
            }
        }
    }

    /** {@code b = a * b} on one complex number of two {@code k} parts at {@code p}; returns the next position. */
    private static int complexProduct(final ByteBuffer a, final ByteBuffer b, final int k, final int p)
    {
        if (k == Datatype.K_FLOAT)
        {
            final float ar = a.getFloat(p);
            final float ai = a.getFloat(p + 4);
            final float br = b.getFloat(p);
            final float bi = b.getFloat(p + 4);
            b.putFloat(p, ar * br - ai * bi);
            b.putFloat(p + 4, ar * bi + ai * br);
            return p + 8;
        }
        final double ar = a.getDouble(p);
        final double ai = a.getDouble(p + 8);
        final double br = b.getDouble(p);
        final double bi = b.getDouble(p + 8);
        b.putDouble(p, ar * br - ai * bi);
        b.putDouble(p + 8, ar * bi + ai * br);
        return p + 16;
    }

    private static double value(final ByteBuffer x, final int k, final int p)
    {
        return switch (k)
        {
            case Datatype.K_BYTE -> x.get(p);
            case Datatype.K_CHAR -> x.getChar(p);
            case Datatype.K_SHORT -> x.getShort(p);
            case Datatype.K_INT -> x.getInt(p);
            case Datatype.K_LONG -> x.getLong(p);
            case Datatype.K_FLOAT -> x.getFloat(p);
            default -> x.getDouble(p);
        };
    }

    private int element(final ByteBuffer a, final ByteBuffer b, final int k, final int p)
    {
        switch (k)
        {
            case Datatype.K_FLOAT -> b.putFloat(p, (float)fp(a.getFloat(p), b.getFloat(p)));
            case Datatype.K_DOUBLE -> b.putDouble(p, fp(a.getDouble(p), b.getDouble(p)));
            case Datatype.K_BYTE, Datatype.K_BOOLEAN -> b.put(p, (byte)integral(a.get(p), b.get(p)));
            case Datatype.K_CHAR -> b.putChar(p, (char)integral(a.getChar(p), b.getChar(p)));
            case Datatype.K_SHORT -> b.putShort(p, (short)integral(a.getShort(p), b.getShort(p)));
            case Datatype.K_INT -> b.putInt(p, (int)integral(a.getInt(p), b.getInt(p)));
            default -> b.putLong(p, integral(a.getLong(p), b.getLong(p)));
        }
        return p + Datatype.sizeOf(k);
    }

    private double fp(final double x, final double y)
    {
        return switch (code)
        {
            case MAX -> Math.max(x, y);
            case MIN -> Math.min(x, y);
            case SUM -> x + y;
            default -> x * y;
        };
    }

    private long integral(final long x, final long y)
    {
        return switch (code)
        {
            case MAX -> Math.max(x, y);
            case MIN -> Math.min(x, y);
            case SUM -> x + y;
            case PROD -> x * y;
            case LAND -> x != 0 && y != 0 ? 1 : 0;
            case LOR -> x != 0 || y != 0 ? 1 : 0;
            case LXOR -> (x != 0) != (y != 0) ? 1 : 0;
            case BAND -> x & y;
            case BOR -> x | y;
            default -> x ^ y;
        };
    }

    private void user(final byte[] in, final byte[] inout, final int count, final Datatype t) throws MPIException
    {
        final int bytes = (int)Math.max(0, (count - 1L) * t.extentBytes + t.trueUbBytes);
        final ByteBuffer x = ByteBuffer.allocateDirect(Math.max(bytes, count * (int)t.extentBytes)).order(ByteOrder.nativeOrder());
        final ByteBuffer y = ByteBuffer.allocateDirect(x.capacity()).order(ByteOrder.nativeOrder());
        t.unpack(in, count * t.wireSize, x, 0);
        t.unpack(inout, count * t.wireSize, y, 0);
        function.call(x, y, count, t);
        final byte[] r = t.pack(y, 0, count);
        System.arraycopy(r, 0, inout, 0, r.length);
    }
}
