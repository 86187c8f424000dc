package io.github.flinkinfer.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * The side-by-side benchmark. Every contender runs in a fresh JVM (so its peak RSS is its own),
 * contenders are interleaved (A B C … A B C …) for {@code --repeats} rounds, and medians are
 * reported with ratios, as JSON and markdown under docs/benchmarks/.
 *
 * <pre>{@code
 * mvn -B -Pbench -DskipTests package -Dbench.args="--repeats 3 --docs 1000"
 * }</pre>
 */
@Command(name = "bench", mixinStandardHelpOptions = true,
        description = "Throughput of our pipeline against what users would pick instead, in one run.")
public final class Bench implements Callable<Integer> {
    static final List<String> DEFAULT_CONTENDERS = List.of(
            "arrival-batch32", "batch1", "langchain4j", "bare-1x2", "bare-2x1", "flink", "sql", "int8-bare-1x2");

    @Option(names = "--corpus", defaultValue = "datasets/build/gcide.jsonl",
            description = "JSONL corpus (built by datasets/build-gcide.sh when missing). Default: ${DEFAULT-VALUE}.")
    Path corpus;

    @Option(names = "--docs", defaultValue = "1000", description = "Documents per run (every k-th of the corpus).")
    int docs;

    @Option(names = "--repeats", defaultValue = "3", description = "Interleaved rounds; medians are reported.")
    int repeats;

    @Option(names = "--max-length", defaultValue = "128",
            description = "Max tokens for every contender but langchain4j, which keeps its own (128):"
                    + " at any other value its row counts what it ran and it gets no ratio. Default: ${DEFAULT-VALUE}.")
    int maxLength;

    @Option(names = "--threads", defaultValue = "2", description = "ORT thread budget for every contender.")
    int threads;

    @Option(names = "--max-batch-tokens", defaultValue = "2048", description = "Token budget of our batcher.")
    int maxBatchTokens;

    @Option(names = "--contenders", split = ",", description = "Subset of: " + "arrival-batch32, batch1,"
            + " langchain4j, bare-1x2, bare-2x1, flink, sql, int8-bare-1x2, and (not run by default)"
            + " host-ceiling, sim-device, tokenize-only, write-only (the fixture model, HostCeiling);"
            + " each may carry levers (name@key=value+key=value: budget, spin, opt, ort.KEY, profile,"
            + " jfr, heap, overlap, tp, par, rate, launch, devices, docs; see Variant)")
    List<String> contenders = new ArrayList<>(DEFAULT_CONTENDERS);

    @Option(names = "--memory-check", negatable = true, defaultValue = "true", fallbackValue = "true",
            description = "Also run the Flink job (int8) on N and 10×N documents and compare peak RSS.")
    boolean memoryCheck;

    @Option(names = "--profiles", negatable = true, defaultValue = "true", fallbackValue = "true",
            description = "After the rounds, run once each with a profile (not in the medians):"
                    + " ONNX Runtime operator profiles of arrival-batch32, batch1 and bare-1x2, JFR of flink.")
    boolean profiles;

    static final List<String> PROFILED = List.of(
            "arrival-batch32@profile=1", "batch1@profile=1", "bare-1x2@profile=1", "flink@jfr=1");

    @Option(names = "--memory-heap", defaultValue = "1g",
            description = "Fixed heap (-Xms = -Xmx, pre-touched) of the memory check's second pair of runs."
                    + " Default: ${DEFAULT-VALUE}.")
    String memoryHeap;

    @Option(names = "--device", defaultValue = "cpu",
            description = "Device of our contenders (all but langchain4j and sql): cpu, cuda[:N] or auto;"
                    + " those two stay on CPU. Default: ${DEFAULT-VALUE}.")
    String device;

    @Mixin ResultFiles results = new ResultFiles();

