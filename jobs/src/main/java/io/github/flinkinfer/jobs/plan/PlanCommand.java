package io.github.flinkinfer.jobs.plan;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.flinkinfer.jobs.options.CostOptions;
import io.github.flinkinfer.operators.batch.Batch;
import io.github.flinkinfer.operators.batch.BatchingConfig;
import io.github.flinkinfer.operators.batch.LengthBucketBatcher;
import io.github.flinkinfer.operators.metrics.CostModel;
import io.github.flinkinfer.operators.models.ModelCards;
import io.github.flinkinfer.runtime.ModelRuntime;
import io.github.flinkinfer.runtime.card.ModelCard;
import io.github.flinkinfer.runtime.onnx.OnnxModel;
import io.github.flinkinfer.runtime.onnx.RuntimeOptions;
import io.github.flinkinfer.runtime.tokenize.TextTokenizer;
import java.io.BufferedReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code plan}: samples a corpus, prints its token-length histogram, measures a few bucket-edge
 * and token-budget settings on this machine with short runs of the real batcher and model, and
 * forecasts the full run's time and cost with the best one. With {@code --workload} it does so for
 * every variant of a workload card and chooses one ({@link PlanWorkload}). With {@code --input} it
 * also names the TaskManager network memory the run needs at its parallelism ({@link ClusterSizing}).
 *
 * <pre>{@code
 * flink-inference plan --input datasets/build/gcide.jsonl --sample 400 --price-cpu-core-hour 0.05
 * flink-inference plan --workload datasets/cards/wordnet-sample.yaml   # writes wordnet-sample.plan.json
 * }</pre>
 */
@Command(name = "plan", mixinStandardHelpOptions = true,
        description = "Dry run: token-length histogram, measured batching settings, time and cost forecast, and"
                + " the TaskManager network memory embed needs at --parallelism (per slot and per TaskManager).")
public final class PlanCommand implements Callable<Integer> {
    static final int[] HISTOGRAM_EDGES = {8, 16, 32, 64, 128, 256, 512};
    static final int[] BUDGETS = {2048, 4096, 8192, 16384};

    @Option(names = {"-i", "--input"}, description = "A JSONL or text corpus file (not with --workload).")
    Path input;

    @Option(names = "--workload", paramLabel = "CARD",
            description = "A workload card (docs/workload.md): measure each variant on a sample of its corpus,"
                    + " forecast time and cost, choose the cheapest variant meeting every clause and write the plan."
                    + " Exit 3 when no variant meets them all (the best effort is still written).")
    String workload;

    @Option(names = "--plan-output", paramLabel = "FILE",
            description = "With --workload, where the plan goes. Default: beside the card, <card>.plan.json.")
    String planOutput;

    @Spec CommandSpec spec;

    @Option(names = "--text-field", defaultValue = "text", description = "JSON field with the text.")
    String textField;

    @Option(names = {"-m", "--model"}, defaultValue = "all-minilm-l6-v2", description = "Model name or card path.")
    String model;

    @Option(names = "--max-length", defaultValue = "0", description = "Max tokens (0 = the model's).")
    int maxLength;

    @Option(names = "--sample", defaultValue = "400", description = "Records sampled (uniformly) for the sweeps.")
    int sample;

    @Option(names = {"-p", "--parallelism"}, defaultValue = "0",
            description = "Inference subtasks of the planned run (0 = cores, as embed); each measured with 1 ORT"
                    + " thread; the cluster sizing names the network memory a TaskManager needs at it.")
    int parallelism;

    @Option(names = "--tokenize-parallelism", defaultValue = "0",
            description = "embed's --tokenize-parallelism for the cluster sizing: dedupe and tokenize as"
                    + " subtasks of their own (a GPU TaskManager's cores; 0 = chained with inference).")
    int tokenizeParallelism;

    @Option(names = "-D", paramLabel = "KEY=VALUE",
            description = "A Flink configuration option, as embed takes it (repeat): the cluster sizing"
                    + " reads the TaskManager's settings from it, e.g. -Dtaskmanager.memory.network.max=512mb"
                    + " -Dtaskmanager.numberOfTaskSlots=8.")
    Map<String, String> flinkOptions = new LinkedHashMap<>();

    @Mixin CostOptions cost = new CostOptions();

    private final EmbedRun embed;

    /** {@code plan}, with how {@code embed} decides its arguments, for the cluster sizing. */
    public PlanCommand(EmbedRun embed) {
        this.embed = embed;
    }

