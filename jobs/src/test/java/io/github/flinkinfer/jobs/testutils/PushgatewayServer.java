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
 * .ci/install-deps.sh) on a free localhost port, in memory only, started before the class and
 * stopped after it.
 *
 * <pre>{@code
 * @RegisterExtension static final PushgatewayServer GATEWAY = new PushgatewayServer();
 * ... "--push-gateway", GATEWAY.url() ...
 * PrometheusScrape.of(GATEWAY.port());
 * }</pre>
 */
public final class PushgatewayServer implements BeforeAllCallback, AfterAllCallback {
    public static final Path BINARY = Path.of("/usr/bin/prometheus-pushgateway");

    private final String basicAuthUsers;
    private Process process;
    private int port;

    /** A gateway that lets anyone push. */
    public PushgatewayServer() {
        this(null);
    }

    private PushgatewayServer(String basicAuthUsers) {
        this.basicAuthUsers = basicAuthUsers;
    }

    /** A gateway behind basic auth (its web config), for {@code user} with this bcrypt hash of the password. */
    public static PushgatewayServer withBasicAuth(String user, String bcryptHash) {
        return new PushgatewayServer("basic_auth_users:\n  " + user + ": " + bcryptHash + "\n");
    }

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        if (!Files.isExecutable(BINARY)) {
            throw new IllegalStateException(BINARY + " is missing: run `bash .ci/install-deps.sh`"
                    + " (Debian's prometheus-pushgateway)");
        }
        port = freePort();
        List<String> cmd = new ArrayList<>(List.of(BINARY.toString(), "--web.listen-address=127.0.0.1:" + port,
                // Debian's default persists to /var/lib/prometheus/pushgateway.data, shared by every
                // gateway on the machine: keep each test's groups in its own memory
                "--persistence.file=", "--log.level=warn"));
        if (basicAuthUsers != null) {
            Path config = Files.createTempFile("pushgateway-web", ".yml");
            config.toFile().deleteOnExit();
            cmd.add("--web.config.file=" + Files.writeString(config, basicAuthUsers));
        }
        process = new ProcessBuilder(cmd).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.INHERIT).start();
        awaitReady();
    }

    @Override
    public void afterAll(ExtensionContext context) throws Exception {
        stop(process);
    }

    public int port() {
        return port;
    }

    /** The base URL {@code --push-gateway} takes. */
    public String url() {
        return "http://127.0.0.1:" + port;
    }

    private void awaitReady() throws Exception {
        awaitReady(process, url(), "the Pushgateway");
    }

    /** Waits until {@code process} answers {@code <url>/-/ready} (Prometheus and the Pushgateway both do). */
    static void awaitReady(Process process, String url, String what) throws Exception {
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException(what + " exited with " + process.exitValue());
            }
            try {
                HttpResponse<Void> r = http.send(HttpRequest.newBuilder(URI.create(url + "/-/ready")).build(),
                        HttpResponse.BodyHandlers.discarding());
                if (r.statusCode() == 200 || r.statusCode() == 401) {
                    return; // 401: up, behind basic auth
                }
            } catch (IOException notYet) {
                // not listening yet
            }
            Thread.sleep(100);
        }
        throw new IllegalStateException(what + " did not get ready at " + url);
    }

    /** Stops {@code process}, forcibly after 10 s. */
    static void stop(Process process) throws InterruptedException {
        if (process != null) {
            process.destroy();
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        }
    }

    static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
