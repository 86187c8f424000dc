package io.github.flinkinfer.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.flinkinfer.jobs.report.RunSummary;
import io.github.flinkinfer.jobs.testutils.ClusterTestBase;
import io.github.flinkinfer.jobs.testutils.Corpus;
import io.github.flinkinfer.jobs.testutils.Jobs;
import io.github.flinkinfer.jobs.testutils.MiniClusters;
import io.github.flinkinfer.jobs.testutils.Outputs;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.Test;

/**
 * Two subtasks in one JVM sharing one session (device auto, which shares by default and falls
 * back to CPU here) run concurrently and give the vectors of separate per-subtask sessions.
 */
class SharedSessionITCase extends ClusterTestBase {
    @Test
    void subtasksSharingASessionGiveTheSameVectorsAsSeparateSessions() throws Exception {
        Map<String, String> corpus = Corpus.sample(300);
        Path input = writeCorpus(corpus);
        Map<String, GenericRecord> shared = run(input, "shared", "--device", "auto");
        Map<String, GenericRecord> separate = run(input, "separate", "--device", "cpu");

        assertThat(shared.keySet()).containsExactlyInAnyOrderElementsOf(corpus.keySet());
        for (String id : corpus.keySet()) {
            float[] a = Outputs.vector(shared.get(id));
            float[] b = Outputs.vector(separate.get(id));
            double dot = 0;
            for (int i = 0; i < a.length; i++) {
                dot += a[i] * b[i];
            }
            assertThat(dot).as(id).isGreaterThan(0.9999); // unit vectors; batches may differ
        }
        List<JsonNode> metrics = Outputs.jsonLines(tmp.resolve("shared").resolve("metrics"));
        assertThat(metrics).extracting(m -> m.get("subtask").asInt()).contains(0, 1);
        assertThat(metrics).extracting(m -> m.get("device").asText()).containsOnly("cpu");
        assertThat(metrics).extracting(m -> m.get("deviceRequested").asText()).containsOnly("auto:0");
    }

    private Map<String, GenericRecord> run(Path input, String name, String... device) throws Exception {
        Path out = tmp.resolve(name);
        String[] base = {"--input", input.toString(), "--output", out.toString(), "--run-id", name,
                "--parallelism", "2", "--model", "all-minilm-l6-v2-q"};
        String[] all = new String[base.length + device.length];
        System.arraycopy(base, 0, all, 0, base.length);
        System.arraycopy(device, 0, all, base.length, device.length);
        RunSummary summary = MiniClusters.embed(Jobs.options(all));
        assertThat(summary.failed).isZero();
        return Outputs.embeddings(out);
    }
}
