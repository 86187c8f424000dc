package io.github.flinkinfer.bench;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * A contender name with optional levers, so each lever is measured alone, side by side with its
 * baseline in one run: {@code bare-1x2@budget=2048+spin=0}.
 *
 * <ul>
 *   <li>{@code budget=N}: the batcher's token budget;
 *   <li>{@code edges=16/24/32}: the batcher's bucket edges;
 *   <li>{@code spin=0|1}: ONNX Runtime {@code session.intra_op.allow_spinning};
 *   <li>{@code opt=none|basic|extended|all}: graph optimization level;
 *   <li>{@code overlap=on|off|auto}: the Flink job's {@code --overlap} (model calls on their own
 *       thread);
 *   <li>{@code ort.KEY=VALUE}: any ONNX Runtime session config entry;
 *   <li>{@code profile=1}: ONNX Runtime's per-operator profile, summarized into the result;
 *   <li>{@code jfr=1}: a JFR recording of the contender JVM, summarized by phase (parent side);
 *   <li>{@code tp=N}: the job's {@code --tokenize-parallelism} (dedupe + tokenize in N subtasks of
 *       their own); {@code par=N}: its inference subtasks (default {@code --threads});
 *   <li>{@code preset=h200-fp16|h200-tf32}, {@code rate=TOKENS_PER_S}, {@code launch=MICROS},
 *       {@code devices=N}: the simulated device of {@code sim-device}, a measured GPU's costs or
 *       given ones (see {@code HostCeiling#simulatedDevice}, {@code DeviceCost#PRESETS});
 *   <li>{@code mode=batch|streaming}: the job's {@code --runtime-mode};
 *   <li>{@code docs=N}: this contender's documents instead of {@code --docs} (parent side);
 *   <li>{@code heap=SIZE}: fixed heap ({@code -Xms=-Xmx=SIZE}, pre-touched) instead of the
 *       default, so peak RSS does not follow heap growth (parent side).
 * </ul>
 */
record Variant(String base, Map<String, String> params) {

    static Variant parse(String name) {
        int at = name.indexOf('@');
        Map<String, String> params = new LinkedHashMap<>();
        if (at < 0) {
            return new Variant(name, params);
        }
        for (String kv : name.substring(at + 1).split("\\+")) {
            int eq = kv.indexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException("lever '" + kv + "' in '" + name + "' must be key=value");
            }
            params.put(kv.substring(0, eq), kv.substring(eq + 1));
        }
        for (String key : params.keySet()) {
            if (!key.startsWith("ort.") && !java.util.List.of("budget", "edges", "spin", "opt", "profile", "jfr", "heap", "overlap",
                    "tp", "par", "rate", "launch", "preset", "devices", "docs", "mode")
                    .contains(key)) {
                throw new IllegalArgumentException("unknown lever '" + key + "' in '" + name + "'");
            }
        }
        return new Variant(name.substring(0, at), params);
    }

    int budget(int dflt) {
        return params.containsKey("budget") ? Integer.parseInt(params.get("budget")) : dflt;
    }

    /** Bucket edges, or {@code null} for the default. */
    int[] edges() {
        return params.containsKey("edges")
                ? java.util.Arrays.stream(params.get("edges").split("/")).mapToInt(Integer::parseInt).toArray()
                : null;
    }

    String optimizationLevel() {
        return params.getOrDefault("opt", "all");
    }

    /** ONNX Runtime session config entries this variant sets. */
    Map<String, String> sessionConfig() {
        Map<String, String> c = new TreeMap<>();
        if (params.containsKey("spin")) {
            c.put("session.intra_op.allow_spinning", params.get("spin"));
        }
        params.forEach((k, v) -> {
            if (k.startsWith("ort.")) {
                c.put(k.substring(4), v);
            }
        });
        return c;
    }

    boolean flag(String key) {
        return "1".equals(params.get(key)) || "true".equals(params.get(key));
    }
}
