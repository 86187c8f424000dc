package io.github.flinkinfer.runtime.onnx;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.flinkinfer.runtime.Device;
import io.github.flinkinfer.runtime.SampleTexts;
import io.github.flinkinfer.runtime.card.ModelCard;
import io.github.flinkinfer.runtime.files.ModelIntegrityException;
import io.github.flinkinfer.runtime.tokenize.TextTokenizer;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Sessions prepared ahead are taken by the loads that match them, once each, give the outputs of
 * a session created at the load, and are closed when nobody took them; the check of their model's
 * bytes can be waited for on its own.
 */
class PreparedSessionsTest {
    private static final ModelCard CARD = ModelCard.builtIn("all-minilm-l6-v2-q");
    /** A session per load, as multi-threaded CPU sessions get them (single-threaded ones share one). */
    private static final RuntimeOptions OWN = RuntimeOptions.defaults().withShareSession(false);

    @Test
    void eachPreparedSessionIsTakenOnceThenLoadsCreateTheirOwn() {
        RuntimeOptions options = OWN;
        List<int[]> batch = batch(options);
        float[][] fresh;
        try (OnnxModel model = OnnxModel.load(CARD, options)) {
            assertThat(model.loadTimes().prepared()).isFalse();
            fresh = model.infer(batch).vectors();
        }
        try (PreparedSessions.Batch ahead = created(PreparedSessions.prepare(CARD, options, 2));
                OnnxModel first = OnnxModel.load(CARD, options);
                OnnxModel second = OnnxModel.load(CARD, options);
                OnnxModel third = OnnxModel.load(CARD, options)) {
            assertThat(first.loadTimes().prepared()).isTrue();
            assertThat(second.loadTimes().prepared()).isTrue();
            assertThat(first.ortSession()).isNotSameAs(second.ortSession());
            assertThat(third.loadTimes().prepared()).as("only two were prepared").isFalse();
            assertThat(ahead.untaken()).isZero();
            assertThat(first.infer(batch).vectors()).isDeepEqualTo(fresh);
            assertThat(second.infer(batch).vectors()).isDeepEqualTo(fresh);
        }
    }

    @Test
    void aLoadWhosePreparedSessionIsNotStartedCreatesItItselfAndConcurrentLoadsDoSoSideBySide() throws Exception {
        RuntimeOptions options = OWN;
        List<int[]> batch = batch(options);
        float[][] fresh;
        try (OnnxModel model = OnnxModel.load(CARD, options)) {
            fresh = model.infer(batch).vectors();
        }
        try (PreparedSessions.Batch notStarted = PreparedSessions.prepare(CARD, options, 3, false)) {
            ExecutorService loads = Executors.newFixedThreadPool(3);
            try {
                List<Future<OnnxModel>> models = new ArrayList<>();
                for (int i = 0; i < 3; i++) {
                    models.add(loads.submit(() -> OnnxModel.load(CARD, options)));
                }
                List<OnnxModel> loaded = new ArrayList<>();
                for (Future<OnnxModel> m : models) {
                    loaded.add(m.get());
                }
                assertThat(notStarted.untaken()).isZero();
                assertThat(loaded).extracting(OnnxModel::ortSession).doesNotHaveDuplicates();
                for (OnnxModel m : loaded) {
                    assertThat(m.loadTimes().prepared()).as("created by its load, not ahead").isFalse();
                    assertThat(m.infer(batch).vectors()).isDeepEqualTo(fresh);
                    m.close();
                }
            } finally {
                loads.shutdownNow();
            }
        }
        PreparedSessions.Batch closedFirst = PreparedSessions.prepare(CARD, options, 2, false);
        closedFirst.close(); // nothing was started: nothing to wait for or close
        assertThat(closedFirst.untaken()).isZero();
    }

    @Test
    void aLoadWithOtherSessionSettingsDoesNotTakeThem() {
        RuntimeOptions options = OWN;
        try (PreparedSessions.Batch ahead = created(PreparedSessions.prepare(CARD, options, 1))) {
            try (OnnxModel other = OnnxModel.load(CARD, new RuntimeOptions(Device.CPU, 1, "basic", 0))) {
                assertThat(other.loadTimes().prepared()).isFalse();
            }
            assertThat(ahead.untaken()).isEqualTo(1);
            // the maximum sequence length is the tokenizer's, not the session's: still taken
            try (OnnxModel same = OnnxModel.load(CARD, options.withMaxSequenceLength(64))) {
                assertThat(same.loadTimes().prepared()).isTrue();
            }
        }
    }

