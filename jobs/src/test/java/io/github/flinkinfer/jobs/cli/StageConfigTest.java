package io.github.flinkinfer.jobs.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.flinkinfer.jobs.spec.DuplicatePolicy;
import io.github.flinkinfer.jobs.spec.InferenceConfig;
import io.github.flinkinfer.jobs.spec.InputConfig;
import io.github.flinkinfer.jobs.spec.InputFormat;
import io.github.flinkinfer.jobs.spec.OutputConfig;
import io.github.flinkinfer.jobs.spec.OutputFormat;
import io.github.flinkinfer.jobs.testutils.Jobs;
import io.github.flinkinfer.operators.batch.BatchingConfig;
import io.github.flinkinfer.operators.chunk.Chunking;
import io.github.flinkinfer.operators.chunk.OverlongPolicy;
import io.github.flinkinfer.operators.metrics.CostModel;
import io.github.flinkinfer.operators.run.BatchInferenceOperator;
import io.github.flinkinfer.runtime.onnx.RuntimeOptions;
import org.junit.jupiter.api.Test;

/** The stages' config records carry the command line's values, defaults included, and nothing else. */
class StageConfigTest {
    private static final String[] BASE = {"--input", "in.jsonl", "--output", "out"};

    /** A GPU's call costs about the same whatever its size: its defaults batch 16x the tokens. */
    @Test
    void theTokenBudgetAndRowsDefaultToTheDevices() {
        assertThat(Jobs.options(BASE).batching()).extracting(BatchingConfig::maxBatchTokens, BatchingConfig::maxBatchSize)
                .containsExactly(2048, 256);
        for (String gpu : new String[] {"cuda", "cuda:1"}) {
            assertThat(Jobs.options("--input", "in.jsonl", "--output", "out", "--device", gpu).batching())
                    .extracting(BatchingConfig::maxBatchTokens, BatchingConfig::maxBatchSize)
                    .containsExactly(32_768, 512);
        }
        // auto may run on the CPU: the CPU's; a value given always wins
        assertThat(Jobs.options("--input", "in.jsonl", "--output", "out", "--device", "auto").batching())
                .extracting(BatchingConfig::maxBatchTokens, BatchingConfig::maxBatchSize).containsExactly(2048, 256);
        assertThat(Jobs.options("--input", "in.jsonl", "--output", "out", "--device", "cuda",
                        "--max-batch-tokens", "8192").batching())
                .extracting(BatchingConfig::maxBatchTokens, BatchingConfig::maxBatchSize).containsExactly(8192, 512);
        assertThat(Jobs.options("--input", "in.jsonl", "--output", "out", "--device", "cuda",
                        "--max-batch-size", "64").batching())
                .extracting(BatchingConfig::maxBatchTokens, BatchingConfig::maxBatchSize).containsExactly(32_768, 64);
    }

    @Test
    void defaultsComeFromTheOptions() {
        RunOptions o = Jobs.options(BASE);

        InputConfig in = o.inputConfig();
        assertThat(in.files()).containsExactly("in.jsonl");
        assertThat(in.format()).isNull();
        assertThat(in.idField()).isEqualTo("id");
        assertThat(in.textField()).isEqualTo("text");
        assertThat(in.maxRecordBytes()).isEqualTo(1_048_576);
        assertThat(in.readsKafka()).isFalse();

        OutputConfig out = o.outputConfig("r1");
        assertThat(out.directory()).isEqualTo("out");
        assertThat(out.runId()).isEqualTo("r1");
        assertThat(out.formats()).containsExactly(OutputFormat.PARQUET);
        assertThat(out.indexName()).isEqualTo("embeddings");
        assertThat(out.vectorField()).isEqualTo("embedding");
        assertThat(out.kafka()).isEqualTo(o.kafka.settings());
        assertThat(in.kafka()).isEqualTo(out.kafka());

        InferenceConfig config = o.inferenceConfig(o.runtimeOptions());
        assertThat(config.duplicates()).isEqualTo(DuplicatePolicy.KEEP_FIRST);
        assertThat(config.batchMode()).isTrue();
        assertThat(config.overlong()).isEqualTo(OverlongPolicy.TRUNCATE);
        assertThat(config.chunking()).isEqualTo(Chunking.OFF);
        assertThat(config.incremental()).isFalse();
        BatchingConfig defaults = BatchingConfig.defaults();
        assertThat(config.batching().bucketEdges()).containsExactly(defaults.bucketEdges());
        assertThat(config.batching().maxBatchTokens()).isEqualTo(defaults.maxBatchTokens());
        assertThat(config.batching().maxBatchSize()).isEqualTo(defaults.maxBatchSize());
        assertThat(config.batching().maxBufferedItems()).isEqualTo(defaults.maxBufferedItems());
        assertThat(config.batching().lookaheadBatches()).isEqualTo(defaults.lookaheadBatches());
        assertThat(config.batching().maxWaitMillis()).isZero();
        assertThat(config.cost()).isEqualTo(CostModel.FREE);
        assertThat(config.qualityGate()).isNull();
        assertThat(config.overlap()).isEqualTo(BatchInferenceOperator.Overlap.AUTO);
        assertThat(config.tokenizeParallelism()).isZero(); // chained with inference
    }

