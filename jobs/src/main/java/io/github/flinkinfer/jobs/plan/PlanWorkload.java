package io.github.flinkinfer.jobs.plan;

import io.github.flinkinfer.jobs.options.CostOptions;
import io.github.flinkinfer.jobs.options.QualityOptions;
import io.github.flinkinfer.jobs.plan.WorkloadPlanner.Contract;
import io.github.flinkinfer.jobs.plan.WorkloadPlanner.Decision;
import io.github.flinkinfer.jobs.plan.WorkloadPlanner.Measurement;
import io.github.flinkinfer.jobs.report.HumanNumbers;
import io.github.flinkinfer.jobs.spec.InputFormat;
import io.github.flinkinfer.jobs.workload.WorkloadCard;
import io.github.flinkinfer.jobs.workload.WorkloadPlan;
import io.github.flinkinfer.jobs.workload.WorkloadPlan.ClauseCheck;
import io.github.flinkinfer.jobs.workload.WorkloadPlan.Forecast;
import io.github.flinkinfer.jobs.workload.WorkloadPlan.VariantEstimate;
import io.github.flinkinfer.operators.metrics.CostModel;
import io.github.flinkinfer.operators.models.ModelCards;
import io.github.flinkinfer.runtime.card.ModelCard;
import io.github.flinkinfer.runtime.card.ModelTask;
import io.github.flinkinfer.runtime.onnx.RuntimeOptions;
import io.github.flinkinfer.runtime.tokenize.TextTokenizer;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * {@code plan --workload CARD}: samples the card's corpus, measures every variant on that sample
 * ({@link VariantSweep}), lets {@link WorkloadPlanner} choose, prints the variant table with each
 * clause met or missed and why, and writes the plan {@code embed --workload} runs.
 *
 * <pre>{@code
 * int exit = new PlanWorkload(400, 0, commandLinePrices, out).plan("cards/gcide.yaml", null); // 0 or 3
 * }</pre>
 */
final class PlanWorkload {
    /** Exit code when no variant meets every clause (the best effort's plan is still written). */
    static final int INFEASIBLE = 3;

    /** The mean token length comes from this many times {@code --sample} texts (tokenized only). */
    static final int LENGTH_SAMPLE_FACTOR = 10;

    private final int sampleSize;
    private final int parallelismOverride;
    private final CostOptions commandLinePrices;
    private final PrintWriter out;

    /**
     * @param parallelismOverride the command line's {@code --parallelism} (0 = the card's, else cores)
     * @param commandLinePrices used when the card states no prices
     */
    PlanWorkload(int sampleSize, int parallelismOverride, CostOptions commandLinePrices, PrintWriter out) {
        this.sampleSize = sampleSize;
        this.parallelismOverride = parallelismOverride;
        this.commandLinePrices = commandLinePrices;
        this.out = out;
    }

