package io.github.flinkinfer.jobs.cli;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.Help;
import picocli.CommandLine.Model.OptionSpec;

/**
 * {@code embed --help} / {@code moderate --help} with the options in groups a user looks for
 * (input, model, batching, outputs, quality, errors, cost, Kafka, runtime) instead of one flat
 * list of sixty, a short synopsis and examples at the end. The options stay where they are
 * declared; only their listing is grouped, by name.
 */
final class GroupedHelp {
    private static final Map<String, List<String>> GROUPS = new LinkedHashMap<>();

    static {
        GROUPS.put("Input", List.of("--input", "--format", "--id-field", "--text-field",
                "--max-record-bytes", "--duplicates", "--input-kind"));
        GROUPS.put("Model", List.of("--model", "--max-length", "--overlong", "--device",
                "--share-session", "--intra-op-threads", "--optimization-level", "--overlap",
                "--ort-config", "--ort-profile", "--ort-native-dir", "--cuda-mem-limit", "--cuda-arena-extend-strategy", "--cuda-tf32", "--pool-on-device"));
        GROUPS.put("Batching", List.of("--bucket-edges", "--max-batch-tokens", "--max-batch-size",
                "--max-buffered-items", "--lookahead-batches", "--max-wait-ms"));
        GROUPS.put("Outputs", List.of("--output", "--output-format", "--run-id", "--overwrite",
                "--chunk-size", "--chunk-overlap", "--doc-pooling", "--index-name", "--vector-field",
                "--previous-output", "--previous-run-id", "--chunk-verdict"));
        GROUPS.put("Quality", List.of("--quality-sample", "--quality-seed", "--quality-reference", "--quality-floor",
                "--quality-mean-floor"));
        GROUPS.put("Workload", List.of("--workload", "--plan", "--fail-on-missed-contract"));
        GROUPS.put("Errors", List.of("--max-errors", "--max-error-rate"));
        GROUPS.put("Cost", List.of("--price-tm-hour", "--slots-per-tm", "--price-cpu-core-hour",
                "--price-gpu-hour", "--reference-price-per-1m-tokens", "--currency"));
        GROUPS.put("Run metrics", List.of("--push-gateway"));
        GROUPS.put("Runtime", List.of("--parallelism", "--runtime-mode", "--checkpoint-interval-ms",
                "--restart-attempts", "-D", "--progress-seconds", "--verbose", "--help", "--version"));
    }

    private GroupedHelp() {}

    /** Installs the grouped option list on a job command (embed, moderate). */
    static void install(CommandLine command) {
        command.getHelpSectionMap().put(CommandLine.Model.UsageMessageSpec.SECTION_KEY_OPTION_LIST,
                help -> render(help));
    }

    private static String render(Help help) {
        Map<String, List<OptionSpec>> grouped = new LinkedHashMap<>();
        GROUPS.keySet().forEach(g -> grouped.put(g, new ArrayList<>()));
        grouped.put("Kafka", new ArrayList<>());
        grouped.put("Other", new ArrayList<>());
        for (OptionSpec option : help.commandSpec().options()) {
            if (!option.hidden()) {
                grouped.get(groupOf(option.longestName())).add(option);
            }
        }
        StringBuilder sb = new StringBuilder();
        Help.Layout layout = help.createDefaultLayout();
        grouped.forEach((name, options) -> {
            if (options.isEmpty()) {
                return;
            }
            Help.Layout section = help.createDefaultLayout();
            options.forEach(o -> section.addOption(o, help.createDefaultParamLabelRenderer()));
            sb.append(String.format("%n%s:%n", name)).append(section);
        });
        return layout.toString() + sb;
    }

    static String groupOf(String option) {
        if (option.startsWith("--kafka-")) {
            return "Kafka";
        }
        for (Map.Entry<String, List<String>> g : GROUPS.entrySet()) {
            if (g.getValue().contains(option)) {
                return g.getKey();
            }
        }
        return "Other";
    }
}
