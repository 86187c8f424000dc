package io.github.flinkinfer.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.flinkinfer.jobs.testutils.ClusterTestBase;
import io.github.flinkinfer.jobs.testutils.Jobs;
import io.github.flinkinfer.jobs.testutils.MiniClusters;
import io.github.flinkinfer.jobs.testutils.Outputs;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.parquet.avro.AvroParquetWriter;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.io.LocalOutputFile;
import org.junit.jupiter.api.Test;

/** CSV, plain text and Parquet inputs, each in one run, with their id rules. */
class InputFormatsITCase extends ClusterTestBase {

    @Test
    void csvTextAndParquetInputsInOneRun() throws Exception {
        Path csv = tmp.resolve("docs.csv");
        Files.writeString(csv, "doc_id,body,lang\n"
                + "c1,\"A quoted, comma-holding sentence.\",en\n"
                + "c2,Plain second row,en\n");
        Path txt = tmp.resolve("lines.txt");
        Files.writeString(txt, "first line of text\n\nthird line, after a blank one\n");
        Path parquet = tmp.resolve("docs.parquet");
        Schema schema = SchemaBuilder.record("Doc").fields()
                .requiredString("doc_id").requiredString("body").requiredInt("year").endRecord();
        try (ParquetWriter<GenericRecord> w =
                AvroParquetWriter.<GenericRecord>builder(new LocalOutputFile(parquet))
                        .withSchema(schema).build()) {
            for (int i = 0; i < 3; i++) {
                GenericData.Record r = new GenericData.Record(schema);
                r.put("doc_id", "p" + i);
                r.put("body", "parquet document " + i);
                r.put("year", 2000 + i);
                w.write(r);
            }
        }
        Path out = tmp.resolve("out");
        MiniClusters.embed(Jobs.options(
                "--input", csv + "," + txt + "," + parquet, "--output", out.toString(),
                "--id-field", "doc_id", "--text-field", "body", "--run-id", "formats",
                "--parallelism", "2"));
        // a text line's id is its position: the file's whole path and the line's byte offset
        assertThat(Outputs.embeddings(out).keySet().stream()
                .map(id -> id.contains(tmp.toString()) ? id.substring(id.lastIndexOf('/') + 1) : id))
                .containsExactlyInAnyOrder("c1", "c2", "lines.txt@0", "lines.txt@20", "p0", "p1", "p2");
        for (int i = 0; i < 3; i++) { // a Parquet row's position: the file's whole path and its 1-based row
            assertThat(Outputs.embeddings(out).get("p" + i).get("source").toString())
                    .contains(tmp.toString()).endsWith("/docs.parquet:" + (i + 1));
        }
        assertThat(Outputs.jsonLines(out.resolve("errors"))).isEmpty();
    }

    /**
     * Issue 40: one rule for directories, whether they hold files or only subfolders: read every
     * level down, skipping files and folders whose names start with '_' or '.' (FileSource's own).
     */
    @Test
    void aDirectoryOfSubfoldersIsReadWholeSkippingUnderscoreAndDotNames() throws Exception {
        Path dir = tmp.resolve("corpus");
        Files.createDirectories(dir.resolve("a/deep"));
        Files.createDirectories(dir.resolve("b"));
        Files.createDirectories(dir.resolve("_temporary"));
        Files.createDirectories(dir.resolve(".cache"));
        Files.writeString(dir.resolve("a/part-0.jsonl"), "{\"id\": \"a0\", \"text\": \"first folder\"}\n");
        Files.writeString(dir.resolve("a/deep/part-0.jsonl"), "{\"id\": \"d0\", \"text\": \"two levels down\"}\n");
        Files.writeString(dir.resolve("b/part-0.jsonl"), "{\"id\": \"b0\", \"text\": \"second folder\"}\n"
                + "{\"id\": \"b1\", \"text\": \"its second line\"}\n");
        for (String skipped : List.of("_temporary/part-0.jsonl", ".cache/part-0.jsonl", "a/_SUCCESS",
                "b/.part-1.jsonl.inprogress")) { // the top level holds folders only
            Files.writeString(dir.resolve(skipped), "not read: " + skipped + "\n");
        }
        Path out = tmp.resolve("out");
        var summary = MiniClusters.embed(Jobs.options("--input", dir.toString(), "--output", out.toString(),
                "--run-id", "nested", "--parallelism", "2"));

        assertThat(Outputs.embeddings(out).keySet()).containsExactlyInAnyOrder("a0", "d0", "b0", "b1");
        assertThat(Outputs.jsonLines(out.resolve("errors"))).isEmpty();
        assertThat(summary.read).isEqualTo(4);
    }
}
