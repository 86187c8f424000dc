package io.github.flinkinfer.jobs.plan;

import io.github.flinkinfer.jobs.report.HumanNumbers;
import io.github.flinkinfer.jobs.workload.WorkloadCard;
import io.github.flinkinfer.jobs.workload.WorkloadPlan;
import io.github.flinkinfer.jobs.workload.WorkloadPlan.ClauseCheck;
import io.github.flinkinfer.jobs.workload.WorkloadPlan.Forecast;
import io.github.flinkinfer.jobs.workload.WorkloadPlan.Settings;
import io.github.flinkinfer.jobs.workload.WorkloadPlan.VariantEstimate;
import io.github.flinkinfer.operators.metrics.CostModel;
import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Chooses a workload card's variant from measurements alone (no models): forecasts each variant's
 * run, checks every clause (quality floors, deadline, budget), takes the cheapest variant that
 * meets them all (ties: the faster) and, when none does, a best effort plus what would meet each
 * clause it misses (a parallelism, a budget, the best measured quality). Formula and rule in
 * docs/workload.md.
 *
 * <pre>{@code
 * Decision d = WorkloadPlanner.decide(Contract.of(card, now, 8, 8, prices), records, measurements);
 * d.toPlan("cards/gcide.yaml", sha256, now).write("cards/gcide.plan.json");
 * }</pre>
 */
public final class WorkloadPlanner {
    /**
     * Submission → the first inference subtask opening on the embedded cluster (the rest of the
     * MiniCluster start, which begins before submission, job graph, deployment): the *after*
     * median in docs/benchmarks/cold-start.md. Added to every variant's measured model and
     * tokenizer load (which the embedded run now mostly spends before submission, so the
     * forecast's start-up errs long by up to a model load).
     */
    public static final double CLUSTER_START_SECONDS = 3.3;

    /** {@link VariantEstimate#metric()} of embedding models: cosine against the reference. */
    public static final String COSINE = "cosine";

    /** {@link VariantEstimate#metric()} of classifiers: share of equal top labels. */
    public static final String LABEL_AGREEMENT = "label-agreement";

    static final String MIN_COSINE = "min-cosine";
    static final String MEAN_COSINE = "mean-cosine";
    static final String DEADLINE = "deadline";
    static final String BUDGET = "budget";
    private static final Set<String> QUALITY = Set.of(MIN_COSINE, MEAN_COSINE, LABEL_AGREEMENT);

    private WorkloadPlanner() {}

    /**
     * The card's clauses as numbers (a null clause is not part of the contract), for a run on
     * {@code parallelism} subtasks priced by {@code prices}; {@code cores} is this machine's.
     */
    public record Contract(Double minCosine, Double meanCosine, Double labelAgreement, Double availableSeconds,
            Double budget, int parallelism, int cores, CostModel prices) {

        /** The card's clauses for a run submitted at {@code now}. */
        public static Contract of(WorkloadCard card, Instant now, int parallelism, int cores, CostModel prices) {
            WorkloadCard.Quality q = card.qualityOrEmpty();
            Double available = card.deadline() == null ? null : card.deadline().available(now).toMillis() / 1000.0;
            return new Contract(q.minCosine(), q.meanCosine(), q.labelAgreement(), available, card.budget(),
                    parallelism, cores, prices);
        }
    }

    /**
     * One variant measured on the sample. For classifiers {@code qualityMin} and {@code qualityMean}
     * are both the label agreement.
     *
     * @param tokensPerSecond real tokens per second of one subtask, tokenization and inference together
     * @param meanTokens the sample's mean tokens per record with this variant's tokenizer
     * @param loadSeconds model plus tokenizer load, as each subtask pays it
     */
    public record Measurement(String model, String metric, int sampled, double qualityMin, double qualityMean,
            double tokensPerSecond, double padding, int[] bucketEdges, int maxBatchTokens, int maxLength,
            double meanTokens, double loadSeconds) {}

