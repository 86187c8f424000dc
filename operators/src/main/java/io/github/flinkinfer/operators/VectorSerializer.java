package io.github.flinkinfer.operators;

import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import org.apache.flink.api.common.typeutils.SimpleTypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.TypeSerializer;
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
 * docs/benchmarks/host-ceiling-2026-12-02.md). {@link InferenceResultSerializer} writes each
 * result's vector in this format.
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
        write(v, out, null);
    }

    @Override
    public float[] deserialize(DataInputView in) throws IOException {
        return read(in, null);
    }

    /**
     * Writes {@code v} in this serializer's format, building its bytes in {@code scratch} when it
     * is long enough (else in a new array); returns the buffer used, for the caller to keep.
     */
    static byte[] write(float[] v, DataOutputView out, byte[] scratch) throws IOException {
        int n = v.length * Float.BYTES;
        byte[] bytes = scratch != null && scratch.length >= n ? scratch : new byte[n];
        for (int i = 0; i < v.length; i++) {
            FLOATS.set(bytes, i * Float.BYTES, v[i]);
        }
        out.writeInt(v.length);
        out.write(bytes, 0, n);
        return bytes;
    }

    /** Reads a vector {@link #write} wrote, through {@code scratch} as there. */
    static float[] read(DataInputView in, byte[][] scratch) throws IOException {
        int n = in.readInt();
        int len = n * Float.BYTES;
        byte[] bytes = scratch != null && scratch[0] != null && scratch[0].length >= len ? scratch[0] : new byte[len];
        if (scratch != null) {
            scratch[0] = bytes;
        }
        in.readFully(bytes, 0, len);
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
}
