package io.github.flinkinfer.jobs.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.flinkinfer.jobs.cli.ReportCommand;
import io.github.flinkinfer.jobs.io.RunOutput;
import io.github.flinkinfer.jobs.report.QualityGateException;
import io.github.flinkinfer.jobs.report.RunSummary;
import io.github.flinkinfer.jobs.spec.RunDescription;
import io.github.flinkinfer.jobs.spec.RunSpec;
import io.github.flinkinfer.jobs.testutils.Jobs;
import io.github.flinkinfer.operators.ledger.RunLedger;
import io.github.flinkinfer.operators.metrics.BatchMetrics;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.ExecutionOptions;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code report} rebuilds a run from its files as data: the spec its run-info recorded, never its
 * flags. A run-info whose flag map is garbled gives the live run's summary and verdicts; one of an
 * older version (no {@code "spec"}) is read from its flags, in that one place.
 */
class ReportFromRunFilesTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir Path out;
    private RunSpec spec;
    private RunOutput output;
    private ObjectNode runInfo;

    /** Run {@code c}: tokenize in 2 subtasks of its own, a quality sample of 5 judged at floor 0.99. */
    @BeforeEach
    void aFinishedRun() throws Exception {
        Configuration c = new Configuration();
        c.set(ExecutionOptions.RUNTIME_MODE, RuntimeExecutionMode.BATCH);
        spec = Jobs.options("--input", "in.jsonl", "--output", out.toString(), "--run-id", "c",
                "--tokenize-parallelism", "2", "--quality-sample", "5", "--quality-floor", "0.99")
                .spec("embed", StreamExecutionEnvironment.getExecutionEnvironment(c));
        RunLedger l = new RunLedger();
        for (int i = 0; i < 4; i++) {
            l.addBatch(batch(i % 2, i));
        }
        l.readBySource.put("in.jsonl", 40L);
        l.parsed = 40;
        l.toModelDocs = 40;
        l.items = 40;
        l.endedAtMillis = 1_006_000;
        Files.writeString(out.resolve("ledger-c.json"), l.toJson());
        output = RunOutput.of(out.toString(), "c");
        Map<String, Object> info = RunInfo.of(spec, List.of());
        info.put("submittedAtMillis", 999_000L);
        runInfo = (ObjectNode) JSON.valueToTree(info);
        output.write(output.runInfo(), runInfo.toString());
    }

    private static BatchMetrics batch(int subtask, int seq) {
        BatchMetrics m = new BatchMetrics();
        m.subtask = subtask;
        m.subtasks = 2;
        m.items = 10;
        m.realTokens = 100;
        m.paddedTokens = 120;
        m.totalMs = 500;
        m.tokenizeMs = 300;
        m.inferenceMs = 100;
        m.startedAtMillis = 1_000_000 + seq * 1000L;
        m.subtaskOpenedAtMillis = 1_000_000;
        m.model = "m@1";
        m.qualityMetric = "cosine";
        m.qualityChecked = 1;
        m.qualitySum = 0.95;
        m.qualitySeen = 10 + seq;
        m.qualityMin = 0.95; // below the floor: the gate fails the run
        return m;
    }

    /** The report's JSON without its copy of the run-info (which holds the flags as written). */
    private static String numbers(RunSummary s) {
        ObjectNode json = JSON.valueToTree(s);
        json.remove("runInfo");
        return json.toString();
    }

    private Throwable report() {
        ReportCommand report = new ReportCommand();
        new CommandLine(report).parseArgs("--output", out.toString(), "--run-id", "c");
        return org.assertj.core.api.Assertions.catchThrowable(report::call);
    }

    @Test
    void theRunInfoRecordsTheDecidedSpecAsData() throws Exception {
        RunDescription read = RunDescription.read(JSON.readTree(output.read(output.runInfo())));

        assertThat(read).isEqualTo(RunDescription.of(spec));
        assertThat(read.task()).isEqualTo("embed");
        assertThat(read.execution().tokenizeParallelism()).isEqualTo(2);
        assertThat(read.quality()).isEqualTo(new RunDescription.Quality(5, 0.99, null, spec.quality().reference()));
        assertThat(read.outputFormats()).isEqualTo(spec.output().formats());
    }

    @Test
    void garbledFlagsGiveTheSameSummaryAndVerdicts() throws Exception {
        RunSummary live = RunSummary.read(output);
        runInfo.set("settings", JSON.valueToTree(Map.of("--tokenize-parallelism", "not a number",
                "--quality-sample", 0, "--quality-floor", 0.0, "--chunk-size", 64)));
        runInfo.remove("settingsDefaults");
        output.write(output.runInfo(), runInfo.toString());

        RunSummary rebuilt = RunSummary.read(output);

        assertThat(numbers(rebuilt)).isEqualTo(numbers(live));
        assertThat(rebuilt.bound.tokenizeChained()).as("tokenize ran in its own 2 subtasks").isFalse();
        assertThat(rebuilt.documents).as("an embedding run: items are documents").isNull();
        assertThat(rebuilt.spec).isEqualTo(RunDescription.of(spec));
        assertThat(report()).as("report judges the recorded floor, not the flags")
                .isInstanceOf(QualityGateException.class).hasMessageContaining("< --quality-floor 0.99");
    }

    @Test
    void aRunInfoWithoutASpecIsReadFromItsFlags() throws Exception {
        RunSummary live = RunSummary.read(output);
        runInfo.remove("spec"); // as versions before the spec was recorded wrote it
        output.write(output.runInfo(), runInfo.toString());

        RunSummary older = RunSummary.read(output);

        assertThat(numbers(older)).isEqualTo(numbers(live));
        assertThat(older.spec.task()).as("not among the flags").isNull();
        assertThat(older.spec.tokenizeParallelism()).isEqualTo(2);
        assertThat(older.spec.quality().sample()).isEqualTo(5);
        assertThat(older.spec.quality().floor()).isEqualTo(0.99);
        assertThat(report()).isInstanceOf(QualityGateException.class);
    }

    @Test
    void aRunWithoutARunInfoIsSummarizedFromItsLedgerAlone() throws Exception {
        Files.delete(out.resolve(output.runInfo().getName()));

        RunSummary bare = RunSummary.read(output);

        assertThat(bare.spec).isNull();
        assertThat(bare.bound.tokenizeChained()).as("unknown: counted as chained").isTrue();
        assertThat(bare.succeeded).isEqualTo(40);
        assertThat(report()).as("no floor recorded, nothing judged").isNull();
    }
}
