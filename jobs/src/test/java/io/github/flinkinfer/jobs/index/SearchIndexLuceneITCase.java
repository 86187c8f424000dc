package io.github.flinkinfer.jobs.index;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.flinkinfer.jobs.cli.RunOptions;
import io.github.flinkinfer.jobs.report.RunSummary;
import io.github.flinkinfer.jobs.testutils.ClusterTestBase;
import io.github.flinkinfer.jobs.testutils.Corpus;
import io.github.flinkinfer.jobs.testutils.Jobs;
import io.github.flinkinfer.jobs.testutils.MiniClusters;
import io.github.flinkinfer.jobs.testutils.Outputs;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.apache.avro.generic.GenericRecord;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.KnnFloatVectorField;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.document.StringField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.VectorSimilarityFunction;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.KnnFloatVectorQuery;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.apache.lucene.store.Directory;
import org.junit.jupiter.api.Test;

/**
 * A chunked, pooled run writing Parquet, OpenSearch {@code _bulk} and pgvector CSV; the bulk
 * output is loaded into a Lucene HNSW index (the vector engine inside Elasticsearch, OpenSearch
 * and Solr) and searched.
 */
class SearchIndexLuceneITCase extends ClusterTestBase {
    static final String MODEL = "all-minilm-l6-v2-q";
    static final int SIZE = 64;
    static final int OVERLAP = 16;

