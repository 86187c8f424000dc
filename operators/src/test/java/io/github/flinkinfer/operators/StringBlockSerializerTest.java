package io.github.flinkinfer.operators;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.flinkinfer.operators.dedupe.DocumentOutcome;
import io.github.flinkinfer.operators.dedupe.DroppedDuplicate;
import java.util.Random;
import org.apache.flink.api.common.serialization.SerializerConfigImpl;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.java.typeutils.PojoTypeInfo;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.junit.jupiter.api.Test;

/**
 * {@link StringBlockSerializer}: every string back exactly (one-byte, two-byte, unpaired surrogates,
 * empty, null), a copy between views byte for byte, and the fields that use it.
 */
class StringBlockSerializerTest {
    private static final StringBlockSerializer S = StringBlockSerializer.INSTANCE;

    private static String roundTrip(String s) throws Exception {
        DataOutputSerializer out = new DataOutputSerializer(16);
        S.serialize(s, out);
        S.serialize("after", out); // the next value starts where this one ends
        DataOutputSerializer copied = new DataOutputSerializer(16);
        S.copy(new DataInputDeserializer(out.getCopyOfBuffer()), copied);
        S.copy(new DataInputDeserializer(out.getCopyOfBuffer(), 0, out.length()), new DataOutputSerializer(1));
        DataInputDeserializer in = new DataInputDeserializer(out.getCopyOfBuffer());
        String back = S.deserialize(in);
        assertThat(S.deserialize(in)).isEqualTo("after");
        assertThat(in.available()).isZero();
        DataInputDeserializer copyIn = new DataInputDeserializer(copied.getCopyOfBuffer());
        assertThat(S.deserialize(copyIn)).isEqualTo(back);
        assertThat(copyIn.available()).isZero();
        return back;
    }

    @Test
    void everyStringComesBackExactly() throws Exception {
        String[] odd = {
            "", "a", "file:/data/corpus.jsonl@1234567", "caf\u00e9 \u00ff", "\u20ac 1", "\ud83d\ude00",
            "\ud800", "x\udc00y", "\u0000\u0100", "\uffff", "a".repeat(100_000)
        };
        for (String s : odd) {
            assertThat(roundTrip(s)).isEqualTo(s);
        }
        assertThat(roundTrip(null)).isNull();
        Random random = new Random(38);
        for (int i = 0; i < 2_000; i++) {
            char[] chars = new char[random.nextInt(40)];
            for (int j = 0; j < chars.length; j++) {
                chars[j] = (char) (random.nextBoolean() ? random.nextInt(256) : random.nextInt(0x10000));
            }
            String s = new String(chars);
            assertThat(roundTrip(s)).isEqualTo(s);
        }
        assertThat(S.snapshotConfiguration().restoreSerializer()).isSameAs(S);
    }

    @Test
    void oneBytePerCharWhereEveryCharFitsOne() throws Exception {
        DataOutputSerializer out = new DataOutputSerializer(16);
        S.serialize("caf\u00e9", out);
        assertThat(out.length()).isEqualTo(4 + 4);
        out.clear();
        S.serialize("\u20ac", out);
        assertThat(out.length()).isEqualTo(4 + 2);
    }

    @Test
    void thePositionMarksAndDroppedDuplicatesUseIt() throws Exception {
        PojoTypeInfo<DocumentOutcome> marks = (PojoTypeInfo<DocumentOutcome>) TypeInformation.of(DocumentOutcome.class);
        assertThat(marks.getTypeAt(marks.getFieldIndex("id"))).isInstanceOf(StringBlockSerializer.Info.class);
        assertThat(marks.getTypeAt(marks.getFieldIndex("source"))).isInstanceOf(StringBlockSerializer.Info.class);
        PojoTypeInfo<DroppedDuplicate> dropped = (PojoTypeInfo<DroppedDuplicate>) TypeInformation.of(DroppedDuplicate.class);
        assertThat(dropped.getTypeAt(dropped.getFieldIndex("position"))).isInstanceOf(StringBlockSerializer.Info.class);
        assertThat(dropped.getTypeAt(dropped.getFieldIndex("keptAt"))).isInstanceOf(StringBlockSerializer.Info.class);

        DocumentOutcome mark = DocumentOutcome.mark(new Document("\ud800id", "text", "s3://b/c.jsonl@17"));
        TypeSerializer<DocumentOutcome> serializer = marks.createSerializer(new SerializerConfigImpl());
        DataOutputSerializer out = new DataOutputSerializer(64);
        serializer.serialize(mark, out);
        DocumentOutcome back = serializer.deserialize(new DataInputDeserializer(out.getCopyOfBuffer()));
        assertThat(back.id).isEqualTo("\ud800id");
        assertThat(back.source).isEqualTo("s3://b/c.jsonl@17");
        assertThat(back.inputLength).isEqualTo(4);
        assertThat(back.inputSha256).isEqualTo(mark.inputSha256);
    }
}
