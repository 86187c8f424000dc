package io.github.flinkinfer.bench.retrieval;

import static io.github.flinkinfer.bench.retrieval.RetrievalBench.fmt;
import static io.github.flinkinfer.bench.retrieval.RetrievalBench.num;

import java.util.List;
import java.util.Map;

/** Renders a retrieval result as the markdown table of docs/benchmarks/retrieval-<date>.md. */
final class RetrievalReport {
    private RetrievalReport() {}

    @SuppressWarnings("unchecked")
    static String markdown(Map<String, Object> result) {
        Map<String, Object> settings = (Map<String, Object>) result.get("settings");
        Map<String, Object> task = (Map<String, Object>) result.get("task");
        Map<String, Object> machine = (Map<String, Object>) result.get("machine");
        List<Map<String, Object>> rows = (List<Map<String, Object>>) result.get("results");
        int k = (Integer) settings.get("k");
        StringBuilder b = new StringBuilder();
        b.append("# Retrieval quality beside cost, ").append(result.get("date")).append("\n\n");
        b.append("Command: `").append(result.get("command")).append("`\n\n");
        b.append(fmt("Task: %s WordNet 3.0 glosses as queries, %s GCIDE articles as the corpus (%s relevant"
                        + " query-article pairs, %s distractors, seed %s); see docs/retrieval.md.%n%n",
                task.get("queries"), task.get("documents"), task.get("relevantPairs"), task.get("distractors"),
                task.get("seed")));
        b.append(fmt("Machine: %s, %s cores, Java %s. Settings: max length %s tokens, parallelism %s"
                        + " (1 ONNX Runtime thread each), %s search, CPU core hour at %s.%n%n",
                machine.get("cpu"), machine.get("cores"), machine.get("java"), settings.get("maxLength"),
                settings.get("parallelism"), settings.get("search"), settings.get("priceCpuCoreHour")));
        b.append(fmt("| model | precision | recall@%d | nDCG@%d | items/s | cost / 1M tokens | cost / 1k docs"
                + " | corpus wall s | query items/s |%n", k, k));
        b.append("|---|---|---:|---:|---:|---:|---:|---:|---:|\n");
        for (Map<String, Object> r : rows) {
            Map<String, Object> c = (Map<String, Object>) r.get("corpusRun");
            Map<String, Object> q = (Map<String, Object>) r.get("queryRun");
            b.append(fmt("| %s | %s | %.3f | %.3f | %.1f | %.4f | %.5f | %.1f | %.1f |%n", r.get("model"),
                    r.get("precision"), num(r, "recallAtK"), num(r, "ndcgAtK"), num(c, "itemsPerSecond"),
                    num(c, "costPer1MRealTokens"), 1000 * num(c, "costPerItem"), num(c, "wallSeconds"),
                    num(q, "itemsPerSecond")));
        }
        b.append(fmt("%nQuality is the mean over the queries, exact cosine search over every document."
                + " items/s and cost are the corpus run's (%s passages, `--input-kind passage`), read from its"
                + " `report-corpus.json`: items / wall of the whole CLI run from submission (JVM, embedded"
                + " cluster, model load included) and wall × parallelism × core price; cost per 1M tokens"
                + " counts real (unpadded) tokens, prefixes included, so cost per 1k docs compares models that"
                + " add different prefixes. The query run (`--input-kind query`) is short, mostly start-up.%n",
                task.get("documents")));
        return b.toString();
    }
}
