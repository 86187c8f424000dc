package io.github.flinkinfer.jobs.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.flinkinfer.jobs.cli.ModerationJob;
import io.github.flinkinfer.jobs.cli.ReportCommand;
import io.github.flinkinfer.jobs.cli.RunOptions;
import io.github.flinkinfer.jobs.report.RunSummary;
import io.github.flinkinfer.jobs.report.WorkloadVerdicts;
import io.github.flinkinfer.jobs.testutils.ClusterTestBase;
import io.github.flinkinfer.jobs.testutils.Corpus;
import io.github.flinkinfer.jobs.testutils.Jobs;
import io.github.flinkinfer.jobs.testutils.MiniClusters;
import io.github.flinkinfer.jobs.workload.WorkloadVerdict.Status;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code embed --workload}: a card and the plan written for it fill the run's options (explicit
 * ones win), the run ends with a verdict per clause, a missed deadline is reported and fails the
 * run only with {@code --fail-on-missed-contract}, a moderate card runs with {@code moderate}, and
 * bad cards or plans stop it before it starts.
 */
class WorkloadRunITCase extends ClusterTestBase {
    static final String INT8 = "all-minilm-l6-v2-q";
    static final String FP32 = "all-minilm-l6-v2";

    @TempDir static Path shared;
    static Path corpus;

    @BeforeAll
    static void writeCorpus() {
        corpus = Corpus.writeJsonl(shared.resolve("corpus.jsonl"), Corpus.sample(200));
    }

    /** A card for the shared corpus with this deadline and budget, and a plan choosing int8 for it. */
    private Path cardAndPlan(String deadline, double budget) throws Exception {
        Path card = tmp.resolve("card.yaml");
        Files.writeString(card, """
                name: wordnet-200
                task: embed
                corpus:
                  inputs: %s
                variants: [%s, %s]
                deadline: %s
                budget: %s
                quality:
                  min-cosine: 0.97
                  sample: 40
                latency:
                  max-item-ms: 600000
                prices:
                  cpu-core-hour: 0.0475
                  currency: EUR
                """.formatted(corpus, INT8, FP32, deadline, budget));
        WorkloadPlan.Forecast forecast = new WorkloadPlan.Forecast(200, 2400, 3, 2, 5, 0.0001, "EUR");
        new WorkloadPlan(card.toString(), WorkloadCard.sha256(card.toString()), "2026-11-30T12:00:00Z", INT8,
                new WorkloadPlan.Settings(INT8, new int[] {16, 32, 64}, 1024, 2, 64), forecast,
                List.of(new WorkloadPlan.VariantEstimate(FP32, "cosine", 64, 1, 1, 5000, 0.95, new int[] {16, 32, 64},
                        1024, new WorkloadPlan.Forecast(200, 2400, 3, 4, 7, 0.0002, "EUR"), List.of())), List.of())
                .write(WorkloadPlan.locationFor(card.toString()));
        return card;
    }

    private static RunSummary run(Path card, Path out, String runId, String... extra) throws Exception {
        String[] base = {"--workload", card.toString(), "--output", out.toString(), "--run-id", runId};
        return MiniClusters.embed(Jobs.options(base, extra));
    }

    private static WorkloadVerdict verdict(RunSummary s, String clause) {
        return s.workloadVerdicts.stream().filter(v -> v.clause().equals(clause)).findFirst().orElseThrow();
    }

