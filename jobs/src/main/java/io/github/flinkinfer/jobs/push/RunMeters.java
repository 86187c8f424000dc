package io.github.flinkinfer.jobs.push;

import io.github.flinkinfer.jobs.report.RunSummary;
import io.github.flinkinfer.jobs.workload.WorkloadVerdict;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;

/**
 * A finished run's numbers as Micrometer gauges: one value per run, read from its summary (the
 * same numbers as its manifest and report), tagged with {@code run_id}, {@code task}, {@code
 * model}, {@code workload} and {@code outcome}. Gauges, not counters: each run is pushed once as
 * its own group, so a query compares runs (cost per item over runs) instead of taking rates.
 *
 * <pre>{@code
 * MeterRegistry r = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
 * RunMeters.register(summary, RunOutcome.SUCCEEDED, r);
 * }</pre>
 */
public final class RunMeters {
    /** Prefix of every meter; Prometheus names end in their unit, e.g. {@code flinkinfer_run_succeeded_items}. */
    public static final String PREFIX = "flinkinfer.run.";
    /** The workload tag of a run without {@code --workload}. */
    public static final String NO_WORKLOAD = "none";

    private final RunSummary s;
    private final MeterRegistry registry;

    private RunMeters(RunSummary s, MeterRegistry registry) {
        this.s = s;
        this.registry = registry;
    }

    /** The tags every meter of {@code s} carries. */
    public static Tags tags(RunSummary s, RunOutcome outcome) {
        return Tags.of("run.id", s.runId, "task", task(s), "model", String.valueOf(s.model),
                "workload", workload(s), "outcome", outcome.tag());
    }

    /** Registers the gauges of run {@code s} with outcome {@code outcome} on {@code registry}. */
    public static void register(RunSummary s, RunOutcome outcome, MeterRegistry registry) {
        registry.config().commonTags(tags(s, outcome));
        new RunMeters(s, registry).registerAll();
    }

    private void registerAll() {
        gauge("outcome", null, "1 for the run; its outcome is the outcome tag (count runs by outcome)", () -> 1);
        gauge("read", "items", "Inputs read from every source", () -> s.read);
        gauge("succeeded", "items", "Inputs with an output", () -> s.succeeded);
        gauge("failed", "items", "Inputs that failed, each once with a reason (duplicates apart)", () -> s.failed);
        s.errorsByReason.forEach((reason, n) -> gauge("failed.by.reason", "items",
                "Failed inputs by reason; sums to failed", Tags.of("reason", reason), () -> n));
        gauge("duplicates", "items", "Inputs dropped as duplicate ids (in errors/ as duplicate_id, not failed)",
                () -> s.duplicates);
        gauge("skipped", "items", "Incremental runs: unchanged inputs reused from the previous output",
                () -> s.skippedUnchanged);
        gauge("reconciled", null, "1 when read = succeeded + failed + skipped + duplicates, else 0",
                () -> s.reconciliation != null && s.reconciliation.ok() ? 1 : 0);
        gauge("batches", null, "Model calls", () -> s.batches);
        gauge("retries", null, "Batches retried after a failed model call", () -> s.retries);
        gauge("real", "tokens", "Real (unpadded) tokens run through the model", () -> s.realTokens);
        gauge("padded", "tokens", "Padded tokens run through the model", () -> s.paddedTokens);
        gauge("padding.efficiency", "ratio", "Real / padded tokens", () -> s.paddingEfficiency);
        gauge("wall", "seconds", "Submission to the job's end", () -> s.wallSeconds);
        gauge("goodput", "items.per.second", "Successful items per wall second", () -> s.itemsPerSecond);
        for (Map.Entry<String, Double> p : s.batchLatencyMs.entrySet()) {
            gauge("batch.latency", "seconds", "Batch latency over all batches: p50, p90, p95, p99, max",
                    Tags.of("percentile", p.getKey()), () -> p.getValue() / 1000.0);
        }
        Tags currency = Tags.of("currency", s.cost.currency);
        gauge("cost", null, "Total cost: every subtask held for the wall time (docs/measurement.md)",
                currency, () -> s.cost.total);
        gauge("cost.busy", null, "Cost of the model calls", currency, () -> s.cost.busy);
        gauge("cost.load", null, "Cost of loading the models", currency, () -> s.cost.load);
        gauge("cost.idle", null, "Cost of held, unused subtask time", currency, () -> s.cost.idle);
        gauge("cost.per.item", null, "Total cost / (succeeded + failed)", currency, () -> s.cost.perItem);
        gauge("cost.per.successful.item", null, "Total cost / succeeded", currency,
                () -> s.cost.perSuccessfulItem);
        gauge("cost.per.million.real.tokens", null, "Total cost per 1M real tokens", currency,
                () -> s.cost.per1MRealTokens);
        if (s.documents != null) {
            gauge("documents", null, "Chunked moderation: documents with a verdict", () -> s.documents);
        }
        if (s.quality.checked > 0) {
            Tags metric = Tags.of("metric", s.quality.metric);
            gauge("quality.checked", "items", "Outputs re-run through the reference model", metric,
                    () -> s.quality.checked);
            gauge("quality.min", null, "Quality gate sample: minimum", metric, () -> s.quality.min);
            gauge("quality.mean", null, "Quality gate sample: mean", metric, () -> s.quality.mean);
        }
        if (s.workloadVerdicts != null) {
            for (WorkloadVerdict v : s.workloadVerdicts) {
                if (v.status() != WorkloadVerdict.Status.NOT_SET) {
                    gauge("contract.missed", null, "Workload card clause: 1 missed, 0 met",
                            Tags.of("clause", v.clause()), () -> v.missed() ? 1 : 0);
                }
            }
        }
        long submitted = s.runInfo == null ? 0 : s.runInfo.path("submittedAtMillis").asLong(0);
        if (submitted > 0) {
            gauge("submitted.timestamp", "seconds", "When the run was submitted (Unix time)",
                    () -> submitted / 1000.0);
        }
    }

    private void gauge(String name, String unit, String help, Supplier<Number> value) {
        gauge(name, unit, help, Tags.empty(), value);
    }

    private void gauge(String name, String unit, String help, Tags tags, Supplier<Number> value) {
        Gauge.builder(PREFIX + name, value).baseUnit(unit).description(help).tags(tags).register(registry);
    }

    /** The run's model task ({@code embedding}, {@code classification}) from its run info. */
    static String task(RunSummary s) {
        String task = s.runInfo == null ? "" : s.runInfo.path("model").path("task").asText("");
        return task.isEmpty() ? "unknown" : task.toLowerCase(Locale.ROOT);
    }

    /** The workload card's name (else its location), or {@value #NO_WORKLOAD}. */
    static String workload(RunSummary s) {
        if (s.workload == null) {
            return NO_WORKLOAD;
        }
        return s.workload.name() != null && !s.workload.name().isBlank() ? s.workload.name() : s.workload.card();
    }
}
