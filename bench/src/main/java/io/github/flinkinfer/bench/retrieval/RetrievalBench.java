package io.github.flinkinfer.bench.retrieval;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.flinkinfer.bench.ResultFiles;
import io.github.flinkinfer.runtime.card.ModelCard;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * Retrieval quality beside cost, per built-in embedding model: the corpus ({@code --input-kind
 * passage}) and the queries ({@code --input-kind query}) are embedded by the CLI, the Parquet
 * outputs searched exactly, and recall@k / nDCG@k reported with the corpus run's items/s and cost
 * from its own report.
 *
 * <pre>{@code
 * datasets/build-retrieval-task.sh
 * mvn -B -Pretrieval -DskipTests package -pl bench -am -Dretrieval.args="--max-length 128"
 * }</pre>
 */
@Command(name = "retrieval", mixinStandardHelpOptions = true,
        description = "recall@k and nDCG@k of every built-in embedding model, with items/s and cost of the same runs.")
public final class RetrievalBench implements Callable<Integer> {

    @Option(names = "--task", defaultValue = "datasets/build/retrieval",
            description = "Task directory from datasets/build-retrieval-task.sh. Default: ${DEFAULT-VALUE}.")
    Path task;

    @Option(names = "--models", split = ",", description = "Built-in models. Default: every embedding model and its int8 variant.")
    List<String> models = List.of("all-minilm-l6-v2", "all-minilm-l6-v2-q", "bge-small-en-v1.5",
            "bge-small-en-v1.5-q", "e5-small-v2", "e5-small-v2-q");

    @Option(names = "--max-length", defaultValue = "128", description = "Max tokens per input. Default: ${DEFAULT-VALUE}.")
    int maxLength;

    @Option(names = "--parallelism", defaultValue = "2", description = "Job parallelism (1 ORT thread each). Default: ${DEFAULT-VALUE}.")
    int parallelism;

    @Option(names = "--price-cpu-core-hour", defaultValue = "0.0475",
            description = "Price of a CPU core hour, for the runs' cost. Default: ${DEFAULT-VALUE}.")
    double priceCpuCoreHour;

    @Option(names = "--k", defaultValue = "10", description = "Cut-off of recall and nDCG. Default: ${DEFAULT-VALUE}.")
    int k;

    @Mixin ResultFiles results = new ResultFiles();