    @Test
    void everyStageGetsItsOptions() {
        RunOptions o = Jobs.options(BASE, "--input", "more.csv", "--format", "csv", "--id-field", "doc",
                "--text-field", "body", "--max-record-bytes", "4096",
                "--output-format", "jsonl,opensearch-bulk", "--index-name", "wiki", "--vector-field", "vec",
                "--duplicates", "ALLOW", "--runtime-mode", "STREAMING", "--overlong", "REJECT",
                "--chunk-size", "64", "--chunk-overlap", "8", "--previous-output", "prev",
                "--previous-run-id", "day1", "--max-batch-size", "8", "--max-wait-ms", "250",
                "--price-cpu-core-hour", "0.1", "--intra-op-threads", "2", "--quality-sample", "5",
                "--overlap", "ON");

        InputConfig in = o.inputConfig();
        assertThat(in.files()).containsExactly("in.jsonl", "more.csv");
        assertThat(in.format()).isEqualTo(InputFormat.CSV);
        assertThat(in.idField()).isEqualTo("doc");
        assertThat(in.textField()).isEqualTo("body");
        assertThat(in.maxRecordBytes()).isEqualTo(4096);

        OutputConfig out = o.outputConfig("r2");
        assertThat(out.formats()).containsExactly(OutputFormat.JSONL, OutputFormat.OPENSEARCH_BULK);
        assertThat(out.indexName()).isEqualTo("wiki");
        assertThat(out.vectorField()).isEqualTo("vec");

        RuntimeOptions runtime = o.runtimeOptions();
        InferenceConfig config = o.inferenceConfig(runtime);
        assertThat(config.duplicates()).isEqualTo(DuplicatePolicy.ALLOW);
        assertThat(config.batchMode()).isFalse();
        assertThat(config.overlong()).isEqualTo(OverlongPolicy.REJECT);
        assertThat(config.chunking()).isEqualTo(new Chunking(64, 8, Chunking.Pooling.NONE));
        assertThat(config.incremental()).isTrue();
        assertThat(config.previousOutput()).isEqualTo("prev");
        assertThat(config.previousRunId()).isEqualTo("day1");
        assertThat(config.batching().maxBatchSize()).isEqualTo(8);
        assertThat(config.batching().maxWaitMillis()).isEqualTo(250);
        assertThat(config.cost().pricePerCpuCoreHour()).isEqualTo(0.1);
        assertThat(config.cost().cpuCoresPerSubtask()).isEqualTo(2);
        assertThat(config.qualityGate().samples()).isEqualTo(5);
        assertThat(config.qualityGate().reference().card().name).isEqualTo("all-minilm-l6-v2");
        assertThat(config.qualityGate().reference().options()).isSameAs(runtime);
        assertThat(config.overlap()).isEqualTo(BatchInferenceOperator.Overlap.ON);
    }

    @Test
    void recordsDoNotFollowLaterChangesToTheOptions() {
        RunOptions o = Jobs.options(BASE);
        InputConfig in = o.inputConfig();
        OutputConfig out = o.outputConfig("r3");
        o.inputs.add("later.jsonl");
        o.outputFormats.add(OutputFormat.JSONL);

        assertThat(in.files()).containsExactly("in.jsonl");
        assertThat(out.formats()).containsExactly(OutputFormat.PARQUET);
        assertThatThrownBy(() -> in.files().add("x")).isInstanceOf(UnsupportedOperationException.class);
    }
}