    /** Plans the card; returns 0 when a variant meets every clause, {@link #INFEASIBLE} otherwise. */
    int plan(String cardLocation, String planOutput) throws Exception {
        Instant now = Instant.now();
        WorkloadCard card = WorkloadCard.read(cardLocation, now);
        List<String> references = references(card);

        int cores = Runtime.getRuntime().availableProcessors();
        int parallelism = parallelismOverride > 0 ? parallelismOverride
                : card.parallelism() != null ? card.parallelism() : cores;
        CostModel prices = (card.prices() != null ? CostOptions.of(card.prices()) : commandLinePrices).model(1);
        int maxLength = card.maxLength() != null ? card.maxLength() : 0;

        List<Path> files = files(card.corpus().inputs());
        PlanCommand.Sample s = PlanCommand.sample(files, jsonl(card.corpus(), files), sampleSize * LENGTH_SAMPLE_FACTOR,
                card.corpus().textFieldOrDefault());
        if (s.texts().isEmpty()) {
            throw new IllegalArgumentException("workload card " + cardLocation + ": no text in field '"
                    + card.corpus().textFieldOrDefault() + "' of " + card.corpus().inputs());
        }
        out.printf(Locale.ROOT, "workload %s: corpus %s, %,d records; sampled %d (%d swept, all tokenized for the mean length);"
                        + " parallelism %d (%d cores here)%n",
                card.name() != null ? card.name() : cardLocation, card.corpus().inputs(), s.total(), s.texts().size(),
                Math.min(sampleSize, s.texts().size()),
                parallelism, cores);
        if (parallelism > cores) {
            out.printf("note: the rates are measured with one core per subtask; %d subtasks need %d cores"
                    + " (more TaskManagers), not this machine's %d%n", parallelism, parallelism, cores);
        }
        // Untimed: a JVM's first tokenizer loads DJL's native library and its first model starts ONNX
        // Runtime; whichever variant came first would be charged for both.
        TextTokenizer.load(ModelCards.resolve(card.variants().get(0)), RuntimeOptions.defaults()).close();
        ai.onnxruntime.OrtEnvironment.getEnvironment();

        VariantSweep sweep = new VariantSweep(s.texts(), sampleSize, maxLength, Math.min(parallelism, cores), out);
        List<Measurement> measured = new ArrayList<>();
        out.println("\nsweep (1 ORT thread per subtask; rate = real tokens / (tokenize + inference) seconds):");
        for (int i = 0; i < card.variants().size(); i++) {
            measured.add(sweep.measure(card.variants().get(i), references.get(i)));
        }
        Decision d = WorkloadPlanner.decide(Contract.of(card, now, parallelism, cores, prices), s.total(), measured);
        print(d, references);

        String location = planOutput != null ? planOutput : WorkloadPlan.locationFor(cardLocation);
        d.toPlan(cardLocation, WorkloadCard.sha256(cardLocation), now).write(location);
        out.println("\nplan written: " + location);
        out.println("run it: flink-inference " + card.task().command() + " --workload " + cardLocation
                + " --output <dir>");
        if (!location.equals(WorkloadPlan.locationFor(cardLocation))) {
            out.println("note: --workload looks for the plan at " + WorkloadPlan.locationFor(cardLocation));
        }
        out.flush();
        return d.feasible() ? 0 : INFEASIBLE;
    }

    private void print(Decision d, List<String> references) {
        List<String> clauses = d.variants().get(0).clauses().stream().map(ClauseCheck::clause).toList();
        out.printf("%nvariants (quality: batched outputs vs the reference run alone, on the sample):%n");
        String header = String.format(Locale.ROOT, "  %-24s %-22s %9s %9s %10s %9s %16s",
                "variant", "reference", "tokens/s", "start-up", "inference", "total", "cost");
        out.println(header + clauses.stream().map(c -> String.format(Locale.ROOT, " %-15s", c))
                .collect(Collectors.joining()));
        for (int i = 0; i < d.variants().size(); i++) {
            VariantEstimate v = d.variants().get(i);
            Forecast f = v.forecast();
            String quality = WorkloadPlanner.COSINE.equals(v.metric())
                    ? String.format(Locale.ROOT, "min %.4f mean %.4f", v.qualityMin(), v.qualityMean())
                    : String.format(Locale.ROOT, "agreement %.4f", v.qualityMean());
            out.printf(Locale.ROOT, "  %-24s %-22s %,9.0f %9s %10s %9s %16s", v.model(), references.get(i),
                    v.realTokensPerSecond(), HumanNumbers.duration(f.startupSeconds()),
                    HumanNumbers.duration(f.inferenceSeconds()), HumanNumbers.duration(f.seconds()),
                    HumanNumbers.money(f.cost(), f.currency()));
            out.println(v.clauses().stream().map(c -> String.format(Locale.ROOT, " %-15s", c.met() ? "met" : "MISSED"))
                    .collect(Collectors.joining()));
            out.println("    " + quality + "; " + v.clauses().stream().map(c -> c.clause() + ": " + c.detail())
                    .collect(Collectors.joining("; ")));
        }
        VariantEstimate p = d.planned();
        Forecast f = p.forecast();
        if (d.feasible()) {
            out.printf("%nchosen: %s — the cheapest variant meeting every clause (ties: the faster)%n", p.model());
        } else {
            out.printf("%nno variant meets every clause; best effort: %s (its settings are in the plan)%n", p.model());
        }
        for (VariantEstimate v : d.variants()) {
            if (v != p) {
                out.println("  " + v.model() + ": " + d.whyNot(v));
            }
        }
        out.printf(Locale.ROOT, "forecast: %,d records × %.1f tokens ≈ %,.0f tokens; start-up %s (load %s + cluster"
                        + " start %s) + inference %s on %d subtasks = %s; cost %s (idle included)%n",
                f.records(), f.tokens() / Math.max(1, f.records()), f.tokens(),
                HumanNumbers.duration(f.startupSeconds()),
                HumanNumbers.duration(f.startupSeconds() - WorkloadPlanner.CLUSTER_START_SECONDS),
                HumanNumbers.duration(WorkloadPlanner.CLUSTER_START_SECONDS),
                HumanNumbers.duration(f.inferenceSeconds()), d.contract().parallelism(),
                HumanNumbers.duration(f.seconds()), HumanNumbers.money(f.cost(), f.currency()));
        out.printf("settings: --model %s --bucket-edges %s --max-batch-tokens %d --parallelism %d%n", p.model(),
                String.join(",", java.util.Arrays.stream(p.bucketEdges()).mapToObj(String::valueOf).toList()),
                p.maxBatchTokens(), d.contract().parallelism());
        if (!d.unmet().isEmpty()) {
            out.println("unmet:");
            d.unmet().forEach(u -> out.println("  - " + u));
        }
    }

