package io.github.flinkinfer.operators;

import java.io.IOException;
import java.lang.reflect.Type;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.apache.flink.api.common.typeinfo.TypeInfoFactory;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.SimpleTypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.base.TypeSerializerSingleton;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

/**
 * A string field written in one block: a header, then the string's chars as one byte each where
 * every char is below 256 (ids and positions, nearly always), else as two bytes each. Every
 * string round-trips exactly, unpaired surrogates included (a UTF-8 round trip would not). Flink's
 * {@code StringSerializer} writes one variable-length code per char, one call per byte: in
 * BATCH's sort of keep-first's position marks, where each mark is written, copied to disk and read
 * back, those calls were most of the sort's time (profile in
 * docs/benchmarks/id-pass-serialization-2026-12-06.md). Named by {@code @TypeInfo} on the fields
 * of records that are only exchanged and sorted, never kept in checkpointed state (a changed
 * serializer would not restore an older checkpoint).
 *
 * <pre>{@code
 * @TypeInfo(StringBlockSerializer.Factory.class)
 * public String source;
 * }</pre>
 */
public final class StringBlockSerializer extends TypeSerializerSingleton<String> {
    public static final StringBlockSerializer INSTANCE = new StringBlockSerializer();

    /** The header of null; otherwise {@code n} for n one-byte chars, {@code ~n} for n two-byte ones. */
    private static final int NULL = Integer.MIN_VALUE;

    @Override
    public boolean isImmutableType() {
        return true;
    }

    @Override
    public String createInstance() {
        return "";
    }

    @Override
    public String copy(String from) {
        return from;
    }

    @Override
    public String copy(String from, String reuse) {
        return from;
    }

    @Override
    public int getLength() {
        return -1;
    }

    @Override
    @SuppressWarnings("deprecation") // getBytes(int, int, byte[], int): each char's low byte, what a one-byte string needs
    public void serialize(String s, DataOutputView out) throws IOException {
        if (s == null) {
            out.writeInt(NULL);
            return;
        }
        int n = s.length();
        if (oneBytePerChar(s)) {
            byte[] bytes = new byte[n];
            s.getBytes(0, n, bytes, 0);
            out.writeInt(n);
            out.write(bytes);
        } else {
            byte[] bytes = new byte[2 * n];
            for (int i = 0; i < n; i++) {
                char c = s.charAt(i);
                bytes[2 * i] = (byte) (c >>> 8);
                bytes[2 * i + 1] = (byte) c;
            }
            out.writeInt(~n);
            out.write(bytes);
        }
    }

    private static boolean oneBytePerChar(String s) {
        for (int i = 0; i < s.length(); i++) {
            if (s.charAt(i) > 0xFF) {
                return false;
            }
        }
        return true;
    }

    @Override
    public String deserialize(DataInputView in) throws IOException {
        int header = in.readInt();
        if (header == NULL) {
            return null;
        }
        byte[] bytes = new byte[byteLength(header)];
        in.readFully(bytes);
        if (header >= 0) {
            return new String(bytes, StandardCharsets.ISO_8859_1);
        }
        char[] chars = new char[~header];
        for (int i = 0; i < chars.length; i++) {
            chars[i] = (char) (((bytes[2 * i] & 0xFF) << 8) | (bytes[2 * i + 1] & 0xFF));
        }
        return new String(chars);
    }

    @Override
    public String deserialize(String reuse, DataInputView in) throws IOException {
        return deserialize(in);
    }

    @Override
    public void copy(DataInputView in, DataOutputView out) throws IOException {
        int header = in.readInt();
        out.writeInt(header);
        if (header != NULL) {
            // through an array: DataOutputSerializer's write(DataInputView, n) does not grow its buffer
            byte[] bytes = new byte[byteLength(header)];
            in.readFully(bytes);
            out.write(bytes);
        }
    }

    private static int byteLength(int header) {
        return header >= 0 ? header : 2 * ~header;
    }

    @Override
    public TypeSerializerSnapshot<String> snapshotConfiguration() {
        return new Snapshot();
    }

    /** The snapshot of a serializer without configuration. */
    public static final class Snapshot extends SimpleTypeSerializerSnapshot<String> {
        public Snapshot() {
            super(() -> INSTANCE);
        }
    }

    /** {@code String} with this serializer. */
    public static final class Info extends SerializerTypeInfo<String> {
        public Info() {
            super(String.class, INSTANCE, "String (one block)");
        }
    }

    /** Named by {@code @TypeInfo} on the field. */
    public static final class Factory extends TypeInfoFactory<String> {
        @Override
        public TypeInformation<String> createTypeInfo(Type t, Map<String, TypeInformation<?>> genericParameters) {
            return new Info();
        }
    }
}
