package io.github.flinkinfer.jobs.push;

import io.github.flinkinfer.jobs.report.RunSummary;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The end of every run, from the driver and from {@code report}: judge its verdicts, then push
 * its numbers tagged with the outcome whatever it is (a failed run's numbers matter most), then
 * fail as the verdicts said. A push that fails warns and leaves the run's own result alone: the
 * outputs and manifest are the record, the push a copy for dashboards.
 *
 * <pre>{@code
 * RunMetrics.judgeAndPush(spec.pushGateway(), summary, () -> { judge(summary, ...); commit(summary, ...); });
 * }</pre>
 */
public final class RunMetrics {
    private RunMetrics() {}

    /** A run's verdicts: throws when one fails (quality, contract, accounting). */
    public interface Verdicts {
        void judge() throws Exception;
    }

    /** What one push sent and how long it took (building the meters and the HTTP round trip). */
    public record Pushed(java.net.URI group, int series, double millis) {}

    /** Runs {@code verdicts}, pushes {@code summary} with their outcome to {@code gateway} (null = nowhere), rethrows. */
    public static void judgeAndPush(java.net.URI gateway, RunSummary summary, Verdicts verdicts) throws Exception {
        Exception failed = null;
        try {
            verdicts.judge();
        } catch (Exception e) {
            failed = e;
        }
        if (gateway != null) {
            RunOutcome outcome = RunOutcome.of(summary, failed);
            try {
                Pushed p = push(gateway, summary, outcome, System.getenv());
                System.out.printf(Locale.ROOT, "  pushed             %d series (outcome %s) to %s in %.0f ms%n",
                        p.series(), outcome.tag(), p.group(), p.millis());
            } catch (IOException | UncheckedIOException | IllegalArgumentException e) {
                warn(System.err, gateway, e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                warn(System.err, gateway, e);
            }
        }
        if (failed != null) {
            throw failed;
        }
    }

    /** Pushes run {@code s} with {@code outcome} as the group {@link #groupingKey}, credentials from {@code env}. */
    public static Pushed push(PushOptions push, RunSummary s, RunOutcome outcome, Map<String, String> env)
            throws IOException, InterruptedException {
        return push(push.pushGateway, s, outcome, env);
    }

    /** Same, to the Pushgateway at {@code pushGateway}. */
    public static Pushed push(java.net.URI pushGateway, RunSummary s, RunOutcome outcome, Map<String, String> env)
            throws IOException, InterruptedException {
        long start = System.nanoTime();
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        String text;
        try {
            RunMeters.register(s, outcome, registry);
            text = registry.scrape(Pushgateway.TEXT_FORMAT);
        } finally {
            registry.close();
        }
        Pushgateway gateway = new Pushgateway(pushGateway, PushCredentials.authorization(env));
        Map<String, String> key = groupingKey(s.runId);
        gateway.put(key, text);
        int series = (int) text.lines().filter(l -> !l.isEmpty() && !l.startsWith("#")).count();
        return new Pushed(gateway.groupUri(key), series, (System.nanoTime() - start) / 1e6);
    }

    /** {@code job=flink-inference, run_id=<id>}: one group per run, which a re-run or {@code report} replaces. */
    public static Map<String, String> groupingKey(String runId) {
        Map<String, String> key = new LinkedHashMap<>();
        key.put("job", PushOptions.JOB);
        key.put("run_id", runId);
        return key;
    }

    private static void warn(PrintStream err, java.net.URI pushGateway, Exception e) {
        String cause = e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName(); // ConnectException has none
        err.println("warning: the run's metrics were not pushed to " + pushGateway + ": " + cause
                + " (the run's result is unaffected; `report --push-gateway` pushes them again)");
    }
}
