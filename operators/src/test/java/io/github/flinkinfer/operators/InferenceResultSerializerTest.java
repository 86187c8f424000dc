package io.github.flinkinfer.operators;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.flinkinfer.operators.chunk.ChunkRef;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.Arrays;
import org.apache.flink.api.common.serialization.SerializerConfigImpl;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.junit.jupiter.api.Test;

/** {@link InferenceResultSerializer}: every field back, nulls and odd floats included. */
class InferenceResultSerializerTest {

    private static InferenceResult full() {
        InferenceResult r = new InferenceResult();
        r.id = "doc-1#2";
        r.source = "file:/c.jsonl:0";
        r.vector = VectorSerializerTest.ODD;
        r.tokenCount = 7;
        r.originalTokenCount = 70;
        r.truncated = true;
        r.model = "all-minilm-l6-v2";
        r.modelVersion = "1.0.0-\u00e9";
        r.chunk = ChunkRef.document("doc-1", "ab12", "w128s32");
        r.chunk.chunkIndex = 2;
        r.chunk.chunkCount = 3;
        r.chunk.tokenStart = 96;
        r.chunk.tokenEnd = 224;
        return r;
    }

    @Test
    void everyResultTravelsWithIt() throws Exception {
        TypeInformation<InferenceResult> info = TypeInformation.of(InferenceResult.class);
        assertThat(info).isInstanceOf(InferenceResultSerializer.Info.class);
        TypeSerializer<InferenceResult> results = info.createSerializer(new SerializerConfigImpl());
        assertThat(results).isInstanceOf(InferenceResultSerializer.class);
        assertThat(results.duplicate()).isNotSameAs(results).isEqualTo(results);
        assertThat(results.snapshotConfiguration().restoreSerializer()).isEqualTo(results);
    }

    @Test
    void everyFieldComesBack() throws Exception {
        InferenceResultSerializer s = new InferenceResultSerializer();
        InferenceResult empty = new InferenceResult(); // nulls everywhere, no vector, no chunk
        InferenceResult noChunk = full();
        noChunk.chunk = null;
        noChunk.truncated = false;
        for (InferenceResult r : new InferenceResult[] {full(), empty, noChunk, full()}) {
            DataOutputSerializer out = new DataOutputSerializer(64);
            s.serialize(r, out);
            s.serialize(r, out); // twice: the kept buffer must not leak between records
            DataInputDeserializer in = new DataInputDeserializer(out.getCopyOfBuffer());
            assertSame(s.deserialize(in), r);
            assertSame(s.deserialize(in), r);
            assertThat(in.available()).isZero();
            assertSame(s.copy(r), r);

            DataOutputSerializer copied = new DataOutputSerializer(64);
            s.copy(new DataInputDeserializer(out.getCopyOfBuffer()), copied);
            s.copy(new DataInputDeserializer(out.getCopyOfBuffer()), copied);
            assertThat(copied.getCopyOfBuffer()).isEqualTo(out.getCopyOfBuffer());
        }
        InferenceResult r = full();
        assertThat(s.copy(r).vector).isNotSameAs(r.vector);
        assertThat(s.copy(r).chunk).isNotSameAs(r.chunk);
    }

    /** A field added to the result or its chunk must be added to the serializer (and here). */
    @Test
    void itKnowsEveryField() {
        assertThat(instanceFields(InferenceResult.class)).containsExactlyInAnyOrder(
                "id", "source", "vector", "tokenCount", "originalTokenCount", "truncated", "model",
                "modelVersion", "chunk");
        assertThat(instanceFields(ChunkRef.class)).containsExactlyInAnyOrder(
                "docId", "contentSha256", "settings", "chunkIndex", "chunkCount", "tokenStart", "tokenEnd");
    }

    private static String[] instanceFields(Class<?> type) {
        return Arrays.stream(type.getDeclaredFields())
                .filter(f -> !Modifier.isStatic(f.getModifiers()))
                .map(Field::getName)
                .toArray(String[]::new);
    }

    private static void assertSame(InferenceResult back, InferenceResult r) {
        assertThat(back).usingRecursiveComparison().ignoringFields("vector").isEqualTo(r);
        if (r.vector == null) {
            assertThat(back.vector).isNull();
        } else {
            assertThat(VectorSerializerTest.bits(back.vector)).isEqualTo(VectorSerializerTest.bits(r.vector));
        }
    }
}
