package io.github.flinkinfer.jobs.push;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** Where a push goes and with which credentials: URLs without secrets, secrets from the environment or files. */
class PushConfigTest {
    @TempDir Path tmp;

    @Test
    void theGatewayUrlIsHttpWithoutCredentialsInIt() {
        PushOptions.GatewayUrl c = new PushOptions.GatewayUrl();
        assertThat(c.convert("https://gw.example:9091/prefix")).isEqualTo(URI.create("https://gw.example:9091/prefix"));
        assertThatThrownBy(() -> c.convert("http://user:pw@gw:9091"))
                .hasMessageContaining("credentials do not belong in the URL").hasMessageNotContaining("pw");
        assertThatThrownBy(() -> c.convert("gw:9091")).hasMessageContaining("not an http:// or https:// URL");
        assertThatThrownBy(() -> c.convert("http://gw:9091/?x=1")).hasMessageContaining("query");
        var parsed = new CommandLine(new io.github.flinkinfer.jobs.cli.ReportCommand())
                .parseArgs("--output", "o", "--run-id", "r", "--push-gateway", "http://gw:9091");
        assertThat(parsed.matchedOptionValue("--push-gateway", (URI) null)).isEqualTo(URI.create("http://gw:9091"));
    }

    @Test
    void eachRunIsItsOwnGroupAndAwkwardRunIdsAreEncoded() {
        Pushgateway gw = new Pushgateway(URI.create("http://gw:9091/pushgateway/"), null);
        assertThat(gw.groupUri(RunMetrics.groupingKey("2026-11-30_a.1"))).hasToString(
                "http://gw:9091/pushgateway/metrics/job/flink-inference/run_id/2026-11-30_a.1");
        assertThat(gw.groupUri(RunMetrics.groupingKey("team/nightly run"))).hasToString(
                "http://gw:9091/pushgateway/metrics/job/flink-inference/run_id@base64/"
                        + Base64.getUrlEncoder().encodeToString("team/nightly run".getBytes()));
    }

    @Test
    void credentialsComeFromTheEnvironmentOrTheFilesItNames() throws Exception {
        assertThat(PushCredentials.authorization(Map.of())).isNull();
        assertThat(PushCredentials.authorization(Map.of(PushCredentials.TOKEN, "t0k"))).isEqualTo("Bearer t0k");
        Path token = Files.writeString(tmp.resolve("token"), "from-file\n");
        assertThat(PushCredentials.authorization(Map.of(PushCredentials.TOKEN_FILE, token.toString(),
                PushCredentials.TOKEN, "ignored"))).isEqualTo("Bearer from-file");
        Path password = Files.writeString(tmp.resolve("pw"), "s3cret\n");
        assertThat(PushCredentials.authorization(Map.of(PushCredentials.USERNAME, "ci",
                PushCredentials.PASSWORD_FILE, password.toString())))
                .isEqualTo("Basic " + Base64.getEncoder().encodeToString("ci:s3cret".getBytes()));
        assertThatThrownBy(() -> PushCredentials.authorization(Map.of(PushCredentials.USERNAME, "ci")))
                .hasMessageContaining("needs both");
        assertThatThrownBy(() -> PushCredentials.authorization(Map.of(PushCredentials.TOKEN, "t",
                PushCredentials.USERNAME, "ci", PushCredentials.PASSWORD, "p"))).hasMessageContaining("not both");
        assertThatThrownBy(() -> PushCredentials.authorization(Map.of(PushCredentials.TOKEN_FILE,
                tmp.resolve("missing").toString()))).hasMessageContaining("cannot be read");
    }
}