    public static void main(String[] args) {
        System.exit(new CommandLine(new Bench()).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        ensureCorpus();
        ensureFixture();
        Path tmp = Files.createTempDirectory("bench");
        Map<String, Object> machine = Machine.describe();
        System.out.println("machine: " + machine);
        Map<String, List<Map<String, Object>>> runs = new LinkedHashMap<>();
        for (int r = 0; r < repeats; r++) {
            for (String c : contenders) {
                Map<String, Object> res = child(c, docs, tmp);
                runs.computeIfAbsent(c, k -> new ArrayList<>()).add(res);
                System.out.printf(Locale.ROOT, "round %d %-16s %8.1f items/s %9.0f tok/s  pad %.3f  rss %5.0f MiB%n",
                        r + 1, c, num(res, "itemsPerSecond"), num(res, "realTokensPerSecond"),
                        num(res, "paddingEfficiency"), num(res, "peakRssMiB"));
            }
        }
        Map<String, Map<String, Object>> medians = new LinkedHashMap<>();
        runs.forEach((c, list) -> medians.put(c, median(list)));
        Map<String, Object> ratios = ratios(medians);
        Map<String, Object> memory = memoryCheck ? memory(tmp) : Map.of();
        Map<String, List<Map<String, Object>>> profiled = new LinkedHashMap<>();
        if (profiles) {
            for (String p : PROFILED) {
                if (contenders.contains(Variant.parse(p).base())) {
                    Map<String, Object> res = child(p, docs, tmp);
                    profiled.put(p, List.of(res));
                    System.out.printf(Locale.ROOT, "profile %-26s %8.1f items/s (profiling overhead included)%n",
                            p, num(res, "itemsPerSecond"));
                }
            }
        }

        Map<String, Object> result = new LinkedHashMap<>();
        result.put("date", LocalDateTime.now().toString());
        result.put("command", "mvn -B -Pbench -DskipTests package -Dbench.args=\"" + argsLine() + "\"");
        result.put("machine", machine);
        result.put("versions", Map.of("flink", "2.3.0", "onnxruntime", ai.onnxruntime.OrtEnvironment.getEnvironment().getVersion(),
                "model", "all-MiniLM-L6-v2 (langchain4j 1.19.0-beta29 artifacts)", "java", System.getProperty("java.version")));
        result.put("settings", Map.of("docs", docs, "repeats", repeats, "maxLength", maxLength, "threads", threads,
                "maxBatchTokens", maxBatchTokens, "corpus", corpus.toString(), "device", device,
                "effectiveMaxLength", io.github.flinkinfer.runtime.onnx.RuntimeOptions.defaults().withMaxSequenceLength(maxLength)
                        .effectiveMaxLength(io.github.flinkinfer.runtime.card.ModelCard.builtIn("all-minilm-l6-v2"))));
        result.put("medians", medians);
        result.put("ratios", ratios);
        result.put("memory", memory);
        result.put("runs", runs);
        result.put("profiles", profiled);
        String stamp = LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmm"));
        String md = BenchReport.markdown(result);
        results.write("bench-" + stamp, result, md);
        System.out.println(md);
        return 0;
    }

    private String argsLine() {
        return String.join(" ", List.of("--docs", String.valueOf(docs), "--repeats", String.valueOf(repeats),
                "--max-length", String.valueOf(maxLength), "--threads", String.valueOf(threads),
                "--max-batch-tokens", String.valueOf(maxBatchTokens), "--device", device))
                + (contenders.equals(DEFAULT_CONTENDERS) ? "" : " --contenders " + String.join(",", contenders))
                + (memoryCheck ? "" : " --no-memory-check") + (profiles ? "" : " --no-profiles");
    }

    /**
     * Contenders that run the benchmark fixture model (HostCeiling), (re)built before each run: the
     * script writes the same bytes for the same graph, and an older script's card may be in place.
     */
    static final List<String> ON_FIXTURE = List.of("host-ceiling", "sim-device", "tokenize-only", "write-only");

    private void ensureFixture() throws Exception {
        if (contenders.stream().noneMatch(c -> ON_FIXTURE.contains(Variant.parse(c).base()))) {
            return;
        }
        System.out.println("Building the fixture model (bench/fixture/build-fixture-model.sh) ...");
        Process p = new ProcessBuilder("bash", "bench/fixture/build-fixture-model.sh").inheritIO()
                .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null"))).start();
        if (p.waitFor() != 0) {
            throw new IllegalStateException("bench/fixture/build-fixture-model.sh failed");
        }
    }

    private void ensureCorpus() throws Exception {
        if (Files.exists(corpus)) {
            return;
        }
        if (!corpus.equals(Path.of("datasets/build/gcide.jsonl"))) {
            throw new IllegalArgumentException("No corpus at " + corpus);
        }
        System.out.println("Building the GCIDE corpus (datasets/build-gcide.sh) ...");
        Process p = new ProcessBuilder("bash", "datasets/build-gcide.sh").inheritIO()
                        // npm/node make an inherited stdin non-blocking, which breaks the
                        // surefire fork that shares it: give children /dev/null instead
                        .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
                        .start();
        if (p.waitFor() != 0) {
            throw new IllegalStateException("datasets/build-gcide.sh failed");
        }
    }

    /** Runs one contender in a fresh JVM and returns its RESULT line. */
    Map<String, Object> child(String contender, int n, Path tmp) throws Exception {
        Variant variant = Variant.parse(contender);
        n = variant.params().containsKey("docs") ? Integer.parseInt(variant.params().get("docs")) : n;
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        for (String a : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            if (a.startsWith("--add-") || a.startsWith("-Dlog4j")
                    || (a.startsWith("-Xmx") && !variant.params().containsKey("heap"))) {
                cmd.add(a);
            }
        }
        if (variant.params().containsKey("heap")) { // fixed, pre-touched heap: RSS stops following heap growth
            String size = variant.params().get("heap");
            cmd.addAll(List.of("-Xms" + size, "-Xmx" + size, "-XX:+AlwaysPreTouch"));
        }
        Path jfr = null;
        if (variant.flag("jfr")) {
            Path settings = tmp.resolve("bench.jfc");
            try (var in = Bench.class.getResourceAsStream("/bench.jfc")) {
                Files.copy(in, settings, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            }
            jfr = Files.createTempFile(tmp, "contender", ".jfr");
            cmd.add("-XX:StartFlightRecording=dumponexit=true,filename=" + jfr + ",settings=" + settings);
        }
        cmd.addAll(List.of("-Dai.djl.offline=true", "-Dbench.device=" + device, "-cp", System.getProperty("java.class.path"),
                Contender.class.getName(), contender, corpus.toString(), String.valueOf(n),
                String.valueOf(maxLength), String.valueOf(threads), String.valueOf(maxBatchTokens), tmp.toString()));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String result = null;
        StringBuilder log = new StringBuilder();
        try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = r.readLine()) != null) {
                if (line.startsWith("RESULT ")) {
                    result = line.substring(7);
                } else if (log.length() < 20_000) {
                    log.append(line).append('\n');
                }
            }
        }
        if (!p.waitFor(15, TimeUnit.MINUTES) || p.exitValue() != 0 || result == null) {
            throw new IllegalStateException("contender " + contender + " failed:\n" + log);
        }
        @SuppressWarnings("unchecked")
        Map<String, Object> map = new ObjectMapper().readValue(result, Map.class);
        if (jfr != null) {
            map.putAll(Profiles.jfrPhases(jfr, (long) num(map, "windowStartMillis"), (long) num(map, "windowEndMillis")));
        }
        return map;
    }

    private Map<String, Object> memory(Path tmp) throws Exception {
        Map<String, Object> m = new LinkedHashMap<>();
        // twice: with the default heap (-Xmx only: RSS follows the heap as it grows toward -Xmx)
        // and with a fixed, pre-touched heap, so what is left to grow is native memory and the
        // live set the heap cannot hold
        for (String heap : List.of("", "@heap=" + memoryHeap)) {
            Map<String, Object> small = child("flink-int8" + heap, docs, tmp);
            Map<String, Object> large = child("flink-int8" + heap, docs * 10, tmp);
            String k = heap.isEmpty() ? "" : "FixedHeap";
            m.put("docs", docs);
            m.put("docsLarge", docs * 10);
            m.put("peakRssMiB" + k, small.get("peakRssMiB"));
            m.put("peakRssMiBLarge" + k, large.get("peakRssMiB"));
            m.put("growth" + k, num(large, "peakRssMiB") / num(small, "peakRssMiB") - 1);
            m.put("itemsLarge", large.get("items"));
            System.out.printf(Locale.ROOT, "memory%s: %d docs %.0f MiB, %d docs %.0f MiB (%+.1f%%)%n", heap, docs,
                    num(small, "peakRssMiB"), docs * 10, num(large, "peakRssMiB"), 100 * (double) m.get("growth" + k));
        }
        m.put("fixedHeap", memoryHeap);
        return m;
    }

    static double num(Map<String, Object> m, String key) {
        Object v = m.get(key);
        return v instanceof Number n ? n.doubleValue() : Double.NaN;
    }

    /** Per metric, the median over repeats (numbers only). */
    static Map<String, Object> median(List<Map<String, Object>> runs) {
        Map<String, Object> out = new LinkedHashMap<>();
        for (String key : runs.get(0).keySet()) {
            if (runs.get(0).get(key) instanceof Number) {
                double[] v = runs.stream().mapToDouble(r -> num(r, key)).filter(d -> !Double.isNaN(d)).sorted().toArray();
                out.put(key, v.length == 0 ? null : v[v.length / 2]);
            } else {
                out.put(key, runs.get(0).get(key));
            }
        }
        return out;
    }

    /**
     * Whether two contenders ran at the same max length (results from before it was recorded
     * count as comparable); a contender that truncates elsewhere did other work and gets no ratio.
     */
    static boolean comparable(Map<String, Object> a, Map<String, Object> b) {
        return !(a.get("maxLength") instanceof Number x && b.get("maxLength") instanceof Number y)
                || x.intValue() == y.intValue();
    }

    static Map<String, Object> ratios(Map<String, Map<String, Object>> med) {
        Map<String, Object> r = new LinkedHashMap<>();
        for (String ours : List.of("flink", "bare-1x2", "bare-2x1")) {
            for (String other : List.of("arrival-batch32", "batch1", "langchain4j", "bare-1x2", "bare-2x1")) {
                if (!ours.equals(other) && med.containsKey(ours) && med.containsKey(other)
                        && comparable(med.get(ours), med.get(other))) {
                    r.put(ours + "/" + other, num(med.get(ours), "itemsPerSecond") / num(med.get(other), "itemsPerSecond"));
                }
            }
        }
        for (String c : med.keySet()) { // each lever against its own baseline, same run
            String base = Variant.parse(c).base();
            if (!c.equals(base) && med.containsKey(base)) {
                r.put(c + "/" + base, num(med.get(c), "itemsPerSecond") / num(med.get(base), "itemsPerSecond"));
            }
        }
        if (med.containsKey("sql") && med.containsKey("flink")) {
            r.put("sql/flink", num(med.get("sql"), "itemsPerSecond") / num(med.get("flink"), "itemsPerSecond"));
            r.put("sql/flink e2e", num(med.get("sql"), "e2eItemsPerSecond")
                    / num(med.get("flink"), "e2eItemsPerSecond"));
        }
        if (med.containsKey("int8-bare-1x2") && med.containsKey("bare-1x2")) {
            r.put("int8-bare-1x2/bare-1x2", num(med.get("int8-bare-1x2"), "itemsPerSecond")
                    / num(med.get("bare-1x2"), "itemsPerSecond"));
        }
        return r;
    }
}
