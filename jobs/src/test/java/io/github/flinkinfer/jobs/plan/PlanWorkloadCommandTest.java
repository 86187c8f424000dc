package io.github.flinkinfer.jobs.plan;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.flinkinfer.jobs.cli.RunOptions;
import io.github.flinkinfer.jobs.testutils.Corpus;
import io.github.flinkinfer.jobs.workload.WorkloadPlan;
import io.github.flinkinfer.jobs.workload.WorkloadPlan.VariantEstimate;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code plan --workload} on 300 real WordNet glosses with the built-in int8 and fp32 MiniLM: the
 * floor decides the variant (int8's measured drift, min cosine ≈ 0.98, docs/measurement.md).
 */
class PlanWorkloadCommandTest {
    @TempDir Path dir;
    Path corpus;

    @BeforeEach
    void writeCorpus() {
        corpus = Corpus.writeJsonl(dir.resolve("wordnet-300.jsonl"), Corpus.sample(300));
    }

    @Test
    void int8WhenItsDriftMeetsTheFloorFp32WhenNot() throws Exception {
        Path card = card("int8-ok.yaml", 0.97, "10m");
        Run loose = plan(card, "--sample", "64");

        assertThat(loose.code).as(loose.output).isZero();
        WorkloadPlan plan = WorkloadPlan.read(WorkloadPlan.locationFor(card.toString()));
        assertThat(plan.chosen()).isEqualTo("all-minilm-l6-v2-q");
        assertThat(plan.settings().model()).isEqualTo("all-minilm-l6-v2-q");
        assertThat(plan.settings().parallelism()).isEqualTo(2);
        assertThat(plan.unmet()).isEmpty();
        VariantEstimate int8 = plan.variants().get(0);
        VariantEstimate fp32 = plan.variants().get(1);
        assertThat(int8.sampled()).isEqualTo(64);
        assertThat(int8.qualityMin()).isBetween(0.97, 0.9999); // int8 drifts, measurably
        assertThat(int8.qualityMean()).isGreaterThanOrEqualTo(int8.qualityMin());
        assertThat(fp32.qualityMin()).isGreaterThan(0.9999); // batching is exact in fp32
        assertThat(int8.realTokensPerSecond()).isGreaterThan(fp32.realTokensPerSecond());
        assertThat(int8.forecast().cost()).isLessThan(fp32.forecast().cost());
        assertThat(plan.forecast().records()).isEqualTo(300);
        assertThat(plan.forecast().startupSeconds()).isGreaterThan(WorkloadPlanner.CLUSTER_START_SECONDS);
        assertThat(plan.forecast().seconds()).isEqualTo(plan.forecast().startupSeconds()
                + plan.forecast().inferenceSeconds());
        assertThat(loose.output).contains("chosen: all-minilm-l6-v2-q", "embed --workload " + card);

        Path strict = card("fp32-only.yaml", 0.999, "10m");
        Run run = plan(strict, "--sample", "64", "--plan-output", dir.resolve("strict.json").toString());

        assertThat(run.code).as(run.output).isZero();
        WorkloadPlan fp32Plan = WorkloadPlan.read(dir.resolve("strict.json").toString());
        assertThat(fp32Plan.chosen()).isEqualTo("all-minilm-l6-v2");
        assertThat(fp32Plan.unmet()).isEmpty();
        assertThat(run.output).contains("all-minilm-l6-v2-q: min cosine 0.9", "< floor 0.9990");
        System.out.println(loose.output + "\n" + run.output);
    }

    @Test
    void aDeadlineNoParallelismCanMeetExitsThreeAndStillWritesThePlan() throws Exception {
        Path card = card("too-soon.yaml", 0.97, "2s");
        Run run = plan(card, "--sample", "16");

        assertThat(run.code).as(run.output).isEqualTo(PlanWorkload.INFEASIBLE);
        WorkloadPlan plan = WorkloadPlan.read(WorkloadPlan.locationFor(card.toString()));
        assertThat(plan.feasible()).isFalse();
        assertThat(plan.settings().model()).isEqualTo("all-minilm-l6-v2-q"); // best effort meets the floor
        assertThat(plan.unmet()).singleElement().asString()
                .startsWith("deadline: 2 s available").contains("no parallelism can meet it");
    }

    private Path card(String name, double floor, String deadline) throws Exception {
        return Files.writeString(dir.resolve(name), """
                name: wordnet-300
                task: embed
                corpus:
                  inputs: %s
                variants: [all-minilm-l6-v2-q, all-minilm-l6-v2]
                parallelism: 2
                deadline: %s
                budget: 0.05
                quality:
                  min-cosine: %s
                prices:
                  cpu-core-hour: 0.0475
                """.formatted(corpus, deadline, floor));
    }

    record Run(int code, String output) {}

    private static Run plan(Path card, String... more) {
        StringWriter out = new StringWriter();
        CommandLine cli = new CommandLine(new PlanCommand(RunOptions::embed)).setOut(new PrintWriter(out, true));
        String[] args = new String[more.length + 2];
        args[0] = "--workload";
        args[1] = card.toString();
        System.arraycopy(more, 0, args, 2, more.length);
        return new Run(cli.execute(args), out.toString());
    }
}
