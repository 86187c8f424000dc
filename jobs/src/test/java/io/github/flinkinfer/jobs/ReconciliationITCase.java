package io.github.flinkinfer.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.flinkinfer.jobs.cli.RunOptions;
import io.github.flinkinfer.jobs.dataflow.EmbeddingTask;
import io.github.flinkinfer.jobs.dataflow.InferencePipeline;
import io.github.flinkinfer.jobs.dataflow.TaskKind;
import io.github.flinkinfer.jobs.ledger.Accounting;
import io.github.flinkinfer.jobs.report.AccountingException;
import io.github.flinkinfer.jobs.report.RunSummary;
import io.github.flinkinfer.jobs.run.InferenceRun;
import io.github.flinkinfer.jobs.spec.InferenceConfig;
import io.github.flinkinfer.jobs.spec.OutputConfig;
import io.github.flinkinfer.jobs.testutils.ClusterTestBase;
import io.github.flinkinfer.jobs.testutils.Corpus;
import io.github.flinkinfer.jobs.testutils.Jobs;
import io.github.flinkinfer.operators.InferenceResult;
import io.github.flinkinfer.runtime.card.ModelCard;
import io.github.flinkinfer.runtime.card.ModelTask;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.junit.jupiter.api.Test;

/**
 * The ledger proves that nothing was lost: a job that loses one record on the way to its files
 * fails its accounting (no success marker, the equation that broke named), the same job without
 * the loss reconciles, and two same-named files in two directories are counted apart.
 */
class ReconciliationITCase extends ClusterTestBase {
    static final Map<String, String> CORPUS = Corpus.sample(80);

    /** The embedding kind with a test-only filter that drops one result before the writers. */
    static final class DropsOneRow implements TaskKind<InferenceResult> {
        private final EmbeddingTask embed = new EmbeddingTask();
        private final String lost;

        DropsOneRow(String lost) {
            this.lost = lost;
        }

        @Override
        public String name() {
            return embed.name();
        }

        @Override
        public ModelTask modelTask() {
            return embed.modelTask();
        }

        @Override
        public DataStream<InferenceResult> postProcess(InferencePipeline.Inferred inferred, InferenceConfig config,
                ModelCard card) {
            String id = lost;
            return embed.postProcess(inferred, config, card).filter(r -> !r.id.equals(id)).name("test-drops-one");
        }

        @Override
        public void write(DataStream<InferenceResult> rows, OutputConfig out, Accounting ledger) {
            embed.write(rows, out, ledger);
        }
    }

    @Test
    void aRecordLostBeforeTheWritersFailsTheRunWithTheCountsThatDisagree() throws Exception {
        Path input = Corpus.writeJsonl(tmp.resolve("in.jsonl"), CORPUS);
        Path out = tmp.resolve("lossy");
        String lost = CORPUS.keySet().iterator().next();
        RunOptions o = Jobs.options("--input", input.toString(), "--output", out.toString(), "--run-id", "lossy",
                "--model", "all-minilm-l6-v2-q", "--parallelism", "2");
        assertThatThrownBy(() -> InferenceRun.execute(new DropsOneRow(lost), o, o.environment(), null))
                .isInstanceOf(AccountingException.class)
                .hasMessageContaining("rows written = succeeded + carried/pooled rows: 79 ≠ 80 (-1)")
                .hasMessageContaining("read 80 = succeeded 80");
        assertThat(out.resolve("_SUCCESS-lossy")).doesNotExist();
        assertThat(out.resolve("report-lossy.json")).as("the report stays for inspection").exists();
    }

    @Test
    void twoSameNamedFilesInTwoDirectoriesAreCountedApart() throws Exception {
        Path a = Files.createDirectories(tmp.resolve("a"));
        Path b = Files.createDirectories(tmp.resolve("b"));
        Map<String, String> first = Corpus.sample(30);
        Map<String, String> second = new java.util.LinkedHashMap<>();
        first.forEach((id, text) -> second.put(id + "-b", text + " again"));
        Corpus.writeJsonl(a.resolve("part.jsonl"), first);
        Corpus.writeJsonl(b.resolve("part.jsonl"), second);
        Path out = tmp.resolve("two");
        RunSummary s = embed(a.resolve("part.jsonl"), out, "two", "--input", b.resolve("part.jsonl").toString(),
                "--model", "all-minilm-l6-v2-q");
        assertThat(s.reconciliation.ok()).isTrue();
        assertThat(s.read).isEqualTo(60);
        assertThat(s.ledger.readBySource).hasSize(2).allSatisfy((source, n) -> assertThat(n).isEqualTo(30L));
        assertThat(Files.readString(out.resolve("_SUCCESS-two"))).contains("read 60 = succeeded 60");
    }
}
