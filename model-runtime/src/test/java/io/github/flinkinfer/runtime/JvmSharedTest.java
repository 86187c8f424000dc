package io.github.flinkinfer.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.flinkinfer.runtime.card.ModelCard;
import io.github.flinkinfer.runtime.onnx.RuntimeOptions;
import io.github.flinkinfer.runtime.tokenize.TextTokenizer;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;

/** The per-JVM holder: a slot is created once, shared, listed with its reason, and emptied on close. */
class JvmSharedTest {

    @Test
    void aSlotIsCreatedOnceAndShared() {
        Map<String, String> first = JvmShared.slot("test.shared", "a test's map", ConcurrentHashMap::new, Map::clear);
        Map<String, String> second = JvmShared.slot("test.shared", "ignored", () -> {
            throw new AssertionError("created twice");
        }, Map::clear);
        assertThat(second).isSameAs(first);
        assertThat(JvmShared.slots()).containsEntry("test.shared", "a test's map");
    }

    @Test
    void closeEmptiesTheSlotsAndLeavesThemInPlace() {
        Map<String, String> map = JvmShared.slot("test.closed", "a test's map", ConcurrentHashMap::new, Map::clear);
        map.put("k", "v");
        JvmShared.close();
        assertThat(map).isEmpty();
        Map<String, String> again = JvmShared.slot("test.closed", "a test's map", ConcurrentHashMap::new, Map::clear);
        assertThat(again).isSameAs(map);
    }

    @Test
    void theRuntimesSharedStateIsListedWithItsReasons() throws Exception {
        TextTokenizer.load(ModelCard.builtIn("all-minilm-l6-v2-q"), RuntimeOptions.defaults()).close();
        for (String owner : new String[] {"onnx.OnnxModel", "onnx.PreparedSessions", "files.ModelFileCache"}) {
            Class.forName("io.github.flinkinfer.runtime." + owner);
        }
        assertThat(JvmShared.slots())
                .containsKeys("onnx.sessions", "onnx.prepared-sessions", "files.fetching", "tokenize.preloading",
                        "tokenize.preparing", "tokenize.definitions", "tokenize.native")
                .allSatisfy((name, why) -> assertThat(why).as(name).isNotBlank());
    }
}