    @Test
    void aGenerousCardRunsThePlansSettingsAndMeetsEveryClause() throws Exception {
        Path card = cardAndPlan("1h", 1.0);
        Path out = tmp.resolve("out");
        RunSummary s = run(card, out, "w1");

        // options came from the card and its plan
        assertThat(s.succeeded).isEqualTo(200);
        assertThat(s.runInfo.path("model").path("id").asText()).startsWith(INT8);
        JsonNode settings = s.runInfo.path("settings");
        assertThat(settings.path("--parallelism").asInt()).isEqualTo(2);
        assertThat(settings.path("--bucket-edges").asText()).isEqualTo("[16, 32, 64]");
        assertThat(settings.path("--max-batch-tokens").asInt()).isEqualTo(1024);
        assertThat(settings.path("--quality-floor").asDouble()).isEqualTo(0.97);
        assertThat(settings.path("--price-cpu-core-hour").asDouble()).isEqualTo(0.0475);
        assertThat(s.quality.checked).isEqualTo(40);
        assertThat(s.cost.currency).isEqualTo("EUR");
        assertThat(s.cost.total).isPositive();

        assertThat(s.workloadVerdicts).extracting(WorkloadVerdict::status).containsOnly(Status.MET);
        assertThat(verdict(s, WorkloadVerdicts.DEADLINE).actual()).isEqualTo(s.wallSeconds);
        assertThat(verdict(s, WorkloadVerdicts.BUDGET).actual()).isEqualTo(s.cost.total);
        assertThat(verdict(s, WorkloadVerdicts.BUDGET).forecast()).isEqualTo(0.0001);
        assertThat(verdict(s, WorkloadVerdicts.GOODPUT).actual()).isEqualTo(1.0);
        assertThat(verdict(s, WorkloadVerdicts.QUALITY).actual()).isEqualTo(s.quality.min);
        assertThat(out.resolve("_SUCCESS-w1")).exists();

        JsonNode report = new ObjectMapper().readTree(out.resolve("report-w1.json").toFile());
        assertThat(report.path("workloadVerdicts")).hasSize(5);
        assertThat(report.path("workloadVerdicts").get(0).path("status").asText()).isEqualTo("MET");
        assertThat(report.path("workload").path("plannedModel").asText()).isEqualTo(INT8);
        assertThat(Files.readString(out.resolve("report-w1.html"))).contains("Workload contract", "goodput");

        ByteArrayOutputStream console = new ByteArrayOutputStream();
        s.print(new PrintStream(console, true, StandardCharsets.UTF_8));
        assertThat(console.toString(StandardCharsets.UTF_8))
                .contains("workload contract  wordnet-200", "deadline", "MET");
    }

    @Test
    void aMissedDeadlineIsReportedAndFailsTheRunOnlyWhenAskedTo() throws Exception {
        // 10 ms: missed however it is measured — the driver's wall, or the wall `report` rebuilds
        // from the records (submission → last batch), which on the warm test cluster can be < 1 s
        Path card = cardAndPlan("PT0.01S", 1.0);
        RunSummary s = run(card, tmp.resolve("report"), "late");
        assertThat(verdict(s, WorkloadVerdicts.DEADLINE).status()).isEqualTo(Status.MISSED);
        assertThat(verdict(s, WorkloadVerdicts.DEADLINE).detail()).contains("s late");
        assertThat(verdict(s, WorkloadVerdicts.BUDGET).status()).isEqualTo(Status.MET);
        assertThat(tmp.resolve("report/_SUCCESS-late")).exists();

        Path strict = tmp.resolve("strict");
        assertThatThrownBy(() -> run(card, strict, "late", "--fail-on-missed-contract"))
                .isInstanceOf(WorkloadContractException.class)
                .hasMessageContaining("deadline")
                .hasMessageContaining("vs target 0.0100000 s")
                .hasMessageNotContaining("budget");
        assertThat(strict.resolve("_SUCCESS-late")).doesNotExist();
        assertThat(strict.resolve("report-late.json")).exists();
        // report judges a detached run the same way from its run-info: no marker for it either
        int exit = new CommandLine(new ReportCommand()).execute("--output", strict.toString(), "--run-id", "late",
                "--mark-success");
        assertThat(exit).isNotZero();
        assertThat(strict.resolve("_SUCCESS-late")).doesNotExist();
    }