    /**
     * Each variant's reference: the card's, else the variant's fp32 form ({@link
     * QualityOptions#referenceFor}); refused when its task or labels differ from the variant's.
     */
    private static List<String> references(WorkloadCard card) {
        ModelTask task = card.task() == WorkloadCard.Task.EMBED ? ModelTask.EMBEDDING : ModelTask.CLASSIFICATION;
        List<String> references = new ArrayList<>();
        QualityOptions quality = new QualityOptions();
        quality.reference = card.reference();
        quality.sample = 1;
        for (String variant : card.variants()) {
            ModelCard model = ModelCards.resolve(variant);
            if (model.task != task) {
                throw new IllegalArgumentException("workload card: variant " + variant + " is a model for "
                        + model.task + ", the card's task " + card.task().command() + " needs " + task);
            }
            quality.validateFor(model, variant);
            references.add(quality.referenceFor(variant));
        }
        return references;
    }

    /** The corpus's files on this machine; a directory stands for its visible files. */
    static List<Path> files(List<String> inputs) throws IOException {
        List<Path> files = new ArrayList<>();
        for (String input : inputs) {
            Path path = input.startsWith("file:") ? Path.of(URI.create(input)) : localPath(input);
            if (Files.isDirectory(path)) {
                try (Stream<Path> walk = Files.walk(path)) {
                    walk.filter(Files::isRegularFile)
                            .filter(f -> !f.getFileName().toString().startsWith(".")
                                    && !f.getFileName().toString().startsWith("_"))
                            .sorted().forEach(files::add);
                }
            } else if (Files.isRegularFile(path)) {
                files.add(path);
            } else {
                throw new IllegalArgumentException("workload corpus input " + input + " does not exist");
            }
        }
        return files;
    }

    private static Path localPath(String input) {
        if (input.matches("^[a-zA-Z][a-zA-Z0-9+.-]*://.*")) {
            throw new IllegalArgumentException("plan --workload samples local files; corpus input " + input
                    + " is not one (copy a part of it here and plan with a card naming that)");
        }
        return Path.of(input);
    }

    private static boolean jsonl(WorkloadCard.Corpus corpus, List<Path> files) {
        if (files.isEmpty()) {
            throw new IllegalArgumentException("workload corpus " + corpus.inputs() + " holds no files");
        }
        InputFormat format = corpus.format() != null ? InputFormat.valueOf(corpus.format().toUpperCase(Locale.ROOT))
                : InputFormat.fromFileName(files.get(0).getFileName().toString());
        if (format != InputFormat.JSONL && format != InputFormat.TEXT) {
            throw new IllegalArgumentException("plan --workload samples JSONL and text corpora, not " + format);
        }
        return format == InputFormat.JSONL;
    }
}
