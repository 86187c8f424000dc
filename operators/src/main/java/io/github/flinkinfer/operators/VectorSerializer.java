package io.github.flinkinfer.operators;

import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.lang.reflect.Type;
import java.nio.ByteOrder;
import java.util.Map;
import org.apache.flink.api.common.typeinfo.TypeInfoFactory;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.SimpleTypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.base.TypeSerializerSingleton;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

/**
 * A result's vector between subtasks and in BATCH's sort: the bytes of Flink's {@code
 * FloatPrimitiveArraySerializer} (length, then big-endian floats), written in one block instead
 * of one {@code writeFloat} call per float, and every float's raw bits (Flink's writes any NaN as
 * the canonical NaN). Every result crosses an exchange and, under BATCH
 * keep-first, a sort; there the per-float calls were the largest cost after Parquet (profile in
 * docs/benchmarks/host-ceiling-2026-12-02.md). Given to {@link InferenceResult#vector} by
 * {@link Factory}.
 */
public final class VectorSerializer extends TypeSerializerSingleton<float[]> {
    public static final VectorSerializer INSTANCE = new VectorSerializer();

    private static final VarHandle FLOATS =
            MethodHandles.byteArrayViewVarHandle(float[].class, ByteOrder.BIG_ENDIAN);

    @Override
    public boolean isImmutableType() {
        return false;
    }

    @Override
    public float[] createInstance() {
        return new float[0];
    }

    @Override
    public float[] copy(float[] from) {
        return from.clone();
    }

    @Override
    public float[] copy(float[] from, float[] reuse) {
        return copy(from);
    }

    @Override
    public int getLength() {
        return -1;
    }

    @Override
    public void serialize(float[] v, DataOutputView out) throws IOException {
        byte[] bytes = new byte[v.length * Float.BYTES];
        for (int i = 0; i < v.length; i++) {
            FLOATS.set(bytes, i * Float.BYTES, v[i]);
        }
        out.writeInt(v.length);
        out.write(bytes);
    }

    @Override
    public float[] deserialize(DataInputView in) throws IOException {
        int n = in.readInt();
        byte[] bytes = new byte[n * Float.BYTES];
        in.readFully(bytes);
        float[] v = new float[n];
        for (int i = 0; i < n; i++) {
            v[i] = (float) FLOATS.get(bytes, i * Float.BYTES);
        }
        return v;
    }

    @Override
    public float[] deserialize(float[] reuse, DataInputView in) throws IOException {
        return deserialize(in);
    }

    @Override
    public void copy(DataInputView in, DataOutputView out) throws IOException {
        int n = in.readInt();
        byte[] bytes = new byte[n * Float.BYTES];
        in.readFully(bytes);
        out.writeInt(n);
        out.write(bytes);
    }

    @Override
    public TypeSerializerSnapshot<float[]> snapshotConfiguration() {
        return new Snapshot();
    }

    /** The snapshot of a serializer without configuration. */
    public static final class Snapshot extends SimpleTypeSerializerSnapshot<float[]> {
        public Snapshot() {
            super(() -> INSTANCE);
        }
    }

    /** {@code float[]} with this serializer: the type of {@link InferenceResult#vector}. */
    public static final class Info extends SerializerTypeInfo<float[]> {
        public Info() {
            super(float[].class, INSTANCE, "float[] (vector)");
        }
    }

    /** Named by {@code @TypeInfo} on the field. */
    public static final class Factory extends TypeInfoFactory<float[]> {
        @Override
        public TypeInformation<float[]> createTypeInfo(Type t, Map<String, TypeInformation<?>> genericParameters) {
            return new Info();
        }
    }
}