    @Test
    void anExplicitModelWinsOverThePlan() throws Exception {
        RunSummary s = run(cardAndPlan("1h", 1.0), tmp.resolve("fp32"), "fp32", "--model", FP32);
        assertThat(s.runInfo.path("model").path("id").asText()).startsWith(FP32).doesNotStartWith(INT8);
        // judged against the forecast the plan made for the run's model, not the chosen one's
        assertThat(s.workload.forecastModel()).isEqualTo(FP32);
        assertThat(s.workload.forecast().seconds()).isEqualTo(7);
        assertThat(s.runInfo.path("settings").path("--parallelism").asInt()).isEqualTo(2); // still the plan's
        assertThat(s.quality.min).isGreaterThan(0.9999); // fp32 against itself
        assertThat(verdict(s, WorkloadVerdicts.QUALITY).status()).isEqualTo(Status.MET);
    }

    @Test
    void aModerateCardRunsWithModerateAndIsJudgedByLabelAgreement() throws Exception {
        Path card = tmp.resolve("spam.yaml");
        Files.writeString(card, "task: moderate\ncorpus: {inputs: " + corpus + "}\nvariants: ["
                + ModerationJob.DEFAULT_MODEL + "]\nbudget: 1\nquality: {label-agreement: 0.9, sample: 20}\n"
                + "prices: {cpu-core-hour: 0.0475}\n");
        new WorkloadPlan(card.toString(), WorkloadCard.sha256(card.toString()), "t", ModerationJob.DEFAULT_MODEL,
                new WorkloadPlan.Settings(ModerationJob.DEFAULT_MODEL, new int[] {32, 64}, 1024, 2, 64),
                new WorkloadPlan.Forecast(200, 2400, 3, 2, 5, 0.0001, "USD"), List.of(), List.of())
                .write(WorkloadPlan.locationFor(card.toString()));
        Path out = tmp.resolve("moderated");
        RunOptions o = Jobs.options("--workload", card.toString(), "--output", out.toString(), "--run-id", "m");
        RunSummary s = ModerationJob.run(o, o.environment());
        assertThat(s.runInfo.path("model").path("id").asText()).startsWith(ModerationJob.DEFAULT_MODEL);
        assertThat(s.quality.metric).isEqualTo("label_agreement");
        WorkloadVerdict q = verdict(s, WorkloadVerdicts.QUALITY);
        assertThat(q.status()).isEqualTo(Status.MET);
        assertThat(q.actual()).isEqualTo(s.quality.mean);
        assertThat(q.target()).isEqualTo(0.9);
        assertThat(verdict(s, WorkloadVerdicts.BUDGET).status()).isEqualTo(Status.MET);
        assertThat(verdict(s, WorkloadVerdicts.DEADLINE).status()).isEqualTo(Status.NOT_SET);
        assertThat(out.resolve("_SUCCESS-m")).exists();
    }

    @Test
    void badCardsAndPlansStopTheRunBeforeItStarts() throws Exception {
        Path card = cardAndPlan("1h", 1.0);
        Path out = tmp.resolve("refused");
        Files.delete(Path.of(WorkloadPlan.locationFor(card.toString())));
        assertThatThrownBy(() -> run(card, out, "x"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("no plan for workload card")
                .hasMessageContaining("run `plan --workload " + card + "` first");

        Path changed = cardAndPlan("1h", 1.0);
        Files.writeString(changed, Files.readString(changed).replace("budget: 1.0", "budget: 0.5"));
        assertThatThrownBy(() -> run(changed, out, "x"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("the card changed since it was planned");

        Path moderate = tmp.resolve("moderate.yaml");
        Files.writeString(moderate, "task: moderate\ncorpus: {inputs: " + corpus + "}\nvariants: [spam-assassin-minilm]\n");
        assertThatThrownBy(() -> run(moderate, out, "x"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("has task moderate: run it with `moderate --workload " + moderate + "`, not `embed`");
        assertThat(out).doesNotExist();
    }
}