    @Test
    void untakenSessionsAreClosedWithTheirBatch() {
        RuntimeOptions options = OWN;
        PreparedSessions.Batch ahead = PreparedSessions.prepare(CARD, options, 2);
        assertThat(ahead.untaken()).isEqualTo(2);
        ahead.close();
        assertThat(ahead.untaken()).isZero();
        try (OnnxModel model = OnnxModel.load(CARD, options)) {
            assertThat(model.loadTimes().prepared()).as("closed sessions are not handed out").isFalse();
        }
    }

    @Test
    void aSharedSessionTakesOnePreparedSession() {
        RuntimeOptions shared = RuntimeOptions.defaults();
        try (PreparedSessions.Batch ahead = created(PreparedSessions.prepare(CARD, shared, 1));
                OnnxModel first = OnnxModel.load(CARD, shared);
                OnnxModel second = OnnxModel.load(CARD, shared)) {
            assertThat(first.ortSession()).isSameAs(second.ortSession());
            assertThat(first.loadTimes().prepared()).isTrue();
            assertThat(ahead.untaken()).isZero();
        }
    }

    @Test
    void theDriverWaitsForTheSessionsCheckOfTheirModelInsteadOfHashingItAgain(@TempDir Path dir) throws Exception {
        RuntimeOptions options = OWN;
        try (PreparedSessions.Batch ahead = PreparedSessions.prepare(CARD, options, 1)) {
            ahead.awaitVerified();
            ahead.awaitCreated();
            try (OnnxModel model = OnnxModel.load(CARD, options)) {
                assertThat(model.loadTimes().prepared()).isTrue();
            }
        }

        ModelCard tampered = tamperedCopy(dir);
        String cache = System.getProperty(OptimizedGraphCache.PROPERTY);
        System.setProperty(OptimizedGraphCache.PROPERTY, "off"); // so the session reads the original
        try (PreparedSessions.Batch ahead = PreparedSessions.prepare(tampered, options, 1)) {
            assertThatThrownBy(ahead::awaitVerified)
                    .isInstanceOf(ModelIntegrityException.class)
                    .hasMessageContaining("Checksum mismatch")
                    .hasMessageContaining(dir.resolve("model.onnx").toString());
        } finally {
            if (cache == null) {
                System.clearProperty(OptimizedGraphCache.PROPERTY);
            } else {
                System.setProperty(OptimizedGraphCache.PROPERTY, cache);
            }
        }
    }

    /** {@code batch} once its thread has created every session (a load arriving earlier would create its own). */
    private static PreparedSessions.Batch created(PreparedSessions.Batch batch) {
        batch.awaitCreated();
        return batch;
    }

    /** The built-in int8 model copied into {@code dir} with one byte of its graph flipped. */
    private static ModelCard tamperedCopy(Path dir) throws Exception {
        for (String name : List.of("all-minilm-l6-v2-q.onnx", "all-minilm-l6-v2-q-tokenizer.json")) {
            try (InputStream in = PreparedSessionsTest.class.getClassLoader().getResourceAsStream(name)) {
                Files.copy(in, dir.resolve(name.endsWith(".onnx") ? "model.onnx" : "tokenizer.json"));
            }
        }
        byte[] bytes = Files.readAllBytes(dir.resolve("model.onnx"));
        bytes[bytes.length / 2] ^= 0x01;
        Files.write(dir.resolve("model.onnx"), bytes);
        Path card = dir.resolve("card.json");
        Files.writeString(card, CARD.toJson()
                .replace("classpath:all-minilm-l6-v2-q.onnx", "model.onnx")
                .replace("classpath:all-minilm-l6-v2-q-tokenizer.json", "tokenizer.json"));
        return ModelCard.load(card);
    }

    private static List<int[]> batch(RuntimeOptions options) {
        List<int[]> batch = new ArrayList<>();
        try (TextTokenizer tokenizer = TextTokenizer.load(CARD, options)) {
            for (String text : SampleTexts.texts(12)) {
                batch.add(tokenizer.encode(text).ids());
            }
        }
        return batch;
    }
}
