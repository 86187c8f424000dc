package io.github.flinkinfer.jobs.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.flinkinfer.jobs.spec.InputFormat;
import io.github.flinkinfer.jobs.workload.WorkloadCard;
import io.github.flinkinfer.jobs.workload.WorkloadContract;
import io.github.flinkinfer.jobs.workload.WorkloadPlan;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code embed --workload} parsed as the CLI parses it (the options a mixin of the command): the
 * card and plan fill what the command line left out, and what it gave wins, default values included.
 */
class WorkloadOptionsTest {
    @TempDir Path tmp;

    private Path cardAndPlan() throws Exception {
        Path card = tmp.resolve("nightly.yaml");
        Files.writeString(card, """
                task: embed
                corpus: {inputs: [a.csv, b.csv], format: csv, id-field: key, text-field: body}
                variants: [all-minilm-l6-v2-q, all-minilm-l6-v2]
                reference: all-minilm-l6-v2
                quality: {mean-cosine: 0.99, sample: 50}
                prices: {tm-hour: 1.2, slots-per-tm: 4, currency: EUR}
                """);
        new WorkloadPlan(card.toString(), WorkloadCard.sha256(card.toString()), "t", "all-minilm-l6-v2-q",
                new WorkloadPlan.Settings("all-minilm-l6-v2-q", new int[] {32, 64}, 4096, 3, 64),
                new WorkloadPlan.Forecast(10, 100, 1, 1, 2, 0.01, "EUR"), List.of(), List.of())
                .write(tmp.resolve("nightly.plan.json").toString());
        return card;
    }

    private static RunOptions embed(String... args) throws Exception {
        EmbeddingJob job = new EmbeddingJob();
        new CommandLine(job).setCaseInsensitiveEnumValuesAllowed(true).parseArgs(args);
        return job.options;
    }

    @Test
    void theCardAndPlanFillWhatTheCommandLineLeftOut() throws Exception {
        RunOptions o = embed("--workload", cardAndPlan().toString(), "--output", "out");
        assertThat(o.inputs).containsExactly("a.csv", "b.csv");
        assertThat(o.format).isEqualTo(InputFormat.CSV);
        assertThat(o.idField).isEqualTo("key");
        assertThat(o.textField).isEqualTo("body");
        assertThat(o.model).isEqualTo("all-minilm-l6-v2-q");
        assertThat(o.bucketEdges).containsExactly(32, 64);
        assertThat(o.maxBatchTokens).isEqualTo(4096);
        assertThat(o.parallelism).isEqualTo(3);
        assertThat(o.maxLength).isEqualTo(64);
        assertThat(o.cost.pricePerTaskManagerHour).isEqualTo(1.2);
        assertThat(o.cost.slotsPerTaskManager).isEqualTo(4);
        assertThat(o.cost.currency).isEqualTo("EUR");
        assertThat(o.quality.reference).isEqualTo("all-minilm-l6-v2");
        assertThat(o.quality.sample).isEqualTo(50);
        assertThat(o.quality.meanFloor).isEqualTo(0.99);
        assertThat(o.quality.floor).isZero(); // a mean-only card: no default minimum behind its back
        WorkloadContract contract = o.workload.contract("embed", o.model, Instant.now());
        assertThat(contract.plannedModel()).isEqualTo("all-minilm-l6-v2-q");
        assertThat(contract.meanCosine()).isEqualTo(0.99);
    }

    @Test
    void explicitOptionsWinEvenAtTheirDefaultValues() throws Exception {
        RunOptions o = embed("--workload", cardAndPlan().toString(), "--output", "out",
                "--model", "all-minilm-l6-v2", "--parallelism", "0", "--input", "c.csv", "--quality-floor", "0.95");
        assertThat(o.model).isEqualTo("all-minilm-l6-v2");
        assertThat(o.parallelism).isZero();
        assertThat(o.inputs).containsExactly("c.csv");
        assertThat(o.quality.floor).isEqualTo(0.95);
        assertThat(o.bucketEdges).containsExactly(32, 64); // not given: still the plan's
    }

    @Test
    void withoutACardNothingChanges() throws Exception {
        RunOptions o = embed("--input", "x.jsonl", "--output", "out");
        assertThat(o.model).isEqualTo("all-minilm-l6-v2");
        assertThat(o.workload.contract("embed", o.model, Instant.now())).isNull();
        assertThat(o.quality.meanFloor).isNull();
    }
}
