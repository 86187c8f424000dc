package io.github.flinkinfer.runtime.files;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.flinkinfer.runtime.card.ModelCard;
import io.github.flinkinfer.runtime.card.ModelFile;
import io.github.flinkinfer.runtime.card.ModelStore;
import io.github.flinkinfer.runtime.onnx.OnnxModel;
import io.github.flinkinfer.runtime.onnx.OptimizedGraphCache;
import io.github.flinkinfer.runtime.onnx.RuntimeOptions;
import io.github.flinkinfer.runtime.tokenize.TextTokenizer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A card in a {@link ModelStore} (here a directory read through the store's one method, as a
 * remote file system is): its files are copied once into an owner-only cache keyed by sha256,
 * verified on every load, hits included, and a changed entry is refused naming it.
 */
class ModelFileCacheTest {
    @TempDir Path tmp;

    /** The store's directory, the cache and how often the store opened each location. */
    private Path remote;
    private Path cache;
    private final Map<String, AtomicInteger> opens = new ConcurrentHashMap<>();

    private ModelStore store() {
        return location -> {
            opens.computeIfAbsent(location.substring(location.lastIndexOf('/') + 1), k -> new AtomicInteger())
                    .incrementAndGet();
            return Files.newInputStream(Path.of(location));
        };
    }

