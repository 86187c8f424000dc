package io.github.flinkinfer.jobs.report;

import io.github.flinkinfer.jobs.workload.WorkloadContract;
import io.github.flinkinfer.jobs.workload.WorkloadContractException;
import io.github.flinkinfer.jobs.workload.WorkloadVerdict;
import io.github.flinkinfer.jobs.workload.WorkloadVerdict.Status;
import java.io.PrintStream;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * Judges a finished run against its card (docs/workload.md, "Verdicts"): deadline, budget, quality
 * floor, goodput and cost per successful item, each from the run's own records (the summary and
 * its per-batch metrics) beside the plan's forecast. Pure: the same records give the same verdicts,
 * at the end of a run and in {@code report}.
 *
 * <pre>{@code
 * var actuals = new WorkloadVerdicts.Actuals(wallSeconds, succeeded, failed, withinLatencyBound, cost, quality);
 * List<WorkloadVerdict> v = WorkloadVerdicts.judge(contract, actuals, submittedAtMillis);
 * WorkloadVerdicts.enforce(v); // --fail-on-missed-contract
 * }</pre>
 */
public final class WorkloadVerdicts {
    public static final String DEADLINE = "deadline";
    public static final String BUDGET = "budget";
    public static final String QUALITY = "quality floor";
    public static final String GOODPUT = "goodput";
    public static final String COST_PER_ITEM = "cost per successful item";

    private WorkloadVerdicts() {}

    /**
     * What a finished run did, as its summary computes it ({@link RunSummary}): the numbers the
     * clauses are judged on.
     *
     * @param wallSeconds from submission to the job's end
     * @param succeeded successful items
     * @param failed failed items
     * @param withinLatencyBound succeeded items of batches within the card's latency bound
     * @param cost the run's cost
     * @param quality the quality gate's sample
     */
    public record Actuals(double wallSeconds, long succeeded, long failed, long withinLatencyBound,
            RunSummary.Cost cost, RunSummary.Quality quality) {}

    /** Every clause's verdict, in the card's order; {@code submittedAtMillis} ≤ 0 when unknown. */
    public static List<WorkloadVerdict> judge(WorkloadContract c, Actuals s, long submittedAtMillis) {
        List<WorkloadVerdict> v = new ArrayList<>();
        v.add(deadline(c, s, submittedAtMillis));
        v.add(budget(c, s));
        WorkloadVerdict quality = quality(c, s);
        v.add(quality);
        v.add(goodput(c, s, quality.missed()));
        v.add(costPerItem(c, s));
        return v;
    }

    static WorkloadVerdict deadline(WorkloadContract c, Actuals s, long submittedAtMillis) {
        Double forecast = c.forecast() == null ? null : c.forecast().seconds();
        String vsForecast = forecast == null || forecast <= 0 ? ""
                : fmt("; forecast %.1f s, actual %.2f× forecast", forecast, s.wallSeconds() / forecast);
        if (c.deadline() == null) {
            return new WorkloadVerdict(DEADLINE, Status.NOT_SET, s.wallSeconds(), null, forecast, "s",
                    fmt("no deadline; ran %.1f s from submission", s.wallSeconds()) + vsForecast);
        }
        if (c.deadline().at() != null && submittedAtMillis <= 0) {
            return new WorkloadVerdict(DEADLINE, Status.NOT_SET, s.wallSeconds(), null, forecast, "s",
                    "deadline " + c.deadline() + " cannot be judged: the run's submission time is unknown");
        }
        Instant start = Instant.ofEpochMilli(Math.max(0, submittedAtMillis));
        double available = c.deadline().available(start).toMillis() / 1000.0;
        boolean met = s.wallSeconds() <= available;
        String due = c.deadline().at() != null ? " (" + c.deadline().at() + ")"
                : submittedAtMillis > 0 ? " (" + c.deadline().due(start) + ")" : "";
        return new WorkloadVerdict(DEADLINE, met ? Status.MET : Status.MISSED, s.wallSeconds(), available,
                forecast, "s", fmt("finished %.1f s after submission, due within %.1f s%s", s.wallSeconds(),
                        available, due) + (met ? "" : fmt(", %.1f s late", s.wallSeconds() - available)) + vsForecast);
    }

    static WorkloadVerdict budget(WorkloadContract c, Actuals s) {
        String cur = s.cost().currency;
        Double forecast = c.forecast() == null ? null : c.forecast().cost();
        String vsForecast = forecast == null || forecast <= 0 ? ""
                : fmt("; forecast %.6f %s, actual %.2f× forecast", forecast, cur, s.cost().total / forecast);
        if (c.budget() == null) {
            return new WorkloadVerdict(BUDGET, Status.NOT_SET, s.cost().total, null, forecast, cur,
                    fmt("no budget; cost %.6f %s", s.cost().total, cur) + vsForecast);
        }
        boolean met = s.cost().total <= c.budget();
        return new WorkloadVerdict(BUDGET, met ? Status.MET : Status.MISSED, s.cost().total, c.budget(), forecast,
                cur, fmt("cost %.6f %s of %.6f budgeted (%.1f%%, busy + load + idle)", s.cost().total, cur,
                        c.budget(), c.budget() == 0 ? 100.0 : 100 * s.cost().total / c.budget()) + vsForecast);
    }

