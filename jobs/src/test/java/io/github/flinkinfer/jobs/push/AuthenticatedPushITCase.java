package io.github.flinkinfer.jobs.push;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.flinkinfer.jobs.testutils.PushgatewayServer;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A push to a real Pushgateway behind basic auth (its own web config) succeeds with the
 * credentials from the environment's variables and files, and is refused without them or with
 * wrong ones, the refusal naming the status and not the secret.
 */
class AuthenticatedPushITCase {
    /** bcrypt (cost 10) of the test-only password below, as `htpasswd -nbB` writes it. */
    private static final String HASH = "$2a$10$59tb3mxjyL11wu/cYUTmr.PjbuU5tLJDbungJAjU1SaLFqOiQmDwW";
    private static final String PASSWORD = "push-test-secret";

    @RegisterExtension static final PushgatewayServer GATEWAY = PushgatewayServer.withBasicAuth("ci", HASH);

    @TempDir Path tmp;

    @Test
    void credentialsFromTheEnvironmentOpenTheGatewayAndNothingElseDoes() throws Exception {
        PushOptions push = new PushOptions();
        push.pushGateway = URI.create(GATEWAY.url());
        assertThatThrownBy(() -> RunMetrics.push(push, RunMetersTest.summary(), RunOutcome.SUCCEEDED, Map.of()))
                .isInstanceOf(IOException.class).hasMessageContaining("answered 401");
        assertThatThrownBy(() -> RunMetrics.push(push, RunMetersTest.summary(), RunOutcome.SUCCEEDED,
                Map.of(PushCredentials.USERNAME, "ci", PushCredentials.PASSWORD, "wrong")))
                .isInstanceOf(IOException.class).hasMessageContaining("answered 401").hasMessageNotContaining("wrong");

        Path secret = Files.writeString(tmp.resolve("password"), PASSWORD + "\n"); // as a mounted Secret
        RunMetrics.Pushed p = RunMetrics.push(push, RunMetersTest.summary(), RunOutcome.SUCCEEDED,
                Map.of(PushCredentials.USERNAME, "ci", PushCredentials.PASSWORD_FILE, secret.toString()));
        assertThat(p.series()).isGreaterThan(20);
        String auth = PushCredentials.authorization(Map.of(PushCredentials.USERNAME, "ci",
                PushCredentials.PASSWORD, PASSWORD));
        HttpResponse<String> metrics = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create(GATEWAY.url() + "/metrics")).header("Authorization", auth).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(metrics.statusCode()).isEqualTo(200);
        assertThat(metrics.body()).contains("flinkinfer_run_succeeded_items{").contains("run_id=\"r1\"");
    }
}
