package io.github.flinkinfer.jobs.spec;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Properties;
import org.junit.jupiter.api.Test;

/** Which client properties are redacted before logging. */
class SecretsTest {
    @Test
    void redactsPasswordsJaasKeysAndTokens() {
        Properties p = new Properties();
        p.put("bootstrap.servers", "broker:9092");
        p.put("security.protocol", "SASL_SSL");
        p.put("sasl.jaas.config", "... password=\"x\";");
        p.put("ssl.truststore.password", "x");
        p.put("ssl.key.password", "x");
        p.put("ssl.keystore.key", "x");
        p.put("sasl.oauthbearer.token.endpoint.url", "x");
        assertThat(Secrets.redact(p))
                .containsEntry("bootstrap.servers", "broker:9092")
                .containsEntry("security.protocol", "SASL_SSL")
                .containsEntry("sasl.jaas.config", Secrets.REDACTED)
                .containsEntry("ssl.truststore.password", Secrets.REDACTED)
                .containsEntry("ssl.key.password", Secrets.REDACTED)
                .containsEntry("ssl.keystore.key", Secrets.REDACTED)
                .doesNotContainValue("x");
    }
}
