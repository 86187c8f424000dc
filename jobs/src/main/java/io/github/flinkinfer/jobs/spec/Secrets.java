package io.github.flinkinfer.jobs.spec;

import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/** Redacts secret-looking client properties (passwords, JAAS configs, keys, tokens) before logging. */
public final class Secrets {
    public static final String REDACTED = "[redacted]";
    private static final String[] SECRET_WORDS = {"password", "secret", "jaas", "token", "credential"};

    private Secrets() {}

    /** True for keys whose values must never be logged. */
    public static boolean isSecret(String key) {
        String k = key.toLowerCase(Locale.ROOT);
        for (String w : SECRET_WORDS) {
            if (k.contains(w)) {
                return true;
            }
        }
        return k.endsWith(".key") || k.endsWith(".keystore.key");
    }

    /** A sorted copy of {@code props} (client properties, or the options' map) that is safe to log. */
    public static Map<String, String> redact(Map<?, ?> props) {
        Map<String, String> out = new TreeMap<>();
        props.forEach((k, v) -> {
            String key = String.valueOf(k);
            out.put(key, isSecret(key) ? REDACTED : String.valueOf(v));
        });
        return out;
    }
}
