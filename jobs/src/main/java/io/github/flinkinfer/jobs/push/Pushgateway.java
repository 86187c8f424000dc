package io.github.flinkinfer.jobs.push;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * A Prometheus Pushgateway's push API, over {@code java.net.http}: PUT replaces a group's
 * metrics with a text-format body, DELETE removes the group. (The Pushgateway client of the
 * Prometheus Java library 1.x is not on Maven Central at a version this build can use, and the
 * 0.x simpleclient one would clash with the simpleclient classes Flink's reporter carries.)
 *
 * <pre>{@code
 * new Pushgateway(URI.create("http://gw:9091"), null).put(Map.of("job", "flink-inference", "run_id", "r1"), text);
 * }</pre>
 */
public final class Pushgateway {
    /** The Prometheus text exposition format, which every Pushgateway version accepts. */
    public static final String TEXT_FORMAT = "text/plain; version=0.0.4; charset=utf-8";
    private static final Pattern PLAIN = Pattern.compile("[A-Za-z0-9._~-]+");
    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    private final URI base;
    private final String authorization;
    private final HttpClient http;

    /** A gateway at {@code base} (scheme, host, port and an optional path prefix); {@code authorization} may be null. */
    public Pushgateway(URI base, String authorization) {
        this.base = base;
        this.authorization = authorization;
        this.http = HttpClient.newBuilder().connectTimeout(TIMEOUT).build();
    }

    /** Replaces the metrics of group {@code groupingKey} (its first entry is {@code job}). */
    public void put(Map<String, String> groupingKey, String textFormat) throws IOException, InterruptedException {
        send(request(groupingKey).header("Content-Type", TEXT_FORMAT)
                .PUT(HttpRequest.BodyPublishers.ofString(textFormat, StandardCharsets.UTF_8)), groupingKey);
    }

    /** Deletes group {@code groupingKey} (what a retention job does for runs no longer wanted). */
    public void delete(Map<String, String> groupingKey) throws IOException, InterruptedException {
        send(request(groupingKey).DELETE(), groupingKey);
    }

    /** The group's URL: {@code <base>/metrics/job/<job>/<label>/<value>...}, values base64url-encoded where needed. */
    public URI groupUri(Map<String, String> groupingKey) {
        StringBuilder path = new StringBuilder(base.toString().replaceAll("/+$", "")).append("/metrics");
        groupingKey.forEach((label, value) -> {
            if (PLAIN.matcher(value).matches()) {
                path.append('/').append(label).append('/').append(value);
            } else { // "/" and the like cannot stand in a path segment; empty values neither
                path.append('/').append(label).append("@base64/").append(value.isEmpty() ? "="
                        : Base64.getUrlEncoder().encodeToString(value.getBytes(StandardCharsets.UTF_8)));
            }
        });
        return URI.create(path.toString());
    }

    private HttpRequest.Builder request(Map<String, String> groupingKey) {
        HttpRequest.Builder b = HttpRequest.newBuilder(groupUri(groupingKey)).timeout(TIMEOUT);
        if (authorization != null) {
            b.header("Authorization", authorization);
        }
        return b;
    }

    private void send(HttpRequest.Builder request, Map<String, String> groupingKey)
            throws IOException, InterruptedException {
        HttpResponse<String> r = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() / 100 != 2) {
            String body = r.body() == null ? "" : r.body().strip();
            throw new IOException("Pushgateway answered " + r.statusCode() + " for group " + groupingKey
                    + (body.isEmpty() ? "" : ": " + body.substring(0, Math.min(300, body.length()))));
        }
    }
}
