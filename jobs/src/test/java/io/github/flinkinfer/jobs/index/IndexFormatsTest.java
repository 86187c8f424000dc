package io.github.flinkinfer.jobs.index;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.csv.CsvMapper;
import com.fasterxml.jackson.dataformat.csv.CsvParser;
import com.fasterxml.jackson.dataformat.csv.CsvSchema;
import io.github.flinkinfer.jobs.testutils.Jobs;
import io.github.flinkinfer.operators.InferenceResult;
import io.github.flinkinfer.operators.chunk.ChunkRef;
import io.github.flinkinfer.operators.chunk.TokenWindows;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Format checks of the index outputs (pgvector itself is not installable here). */
class IndexFormatsTest {

    @Test
    void pgvectorCsvQuotesTheVectorLiteralAndAwkwardIdsAndLeavesNullsEmpty() throws Exception {
        InferenceResult chunk = result("doc, \"one\"#2", new float[] {0.1f, -2.5e-5f, 1f});
        chunk.chunk = ChunkRef.document("doc, \"one\"", "ab12", "s")
                .window(new TokenWindows.Window(2, 96, 150), 3);
        String row = PgvectorCsvWriter.row(chunk);
        assertThat(row).isEqualTo("\"doc, \"\"one\"\"#2\",\"doc, \"\"one\"\"\",2,96,150,ab12,m,v1,false,"
                + "\"[0.1,-2.5E-5,1.0]\"");

        InferenceResult whole = result("plain", new float[] {0.5f});
        whole.chunk = ChunkRef.document("plain", "cd34", "s");
        assertThat(PgvectorCsvWriter.row(whole)).isEqualTo("plain,plain,,,,cd34,m,v1,false,\"[0.5]\"");

        // a standard CSV reader (as COPY ... CSV HEADER) gets the fields back exactly
        String csv = PgvectorCsvWriter.HEADER + "\n" + row + "\n";
        CsvMapper mapper = new CsvMapper().enable(CsvParser.Feature.WRAP_AS_ARRAY);
        try (MappingIterator<Map<String, String>> it = mapper.readerFor(Map.class)
                .with(CsvSchema.emptySchema().withHeader()).readValues(csv)) {
            Map<String, String> fields = it.next();
            assertThat(fields.get("id")).isEqualTo("doc, \"one\"#2");
            assertThat(fields.get("embedding")).isEqualTo("[0.1,-2.5E-5,1.0]");
            assertThat(fields.get("token_end")).isEqualTo("150");
        }
        assertThat(PgvectorCsvWriter.HEADER.split(",")).hasSize(10).endsWith("embedding");
    }

    @Test
    void openSearchBulkWritesAnActionLineThenTheDocumentWithItsVectorField() throws Exception {
        InferenceResult r = result("a#0", new float[] {0.25f, -1f});
        r.chunk = ChunkRef.document("a", "ff", "s").window(new TokenWindows.Window(0, 0, 64), 2);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        new OpenSearchBulkEncoder("wordnet", "vec").encode(r, out);
        String text = out.toString(StandardCharsets.UTF_8);
        assertThat(text).endsWith("\n");
        List<String> lines = text.lines().toList();
        assertThat(lines).hasSize(2);
        assertThat(lines.get(0)).isEqualTo("{\"index\":{\"_index\":\"wordnet\",\"_id\":\"a#0\"}}");
        JsonNode doc = new ObjectMapper().readTree(lines.get(1));
        assertThat(doc.get("doc_id").asText()).isEqualTo("a");
        assertThat(doc.get("chunk_index").asInt()).isZero();
        assertThat(doc.get("token_end").asInt()).isEqualTo(64);
        assertThat(doc.get("vec")).hasSize(2);
        assertThat(doc.get("vec").get(1).floatValue()).isEqualTo(-1f);
    }

    @Test
    void optionsRejectBadChunkingAndUnknownFormats() {
        assertThatThrownBy(() -> Jobs.options("-i", "x.jsonl", "-o", "out", "--chunk-size", "64",
                "--chunk-overlap", "64").validate()).hasMessageContaining("--chunk-overlap");
        assertThatThrownBy(() -> Jobs.options("-i", "x.jsonl", "-o", "out", "--chunk-size", "255")
                .validate()).hasMessageContaining("max length 256");
        assertThatThrownBy(() -> Jobs.options("-i", "x.jsonl", "-o", "out", "--doc-pooling", "mean")
                .validate()).hasMessageContaining("--chunk-size");
        assertThatThrownBy(() -> Jobs.options("-i", "x.jsonl", "-o", "out", "--output-format", "faiss")
                .validate()).hasMessageContaining("pgvector-csv");
        assertThatThrownBy(() -> Jobs.options("-i", "x.jsonl", "-o", "out", "--previous-output", "p",
                "--duplicates", "allow").validate()).hasMessageContaining("KEEP_FIRST");
        Jobs.options("-i", "x.jsonl", "-o", "out", "--chunk-size", "254", "--chunk-overlap", "32",
                "--doc-pooling", "mean", "--output-format", "parquet,opensearch-bulk,pgvector-csv").validate();
    }

    static InferenceResult result(String id, float[] v) {
        InferenceResult r = new InferenceResult();
        r.id = id;
        r.vector = v;
        r.model = "m";
        r.modelVersion = "v1";
        return r;
    }
}
