package io.github.flinkinfer.operators;

import io.github.flinkinfer.operators.chunk.ChunkRef;
import java.io.IOException;
import java.lang.reflect.Type;
import java.util.Map;
import org.apache.flink.api.common.serialization.SerializerConfig;
import org.apache.flink.api.common.typeinfo.TypeInfoFactory;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.SimpleTypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;
import org.apache.flink.types.StringValue;

/**
 * Every {@link InferenceResult} between subtasks, into the keep-first exchange and in operator
 * state: its fields written one after the other, without the reflection, per-field null flags and
 * nested-POJO headers of Flink's {@code PojoSerializer}, which was 10% of the host ceiling's Java
 * samples on the benchmark fixture model (docs/benchmarks/host-ceiling-2026-12-02c.md). The
 * vector is {@link VectorSerializer}'s bytes (length, big-endian floats, every float's raw bits)
 * built in a buffer this serializer keeps, so each instance serves one thread ({@link
 * #duplicate()} makes another, as Flink asks per task).
 *
 * <p>Layout: a flags byte (vector present, chunk present, truncated), then id, source, model,
 * model version ({@link StringValue}'s nullable strings), token count, original token count, the
 * vector, the chunk's three strings and four ints. A field added to {@link InferenceResult} or
 * {@link ChunkRef} must be added here ({@code InferenceResultSerializerTest} counts them).
 */
public final class InferenceResultSerializer extends TypeSerializer<InferenceResult> {
    private static final long serialVersionUID = 1L;
    private static final int HAS_VECTOR = 1;
    private static final int HAS_CHUNK = 2;
    private static final int TRUNCATED = 4;

    /** The vector's bytes on their way out or in (one element: {@link VectorSerializer#read}'s holder). */
    private transient byte[][] scratch = new byte[1][];

    @Override
    public boolean isImmutableType() {
        return false;
    }

    @Override
    public TypeSerializer<InferenceResult> duplicate() {
        return new InferenceResultSerializer();
    }

    @Override
    public InferenceResult createInstance() {
        return new InferenceResult();
    }

    @Override
    public InferenceResult copy(InferenceResult from) {
        InferenceResult r = new InferenceResult();
        r.id = from.id;
        r.source = from.source;
        r.vector = from.vector == null ? null : from.vector.clone();
        r.tokenCount = from.tokenCount;
        r.originalTokenCount = from.originalTokenCount;
        r.truncated = from.truncated;
        r.model = from.model;
        r.modelVersion = from.modelVersion;
        r.chunk = from.chunk == null ? null : copy(from.chunk);
        return r;
    }

    private static ChunkRef copy(ChunkRef from) {
        ChunkRef c = new ChunkRef();
        c.docId = from.docId;
        c.contentSha256 = from.contentSha256;
        c.settings = from.settings;
        c.chunkIndex = from.chunkIndex;
        c.chunkCount = from.chunkCount;
        c.tokenStart = from.tokenStart;
        c.tokenEnd = from.tokenEnd;
        return c;
    }

    @Override
    public InferenceResult copy(InferenceResult from, InferenceResult reuse) {
        return copy(from);
    }

    @Override
    public int getLength() {
        return -1;
    }

    @Override
    public void serialize(InferenceResult r, DataOutputView out) throws IOException {
        out.writeByte((r.vector != null ? HAS_VECTOR : 0) | (r.chunk != null ? HAS_CHUNK : 0)
                | (r.truncated ? TRUNCATED : 0));
        StringValue.writeString(r.id, out);
        StringValue.writeString(r.source, out);
        StringValue.writeString(r.model, out);
        StringValue.writeString(r.modelVersion, out);
        out.writeInt(r.tokenCount);
        out.writeInt(r.originalTokenCount);
        if (r.vector != null) {
            scratch()[0] = VectorSerializer.write(r.vector, out, scratch()[0]);
        }
        if (r.chunk != null) {
            ChunkRef c = r.chunk;
            StringValue.writeString(c.docId, out);
            StringValue.writeString(c.contentSha256, out);
            StringValue.writeString(c.settings, out);
            out.writeInt(c.chunkIndex);
            out.writeInt(c.chunkCount);
            out.writeInt(c.tokenStart);
            out.writeInt(c.tokenEnd);
        }
    }

    private byte[][] scratch() {
        if (scratch == null) { // after Java deserialization of this serializer
            scratch = new byte[1][];
        }
        return scratch;
    }

    @Override
    public InferenceResult deserialize(DataInputView in) throws IOException {
        int flags = in.readByte();
        InferenceResult r = new InferenceResult();
        r.truncated = (flags & TRUNCATED) != 0;
        r.id = StringValue.readString(in);
        r.source = StringValue.readString(in);
        r.model = StringValue.readString(in);
        r.modelVersion = StringValue.readString(in);
        r.tokenCount = in.readInt();
        r.originalTokenCount = in.readInt();
        if ((flags & HAS_VECTOR) != 0) {
            r.vector = VectorSerializer.read(in, scratch());
        }
        if ((flags & HAS_CHUNK) != 0) {
            ChunkRef c = new ChunkRef();
            c.docId = StringValue.readString(in);
            c.contentSha256 = StringValue.readString(in);
            c.settings = StringValue.readString(in);
            c.chunkIndex = in.readInt();
            c.chunkCount = in.readInt();
            c.tokenStart = in.readInt();
            c.tokenEnd = in.readInt();
            r.chunk = c;
        }
        return r;
    }

    @Override
    public InferenceResult deserialize(InferenceResult reuse, DataInputView in) throws IOException {
        return deserialize(in);
    }

    @Override
    public void copy(DataInputView in, DataOutputView out) throws IOException {
        serialize(deserialize(in), out);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof InferenceResultSerializer;
    }

    @Override
    public int hashCode() {
        return InferenceResultSerializer.class.hashCode();
    }

    @Override
    public TypeSerializerSnapshot<InferenceResult> snapshotConfiguration() {
        return new Snapshot();
    }

    /** The snapshot of a serializer without configuration. */
    public static final class Snapshot extends SimpleTypeSerializerSnapshot<InferenceResult> {
        public Snapshot() {
            super(InferenceResultSerializer::new);
        }
    }

    /** {@link InferenceResult}'s type: this serializer. */
    public static final class Info extends TypeInformation<InferenceResult> {
        private static final long serialVersionUID = 1L;

        @Override
        public boolean isBasicType() {
            return false;
        }

        @Override
        public boolean isTupleType() {
            return false;
        }

        @Override
        public int getArity() {
            return 1;
        }

        @Override
        public int getTotalFields() {
            return 1;
        }

        @Override
        public Class<InferenceResult> getTypeClass() {
            return InferenceResult.class;
        }

        @Override
        public boolean isKeyType() {
            return false;
        }

        @Override
        public TypeSerializer<InferenceResult> createSerializer(SerializerConfig config) {
            return new InferenceResultSerializer();
        }

        @Override
        public String toString() {
            return "InferenceResult";
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Info;
        }

        @Override
        public int hashCode() {
            return Info.class.hashCode();
        }

        @Override
        public boolean canEqual(Object o) {
            return o instanceof Info;
        }
    }

    /** Named by {@code @TypeInfo} on {@link InferenceResult}. */
    public static final class Factory extends TypeInfoFactory<InferenceResult> {
        @Override
        public TypeInformation<InferenceResult> createTypeInfo(
                Type t, Map<String, TypeInformation<?>> genericParameters) {
            return new Info();
        }
    }
}
