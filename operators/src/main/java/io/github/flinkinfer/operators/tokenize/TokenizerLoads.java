package io.github.flinkinfer.operators.tokenize;

import io.github.flinkinfer.runtime.JvmShared;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Hands a subtask's tokenizer load time from {@link TokenizeFunction} to the same subtask's batch
 * metrics ({@code BatchRecorder}), so the run report shows it beside the model load. The two run
 * in one JVM when chained (the job's default); otherwise the time is not found and reads as 0.
 * Per JVM, by model id and subtask index; taken once.
 */
public final class TokenizerLoads {
    private static final Map<String, Long> MILLIS = JvmShared.slot("operators.tokenizer-loads",
            "a subtask's tokenizer load time, handed from its tokenize function to its batch metrics",
            ConcurrentHashMap::new, Map::clear);

    private TokenizerLoads() {}

    static void put(String modelId, int subtask, long millis) {
        MILLIS.put(modelId + "#" + subtask, millis);
    }

    /** The recorded time, removed; 0 when none was recorded here. */
    public static long take(String modelId, int subtask) {
        Long millis = MILLIS.remove(modelId + "#" + subtask);
        return millis == null ? 0 : millis;
    }
}
