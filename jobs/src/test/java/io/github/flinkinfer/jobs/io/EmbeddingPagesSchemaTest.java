package io.github.flinkinfer.jobs.io;

import static org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName.BINARY;
import static org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName.INT64;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.UnaryOperator;
import org.apache.avro.Schema;
import org.apache.flink.core.fs.local.LocalDataOutputStream;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.Type;
import org.apache.parquet.schema.Types;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The page writer's columns and the one output schema cannot drift apart silently. */
class EmbeddingPagesSchemaTest {
    @TempDir Path tmp;

    @Test
    void theSchemasColumnsAreExactlyTheOnesThePagesWrite() throws Exception {
        List<String> avroLeaves = new ArrayList<>();
        for (Schema.Field f : EmbeddingParquetWriter.SCHEMA.getFields()) {
            avroLeaves.add(f.schema().getType() == Schema.Type.ARRAY ? f.name() + ".array" : f.name());
        }
        List<String> parquetLeaves = EmbeddingParquetWriter.PARQUET_SCHEMA.getColumns().stream()
                .map(c -> String.join(".", c.getPath())).toList();
        try (LocalDataOutputStream out = new LocalDataOutputStream(tmp.resolve("ok.parquet").toFile())) {
            EmbeddingPages pages =
                    new EmbeddingPages(out, EmbeddingParquetWriter.PARQUET_SCHEMA, EmbeddingParquetWriter.FOOTER);
            assertThat(pages.columnNames()).containsExactlyElementsOf(parquetLeaves)
                    .containsExactlyElementsOf(avroLeaves)
                    .contains(EmbeddingParquetWriter.VECTOR_COLUMN);
            pages.finish();
        }
    }

    @Test
    void twoColumnsSwappedFailAtConstructionNamingTheColumn() throws Exception {
        // same type, so only the names tell them apart: by position they would swap values silently
        MessageType swapped = edit(fields -> {
            Collections.swap(fields, indexOf(fields, "token_count"), indexOf(fields, "original_token_count"));
            return fields;
        });
        assertRefused(swapped, "token_count");
    }

    @Test
    void aRenamedColumnFailsAtConstructionNamingTheColumn() throws Exception {
        MessageType renamed = edit(fields -> {
            fields.set(indexOf(fields, "source"),
                    Types.optional(BINARY).as(LogicalTypeAnnotation.stringType()).named("origin"));
            return fields;
        });
        assertRefused(renamed, "source");
    }

    @Test
    void aRetypedColumnFailsAtConstructionNamingTheColumn() throws Exception {
        MessageType retyped = edit(fields -> {
            fields.set(indexOf(fields, "token_end"), Types.optional(INT64).named("token_end"));
            return fields;
        });
        assertRefused(retyped, "token_end");
    }

    @Test
    void aColumnTheWriterDoesNotKnowFailsAtConstructionNamingTheColumn() throws Exception {
        MessageType added = edit(fields -> {
            fields.add(Types.optional(BINARY).as(LogicalTypeAnnotation.stringType()).named("label"));
            return fields;
        });
        assertRefused(added, "label");
    }

    /** Construction fails with the column's name, before a byte of the file is written. */
    private void assertRefused(MessageType schema, String column) throws Exception {
        Path file = tmp.resolve("drifted.parquet");
        try (LocalDataOutputStream out = new LocalDataOutputStream(file.toFile())) {
            assertThatThrownBy(() -> new EmbeddingPages(out, schema, EmbeddingParquetWriter.FOOTER))
                    .isInstanceOf(IllegalStateException.class).hasMessageContaining("column " + column + " ");
        }
        assertThat(Files.size(file)).isZero();
    }

    private static MessageType edit(UnaryOperator<List<Type>> change) {
        MessageType real = EmbeddingParquetWriter.PARQUET_SCHEMA;
        return new MessageType(real.getName(), change.apply(new ArrayList<>(real.getFields())));
    }

    private static int indexOf(List<Type> fields, String name) {
        for (int i = 0; i < fields.size(); i++) {
            if (fields.get(i).getName().equals(name)) {
                return i;
            }
        }
        throw new IllegalArgumentException(name);
    }
}
