package mpitest;

import static mpitest.Job.check;

import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;

import mpi.Datatype;
import mpi.Info;
import mpi.MPI;
import mpi.MPIException;
import mpi.Message;
import mpi.Struct;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Struct array fields, nested structs and explicit offsets; datatype attributes; Info.clone; Message.isNoProc. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class StructAndAttributesTest
{
    /** A point: three doubles. */
    static final class Point extends Struct
    {
        final int xyz = addDouble(3);

        @Override
        protected Data newData()
        {
            return new Data();
        }

        final class Data extends Struct.Data
        {
            double get(final int i)
            {
                return getDouble(xyz, i);
            }

            void put(final int i, final double v)
            {
                putDouble(xyz, i, v);
            }
        }
    }

    /** A particle: an id, a gap, a point, and four chars. */
    static final class Particle extends Struct
    {
        final Point point;
        final int id;
        final int where;
        final int name;

        Particle(final Point point) throws MPIException
        {
            this.point = point;
            id = addInt();
            setOffset(16);
            where = addStruct(point);
            name = addChar(4);
        }

        @Override
        protected Data newData()
        {
            return new Data();
        }

        final class Data extends Struct.Data
        {
            int id()
            {
                return getInt(id);
            }

            void id(final int v)
            {
                putInt(id, v);
            }

            char name(final int i)
            {
                return getChar(name, i);
            }

            void name(final int i, final char c)
            {
                putChar(name, i, c);
            }

            Point.Data where() throws MPIException
            {
                return point.getData(MPI.slice(getBuffer(), where));
            }
        }
    }

    public static final class Program
    {
        public static void main(final String[] args) throws MPIException
        {
            MPI.Init(args);
            final int rank = MPI.COMM_WORLD.getRank();
            final Point point = new Point();
            final Particle particle = new Particle(point);
            check(particle.where == 16 && particle.name == 40, "offsets " + particle.where + ", " + particle.name);
            check(particle.getExtent() == 48, "extent " + particle.getExtent());
            final ByteBuffer buf = MPI.newByteBuffer(2 * particle.getExtent());
            if (rank == 0)
            {
                for (int e = 0; e < 2; e++)
                {
                    final Particle.Data d = particle.getData(buf, e);
                    d.id(100 + e);
                    d.name(3, (char)('a' + e));
                    d.where().put(2, 1.5 * (e + 1));
                }
            }
            MPI.COMM_WORLD.bcast(buf, 2, particle.getType(), 0);
            for (int e = 0; e < 2; e++)
            {
                final Particle.Data d = particle.getData(buf, e);
                check(d.id() == 100 + e && d.name(3) == 'a' + e && d.where().get(2) == 1.5 * (e + 1), "particle " + e);
            }
            final byte[] bytes = new byte[particle.getExtent()];
            final Particle.Data a = particle.getData(bytes);
            a.id(7);
            check(particle.<Particle.Data>getData(bytes).id() == 7, "a view over a byte array");

            // datatype attributes and clone
            final int key = Datatype.createKeyval();
            final Datatype t = MPI.INT.clone();
            t.setAttr(key, "mine");
            check("mine".equals(t.getAttr(key)) && MPI.INT.getAttr(key) == null, "datatype attribute");
            t.deleteAttr(key);
            check(t.getAttr(key) == null, "deleted attribute");
            Datatype.freeKeyval(key);

            final Info info = new Info();
            info.set("k", "v");
            final Info copy = info.clone();
            info.set("k", "w");
            check("v".equals(copy.get("k")), "Info.clone copies");

            final Message m = new Message();
            m.mProbe(MPI.PROC_NULL, 0, MPI.COMM_WORLD);
            check(m.isNoProc(), "probe of PROC_NULL gives MPI_MESSAGE_NO_PROC");
            check(m.mRecv(new int[1], 1, MPI.INT).getSource() == MPI.PROC_NULL, "receiving it completes at once");
            MPI.Finalize();
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 3})
    void structsAndAttributesWork(final int n)
    {
        Job.run(n, Program.class);
    }
}