    /**
     * What the planner decided: every variant's estimate (in the card's order), the chosen one (null
     * when none meets every clause), the one whose settings the plan carries (the chosen one, else
     * the best effort) and each clause left unmet with what would meet it.
     */
    public record Decision(List<Measurement> measured, List<VariantEstimate> variants, VariantEstimate chosen,
            VariantEstimate planned, List<String> unmet, Contract contract) {

        public boolean feasible() {
            return chosen != null;
        }

        /** The plan file's content. */
        public WorkloadPlan toPlan(String card, String cardSha256, Instant plannedAt) {
            int maxLength = measured.get(variants.indexOf(planned)).maxLength();
            Settings settings = new Settings(planned.model(), planned.bucketEdges(), planned.maxBatchTokens(),
                    contract.parallelism(), maxLength);
            return new WorkloadPlan(card, cardSha256, plannedAt.toString(), chosen == null ? null : chosen.model(),
                    settings, planned.forecast(), variants, unmet);
        }

        /** Why a variant was not chosen: the clauses it misses, or how it lost on cost or time. */
        public String whyNot(VariantEstimate v) {
            List<String> missed = v.clauses().stream().filter(c -> !c.met()).map(ClauseCheck::detail).toList();
            if (!missed.isEmpty()) {
                return String.join("; ", missed);
            }
            if (chosen == null || v == chosen) {
                return "meets every clause";
            }
            String currency = v.forecast().currency();
            if (v.forecast().cost() > chosen.forecast().cost()) {
                return "meets every clause but costs " + HumanNumbers.money(v.forecast().cost(), currency) + " > "
                        + HumanNumbers.money(chosen.forecast().cost(), currency) + " (" + chosen.model() + ")";
            }
            return "meets every clause at the same cost but takes " + HumanNumbers.duration(v.forecast().seconds())
                    + " ≥ " + HumanNumbers.duration(chosen.forecast().seconds()) + " (" + chosen.model() + ")";
        }
    }

    /** Forecasts and checks every measured variant, then chooses. */
    public static Decision decide(Contract contract, long records, List<Measurement> measured) {
        if (measured.isEmpty()) {
            throw new IllegalArgumentException("no variant measured");
        }
        List<VariantEstimate> estimates = new ArrayList<>();
        for (Measurement m : measured) {
            Forecast f = forecast(m, records, contract.parallelism(), contract.prices());
            estimates.add(new VariantEstimate(m.model(), m.metric(), m.sampled(), m.qualityMin(), m.qualityMean(),
                    m.tokensPerSecond(), m.padding(), m.bucketEdges(), m.maxBatchTokens(), f, clauses(contract, m, f)));
        }
        Comparator<VariantEstimate> cheaperThenFaster = Comparator
                .comparingDouble((VariantEstimate v) -> v.forecast().cost())
                .thenComparingDouble(v -> v.forecast().seconds());
        VariantEstimate chosen = estimates.stream().filter(VariantEstimate::meetsAll)
                .min(cheaperThenFaster).orElse(null);
        if (chosen != null) {
            return new Decision(measured, estimates, chosen, chosen, List.of(), contract);
        }
        List<VariantEstimate> meetQuality = estimates.stream().filter(WorkloadPlanner::meetsQuality).toList();
        VariantEstimate bestEffort = !meetQuality.isEmpty()
                ? meetQuality.stream().min(Comparator.comparingLong(WorkloadPlanner::missed)
                        .thenComparing(cheaperThenFaster)).orElseThrow()
                : estimates.stream().max(Comparator.comparingDouble(VariantEstimate::qualityMin)
                        .thenComparingDouble(VariantEstimate::qualityMean)).orElseThrow();
        List<String> unmet = new ArrayList<>();
        for (ClauseCheck c : bestEffort.clauses()) {
            if (c.met()) {
                continue;
            }
            List<VariantEstimate> pool = meetQuality.isEmpty() ? List.of(bestEffort) : meetQuality;
            List<VariantEstimate> inTime = pool.stream().filter(v -> met(v, DEADLINE)).toList();
            unmet.add(switch (c.clause()) {
                case DEADLINE -> deadlineRemedy(contract, pool);
                case BUDGET -> budgetRemedy(contract, inTime.isEmpty() ? pool : inTime);
                default -> qualityRemedy(c.clause(), floorOf(contract, c.clause()), estimates);
            });
        }
        return new Decision(measured, estimates, null, bestEffort, List.copyOf(unmet), contract);
    }

