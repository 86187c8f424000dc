package io.github.flinkinfer.jobs.index;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.flinkinfer.jobs.cli.RunOptions;
import io.github.flinkinfer.jobs.testutils.ClusterTestBase;
import io.github.flinkinfer.jobs.testutils.Corpus;
import io.github.flinkinfer.jobs.testutils.Jobs;
import io.github.flinkinfer.jobs.testutils.MiniClusters;
import io.github.flinkinfer.jobs.testutils.Outputs;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** DuckDB (in-process, JDBC) reads the job's Parquet output as is and ranks by cosine. */
class SearchIndexDuckDbITCase extends ClusterTestBase {
    @Test
    void duckDbReadsTheParquetOutputAndRanksTheQueriedDocumentFirst() throws Exception {
        Map<String, String> corpus = Corpus.sample(100);
        Path out = tmp.resolve("out");
        RunOptions o = Jobs.options(
                "--input", writeCorpus(corpus).toString(),
                "--output", out.toString(), "--run-id", "duck", "--parallelism", "2");
        MiniClusters.embed(o);
        String parquet = "read_parquet('" + out.resolve("embeddings") + "/part-duck-*.parquet')";
        List<String> ids = new ArrayList<>(corpus.keySet());

        try (Connection db = DriverManager.getConnection("jdbc:duckdb:");
                Statement st = db.createStatement()) {
            try (ResultSet rs = st.executeQuery("SELECT count(*), count(DISTINCT id), min(len(embedding)),"
                    + " max(len(embedding)), count(content_sha256) FROM " + parquet)) {
                rs.next();
                assertThat(rs.getLong(1)).isEqualTo(corpus.size());
                assertThat(rs.getLong(2)).isEqualTo(corpus.size());
                assertThat(rs.getInt(3)).isEqualTo(384);
                assertThat(rs.getInt(4)).isEqualTo(384);
                assertThat(rs.getLong(5)).isEqualTo(corpus.size());
            }
            // a document's own embedding, taken from the file by SQL, ranks it first
            String known = ids.get(42);
            try (ResultSet rs = st.executeQuery("WITH q AS (SELECT embedding::FLOAT[384] AS v FROM "
                    + parquet + " WHERE id = '" + known + "') SELECT id, array_cosine_similarity("
                    + "embedding::FLOAT[384], q.v) AS score FROM " + parquet + ", q ORDER BY score DESC LIMIT 3")) {
                rs.next();
                assertThat(rs.getString(1)).isEqualTo(known);
                assertThat(rs.getDouble(2)).isGreaterThan(0.9999);
                rs.next();
                assertThat(rs.getDouble(2)).isLessThan(0.99);
            }
            // a query text embedded by the same model ranks its document first
            String id = ids.get(77);
            float[] q = QueryEmbedder.embed("all-minilm-l6-v2", corpus.get(id));
            try (ResultSet rs = st.executeQuery("SELECT id FROM " + parquet + " ORDER BY"
                    + " array_cosine_similarity(embedding::FLOAT[384], " + literal(q) + "::FLOAT[384])"
                    + " DESC LIMIT 1")) {
                rs.next();
                assertThat(rs.getString(1)).isEqualTo(id);
            }
        }
        assertThat(Outputs.embeddings(out)).hasSize(corpus.size());
    }

    static String literal(float[] v) {
        return PgvectorCsvWriter.vectorLiteral(v);
    }
}