    static WorkloadVerdict quality(WorkloadContract c, Actuals s) {
        RunSummary.Quality q = s.quality();
        if (!c.hasQualityFloor()) {
            return new WorkloadVerdict(QUALITY, Status.NOT_SET, q.checked == 0 ? null : q.min, null, null,
                    q.metric, q.checked == 0 ? "no quality floor; nothing sampled"
                            : fmt("no quality floor; %d sampled outputs: min %.5f, mean %.5f", q.checked, q.min, q.mean));
        }
        if (q.checked == 0) {
            return new WorkloadVerdict(QUALITY, Status.MISSED, null, firstFloor(c), null, null,
                    "not shown held: no outputs were re-run against the reference (--quality-sample 0?)");
        }
        List<String> parts = new ArrayList<>();
        boolean held = true;
        Double actual;
        Double target;
        if (c.labelAgreement() != null) {
            held = q.mean >= c.labelAgreement();
            parts.add(fmt("label agreement %.5f %s floor %.5f", q.mean, held ? "≥" : "<", c.labelAgreement()));
            actual = q.mean;
            target = c.labelAgreement();
        } else {
            boolean minHeld = c.minCosine() == null || q.min >= c.minCosine();
            boolean meanHeld = c.meanCosine() == null || q.mean >= c.meanCosine();
            held = minHeld && meanHeld;
            parts.add(c.minCosine() == null ? fmt("min cosine %.5f (no floor)", q.min)
                    : fmt("min cosine %.5f %s floor %.5f", q.min, minHeld ? "≥" : "<", c.minCosine()));
            parts.add(c.meanCosine() == null ? fmt("mean %.5f (no floor)", q.mean)
                    : fmt("mean %.5f %s floor %.5f", q.mean, meanHeld ? "≥" : "<", c.meanCosine()));
            boolean judgeMin = c.minCosine() != null && (!minHeld || meanHeld);
            actual = judgeMin ? q.min : q.mean;
            target = judgeMin ? c.minCosine() : c.meanCosine();
        }
        return new WorkloadVerdict(QUALITY, held ? Status.MET : Status.MISSED, actual, target, null, q.metric,
                String.join(", ", parts) + fmt(" over %d sampled outputs", q.checked));
    }

    /**
     * Goodput: the share of input records (succeeded + failed) that succeeded in batches whose queue
     * wait plus batch time is within the latency bound (every success without a bound); 0 when the
     * quality floor was missed.
     */
    static WorkloadVerdict goodput(WorkloadContract c, Actuals s, boolean qualityMissed) {
        long inputs = s.succeeded() + s.failed();
        Long bound = c.latencyMaxItemMs();
        // counted by the job per batch against the card's bound (RunLedger.withinLatencyBound)
        long within = bound == null ? s.succeeded() : s.withinLatencyBound();
        long good = qualityMissed ? 0 : within;
        double share = inputs == 0 ? 0 : (double) good / inputs;
        String bounds = bound == null ? "; no latency bound, so every success counts"
                : fmt("; %,d within queue wait (of the batch's oldest item) + batch time ≤ %d ms", within, bound);
        String detail = fmt("%.1f%%: %,d of %,d input records succeeded (%,d failed)",
                100 * share, s.succeeded(), inputs, s.failed()) + bounds
                + (qualityMissed ? "; quality floor missed, so none counts" : "");
        Status status = qualityMissed || (bound != null && within < s.succeeded()) ? Status.MISSED
                : bound == null && !c.hasQualityFloor() ? Status.NOT_SET : Status.MET;
        return new WorkloadVerdict(GOODPUT, status, share, null, null, "share", detail);
    }

    static WorkloadVerdict costPerItem(WorkloadContract c, Actuals s) {
        String cur = s.cost().currency;
        double actual = s.cost().perSuccessfulItem;
        Double forecast = c.forecast() == null || c.forecast().records() == 0 ? null
                : c.forecast().cost() / c.forecast().records();
        long inputs = s.succeeded() + s.failed();
        String fc = forecast == null ? "" : fmt("; forecast %.9f per record", forecast);
        if (c.budget() == null || inputs == 0) {
            return new WorkloadVerdict(COST_PER_ITEM, Status.NOT_SET, actual, null, forecast, cur,
                    fmt("%.9f %s over %,d successful items", actual, cur, s.succeeded()) + fc);
        }
        double target = c.budget() / inputs;
        boolean met = s.succeeded() > 0 && actual <= target;
        return new WorkloadVerdict(COST_PER_ITEM, met ? Status.MET : Status.MISSED, actual, target, forecast, cur,
                fmt("%.9f %s over %,d successful items; the budget allows %.9f per input record", actual, cur,
                        s.succeeded(), target) + fc);
    }

    /** Throws {@link WorkloadContractException} naming every missed deadline or budget. */
    public static void enforce(List<WorkloadVerdict> verdicts) {
        List<WorkloadVerdict> missed = verdicts.stream()
                .filter(v -> v.missed() && (v.clause().equals(DEADLINE) || v.clause().equals(BUDGET))).toList();
        if (!missed.isEmpty()) {
            throw new WorkloadContractException("Workload contract missed (--fail-on-missed-contract): "
                    + missed.stream().map(v -> fmt("%s %s vs target %s %s (%s)", v.clause(), num(v.actual()),
                            num(v.target()), v.unit(), v.detail())).collect(Collectors.joining("; ")));
        }
    }

    private static Double firstFloor(WorkloadContract c) {
        return c.labelAgreement() != null ? c.labelAgreement() : c.minCosine() != null ? c.minCosine() : c.meanCosine();
    }

    private static String num(Double d) {
        return d == null ? "—" : fmt("%.6g", d);
    }

    private static String fmt(String format, Object... args) {
        return String.format(Locale.ROOT, format, args);
    }
}
