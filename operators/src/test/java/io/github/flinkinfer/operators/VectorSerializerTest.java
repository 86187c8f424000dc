package io.github.flinkinfer.operators;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.flink.api.common.serialization.SerializerConfigImpl;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.common.typeutils.base.array.FloatPrimitiveArraySerializer;
import org.apache.flink.api.java.typeutils.PojoTypeInfo;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.junit.jupiter.api.Test;

/**
 * {@link VectorSerializer}: Flink's float[] bytes (but a NaN's payload, which it keeps where Flink
 * writes the canonical NaN), every float's bits back, and the type of every result's vector.
 */
class VectorSerializerTest {
    private static final float[] ODD = {
        0f, -0f, 1f, -1.5f, Float.NaN, Float.intBitsToFloat(0x7fc00001), Float.MIN_VALUE, Float.MAX_VALUE,
        Float.NEGATIVE_INFINITY, Float.POSITIVE_INFINITY, 3.1415927f, 1e-38f
    };

    @Test
    void writesTheBytesOfFlinksFloatArraySerializer() throws Exception {
        float[] payloadNaN = {1f, Float.intBitsToFloat(0x7fc00001), 2f};
        for (float[] v : new float[][] {ODD, new float[0], random(384), payloadNaN}) {
            DataOutputSerializer ours = new DataOutputSerializer(64);
            DataOutputSerializer flinks = new DataOutputSerializer(64);
            VectorSerializer.INSTANCE.serialize(v, ours);
            FloatPrimitiveArraySerializer.INSTANCE.serialize(v, flinks);
            if (v == ODD || v == payloadNaN) { // Flink's writes a NaN's payload as the canonical NaN; ours keeps it
                assertThat(ours.getCopyOfBuffer()).isNotEqualTo(flinks.getCopyOfBuffer());
                float[] canonical = v.clone();
                for (int i = 0; i < canonical.length; i++) {
                    canonical[i] = Float.isNaN(canonical[i]) ? Float.NaN : canonical[i];
                }
                DataOutputSerializer ourCanonical = new DataOutputSerializer(64);
                VectorSerializer.INSTANCE.serialize(canonical, ourCanonical);
                assertThat(ourCanonical.getCopyOfBuffer()).isEqualTo(flinks.getCopyOfBuffer());
            } else {
                assertThat(ours.getCopyOfBuffer()).isEqualTo(flinks.getCopyOfBuffer());
            }

            float[] back = VectorSerializer.INSTANCE.deserialize(new DataInputDeserializer(ours.getCopyOfBuffer()));
            assertThat(bits(back)).isEqualTo(bits(v));

            DataOutputSerializer copied = new DataOutputSerializer(64);
            VectorSerializer.INSTANCE.copy(new DataInputDeserializer(ours.getCopyOfBuffer()), copied);
            assertThat(copied.getCopyOfBuffer()).isEqualTo(ours.getCopyOfBuffer());
        }
        assertThat(VectorSerializer.INSTANCE.copy(ODD)).isNotSameAs(ODD);
        assertThat(bits(VectorSerializer.INSTANCE.copy(ODD))).isEqualTo(bits(ODD));
        assertThat(VectorSerializer.INSTANCE.snapshotConfiguration().restoreSerializer()).isSameAs(VectorSerializer.INSTANCE);
    }

    @Test
    void everyResultsVectorHasIt() throws Exception {
        TypeInformation<InferenceResult> info = TypeInformation.of(InferenceResult.class);
        assertThat(info).isInstanceOf(PojoTypeInfo.class);
        PojoTypeInfo<InferenceResult> pojo = (PojoTypeInfo<InferenceResult>) info;
        assertThat(pojo.getTypeAt(pojo.getFieldIndex("vector"))).isInstanceOf(VectorSerializer.Info.class);

        InferenceResult r = new InferenceResult();
        r.id = "doc-1";
        r.source = "file:/c.jsonl:0";
        r.vector = ODD;
        r.tokenCount = 7;
        TypeSerializer<InferenceResult> results = info.createSerializer(new SerializerConfigImpl());
        DataOutputSerializer out = new DataOutputSerializer(256);
        results.serialize(r, out);
        InferenceResult back = results.deserialize(new DataInputDeserializer(out.getCopyOfBuffer()));
        assertThat(back.id).isEqualTo("doc-1");
        assertThat(back.tokenCount).isEqualTo(7);
        assertThat(bits(back.vector)).isEqualTo(bits(ODD));
        r.vector = null; // a result without a vector still travels
        out.clear();
        results.serialize(r, out);
        assertThat(results.deserialize(new DataInputDeserializer(out.getCopyOfBuffer())).vector).isNull();
    }

    private static float[] random(int n) {
        java.util.Random rnd = new java.util.Random(7);
        float[] v = new float[n];
        for (int i = 0; i < n; i++) {
            v[i] = (float) rnd.nextGaussian();
        }
        return v;
    }

    private static int[] bits(float[] v) {
        int[] b = new int[v.length];
        for (int i = 0; i < v.length; i++) {
            b[i] = Float.floatToRawIntBits(v[i]);
        }
        return b;
    }
}