    /**
     * Start-up (measured load + {@link #CLUSTER_START_SECONDS}) plus the corpus's tokens at the
     * measured per-subtask rate on {@code parallelism} subtasks; cost of that wall time on every
     * subtask, idle included.
     */
    public static Forecast forecast(Measurement m, long records, int parallelism, CostModel prices) {
        double tokens = m.meanTokens() * records;
        double inference = tokens / (m.tokensPerSecond() * parallelism);
        double startup = m.loadSeconds() + CLUSTER_START_SECONDS;
        double seconds = startup + inference;
        return new Forecast(records, tokens, startup, inference, seconds, cost(prices, seconds, parallelism),
                prices.currency());
    }

    /** The parallelism whose forecast meets {@code availableSeconds}, or -1 when start-up alone exceeds it. */
    static int parallelismFor(Forecast f, int parallelism, double availableSeconds) {
        double left = availableSeconds - f.startupSeconds();
        if (left <= 0) {
            return -1;
        }
        return (int) Math.max(1, Math.ceil(f.inferenceSeconds() * parallelism / left - 1e-9));
    }

    private static double cost(CostModel prices, double seconds, int parallelism) {
        return prices.cost(seconds * 1000, false) * parallelism;
    }

    private static List<ClauseCheck> clauses(Contract c, Measurement m, Forecast f) {
        List<ClauseCheck> out = new ArrayList<>();
        boolean cosine = COSINE.equals(m.metric());
        quality(out, MIN_COSINE, "min cosine", c.minCosine(), cosine ? m.qualityMin() : Double.NaN);
        quality(out, MEAN_COSINE, "mean cosine", c.meanCosine(), cosine ? m.qualityMean() : Double.NaN);
        quality(out, LABEL_AGREEMENT, "label agreement", c.labelAgreement(), cosine ? Double.NaN : m.qualityMean());
        if (c.availableSeconds() != null) {
            boolean met = f.seconds() <= c.availableSeconds();
            out.add(new ClauseCheck(DEADLINE, met, "forecast " + HumanNumbers.duration(f.seconds())
                    + (met ? " ≤ " : " > ") + HumanNumbers.duration(c.availableSeconds()) + " available"));
        }
        if (c.budget() != null) {
            boolean met = f.cost() <= c.budget();
            out.add(new ClauseCheck(BUDGET, met, "forecast " + HumanNumbers.money(f.cost(), f.currency())
                    + (met ? " ≤ " : " > ") + "budget " + HumanNumbers.money(c.budget(), f.currency())));
        }
        return out;
    }

    private static void quality(List<ClauseCheck> out, String clause, String label, Double floor, double value) {
        if (floor == null) {
            return;
        }
        if (Double.isNaN(value)) {
            out.add(new ClauseCheck(clause, false, label + " not measured (other task) vs floor " + q(floor)));
            return;
        }
        boolean met = value >= floor;
        out.add(new ClauseCheck(clause, met, label + " " + q(value) + (met ? " ≥ " : " < ") + "floor " + q(floor)));
    }

