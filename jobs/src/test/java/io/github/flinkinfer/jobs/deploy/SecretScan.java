package io.github.flinkinfer.jobs.deploy;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.flinkinfer.jobs.spec.Secrets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Finds secrets written into deploy files where the operator, Flink, {@code ps} and
 * {@code kubectl get -o yaml} show them: container commands and args, job args, Flink options,
 * literal env values. A secret-looking key may only hold a reference resolved where it runs
 * ({@code ${provider:...}} of Kafka's config providers), never a value.
 */
final class SecretScan {
    /** A whole value that is a config-provider reference, e.g. {@code ${dir:/etc/x:key}}. */
    private static final Pattern REFERENCE = Pattern.compile("\\$\\{[A-Za-z0-9_.-]+:[^}]*}");
    /** Secrets by their shape, wherever they appear: an inline JAAS password, an AWS key id. */
    private static final Pattern INLINE = Pattern.compile(
            "(?i)password\\s*=\\s*\"(?!\\$\\{)[^\"]+\"|\\bAKIA[0-9A-Z]{16}\\b|\\bASIA[0-9A-Z]{16}\\b");

    private static final List<String> SECRET_WORDS = List.of(
            "password", "passwd", "secret", "token", "credential", "credentials", "jaas", "apikey");

    private SecretScan() {}

    /** Every secret in a Kubernetes resource (any kind), as "where: what" lines. */
    static List<String> inResource(JsonNode resource) {
        List<String> found = new ArrayList<>();
        walk(resource, "", found);
        return found;
    }

    /** Every secret in one command line: {@code k=v}, {@code -Dk=v}, {@code --flag value}. */
    static List<String> inWords(List<String> words) {
        List<String> found = new ArrayList<>();
        for (int i = 0; i < words.size(); i++) {
            String w = words.get(i);
            if (INLINE.matcher(w).find()) {
                found.add("inline secret in '" + mask(w) + "'");
            }
            int eq = w.indexOf('=');
            if (eq > 0) {
                String key = w.substring(0, eq).replaceFirst("^(-D|--?)", "");
                if (secretKey(key) && !REFERENCE.matcher(w.substring(eq + 1)).matches()) {
                    found.add("value for " + key);
                }
            } else if (w.startsWith("-") && secretKey(w.replaceFirst("^--?", "")) && i + 1 < words.size()
                    && !REFERENCE.matcher(words.get(i + 1)).matches()) {
                found.add("value for " + w);
            }
        }
        return found;
    }

    /**
     * A key that names a secret, word by word (unlike {@link Secrets#isSecret}, which redacts
     * logs and may over-match: {@code --max-batch-tokens} is no token): a password, secret,
     * token, credential or JAAS word, or a key (last word) that is not a config key.
     */
    static boolean secretKey(String key) {
        List<String> words = List.of(key.toLowerCase(Locale.ROOT).split("[^a-z0-9]+"));
        if (words.stream().anyMatch(SECRET_WORDS::contains)) {
            return true;
        }
        int last = words.size() - 1;
        return last >= 0 && words.get(last).equals("key") && (last == 0 || !words.get(last - 1).equals("config"));
    }

    private static void walk(JsonNode node, String at, List<String> found) {
        if (node.isObject()) {
            for (String list : List.of("containers", "initContainers")) {
                node.path(list).forEach(c -> container(c, at + "/" + list + "/" + c.path("name").asText(), found));
            }
            if (node.has("job") && node.path("job").has("args")) {
                inWords(strings(node.path("job").path("args"))).forEach(f -> found.add(at + "/job/args: " + f));
            }
            node.path("flinkConfiguration").fields().forEachRemaining(e -> {
                inWords(List.of(e.getKey() + "=" + e.getValue().asText()))
                        .forEach(f -> found.add(at + "/flinkConfiguration: " + f));
                if (e.getKey().startsWith("env.java.opts")) {
                    inWords(List.of(e.getValue().asText().split("\\s+")))
                            .forEach(f -> found.add(at + "/flinkConfiguration/" + e.getKey() + ": " + f));
                }
            });
            node.fields().forEachRemaining(e -> walk(e.getValue(), at + "/" + e.getKey(), found));
        } else if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                walk(node.get(i), at + "/" + i, found);
            }
        }
    }

    private static void container(JsonNode c, String at, List<String> found) {
        List<String> words = strings(c.path("command"));
        words.addAll(strings(c.path("args")));
        inWords(words).forEach(f -> found.add(at + "/args: " + f));
        c.path("env").forEach(e -> {
            if (e.has("value") && (secretKey(e.path("name").asText()) || INLINE.matcher(e.path("value").asText()).find())) {
                found.add(at + "/env/" + e.path("name").asText() + ": literal value");
            }
        });
    }

    private static List<String> strings(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(a -> out.add(a.asText()));
        return out;
    }

    private static String mask(String w) {
        return w.length() <= 12 ? "…" : w.substring(0, 12) + "…";
    }
}