    public static void main(String[] args) {
        System.exit(new CommandLine(new RetrievalBench()).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        if (!Files.exists(task.resolve("qrels.tsv"))) {
            throw new IllegalArgumentException("no task in " + task + "; run datasets/build-retrieval-task.sh");
        }
        RetrievalTask t = RetrievalTask.load(task);
        Path work = Files.createTempDirectory("retrieval");
        List<Map<String, Object>> rows = new ArrayList<>();
        for (String model : models) {
            rows.add(measure(t, model, work.resolve(model)));
            System.out.println("retrieval " + rows.get(rows.size() - 1));
        }
        Map<String, Object> result = new LinkedHashMap<>();
        String date = LocalDate.now().toString();
        result.put("date", date);
        Map<?, ?> description = new ObjectMapper().readValue(t.description().toFile(), Map.class);
        result.put("command", fmt("QUERIES=%s DOCS=%s SEED=%s datasets/build-retrieval-task.sh && ",
                description.get("queries"), description.get("documents"), description.get("seed"))
                + "mvn -B -Pretrieval -DskipTests package -pl bench -am -Dretrieval.args=\""
                + String.join(" ", "--max-length", "" + maxLength, "--parallelism", "" + parallelism,
                        "--price-cpu-core-hour", "" + priceCpuCoreHour, "--k", "" + k) + "\"");
        result.put("machine", machine());
        result.put("settings", Map.of("maxLength", maxLength, "parallelism", parallelism, "intraOpThreads", 1,
                "priceCpuCoreHour", priceCpuCoreHour, "k", k, "search", "exact cosine"));
        result.put("task", description);
        result.put("results", rows);
        System.out.println("wrote " + results.write("retrieval-" + date, result, RetrievalReport.markdown(result)));
        return 0;
    }

    Map<String, Object> measure(RetrievalTask t, String model, Path dir) throws Exception {
        List<String> options = List.of("--model", model, "--max-length", "" + maxLength,
                "--parallelism", "" + parallelism, "--intra-op-threads", "1",
                "--price-cpu-core-hour", "" + priceCpuCoreHour);
        EmbeddingRun corpus = EmbeddingRun.execute(t.corpus(), dir.resolve("corpus"), "corpus",
                with(options, "--input-kind", "passage"));
        EmbeddingRun queries = EmbeddingRun.execute(t.queries(), dir.resolve("queries"), "queries",
                with(options, "--input-kind", "query"));
        expectAll(t.corpus(), corpus, model);
        expectAll(t.queries(), queries, model);
        ExactSearch search = new ExactSearch(corpus.vectors());
        double recall = 0;
        double ndcg = 0;
        for (Map.Entry<String, Set<String>> q : t.qrels().entrySet()) {
            List<String> ranking = search.top(queries.vectors().get(q.getKey()), k);
            recall += RetrievalMetrics.recallAt(k, ranking, q.getValue());
            ndcg += RetrievalMetrics.ndcgAt(k, ranking, q.getValue());
        }
        ModelCard card = ModelCard.builtIn(model);
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("model", model);
        row.put("precision", model.endsWith("-q") ? "int8" : "fp32");
        row.put("dimensions", corpus.vectors().values().iterator().next().length);
        row.put("layers", card.shape == null ? null : card.shape.layers);
        row.put("queries", t.qrels().size());
        row.put("recallAtK", recall / t.qrels().size());
        row.put("ndcgAtK", ndcg / t.qrels().size());
        row.put("corpusRun", run(corpus.report()));
        row.put("queryRun", run(queries.report()));
        return row;
    }

    private static List<String> with(List<String> options, String... more) {
        List<String> all = new ArrayList<>(options);
        all.addAll(List.of(more));
        return all;
    }

    /** The fields of a run's report-<run-id>.json that the table uses. */
    static Map<String, Object> run(JsonNode report) {
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("succeeded", report.path("succeeded").asLong());
        r.put("failed", report.path("failed").asLong());
        r.put("realTokens", report.path("realTokens").asLong());
        r.put("wallSeconds", report.path("wallSeconds").asDouble());
        r.put("itemsPerSecond", report.path("itemsPerSecond").asDouble());
        r.put("realTokensPerSecond", report.path("realTokensPerSecond").asDouble());
        r.put("costTotal", report.path("cost").path("total").asDouble());
        r.put("costPerItem", report.path("cost").path("perItem").asDouble());
        r.put("costPer1MRealTokens", report.path("cost").path("per1MRealTokens").asDouble());
        r.put("currency", report.path("cost").path("currency").asText());
        return r;
    }

    private static void expectAll(Path input, EmbeddingRun run, String model) throws java.io.IOException {
        long lines;
        try (var s = Files.lines(input)) {
            lines = s.filter(l -> !l.isBlank()).count();
        }
        if (run.vectors().size() != lines) {
            throw new IllegalStateException(model + ": " + run.vectors().size() + " embeddings for "
                    + lines + " inputs of " + input + " (failed: " + run.report().path("failed") + ")");
        }
    }

    private static Map<String, Object> machine() throws java.io.IOException {
        String cpu = Files.readAllLines(Path.of("/proc/cpuinfo")).stream()
                .filter(l -> l.startsWith("model name")).map(l -> l.substring(l.indexOf(':') + 1).trim())
                .findFirst().orElse("unknown");
        return Map.of("cpu", cpu, "cores", Runtime.getRuntime().availableProcessors(),
                "os", System.getProperty("os.name") + " " + System.getProperty("os.arch"),
                "java", System.getProperty("java.version"));
    }

    static double num(Map<String, Object> m, String key) {
        return ((Number) m.get(key)).doubleValue();
    }

    static String fmt(String pattern, Object... args) {
        return String.format(Locale.ROOT, pattern, args);
    }
}
