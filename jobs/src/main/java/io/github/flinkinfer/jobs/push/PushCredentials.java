package io.github.flinkinfer.jobs.push;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.Map;

/**
 * The {@code Authorization} header for the push, from environment variables or the files they
 * name (a mounted Secret), never from arguments, which {@code ps}, shell history, run-info and
 * the Flink UI would show: a bearer token ({@value #TOKEN_FILE} or {@value #TOKEN}) or basic
 * auth ({@value #USERNAME} with {@value #PASSWORD_FILE} or {@value #PASSWORD}).
 */
public final class PushCredentials {
    public static final String TOKEN = "FLINKINFER_PUSH_BEARER_TOKEN";
    public static final String TOKEN_FILE = "FLINKINFER_PUSH_BEARER_TOKEN_FILE";
    public static final String USERNAME = "FLINKINFER_PUSH_USERNAME";
    public static final String PASSWORD = "FLINKINFER_PUSH_PASSWORD";
    public static final String PASSWORD_FILE = "FLINKINFER_PUSH_PASSWORD_FILE";

    private PushCredentials() {}

    /** The header value for {@code env} (e.g. {@code System.getenv()}); null when it sets none. */
    public static String authorization(Map<String, String> env) {
        String token = secret(env, TOKEN_FILE, TOKEN);
        String user = env.get(USERNAME);
        String password = secret(env, PASSWORD_FILE, PASSWORD);
        if (token != null && (user != null || password != null)) {
            throw new IllegalArgumentException("Set either a bearer token (" + TOKEN + "/" + TOKEN_FILE
                    + ") or basic auth (" + USERNAME + " and " + PASSWORD + "/" + PASSWORD_FILE
                    + ") for the push, not both");
        }
        if (token != null) {
            return "Bearer " + token;
        }
        if (user == null && password == null) {
            return null;
        }
        if (user == null || password == null) {
            throw new IllegalArgumentException("Basic auth for the push needs both " + USERNAME + " and "
                    + PASSWORD + " (or " + PASSWORD_FILE + ")");
        }
        return "Basic " + Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
    }

    /** The file's content (trailing newline stripped) when {@code fileVar} is set, else {@code var}'s value. */
    private static String secret(Map<String, String> env, String fileVar, String var) {
        String file = env.get(fileVar);
        if (file == null || file.isEmpty()) {
            String value = env.get(var);
            return value == null || value.isEmpty() ? null : value;
        }
        try {
            return Files.readString(Path.of(file), StandardCharsets.UTF_8).strip();
        } catch (IOException e) {
            throw new UncheckedIOException(fileVar + " names " + file + ", which cannot be read: " + e, e);
        }
    }
}