    private static String deadlineRemedy(Contract c, List<VariantEstimate> pool) {
        VariantEstimate best = null;
        int bestP = -1;
        for (VariantEstimate v : pool) {
            int p = parallelismFor(v.forecast(), c.parallelism(), c.availableSeconds());
            if (p > 0 && (bestP < 0 || p < bestP)) {
                best = v;
                bestP = p;
            }
        }
        VariantEstimate fastest = pool.stream().min(Comparator.comparingDouble(v -> v.forecast().seconds()))
                .orElseThrow();
        String head = "deadline: " + HumanNumbers.duration(c.availableSeconds()) + " available, forecast "
                + HumanNumbers.duration(fastest.forecast().seconds()) + " (" + fastest.model() + " at parallelism "
                + c.parallelism() + ")";
        if (best == null) {
            return head + "; no parallelism can meet it: start-up alone is "
                    + HumanNumbers.duration(fastest.forecast().startupSeconds());
        }
        Forecast f = best.forecast();
        double seconds = f.startupSeconds() + f.inferenceSeconds() * c.parallelism() / bestP;
        String at = "; parallelism " + bestP + " would meet it with " + best.model() + " (forecast "
                + HumanNumbers.duration(seconds);
        double cost = cost(c.prices(), seconds, bestP);
        at += cost > 0 ? ", " + HumanNumbers.money(cost, f.currency()) + ")" : ")";
        if (bestP > c.cores()) {
            at += "; this machine has " + c.cores() + " cores: run on a cluster with " + bestP + " slots";
        }
        return head + at;
    }

    private static String budgetRemedy(Contract c, List<VariantEstimate> pool) {
        VariantEstimate cheapest = pool.stream().min(Comparator.comparingDouble(v -> v.forecast().cost()))
                .orElseThrow();
        String currency = cheapest.forecast().currency();
        return "budget: " + HumanNumbers.money(c.budget(), currency) + ", cheapest forecast "
                + HumanNumbers.money(cheapest.forecast().cost(), currency) + " (" + cheapest.model()
                + "); a budget of " + ceil(cheapest.forecast().cost()) + " " + currency + " would meet it";
    }

    private static String qualityRemedy(String clause, double floor, List<VariantEstimate> all) {
        VariantEstimate best = all.stream().max(Comparator.comparingDouble(v -> value(v, clause))).orElseThrow();
        double value = value(best, clause);
        return clause + ": floor " + q(floor) + ", best measured " + (Double.isNaN(value) ? "none" : q(value))
                + " (" + best.model() + ")" + (value >= floor ? ", which misses other clauses"
                : "; no variant meets it: lower the floor or add a more accurate variant");
    }

    private static double value(VariantEstimate v, String clause) {
        boolean cosine = COSINE.equals(v.metric());
        return switch (clause) {
            case MIN_COSINE -> cosine ? v.qualityMin() : Double.NaN;
            case MEAN_COSINE -> cosine ? v.qualityMean() : Double.NaN;
            default -> cosine ? Double.NaN : v.qualityMean();
        };
    }

    private static double floorOf(Contract c, String clause) {
        return switch (clause) {
            case MIN_COSINE -> c.minCosine();
            case MEAN_COSINE -> c.meanCosine();
            default -> c.labelAgreement();
        };
    }

    private static boolean meetsQuality(VariantEstimate v) {
        return v.clauses().stream().filter(c -> QUALITY.contains(c.clause())).allMatch(ClauseCheck::met);
    }

    private static boolean met(VariantEstimate v, String clause) {
        return v.clauses().stream().filter(c -> c.clause().equals(clause)).allMatch(ClauseCheck::met);
    }

    private static long missed(VariantEstimate v) {
        return v.clauses().stream().filter(c -> !c.met()).count();
    }

    static String q(double v) {
        return String.format(Locale.ROOT, "%.4f", v);
    }

    /** Three significant digits, rounded up: a budget that meets the forecast. */
    static String ceil(double v) {
        return v == 0 ? "0" : new BigDecimal(v).round(new MathContext(3, RoundingMode.CEILING))
                .stripTrailingZeros().toPlainString();
    }
}
