package io.github.flinkinfer.jobs.workload;

import io.github.flinkinfer.jobs.RunOptions;
import io.github.flinkinfer.jobs.io.InputFormat;
import java.io.IOException;
import java.time.Instant;
import java.util.Locale;
import java.util.function.Consumer;
import org.apache.flink.core.fs.Path;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code embed/moderate --workload CARD}: runs a card with the settings its plan chose (options
 * given on the command line win) and judges the run against the card's clauses (docs/workload.md).
 *
 * <pre>{@code
 * embed --workload cards/gcide.yaml --output s3://out/ --run-id nightly --fail-on-missed-contract
 * }</pre>
 */
public class WorkloadOptions {
    @Option(names = "--workload", paramLabel = "CARD",
            description = "Run this workload card (YAML or JSON, docs/workload.md) with the settings"
                    + " `plan --workload CARD` chose; options given here win. The run ends with a"
                    + " verdict per clause (deadline, budget, quality floor, goodput, cost per item).")
    public String card;

    @Option(names = "--plan", paramLabel = "FILE",
            description = "The plan to run the card with. Default: beside the card, <card>.plan.json.")
    public String plan;

    @Option(names = "--fail-on-missed-contract",
            description = "With --workload: a missed deadline or budget fails the run (no success marker,"
                    + " non-zero exit); without it they are only reported. A missed quality floor always"
                    + " fails the run.")
    public boolean failOnMissedContract;

    /** The command this mixin is part of: which options were given on the command line. */
    @Spec(Spec.Target.MIXEE) CommandSpec mixee;

    private WorkloadContract contract;

    /** The clauses the run is judged against, once {@link #applyTo} ran; null without a card. */
    public WorkloadContract contract() {
        return contract;
    }

    /**
     * Reads and checks the card and its plan, then fills every option of {@code o} not given on the
     * command line from them. Does nothing without {@code --workload}, and only once.
     */
    public void applyTo(RunOptions o, String command, Instant now) throws IOException {
        if (card == null || contract != null) {
            return;
        }
        WorkloadCard c = WorkloadCard.read(card, now);
        if (c.task() != null && !c.task().command().equals(command)) {
            throw new IllegalArgumentException("workload card " + card + " has task " + c.task().command()
                    + ": run it with `" + c.task().command() + " --workload " + card + "`, not `"
                    + command + "`");
        }
        String planLocation = plan != null ? plan : WorkloadPlan.locationFor(card);
        if (!exists(planLocation)) {
            throw new IllegalArgumentException("no plan for workload card " + card + " at " + planLocation
                    + ": run `plan --workload " + card + "` first (or pass --plan FILE)");
        }
        WorkloadPlan p = WorkloadPlan.read(planLocation);
        if (p.cardSha256() == null || !p.cardSha256().equals(WorkloadCard.sha256(card))) {
            throw new IllegalArgumentException("workload card " + card + ": the card changed since it was"
                    + " planned (" + planLocation + "); run `plan --workload " + card + "` again");
        }
        if (!p.feasible()) {
            System.out.println("note: the plan " + planLocation + " found no variant meeting every clause "
                    + p.unmet() + "; running its best effort, the verdicts will show the misses");
        }
        fill(o, c, p);
        contract = WorkloadContract.of(card, c, p, o.model);
    }

    private void fill(RunOptions o, WorkloadCard c, WorkloadPlan p) {
        CommandLine.ParseResult given = mixee == null || mixee.commandLine() == null
                ? null : mixee.commandLine().getParseResult();
        Filler f = new Filler(given);
        WorkloadCard.Corpus corpus = c.corpus();
        f.set("--input", corpus.inputs(), v -> o.inputs = new java.util.ArrayList<>(v));
        f.set("--format", corpus.format() == null ? null
                : InputFormat.valueOf(corpus.format().toUpperCase(Locale.ROOT)), v -> o.format = v);
        f.set("--id-field", corpus.idField(), v -> o.idField = v);
        f.set("--text-field", corpus.textField(), v -> o.textField = v);
        WorkloadPlan.Settings s = p.settings();
        if (s != null) {
            f.set("--model", s.model(), v -> o.model = v);
            f.set("--bucket-edges", s.bucketEdges(), v -> o.bucketEdges = v);
            f.set("--max-batch-tokens", s.maxBatchTokens() > 0 ? s.maxBatchTokens() : null, v -> o.maxBatchTokens = v);
            f.set("--max-length", s.maxLength(), v -> o.maxLength = v);
        }
        Integer parallelism = c.parallelism() != null ? c.parallelism()
                : s != null && s.parallelism() > 0 ? s.parallelism() : null;
        f.set("--parallelism", parallelism, v -> o.parallelism = v);
        if (c.maxLength() != null && (s == null || s.maxLength() == 0)) {
            f.set("--max-length", c.maxLength(), v -> o.maxLength = v);
        }
        WorkloadCard.Prices pr = c.pricesOrEmpty();
        f.set("--price-tm-hour", pr.tmHour(), v -> o.cost.pricePerTaskManagerHour = v);
        f.set("--slots-per-tm", pr.slotsPerTm(), v -> o.cost.slotsPerTaskManager = v);
        f.set("--price-cpu-core-hour", pr.cpuCoreHour(), v -> o.cost.pricePerCpuCoreHour = v);
        f.set("--price-gpu-hour", pr.gpuHour(), v -> o.cost.pricePerGpuHour = v);
        f.set("--currency", pr.currency(), v -> o.cost.currency = v);
        f.set("--quality-reference", c.reference(), v -> o.quality.reference = v);
        if (c.quality() != null) {
            WorkloadCard.Quality q = c.quality();
            f.set("--quality-sample", q.sampleOrDefault(), v -> o.quality.sample = v);
            Double floor = q.labelAgreement() != null ? q.labelAgreement() : q.minCosine();
            // the card's floors are the only ones: no default minimum beside a mean-only card
            f.set("--quality-floor", floor != null ? floor : 0.0, v -> o.quality.floor = v);
            f.set("--quality-mean-floor", q.meanCosine(), v -> o.quality.meanFloor = v);
        }
    }

    /** Sets an option from the card or plan unless the command line gave it or there is no value. */
    private record Filler(CommandLine.ParseResult given) {
        <T> void set(String option, T value, Consumer<T> setter) {
            if (value != null && (given == null || !given.hasMatchedOption(option))) {
                setter.accept(value);
            }
        }
    }

    private static boolean exists(String location) throws IOException {
        Path path = new Path(location);
        return path.getFileSystem().exists(path);
    }
}