    @Override
    public Integer call() throws Exception {
        if (workload != null) {
            for (String cardOwns : List.of("--input", "--model", "--text-field", "--max-length")) {
                if (spec.commandLine().getParseResult().hasMatchedOption(cardOwns)) {
                    throw new ParameterException(spec.commandLine(), "--workload takes the corpus, models, text"
                            + " field and max length from the card; drop " + cardOwns);
                }
            }
            return new PlanWorkload(sample, parallelism, cost, spec.commandLine().getOut()).plan(workload, planOutput);
        }
        if (input == null) {
            throw new ParameterException(spec.commandLine(), "Missing required option: '--input' (or --workload)");
        }
        int subtasks = parallelism > 0 ? parallelism : Runtime.getRuntime().availableProcessors();
        ModelCard card = ModelCards.resolve(model);
        RuntimeOptions options = RuntimeOptions.defaults().withMaxSequenceLength(maxLength).withIntraOpThreads(1);
        Sample s = sample(input, sample, textField);
        System.out.printf("corpus: %s, %,d records; sampled %d%n", input, s.total, s.texts.size());
        List<int[]> tokens = new ArrayList<>();
        try (TextTokenizer tok = TextTokenizer.load(card, options)) {
            for (String t : s.texts) {
                tokens.add(tok.encode(t).ids());
            }
            System.out.printf("max length %d tokens; %d of %d sampled inputs would be truncated%n",
                    tok.maxLength(), s.texts.size() - tokens.stream().filter(ids -> ids.length < tok.maxLength()).count(),
                    s.texts.size());
        }
        printHistogram(tokens);
        double meanTokens = tokens.stream().mapToInt(a -> a.length).average().orElse(0);

        List<int[]> edgeChoices = List.of(BatchingConfig.defaultEdges(), quantileEdges(tokens));
        Measured best = null;
        try (OnnxModel m = OnnxModel.load(card, options)) {
            measure(m, tokens.subList(0, Math.min(32, tokens.size())), BatchingConfig.defaults()); // warm-up
            System.out.println("\nsweep (1 ORT thread, one subtask's share of the machine):");
            for (int[] edges : edgeChoices) {
                for (int budget : BUDGETS) {
                    BatchingConfig cfg = new BatchingConfig(edges, budget, 256, 4096, 4, 0);
                    Measured r = measure(m, tokens, cfg);
                    System.out.printf(Locale.ROOT, "  edges %-28s budget %5d: %7.0f real tokens/s, padding %.3f%n",
                            Arrays.toString(edges), budget, r.tokensPerSecond, r.padding);
                    if (best == null || r.tokensPerSecond > best.tokensPerSecond) {
                        best = r;
                    }
                }
            }
        }
        double totalTokens = meanTokens * s.total;
        double seconds = totalTokens / (best.tokensPerSecond * subtasks);
        CostModel prices = cost.model(1);
        double costTotal = prices.cost(seconds * 1000, false) * subtasks;
        System.out.printf(Locale.ROOT, "%nchosen: --bucket-edges %s --max-batch-tokens %d (%.0f real tokens/s per subtask)%n",
                join(best.config.bucketEdges()), best.config.maxBatchTokens(), best.tokensPerSecond);
        System.out.printf(Locale.ROOT, "forecast: %,.0f records × %.1f tokens ≈ %,.0f tokens on %d subtasks → %.0f s"
                        + " of inference (+ start-up and model load)%n", (double) s.total, meanTokens, totalTokens,
                subtasks, seconds);
        if (costTotal > 0) {
            System.out.printf(Locale.ROOT, "cost forecast: %.6f %s busy (%.6f per 1M tokens)%n",
                    costTotal, prices.currency(), costTotal / totalTokens * 1e6);
        }
        System.out.println();
        ClusterSizing.lines(embed, input, textField, model, maxLength, subtasks, tokenizeParallelism,
                flinkOptions).forEach(System.out::println);
        return 0;
    }

    /**
     * One setting's short run over the sample: real tokens per second of inference alone (the timer
     * brackets the model calls only; batches are formed before it starts), padding efficiency, the
     * seconds it took and every item's output in sample order.
     */
    record Measured(BatchingConfig config, double tokensPerSecond, double padding, double seconds,
            long realTokens, float[][] outputs) {}

