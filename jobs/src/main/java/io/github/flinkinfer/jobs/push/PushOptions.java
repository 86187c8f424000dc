package io.github.flinkinfer.jobs.push;

import java.net.URI;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Option;
import picocli.CommandLine.TypeConversionException;

/**
 * Where a finished run's numbers are pushed (a picocli mixin of {@code embed}, {@code moderate}
 * and {@code report}); off unless a destination is given. Credentials come from the environment
 * ({@link PushCredentials}), never from these options.
 */
public class PushOptions {
    /** The {@code job} of every pushed group; its other key is {@code run_id}. */
    public static final String JOB = "flink-inference";

    @Option(names = "--push-gateway", paramLabel = "URL", converter = GatewayUrl.class,
            description = "Push the run's numbers (items, failures, cost total/per item/per 1M tokens,"
                    + " wall, goodput, verdicts; tagged run_id, task, model, workload, outcome) to this"
                    + " Prometheus Pushgateway when the run ends, passed or not, as group job="
                    + JOB + ",run_id=<run-id>. Credentials from FLINKINFER_PUSH_BEARER_TOKEN[_FILE] or"
                    + " FLINKINFER_PUSH_USERNAME + FLINKINFER_PUSH_PASSWORD[_FILE]. A failed push warns,"
                    + " it does not fail the run (docs/operations.md, \"Pushing run metrics\").")
    public URI pushGateway;

    /** Whether the run's numbers go anywhere. */
    public boolean enabled() {
        return pushGateway != null;
    }

    /** An http(s) URL without credentials in it (they would land in run-info and the process list). */
    public static final class GatewayUrl implements ITypeConverter<URI> {
        @Override
        public URI convert(String value) {
            URI uri;
            try {
                uri = URI.create(value);
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException("not a URL: " + e.getMessage());
            }
            if (!"http".equalsIgnoreCase(uri.getScheme()) && !"https".equalsIgnoreCase(uri.getScheme())
                    || uri.getHost() == null) {
                throw new TypeConversionException("'" + value + "' is not an http:// or https:// URL");
            }
            if (uri.getRawUserInfo() != null) {
                throw new TypeConversionException("credentials do not belong in the URL (run-info and the"
                        + " process list would show them): set " + PushCredentials.USERNAME + " and "
                        + PushCredentials.PASSWORD_FILE + " (or a bearer token) in the environment");
            }
            if (uri.getRawQuery() != null || uri.getRawFragment() != null) {
                throw new TypeConversionException("'" + value + "' has a query or fragment; give the"
                        + " gateway's base URL (the group path is added)");
            }
            return uri;
        }
    }
}
