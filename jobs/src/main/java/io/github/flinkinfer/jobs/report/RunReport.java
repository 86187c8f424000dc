package io.github.flinkinfer.jobs;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * Job-wide totals of one run, computed from its committed per-batch metrics and error files
 * (never from in-progress files). Batch latency percentiles are exact (nearest rank) over all
 * batches of all subtasks; they are never averaged across subtasks.
 */
public final class RunSummary {
    public String runId;
    public String model;
    public long succeeded;
    public long failed;
    public Map<String, Long> errorsByReason = new TreeMap<>();
    public long batches;
    public long realTokens;
    public long paddedTokens;
    public double paddingEfficiency;
    public long retries;
    public double wallSeconds;
    /** Job-wide: successful items / wall seconds of the whole job (load and idle included). */
    public double itemsPerSecond;
    /** Job-wide: real (unpadded) tokens / wall seconds. */
    public double realTokensPerSecond;
    public Map<String, Double> batchLatencyMs = new LinkedHashMap<>();
    public Map<String, Double> inferenceMsByPhase = new LinkedHashMap<>();

    /** Reads {@code <output>/metrics} and {@code <output>/errors} of a local output directory. */
    public static RunSummary read(Path output, String runId, double wallSeconds) throws IOException {
        ObjectMapper json = new ObjectMapper();
        RunSummary s = new RunSummary();
        s.runId = runId;
        s.wallSeconds = wallSeconds;
        List<Double> latencies = new ArrayList<>();
        double[] phases = new double[5];
        for (JsonNode m : lines(output.resolve(EmbeddingPipeline.METRICS_DIR), runId, json)) {
            s.batches++;
            s.succeeded += m.get("items").asLong() - m.get("failedItems").asLong();
            s.realTokens += m.get("realTokens").asLong();
            s.paddedTokens += m.get("paddedTokens").asLong();
            s.retries += m.get("retries").asLong();
            s.model = m.get("model").asText();
            latencies.add(m.get("totalMs").asDouble());
            phases[0] += m.get("queueWaitMs").asDouble();
            phases[1] += m.get("tokenizeMs").asDouble();
            phases[2] += m.get("tensorMs").asDouble();
            phases[3] += m.get("inferenceMs").asDouble();
            phases[4] += m.get("writeMs").asDouble();
        }
        for (JsonNode e : lines(output.resolve(EmbeddingPipeline.ERRORS_DIR), runId, json)) {
            s.failed++;
            s.errorsByReason.merge(e.get("stage").asText() + "/" + e.get("reason").asText(), 1L, Long::sum);
        }
        s.paddingEfficiency = s.paddedTokens == 0 ? 1 : (double) s.realTokens / s.paddedTokens;
        s.itemsPerSecond = wallSeconds > 0 ? s.succeeded / wallSeconds : 0;
        s.realTokensPerSecond = wallSeconds > 0 ? s.realTokens / wallSeconds : 0;
        double[] sorted = latencies.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        for (double p : new double[] {50, 90, 95, 99}) {
            s.batchLatencyMs.put("p" + (int) p, percentile(sorted, p));
        }
        s.batchLatencyMs.put("max", sorted.length == 0 ? 0 : sorted[sorted.length - 1]);
        String[] names = {"queueWaitSum", "tokenizeSum", "tensorSum", "inferenceSum", "writeSum"};
        for (int i = 0; i < names.length; i++) {
            s.inferenceMsByPhase.put(names[i], phases[i]);
        }
        return s;
    }

    /** Nearest-rank percentile of an ascending array. */
    static double percentile(double[] sorted, double p) {
        if (sorted.length == 0) {
            return 0;
        }
        int rank = (int) Math.ceil(p / 100.0 * sorted.length);
        return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))];
    }

    private static List<JsonNode> lines(Path dir, String runId, ObjectMapper json) throws IOException {
        List<JsonNode> out = new ArrayList<>();
        if (!Files.isDirectory(dir)) {
            return out;
        }
        try (Stream<Path> files = Files.list(dir)) {
            for (Path f : files.filter(p -> p.getFileName().toString().startsWith("part-" + runId))
                    .sorted().toList()) {
                try (BufferedReader r = Files.newBufferedReader(f)) {
                    String line;
                    while ((line = r.readLine()) != null) {
                        if (!line.isBlank()) {
                            out.add(json.readTree(line));
                        }
                    }
                }
            }
        }
        return out;
    }

    public void write(Path file) throws IOException {
        new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(file.toFile(), this);
    }

    public void print(PrintStream out) {
        out.printf("%n== run %s (%s) ==%n", runId, model);
        out.printf("  succeeded          %,d%n", succeeded);
        out.printf("  failed (errors/)   %,d %s%n", failed, errorsByReason.isEmpty() ? "" : errorsByReason);
        out.printf("  batches            %,d  (retries %d)%n", batches, retries);
        out.printf("  padding efficiency %.3f  (real %,d / padded %,d tokens)%n",
                paddingEfficiency, realTokens, paddedTokens);
        out.printf("  job-wide           %.1f items/s, %.0f real tokens/s over %.1f s wall%n",
                itemsPerSecond, realTokensPerSecond, wallSeconds);
        out.printf("  batch latency ms   p50 %.1f  p90 %.1f  p95 %.1f  p99 %.1f  max %.1f%n",
                batchLatencyMs.get("p50"), batchLatencyMs.get("p90"), batchLatencyMs.get("p95"),
                batchLatencyMs.get("p99"), batchLatencyMs.get("max"));
        out.println("  phase totals ms    " + Arrays.toString(inferenceMsByPhase.entrySet().stream()
                .map(e -> e.getKey() + "=" + Math.round(e.getValue())).toArray()));
    }
}