    @Test
    void aMissCopiesEachFileOnceAndTheModelGivesTheBuiltInsEmbeddings() throws Exception {
        remote = tmp.resolve("store/mini");
        cache = tmp.resolve("cache");
        String location = writeCard("all-minilm-l6-v2-q", remote).toString();
        ModelCard card = withCache(() -> ModelCard.load(location, store()));
        List<int[]> batch = List.of(new int[] {101, 7592, 2088, 102}, new int[] {101, 2088, 102});

        float[][] fromStore = withCache(() -> embed(card, batch));
        float[][] again = withCache(() -> embed(card, batch));
        float[][] builtIn = embed(ModelCard.builtIn("all-minilm-l6-v2-q"), batch);

        assertThat(fromStore).isDeepEqualTo(builtIn);
        assertThat(again).isDeepEqualTo(builtIn);
        assertThat(opens).as("the card once, each file once: the second load is a hit")
                .containsOnlyKeys("card.json", "model.onnx")
                .allSatisfy((name, n) -> assertThat(n.get()).as(name).isEqualTo(1));
        try (var files = Files.list(cache)) {
            assertThat(files.map(p -> p.getFileName().toString())).containsExactly(card.onnx.sha256());
        }
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(cache))).isEqualTo("rwx------");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(cache.resolve(card.onnx.sha256()))))
                .isEqualTo("rw-------");
    }

    @Test
    void aCachedFileChangedAfterItWasCopiedIsRefusedOnTheNextLoad() throws Exception {
        remote = tmp.resolve("store/mini");
        cache = tmp.resolve("cache");
        String location = writeCard("all-minilm-l6-v2-q", remote).toString();
        ModelCard card = withCache(() -> ModelCard.load(location, store()));
        withCache(() -> ModelFiles.readVerified(card, card.tokenizer));
        Path entry = cache.resolve(card.tokenizer.sha256());
        byte[] bytes = Files.readAllBytes(entry);
        bytes[1000] ^= 1;
        Files.write(entry, bytes);

        assertThatThrownBy(() -> withCache(() -> TextTokenizer.load(card, RuntimeOptions.defaults())))
                .isInstanceOf(ModelIntegrityException.class)
                .hasMessageContaining(remote.resolve("tokenizer.json").toString())
                .hasMessageContaining(entry.toString())
                .hasMessageContaining("expected sha256 " + card.tokenizer.sha256())
                .hasMessageContaining("but the file has " + ModelFiles.sha256(bytes));
        assertThat(opens.get("tokenizer.json").get()).as("a refused hit is not fetched again").isEqualTo(1);
    }

    @Test
    void aStoreFileThatDoesNotMatchItsCardIsNeverCached() throws Exception {
        remote = tmp.resolve("store/mini");
        cache = tmp.resolve("cache");
        String location = writeCard("all-minilm-l6-v2-q", remote).toString();
        ModelCard card = withCache(() -> ModelCard.load(location, store()));
        byte[] bytes = Files.readAllBytes(remote.resolve("tokenizer.json"));
        bytes[10] ^= 1;
        Files.write(remote.resolve("tokenizer.json"), bytes);

        assertThatThrownBy(() -> withCache(() -> ModelFiles.readVerified(card, card.tokenizer)))
                .isInstanceOf(ModelIntegrityException.class)
                .hasMessageContaining(remote.resolve("tokenizer.json").toString())
                .hasMessageContaining("expected sha256 " + card.tokenizer.sha256());
        try (var files = Files.list(cache)) {
            assertThat(files).as("neither the entry nor its temporary is left").isEmpty();
        }
    }

    @Test
    void refusesACacheDirectoryOthersCanWriteAndCardPathsLeavingTheCardsDirectory() throws Exception {
        Path open = Files.createDirectory(tmp.resolve("open"));
        Files.setPosixFilePermissions(open, PosixFilePermissions.fromString("rwxrwxrwx"));
        assertThatThrownBy(() -> ModelFileCache.in(open))
                .isInstanceOf(ModelIntegrityException.class)
                .hasMessageContaining("writable by its owner only");

        remote = tmp.resolve("store/mini");
        cache = tmp.resolve("cache");
        String location = writeCard("all-minilm-l6-v2-q", remote).toString();
        ModelCard card = withCache(() -> ModelCard.load(location, store()));
        for (String path : List.of("../other/model.onnx", "/etc/passwd", "s3://elsewhere/model.onnx")) {
            assertThatThrownBy(() -> withCache(() -> ModelFiles.readVerified(card, new ModelFile(path, "0".repeat(64)))))
                    .as(path).isInstanceOf(ModelIntegrityException.class)
                    .hasMessageContaining("inside the model card's directory");
        }
    }

    /** The built-in model's graph and tokenizer in {@code dir} with a card naming them; the card's path. */
    static Path writeCard(String builtIn, Path dir) throws IOException {
        ModelCard card = ModelCard.builtIn(builtIn);
        Files.createDirectories(dir);
        Files.write(dir.resolve("model.onnx"), ModelFiles.readVerified(card, card.onnx));
        Files.write(dir.resolve("tokenizer.json"), ModelFiles.readVerified(card, card.tokenizer));
        ModelCard local = card.toBuilder()
                .onnx(new ModelFile("model.onnx", card.onnx.sha256()))
                .tokenizer(new ModelFile("tokenizer.json", card.tokenizer.sha256()))
                .build();
        Files.writeString(dir.resolve("card.json"), local.toJson());
        return dir.resolve("card.json");
    }

    private static float[][] embed(ModelCard card, List<int[]> batch) {
        try (OnnxModel model = OnnxModel.load(card, RuntimeOptions.defaults())) {
            return model.infer(batch).vectors();
        }
    }

    /** Runs {@code body} with the model file cache in {@link #cache} and the graph cache off. */
    private <T> T withCache(Supplier<T> body) {
        String cacheBefore = System.getProperty(ModelFileCache.PROPERTY);
        String graphsBefore = System.getProperty(OptimizedGraphCache.PROPERTY);
        System.setProperty(ModelFileCache.PROPERTY, cache.toString());
        System.setProperty(OptimizedGraphCache.PROPERTY, "off");
        try {
            return body.get();
        } finally {
            restore(ModelFileCache.PROPERTY, cacheBefore);
            restore(OptimizedGraphCache.PROPERTY, graphsBefore);
        }
    }

    private static void restore(String key, String value) {
        if (value == null) {
            System.clearProperty(key);
        } else {
            System.setProperty(key, value);
        }
    }
}
