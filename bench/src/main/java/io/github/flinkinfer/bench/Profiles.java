package io.github.flinkinfer.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordingFile;

/**
 * Summaries of the two profiles the benchmark can take: ONNX Runtime's per-operator trace (where
 * the model's time goes, by operator type) and a JFR recording of the contender JVM (where the
 * Java threads' time goes, by pipeline phase).
 */
final class Profiles {
    private Profiles() {}

    /**
     * ONNX Runtime profile files (Chrome trace JSON) → share of kernel time per operator type,
     * kernel time as a share of {@code model_run} time, and the number of runs.
     */
    static Map<String, Object> ortOperators(List<Path> files) throws IOException {
        Map<String, Double> byOp = new TreeMap<>();
        double kernel = 0;
        double runs = 0;
        long runCount = 0;
        ObjectMapper json = new ObjectMapper();
        for (Path f : files) {
            for (JsonNode e : json.readTree(f.toFile())) {
                String name = e.path("name").asText();
                double dur = e.path("dur").asDouble();
                if ("Node".equals(e.path("cat").asText()) && name.endsWith("_kernel_time")) {
                    byOp.merge(e.path("args").path("op_name").asText("?"), dur, Double::sum);
                    kernel += dur;
                } else if ("Session".equals(e.path("cat").asText()) && name.equals("model_run")) {
                    runs += dur;
                    runCount++;
                }
            }
        }
        Map<String, Object> out = new LinkedHashMap<>();
        double total = kernel;
        Map<String, Double> shares = new LinkedHashMap<>();
        byOp.entrySet().stream().sorted((a, b) -> Double.compare(b.getValue(), a.getValue()))
                .forEach(e -> shares.put(e.getKey(), e.getValue() / total));
        out.put("ortOpShares", shares);
        out.put("ortMatMulSeconds", (byOp.getOrDefault("MatMul", 0.0) + byOp.getOrDefault("FusedMatMul", 0.0)
                + byOp.getOrDefault("Gemm", 0.0)) / 1e6);
        out.put("ortKernelSeconds", kernel / 1e6);
        out.put("ortKernelShareOfRun", runs == 0 ? null : kernel / runs);
        out.put("ortRuns", runCount);
        out.put("ortRunSeconds", runs / 1e6);
        return out;
    }

    /** Phases in the order they are tried, leaf frame first: the first frame that matches wins. */
    private static final List<String[]> PHASES = List.of(
            new String[] {"ai.onnxruntime.", "inference (ONNX Runtime call)"},
            new String[] {"ai.djl.huggingface.", "tokenize"},
            new String[] {"io.github.flinkinfer.runtime.tokenize.TextTokenizer", "tokenize"},
            new String[] {"io.github.flinkinfer.runtime.tokenize.WordPieceEncoder", "tokenize"},
            new String[] {"io.github.flinkinfer.runtime.onnx.OnnxModel", "tensor build + pooling"},
            new String[] {"io.github.flinkinfer.runtime.postprocess.", "tensor build + pooling"},
            new String[] {"org.apache.parquet.", "write (Parquet)"},
            new String[] {"org.apache.avro.", "write (Parquet)"},
            new String[] {"io.github.flinkinfer.jobs.io.", "read + parse"},
            new String[] {"com.fasterxml.jackson.", "read + parse"},
            new String[] {"io.github.flinkinfer.operators.batch.", "batching"},
            new String[] {"io.github.flinkinfer.operators.metrics.", "metrics"},
            new String[] {"org.apache.flink.api.common.typeutils.", "Flink serialization"},
            new String[] {"org.apache.flink.api.java.typeutils.", "Flink serialization"},
            new String[] {"org.apache.flink.runtime.io.", "Flink network + sort"},
            new String[] {"org.apache.flink.runtime.operators.sort.", "Flink network + sort"},
            new String[] {"org.apache.flink.", "Flink runtime (other)"},
            new String[] {"io.github.flinkinfer.", "pipeline (other)"});

    /**
     * JFR execution and native-method samples (both every 10 ms, see bench.jfc) → share of Java
     * thread samples per phase. Native-method samples count threads inside JNI calls (ONNX Runtime,
     * the tokenizer) that are on CPU; blocked JDK natives (socket reads, waits) are left out. Only
     * samples inside the contender's timed window [{@code fromMillis}, {@code toMillis}] count.
     */
    static Map<String, Object> jfrPhases(Path recording, long fromMillis, long toMillis) throws IOException {
        Map<String, Long> counts = new TreeMap<>();
        Map<String, Long> frames0 = new TreeMap<>();
        long total = 0;
        for (RecordedEvent e : RecordingFile.readAllEvents(recording)) {
            String type = e.getEventType().getName();
            if (!type.equals("jdk.ExecutionSample") && !type.equals("jdk.NativeMethodSample")) {
                continue;
            }
            long at = e.getStartTime().toEpochMilli();
            if (e.getStackTrace() == null || at < fromMillis || at > toMillis) {
                continue;
            }
            List<RecordedFrame> frames = e.getStackTrace().getFrames();
            if (type.equals("jdk.NativeMethodSample") && !frames.isEmpty() && isBlockingNative(frames.get(0))) {
                continue;
            }
            counts.merge(phase(frames), 1L, Long::sum);
            if (!frames.isEmpty()) {
                RecordedFrame top = frames.get(0);
                frames0.merge(top.getMethod().getType().getName() + "." + top.getMethod().getName(), 1L, Long::sum);
            }
            total++;
        }
        Map<String, Object> shares = new LinkedHashMap<>();
        long n = total;
        counts.entrySet().stream().sorted((a, b) -> Long.compare(b.getValue(), a.getValue()))
                .forEach(c -> shares.put(c.getKey(), (double) c.getValue() / n));
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("jfrPhaseShares", shares);
        out.put("jfrSamples", total);
        Map<String, Object> top = new LinkedHashMap<>(); // leaf frames, for reading a gap closer
        frames0.entrySet().stream().sorted((a, b) -> Long.compare(b.getValue(), a.getValue())).limit(25)
                .forEach(c -> top.put(c.getKey(), (double) c.getValue() / n));
        out.put("jfrTopFrames", top);
        return out;
    }

    private static boolean isBlockingNative(RecordedFrame top) {
        String cls = top.getMethod().getType().getName();
        return cls.startsWith("java.") || cls.startsWith("sun.") || cls.startsWith("jdk.")
                || cls.startsWith("org.apache.flink.shaded.netty");
    }

    static String phase(List<RecordedFrame> frames) {
        for (RecordedFrame f : frames) {
            String cls = f.getMethod().getType().getName();
            for (String[] p : PHASES) {
                if (cls.startsWith(p[0])) {
                    return p[1];
                }
            }
        }
        return "JDK / other";
    }

    /** ONNX Runtime profile files written for {@code prefix} (ORT appends a timestamp). */
    static List<Path> ortFiles(String prefix) throws IOException {
        Path p = Path.of(prefix);
        try (var files = Files.list(p.getParent())) {
            return files.filter(f -> f.getFileName().toString().startsWith(p.getFileName().toString())
                    && f.toString().endsWith(".json")).sorted().toList();
        }
    }
}
