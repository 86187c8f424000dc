package io.github.flinkinfer.runtime.tokenize;

import io.github.flinkinfer.runtime.SampleTexts;
import io.github.flinkinfer.runtime.TokenizedText;
import io.github.flinkinfer.runtime.card.ModelCard;
import io.github.flinkinfer.runtime.onnx.RuntimeOptions;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Tokenization paths side by side, interleaved in one JVM (run by hand, not a test):
 * {@code [model] [max-length] [rounds]}. Per round and variant, all sample texts (repeated to
 * about 10,000): wall µs per text (timer around the loop over the texts) and process CPU µs per
 * text (all threads, so a batch encode that fans out to native threads is charged for them).
 * Prints medians over the rounds. An optional fourth argument is a JSONL corpus (its first 30,000
 * {@code text} fields instead of the sample); first it counts the texts whose ids differ between
 * the Java WordPiece and the library (must be 0). Variants: {@code whole} (the path before: DJL
 * encode of the whole text, all Encoding arrays), {@code library} (this tokenizer without the
 * Java WordPiece: ids only over JNI), {@code ids} (this tokenizer, one text per call), {@code
 * batch-N} (this tokenizer's batch encode, N texts per call), {@code sha256} (the content hash as
 * {@code ContentHash} computes it); then one 20,000-token line whole vs cut.
 */
public final class TokenizerRounds {
    private TokenizerRounds() {}

    public static void main(String[] args) throws Exception {
        ModelCard card = ModelCard.builtIn(args.length > 0 ? args[0] : "all-minilm-l6-v2");
        int maxLength = args.length > 1 ? Integer.parseInt(args[1]) : 128;
        int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 7;
        List<String> sample = args.length > 3 ? corpus(java.nio.file.Path.of(args[3]), 30_000)
                : SampleTexts.texts(Integer.MAX_VALUE);
        List<String> texts = new ArrayList<>();
        while (texts.size() < 10_000) {
            texts.addAll(sample);
        }
        String longLine = "word ".repeat(2_000) + String.join(" ", sample.subList(0, Math.min(2_000, sample.size())));
        RuntimeOptions options = RuntimeOptions.defaults().withMaxSequenceLength(maxLength);
        try (TextTokenizer tok = TextTokenizer.load(card, options);
                TextTokenizer library = TextTokenizer.load(card, options, false);
                WholeTextEncoder whole = new WholeTextEncoder(card, tok.maxLength())) {
            long ascii = texts.stream().filter(t -> t.chars().allMatch(c -> c < 128)).count();
            long differ = texts.stream().filter(t -> {
                TokenizedText ours = tok.encode(t);
                TokenizedText theirs = library.encode(t);
                return !java.util.Arrays.equals(ours.ids(), theirs.ids())
                        || ours.originalTokenCount() != theirs.originalTokenCount();
            }).count();
            System.out.printf("%d of %d texts ASCII (the Java WordPiece's); %d differ from the library's ids%n",
                    ascii, texts.size(), differ);
            System.out.printf("model %s, max length %d, %d texts per round (%.1f chars mean), long line %d tokens%n",
                    card.id(), tok.maxLength(), texts.size(),
                    texts.stream().mapToInt(String::length).average().orElse(0),
                    tok.encodeAll(longLine).content().length + 2);
            Map<String, Consumer<List<String>>> variants = new LinkedHashMap<>();
            variants.put("whole", ts -> ts.forEach(whole::encode));
            variants.put("library", ts -> ts.forEach(library::encode));
            variants.put("ids", ts -> ts.forEach(tok::encode));
            for (int n : new int[] {8, 32, 128}) {
                variants.put("batch-" + n, ts -> {
                    for (int i = 0; i < ts.size(); i += n) {
                        tok.encodeBatch(ts.subList(i, Math.min(ts.size(), i + n)));
                    }
                });
            }
            variants.put("sha256", ts -> ts.forEach(TokenizerRounds::sha256));
            List<String> longs = List.of(longLine, longLine, longLine, longLine, longLine);
            Map<String, Consumer<List<String>>> longVariants = new LinkedHashMap<>();
            longVariants.put("long-whole", ts -> ts.forEach(whole::encode));
            longVariants.put("long-cut", ts -> ts.forEach(tok::encode));

            Map<String, List<double[]>> results = new LinkedHashMap<>();
            for (int r = -1; r < rounds; r++) { // round -1 warms up JIT and the native library
                StringBuilder line = new StringBuilder(r < 0 ? "warm-up" : "round " + (r + 1));
                for (var v : variants.entrySet()) {
                    double[] us = time(v.getValue(), texts);
                    line.append(String.format("  %s %.1f/%.1f", v.getKey(), us[0], us[1]));
                    if (r >= 0) {
                        results.computeIfAbsent(v.getKey(), k -> new ArrayList<>()).add(us);
                    }
                }
                for (var v : longVariants.entrySet()) {
                    double[] us = time(v.getValue(), longs);
                    line.append(String.format("  %s %.0f/%.0f", v.getKey(), us[0], us[1]));
                    if (r >= 0) {
                        results.computeIfAbsent(v.getKey(), k -> new ArrayList<>()).add(us);
                    }
                }
                System.out.println(line);
            }
            System.out.println("median µs per text (wall / process CPU):");
            for (var e : results.entrySet()) {
                System.out.printf("  %-10s %8.1f / %8.1f%n", e.getKey(), median(e.getValue(), 0), median(e.getValue(), 1));
            }
        }
    }

    /** The {@code text} fields of a JSONL corpus's first {@code n} lines. */
    private static List<String> corpus(java.nio.file.Path jsonl, int n) throws java.io.IOException {
        var json = new com.fasterxml.jackson.databind.ObjectMapper();
        List<String> out = new ArrayList<>();
        try (var lines = java.nio.file.Files.lines(jsonl)) {
            for (var it = lines.iterator(); it.hasNext() && out.size() < n; ) {
                out.add(json.readTree(it.next()).path("text").asText());
            }
        }
        return out;
    }

    /** Wall and process-CPU µs per text of {@code work} over {@code texts}. */
    private static double[] time(Consumer<List<String>> work, List<String> texts) {
        var os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        long cpu0 = os.getProcessCpuTime();
        long t0 = System.nanoTime();
        work.accept(texts);
        long wall = System.nanoTime() - t0;
        long cpu = os.getProcessCpuTime() - cpu0;
        return new double[] {wall / 1e3 / texts.size(), cpu / 1e3 / texts.size()};
    }

    private static double median(List<double[]> xs, int i) {
        double[] v = xs.stream().mapToDouble(x -> x[i]).sorted().toArray();
        return v[v.length / 2];
    }

    /** As {@code ContentHash.sha256} (operators) computes it. */
    static String sha256(String text) {
        try {
            return HexFormat.of().formatHex(
                    MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