    @Test
    void chunkedOutputsLoadIntoLuceneAndKnnFindsTheDocument() throws Exception {
        Map<String, String> sample = Corpus.sample(300);
        List<String> texts = new ArrayList<>(sample.values());
        Map<String, String> corpus = new LinkedHashMap<>();
        sample.entrySet().stream().limit(80).forEach(e -> corpus.put(e.getKey(), e.getValue()));
        for (int d = 0; d < 3; d++) { // long documents: 40 glosses each, several windows
            corpus.put("long-" + d, String.join(" ", texts.subList(120 + 40 * d, 160 + 40 * d)));
        }
        Path out = tmp.resolve("out");
        RunOptions o = Jobs.options(
                "--input", writeCorpus(corpus).toString(),
                "--output", out.toString(), "--run-id", "idx", "--parallelism", "2", "--model", MODEL,
                "--chunk-size", String.valueOf(SIZE), "--chunk-overlap", String.valueOf(OVERLAP),
                "--doc-pooling", "mean", "--index-name", "wordnet",
                "--output-format", "parquet,opensearch-bulk,pgvector-csv");
        RunSummary summary = MiniClusters.embed(o);
        assertThat(summary.failed).isZero();

        // every document: chunks 0..n-1 with windows of SIZE overlapping by OVERLAP, plus one pooled row
        Map<String, GenericRecord> rows = Outputs.embeddings(out);
        Map<String, List<GenericRecord>> byDoc = new HashMap<>();
        rows.values().forEach(r -> byDoc.computeIfAbsent(r.get("doc_id").toString(), k -> new ArrayList<>()).add(r));
        assertThat(byDoc.keySet()).containsExactlyInAnyOrderElementsOf(corpus.keySet());
        for (Map.Entry<String, List<GenericRecord>> e : byDoc.entrySet()) {
            List<GenericRecord> chunks = e.getValue().stream().filter(r -> (Integer) r.get("chunk_index") >= 0)
                    .sorted(Comparator.comparing(r -> (Integer) r.get("chunk_index"))).toList();
            GenericRecord pooled = rows.get(e.getKey());
            assertThat(pooled).as("pooled row of %s", e.getKey()).isNotNull();
            assertThat(pooled.get("chunk_index")).isEqualTo(-1);
            assertThat(chunks).hasSize((Integer) pooled.get("chunk_count"));
            assertThat(e.getValue()).hasSize(chunks.size() + 1);
            for (int i = 0; i < chunks.size(); i++) {
                GenericRecord c = chunks.get(i);
                assertThat(c.get("id").toString()).isEqualTo(e.getKey() + "#" + i);
                int start = (Integer) c.get("token_start");
                int end = (Integer) c.get("token_end");
                assertThat(start).isEqualTo(i * (SIZE - OVERLAP));
                assertThat(end - start).isLessThanOrEqualTo(SIZE);
                assertThat((Integer) c.get("token_count")).isEqualTo(end - start + 2);
            }
            assertThat(chunks.get(chunks.size() - 1).get("token_end")).isEqualTo(pooled.get("token_end"));
        }
        assertThat(byDoc.get("long-0")).hasSizeGreaterThan(4);
        List<JsonNode> metrics = Outputs.jsonLines(out.resolve("metrics"));
        assertThat(metrics.stream().mapToLong(m -> m.get("items").asLong()).sum())
                .isEqualTo(rows.size() - corpus.size()); // chunks are inferred, pooled rows are not

        // the _bulk file: action line + document line per row, same rows as the Parquet output
        ObjectMapper json = new ObjectMapper();
        Map<String, JsonNode> bulk = new HashMap<>();
        for (Path f : RunFiles.of(out.resolve("embeddings"), "idx", ".bulk.ndjson")) {
            List<String> lines = Files.readAllLines(f);
            assertThat(lines.size() % 2).isZero();
            for (int i = 0; i < lines.size(); i += 2) {
                JsonNode action = json.readTree(lines.get(i)).get("index");
                assertThat(action.get("_index").asText()).isEqualTo("wordnet");
                JsonNode doc = json.readTree(lines.get(i + 1));
                assertThat(doc.get("id").asText()).isEqualTo(action.get("_id").asText());
                assertThat(doc.get("embedding")).hasSize(384);
                bulk.put(action.get("_id").asText(), doc);
            }
        }
        assertThat(bulk.keySet()).containsExactlyInAnyOrderElementsOf(rows.keySet());

        // the pgvector CSV: header, one line per row, a quoted 384-float vector literal last
        Pattern line = Pattern.compile("^.*,\"\\[(-?[0-9.E-]+,){383}-?[0-9.E-]+\\]\"$");
        long csvRows = 0;
        for (Path f : RunFiles.of(out.resolve("embeddings"), "idx", ".csv")) {
            List<String> lines = Files.readAllLines(f);
            assertThat(lines.get(0)).isEqualTo(PgvectorCsvWriter.HEADER);
            for (String l : lines.subList(1, lines.size())) {
                assertThat(line.matcher(l).matches()).as(l.substring(0, 40)).isTrue();
                csvRows++;
            }
        }
        assertThat(csvRows).isEqualTo(rows.size());

        // Lucene HNSW over every row of the bulk file, cosine
        try (Directory dir = new ByteBuffersDirectory()) {
            try (IndexWriter w = new IndexWriter(dir, new IndexWriterConfig())) {
                for (JsonNode d : bulk.values()) {
                    Document doc = new Document();
                    doc.add(new StringField("id", d.get("id").asText(), Field.Store.YES));
                    doc.add(new StoredField("doc_id", d.get("doc_id").asText()));
                    doc.add(new KnnFloatVectorField("embedding", floats(d.get("embedding")),
                            VectorSimilarityFunction.COSINE));
                    w.addDocument(doc);
                }
            }
            try (DirectoryReader reader = DirectoryReader.open(dir)) {
                IndexSearcher searcher = new IndexSearcher(reader);
                // a known chunk's own embedding finds that chunk first
                String known = "long-1#2";
                TopDocs hits = searcher.search(
                        new KnnFloatVectorQuery("embedding", floats(bulk.get(known).get("embedding")), 5), 5);
                assertThat(searcher.storedFields().document(hits.scoreDocs[0].doc).get("id")).isEqualTo(known);
                assertThat(hits.scoreDocs[0].score).isGreaterThan(0.999f);
                // a query text embedded by the same model finds its document first
                String id = new ArrayList<>(sample.keySet()).get(17);
                float[] query = QueryEmbedder.embed(MODEL, sample.get(id));
                hits = searcher.search(new KnnFloatVectorQuery("embedding", query, 5), 5);
                assertThat(searcher.storedFields().document(hits.scoreDocs[0].doc).get("doc_id")).isEqualTo(id);
            }
        }
    }

    static float[] floats(JsonNode array) {
        float[] v = new float[array.size()];
        for (int i = 0; i < v.length; i++) {
            v[i] = array.get(i).floatValue();
        }
        return v;
    }
}
