package io.github.flinkinfer.jobs.testutils;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A real Prometheus Pushgateway for tests: Debian's {@code prometheus-pushgateway} (installed by
 * .ci/install-deps.sh) on a free localhost port, started before the class and stopped after it.
 *
 * <pre>{@code
 * @RegisterExtension static final PushgatewayServer GATEWAY = new PushgatewayServer();
 * ... "--push-gateway", GATEWAY.url() ...
 * PrometheusScrape.of(GATEWAY.port());
 * }</pre>
 */
public final class PushgatewayServer implements BeforeAllCallback, AfterAllCallback {
    public static final Path BINARY = Path.of("/usr/bin/prometheus-pushgateway");

    private final List<String> extraArgs;
    private Process process;
    private int port;

    /** A gateway with its defaults (no persistence, no auth). */
    public PushgatewayServer() {
        this(List.of());
    }

    /** A gateway started with these extra flags, e.g. {@code --web.config.file=...} for basic auth. */
    public PushgatewayServer(List<String> extraArgs) {
        this.extraArgs = extraArgs;
    }

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        if (!Files.isExecutable(BINARY)) {
            throw new IllegalStateException(BINARY + " is missing: run `bash .ci/install-deps.sh`"
                    + " (Debian's prometheus-pushgateway)");
        }
        port = freePort();
        List<String> cmd = new ArrayList<>(List.of(BINARY.toString(),
                "--web.listen-address=127.0.0.1:" + port, "--log.level=warn"));
        cmd.addAll(extraArgs);
        process = new ProcessBuilder(cmd).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.INHERIT).start();
        awaitReady();
    }

    @Override
    public void afterAll(ExtensionContext context) throws Exception {
        if (process != null) {
            process.destroy();
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        }
    }

    public int port() {
        return port;
    }

    /** The base URL {@code --push-gateway} takes. */
    public String url() {
        return "http://127.0.0.1:" + port;
    }

    private void awaitReady() throws Exception {
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException("the Pushgateway exited with " + process.exitValue());
            }
            try {
                HttpResponse<Void> r = http.send(HttpRequest.newBuilder(URI.create(url() + "/-/ready")).build(),
                        HttpResponse.BodyHandlers.discarding());
                if (r.statusCode() == 200 || r.statusCode() == 401) {
                    return; // 401: up, behind basic auth
                }
            } catch (IOException notYet) {
                // not listening yet
            }
            Thread.sleep(100);
        }
        throw new IllegalStateException("the Pushgateway did not get ready on port " + port);
    }

    static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