    static Measured measure(ModelRuntime m, List<int[]> tokens, BatchingConfig cfg) {
        LengthBucketBatcher<Integer> batcher = new LengthBucketBatcher<>(cfg, i -> tokens.get(i).length);
        List<Batch<Integer>> batches = new ArrayList<>();
        for (int i = 0; i < tokens.size(); i++) {
            batches.addAll(batcher.add(i, 0));
        }
        batches.addAll(batcher.flushAll());
        List<List<int[]>> inputs = batches.stream()
                .map(b -> b.items().stream().map(tokens::get).toList()).toList();
        float[][] outputs = new float[tokens.size()][];
        long real = 0;
        long padded = 0;
        long t0 = System.nanoTime();
        for (int k = 0; k < batches.size(); k++) {
            float[][] vectors = m.infer(inputs.get(k)).vectors();
            Batch<Integer> b = batches.get(k);
            for (int j = 0; j < vectors.length; j++) {
                outputs[b.items().get(j)] = vectors[j];
            }
            real += b.realTokens();
            padded += b.paddedTokens();
        }
        double sec = (System.nanoTime() - t0) / 1e9;
        return new Measured(cfg, real / sec, (double) real / padded, sec, real, outputs);
    }

    /** Edges at the sample's length quantiles, rounded up to multiples of 8. */
    static int[] quantileEdges(List<int[]> tokens) {
        int[] lens = tokens.stream().mapToInt(a -> a.length).sorted().toArray();
        java.util.TreeSet<Integer> edges = new java.util.TreeSet<>();
        for (double q : new double[] {0.2, 0.4, 0.6, 0.8, 0.9, 0.97, 1.0}) {
            int v = lens[Math.min(lens.length - 1, (int) (q * (lens.length - 1)))];
            edges.add(Math.max(8, (v + 7) / 8 * 8));
        }
        return edges.stream().mapToInt(Integer::intValue).toArray();
    }

    static void printHistogram(List<int[]> tokens) {
        long[] counts = new long[HISTOGRAM_EDGES.length + 1];
        for (int[] ids : tokens) {
            int b = 0;
            while (b < HISTOGRAM_EDGES.length && ids.length > HISTOGRAM_EDGES[b]) {
                b++;
            }
            counts[b]++;
        }
        System.out.println("\ntoken-length histogram (sample):");
        long max = Arrays.stream(counts).max().orElse(1);
        for (int i = 0; i < counts.length; i++) {
            String label = i < HISTOGRAM_EDGES.length ? "≤ " + HISTOGRAM_EDGES[i] : "> " + HISTOGRAM_EDGES[HISTOGRAM_EDGES.length - 1];
            System.out.printf(Locale.ROOT, "  %6s %6d %5.1f%% %s%n", label, counts[i],
                    100.0 * counts[i] / tokens.size(), "#".repeat((int) (40 * counts[i] / Math.max(1, max))));
        }
    }

    record Sample(long total, List<String> texts) {}

    /** Reservoir sample of texts (JSONL: the text field; otherwise whole lines). */
    static Sample sample(Path file, int n, String textField) throws Exception {
        String name = file.toString();
        return sample(List.of(file), name.endsWith(".jsonl") || name.endsWith(".json"), n, textField);
    }

    /** One uniform reservoir sample over all the files' non-blank lines, which it counts. */
    static Sample sample(List<Path> files, boolean jsonl, int n, String textField) throws Exception {
        ObjectMapper json = new ObjectMapper();
        List<String> keep = new ArrayList<>(n);
        Random random = new Random(42);
        long seen = 0;
        for (Path file : files) {
            try (BufferedReader r = Files.newBufferedReader(file)) {
                String line;
                while ((line = r.readLine()) != null) {
                    if (line.isBlank()) {
                        continue;
                    }
                    seen++;
                    long slot = seen <= n ? seen - 1 : (long) (random.nextDouble() * seen);
                    if (slot < n) {
                        String text = line;
                        if (jsonl) {
                            JsonNode node = json.readTree(line).get(textField);
                            if (node == null || !node.isTextual()) {
                                continue;
                            }
                            text = node.asText();
                        }
                        if (keep.size() < n) {
                            keep.add(text);
                        } else {
                            keep.set((int) slot, text);
                        }
                    }
                }
            }
        }
        return new Sample(seen, keep);
    }

    private static String join(int[] edges) {
        return String.join(",", Arrays.stream(edges).mapToObj(String::valueOf).toList());
    }
}
