package io.github.flinkinfer.jobs.index;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.flinkinfer.jobs.report.RunSummary;
import io.github.flinkinfer.jobs.testutils.ClusterTestBase;
import io.github.flinkinfer.jobs.testutils.Corpus;
import io.github.flinkinfer.jobs.testutils.Jobs;
import io.github.flinkinfer.jobs.testutils.MiniClusters;
import io.github.flinkinfer.jobs.testutils.Outputs;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.Test;

/**
 * A scheduled second run over a corpus with 10% changed, 5% new and 1% deleted documents, reusing
 * the first run's output: only the changed and new documents are inferred, and the final output
 * equals a full run's (ids, content hashes, embeddings).
 */
class IncrementalRunITCase extends ClusterTestBase {
    @Test
    void secondRunInfersOnlyChangedAndNewDocumentsAndMatchesAFullRun() throws Exception {
        Map<String, String> all = Corpus.sample(210);
        List<String> ids = new ArrayList<>(all.keySet());
        Map<String, String> first = new LinkedHashMap<>();
        ids.subList(0, 200).forEach(id -> first.put(id, all.get(id)));
        Map<String, String> second = new LinkedHashMap<>(first);
        for (int i = 0; i < 200; i += 10) { // 20 changed (10%)
            second.put(ids.get(i), all.get(ids.get(i)) + " (revised)");
        }
        ids.subList(200, 210).forEach(id -> second.put(id, all.get(id))); // 10 new (5%)
        second.remove(ids.get(5)); // 2 deleted (1%)
        second.remove(ids.get(7));

        Path out = tmp.resolve("scheduled");
        run(first, out, "day1");
        RunSummary day2 = run(second, out, "day2", "--previous-output", out.toString());
        Path full = tmp.resolve("full");
        run(second, full, "full");

        List<JsonNode> metrics = RunFiles.jsonLines(out.resolve("metrics"), "day2");
        assertThat(metrics.stream().mapToLong(m -> m.get("items").asLong()).sum()).isEqualTo(30);
        assertThat(day2.succeeded).isEqualTo(30);
        assertThat(day2.skippedUnchanged).isEqualTo(178);
        assertThat(day2.skippedTokens).isPositive();
        assertThat(day2.cost.savedEstimate).isPositive();
        assertThat(RunFiles.jsonLines(out.resolve("skipped"), "day2")).hasSize(178);

        Map<String, GenericRecord> incremental = RunFiles.embeddings(out, "day2");
        Map<String, GenericRecord> reference = Outputs.embeddings(full);
        assertThat(incremental.keySet()).containsExactlyInAnyOrderElementsOf(second.keySet());
        assertThat(reference.keySet()).containsExactlyInAnyOrderElementsOf(second.keySet());
        for (String id : second.keySet()) {
            GenericRecord a = incremental.get(id);
            GenericRecord b = reference.get(id);
            assertThat(a.get("content_sha256").toString()).isEqualTo(b.get("content_sha256").toString());
            assertThat(RunFiles.cosine(Outputs.vector(a), Outputs.vector(b))).as(id).isGreaterThanOrEqualTo(0.9999);
        }
    }

    private RunSummary run(Map<String, String> corpus, Path out, String runId, String... extra)
            throws Exception {
        List<String> args = new ArrayList<>(List.of(
                "--input", Corpus.writeJsonl(tmp.resolve(runId + ".jsonl"), corpus).toString(),
                "--output", out.toString(), "--run-id", runId, "--parallelism", "2",
                "--price-cpu-core-hour", "0.05", "--progress-seconds", "0"));
        args.addAll(List.of(extra));
        return MiniClusters.embed(Jobs.options(args.toArray(new String[0])));
    }
}
