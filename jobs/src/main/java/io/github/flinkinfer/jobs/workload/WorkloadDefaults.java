package io.github.flinkinfer.jobs.workload;

import java.time.Instant;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;
import picocli.CommandLine;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * {@code --workload CARD} as picocli default values: every option the command line leaves out
 * takes the card's or its plan's value, so explicit flags win without any check of ours. Picocli
 * asks for defaults after it has read the arguments, so {@code --workload} and {@code --plan} are
 * known by then. A card or plan that does not load supplies nothing here: the run reads them again
 * for its contract ({@link WorkloadOptions#contract}) and reports every error there, at once.
 *
 * <pre>{@code
 * @Command(defaultValueProvider = WorkloadDefaults.class) class RunOptions { ... }
 * }</pre>
 */
public class WorkloadDefaults implements CommandLine.IDefaultValueProvider {
    private final Map<String, String> fallback;
    private String readFor;
    private Map<String, String> values = Map.of();

    public WorkloadDefaults() {
        this(Map.of());
    }

    /** With defaults of a command's own ({@code fallback}, by long option name) beneath the card's. */
    protected WorkloadDefaults(Map<String, String> fallback) {
        this.fallback = Map.copyOf(fallback);
    }

    @Override
    public String defaultValue(ArgSpec arg) {
        if (!(arg instanceof OptionSpec option)) {
            return null;
        }
        String value = fromCard(arg.command()).get(option.longestName());
        return value != null ? value : fallback.get(option.longestName());
    }

    private Map<String, String> fromCard(CommandSpec command) {
        String card = given(command, "--workload");
        if (card == null) {
            return Map.of();
        }
        String plan = given(command, "--plan");
        String key = card + '\0' + plan;
        if (!key.equals(readFor)) {
            readFor = key;
            try {
                values = values(WorkloadOptions.load(card, plan, null, Instant.now()));
            } catch (Exception e) {
                values = Map.of(); // reported by the run's contract, with every other error of the card
            }
        }
        return values;
    }

    private static String given(CommandSpec command, String name) {
        OptionSpec o = command.findOption(name);
        return o == null ? null : o.getValue();
    }

    /** The options a card and its plan set, as command-line strings by long option name. */
    static Map<String, String> values(WorkloadOptions.Loaded loaded) {
        WorkloadCard c = loaded.workload();
        WorkloadPlan.Settings s = loaded.plan().settings();
        Values v = new Values();
        WorkloadCard.Corpus corpus = c.corpus();
        v.put("--input", corpus.inputs() == null || corpus.inputs().isEmpty() ? null : String.join(",", corpus.inputs()));
        v.put("--format", corpus.format() == null ? null : corpus.format().toUpperCase(Locale.ROOT));
        v.put("--id-field", corpus.idField());
        v.put("--text-field", corpus.textField());
        if (s != null) {
            v.put("--model", s.model());
            v.put("--bucket-edges", s.bucketEdges() == null ? null
                    : Arrays.stream(s.bucketEdges()).mapToObj(String::valueOf).collect(Collectors.joining(",")));
            v.put("--max-batch-tokens", s.maxBatchTokens() > 0 ? s.maxBatchTokens() : null);
            v.put("--max-length", s.maxLength());
        }
        Integer parallelism = c.parallelism() != null ? c.parallelism()
                : s != null && s.parallelism() > 0 ? s.parallelism() : null;
        v.put("--parallelism", parallelism);
        if (c.maxLength() != null && (s == null || s.maxLength() == 0)) {
            v.put("--max-length", c.maxLength());
        }
        WorkloadCard.Prices pr = c.pricesOrEmpty();
        v.put("--price-tm-hour", pr.tmHour());
        v.put("--slots-per-tm", pr.slotsPerTm());
        v.put("--price-cpu-core-hour", pr.cpuCoreHour());
        v.put("--price-gpu-hour", pr.gpuHour());
        v.put("--currency", pr.currency());
        v.put("--quality-reference", c.reference());
        if (c.quality() != null) {
            WorkloadCard.Quality q = c.quality();
            v.put("--quality-sample", q.sampleOrDefault());
            Double floor = q.labelAgreement() != null ? q.labelAgreement() : q.minCosine();
            // the card's floors are the only ones: no default minimum beside a mean-only card
            v.put("--quality-floor", floor != null ? floor : 0.0);
            v.put("--quality-mean-floor", q.meanCosine());
        }
        return Map.copyOf(v.map);
    }

    /** Puts a value unless there is none; a later put of the same option wins. */
    private static final class Values {
        final Map<String, String> map = new HashMap<>();

        void put(String option, Object value) {
            if (value != null) {
                map.put(option, value instanceof List<?> l
                        ? l.stream().map(String::valueOf).collect(Collectors.joining(",")) : String.valueOf(value));
            }
        }
    }
}
