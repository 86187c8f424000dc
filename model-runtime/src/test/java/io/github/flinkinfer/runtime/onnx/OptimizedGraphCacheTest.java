package io.github.flinkinfer.runtime.onnx;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.flinkinfer.runtime.Device;
import io.github.flinkinfer.runtime.SampleTexts;
import io.github.flinkinfer.runtime.card.ModelCard;
import io.github.flinkinfer.runtime.files.ModelFiles;
import io.github.flinkinfer.runtime.files.ModelIntegrityException;
import io.github.flinkinfer.runtime.tokenize.TextTokenizer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** A session from the cached optimized graph gives the cold session's outputs, bit for bit. */
class OptimizedGraphCacheTest {
    @TempDir
    Path tmp;

    @ParameterizedTest
    @ValueSource(strings = {"all-minilm-l6-v2", "all-minilm-l6-v2-q"})
    void cachedGraphGivesTheColdSessionsEmbeddingsExactly(String model) throws Exception {
        ModelCard card = ModelCard.builtIn(model);
        RuntimeOptions options = RuntimeOptions.defaults();
        List<List<int[]>> batches = batches(card, options);
        Path dir = tmp.resolve("graphs");

        List<float[][]> cold = embed(card, options, "off", "off", batches);
        List<float[][]> miss = embed(card, options, dir.toString(), "miss", batches);
        List<float[][]> hit = embed(card, options, dir.toString(), "hit", batches);

        for (int b = 0; b < batches.size(); b++) {
            assertThat(miss.get(b)).isDeepEqualTo(cold.get(b));
            assertThat(hit.get(b)).as("batch %d from the cached graph", b).isDeepEqualTo(cold.get(b));
        }
        try (var files = Files.list(dir)) {
            assertThat(files.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".onnx")))
                    .singleElement().matches(n -> n.startsWith(card.onnx.sha256().substring(0, 16)));
        }
        Path entry = OptimizedGraphCache.in(dir).entry(card, options);
        assertThat(Files.readString(OptimizedGraphCache.hashOf(entry))).as("the entry's sha256, recorded when written")
                .isEqualTo(ModelFiles.sha256(entry));
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dir))).isEqualTo("rwx------");
    }

    @Test
    void concurrentLoadsOfOneEntryWaitForEachOthersLock() throws Exception {
        ModelCard card = ModelCard.builtIn("all-minilm-l6-v2-q");
        RuntimeOptions options = RuntimeOptions.defaults().withShareSession(false);
        Path dir = tmp.resolve("graphs");
        List<List<int[]>> batch = List.of(List.of(new int[] {101, 7592, 2088, 102}));
        float[][] cold = embed(card, options, "off", "off", batch).get(0);
        var pool = java.util.concurrent.Executors.newFixedThreadPool(4);
        try {
            List<java.util.concurrent.Future<float[][]>> loads = new ArrayList<>();
            String before = System.getProperty(OptimizedGraphCache.PROPERTY);
            System.setProperty(OptimizedGraphCache.PROPERTY, dir.toString());
            try {
                for (int i = 0; i < 8; i++) { // the first ones miss together, the later ones hit
                    loads.add(pool.submit(() -> {
                        try (OnnxModel model = OnnxModel.load(card, options)) {
                            return model.infer(batch.get(0)).vectors();
                        }
                    }));
                }
                for (var load : loads) {
                    assertThat(load.get()).isDeepEqualTo(cold);
                }
            } finally {
                if (before == null) {
                    System.clearProperty(OptimizedGraphCache.PROPERTY);
                } else {
                    System.setProperty(OptimizedGraphCache.PROPERTY, before);
                }
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aHitWhoseGraphChangedSinceItWasWrittenIsRefused() throws Exception {
        ModelCard card = ModelCard.builtIn("all-minilm-l6-v2-q");
        Path dir = tmp.resolve("graphs");
        List<List<int[]>> batch = List.of(List.of(new int[] {101, 7592, 2088, 102}));
        embed(card, RuntimeOptions.defaults(), dir.toString(), "miss", batch);
        Path entry = OptimizedGraphCache.in(dir).entry(card, RuntimeOptions.defaults());
        String recorded = Files.readString(OptimizedGraphCache.hashOf(entry));
        byte[] graph = Files.readAllBytes(entry);
        graph[graph.length / 2] ^= 1; // one bit of a weight: ORT would load it without complaint
        Files.write(entry, graph);

        assertThatThrownBy(() -> embed(card, RuntimeOptions.defaults(), dir.toString(), "hit", batch))
                .isInstanceOf(ModelIntegrityException.class)
                .hasMessageContaining(entry.toString())
                .hasMessageContaining("expected sha256 " + recorded)
                .hasMessageContaining("but the file has " + ModelFiles.sha256(graph));
    }

    @Test
    void entriesDifferByOptimizationLevelDeviceAndConfigButNotByThreads() throws IOException {
        ModelCard card = ModelCard.builtIn("all-minilm-l6-v2-q");
        OptimizedGraphCache cache = OptimizedGraphCache.in(tmp.resolve("c"));
        RuntimeOptions all = RuntimeOptions.defaults();
        Path entry = cache.entry(card, all);
        assertThat(cache.entry(card, all.withIntraOpThreads(4))).isEqualTo(entry);
        assertThat(cache.entry(card, new RuntimeOptions(Device.CPU, 1, "extended", 0))).isNotEqualTo(entry);
        assertThat(cache.entry(card, all.withDevice(Device.parse("cuda:0")))).isNotEqualTo(entry);
        assertThat(cache.entry(card, all.withSessionConfig(java.util.Map.of("session.intra_op.allow_spinning", "0"))))
                .isNotEqualTo(entry);
        assertThat(OptimizedGraphCache.applies(card, new RuntimeOptions(Device.CPU, 1, "none", 0))).isFalse();
    }

    @Test
    void aCorruptEntryIsReplacedAndTheModelStillLoads() throws Exception {
        ModelCard card = ModelCard.builtIn("all-minilm-l6-v2-q");
        Path dir = tmp.resolve("graphs");
        Path entry = OptimizedGraphCache.in(dir).entry(card, RuntimeOptions.defaults());
        Files.writeString(entry, "not an onnx graph"); // no recorded sha256 beside it: not an entry
        List<List<int[]>> batch = List.of(List.of(new int[] {101, 7592, 2088, 102}));

        List<float[][]> cold = embed(card, RuntimeOptions.defaults(), "off", "off", batch);
        assertThat(embed(card, RuntimeOptions.defaults(), dir.toString(), "miss", batch).get(0))
                .isDeepEqualTo(cold.get(0));
        assertThat(Files.size(entry)).isGreaterThan(1000);
    }

    @Test
    void refusesADirectoryOthersCanWrite() throws IOException {
        Path open = Files.createDirectory(tmp.resolve("open"));
        Files.setPosixFilePermissions(open, PosixFilePermissions.fromString("rwxrwxrwx"));
        assertThatThrownBy(() -> OptimizedGraphCache.in(open)).hasMessageContaining("writable by its owner only");
        Path link = Files.createSymbolicLink(tmp.resolve("link"), Files.createDirectory(tmp.resolve("target")));
        assertThatThrownBy(() -> OptimizedGraphCache.in(link)).hasMessageContaining("not a plain directory");
    }

    /** Mixed-length batches of real texts, as the job would run them. */
    private static List<List<int[]>> batches(ModelCard card, RuntimeOptions options) {
        List<List<int[]>> batches = new ArrayList<>();
        try (TextTokenizer tokenizer = TextTokenizer.load(card, options)) {
            List<int[]> batch = new ArrayList<>();
            for (String text : SampleTexts.texts(48)) {
                batch.add(tokenizer.encode(text).ids());
                if (batch.size() == 16) {
                    batches.add(batch);
                    batch = new ArrayList<>();
                }
            }
        }
        return batches;
    }

    private static List<float[][]> embed(ModelCard card, RuntimeOptions options, String cache,
            String expected, List<List<int[]>> batches) {
        return withCache(cache, () -> {
            try (OnnxModel model = OnnxModel.load(card, options)) {
                assertThat(model.loadTimes().graphCache()).isEqualTo(expected);
                List<float[][]> out = new ArrayList<>();
                for (List<int[]> b : batches) {
                    out.add(model.infer(b).vectors());
                }
                return out;
            }
        });
    }

    private static <T> T withCache(String value, Supplier<T> body) {
        String before = System.getProperty(OptimizedGraphCache.PROPERTY);
        System.setProperty(OptimizedGraphCache.PROPERTY, value);
        try {
            return body.get();
        } finally {
            if (before == null) {
                System.clearProperty(OptimizedGraphCache.PROPERTY);
            } else {
                System.setProperty(OptimizedGraphCache.PROPERTY, before);
            }
        }
    }

    /**
     * Issue 40: ORT's level-all graph holds rewrites for the CPU's vector width (NchwcTransformer),
     * so two machines sharing the cache whose CPUs differ only in their features (a VM that hides
     * AVX-512) get different entries; this machine's identity holds its feature flags.
     */
    @Test
    void anEntryIsKeyedByTheCpusModelAndFeatures() throws Exception {
        ModelCard card = ModelCard.builtIn("all-minilm-l6-v2-q");
        RuntimeOptions all = RuntimeOptions.defaults();
        Path dir = tmp.resolve("shared");
        String avx2 = "Intel(R) Xeon(R) Platinum 8259CL CPU @ 2.50GHz\nfpu sse4_2 avx avx2";

        assertThat(OptimizedGraphCache.in(dir, avx2).entry(card, all))
                .isNotEqualTo(OptimizedGraphCache.in(dir, avx2 + " avx512f avx512bw").entry(card, all))
                .isEqualTo(OptimizedGraphCache.in(dir, avx2).entry(card, all));
        Path cpuinfo = Path.of("/proc/cpuinfo");
        if (Files.isReadable(cpuinfo)) {
            java.util.Optional<String> flags = Files.readAllLines(cpuinfo).stream()
                    .filter(l -> l.startsWith("flags") || l.startsWith("Features")).findFirst();
            flags.ifPresent(line -> assertThat(OptimizedGraphCache.cpuIdentity())
                    .endsWith(line.substring(line.indexOf(':') + 1).trim()));
        }
    }
}
