package io.github.flinkinfer.jobs.testutils;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A real Prometheus for tests (Debian's {@code prometheus}, installed by .ci/install-deps.sh) on a
 * free localhost port, scraping one target every second as a Pushgateway is scraped in production
 * ({@code honor_labels: true}, so the pushed {@code job} and {@code run_id} stay), queried through
 * its HTTP API as Grafana queries it.
 *
 * <pre>{@code
 * try (PrometheusServer prometheus = PrometheusServer.scraping("127.0.0.1:9091", tmp)) {
 *     JsonNode result = prometheus.query("count(flinkinfer_run_outcome)");
 * }
 * }</pre>
 */
public final class PrometheusServer implements AutoCloseable {
    public static final Path BINARY = Path.of("/usr/bin/prometheus");

    private final Process process;
    private final String url;
    private final HttpClient http = HttpClient.newHttpClient();

    private PrometheusServer(Process process, String url) {
        this.process = process;
        this.url = url;
    }

    /** Starts Prometheus with its data under {@code dir}, scraping {@code target} (host:port) every second. */
    public static PrometheusServer scraping(String target, Path dir) throws Exception {
        if (!Files.isExecutable(BINARY)) {
            throw new IllegalStateException(BINARY + " is missing: run `bash .ci/install-deps.sh` (Debian's prometheus)");
        }
        Path config = Files.writeString(dir.resolve("prometheus.yml"), String.join("\n",
                "global:", "  scrape_interval: 1s", "scrape_configs:", "  - job_name: pushgateway",
                "    honor_labels: true", "    static_configs:", "      - targets: ['" + target + "']", ""));
        int port = PushgatewayServer.freePort();
        Process p = new ProcessBuilder(BINARY.toString(), "--config.file=" + config,
                "--storage.tsdb.path=" + dir.resolve("data"), "--web.listen-address=127.0.0.1:" + port,
                "--log.level=warn").redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.INHERIT).start();
        String url = "http://127.0.0.1:" + port;
        try {
            PushgatewayServer.awaitReady(p, url, "Prometheus");
        } catch (Exception e) {
            PushgatewayServer.stop(p);
            throw e;
        }
        return new PrometheusServer(p, url);
    }

    /** {@code /api/v1/query}: the instant vector {@code promql} evaluates to now ({@code data.result}). */
    public JsonNode query(String promql) throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(url + "/api/v1/query?query="
                + URLEncoder.encode(promql, StandardCharsets.UTF_8))).build(), HttpResponse.BodyHandlers.ofString());
        JsonNode body = new ObjectMapper().readTree(r.body());
        if (r.statusCode() != 200 || !"success".equals(body.path("status").asText())) {
            throw new IllegalArgumentException("Prometheus refused " + promql + ": " + r.body());
        }
        return body.path("data").path("result");
    }

    @Override
    public void close() throws Exception {
        PushgatewayServer.stop(process);
    }
}
