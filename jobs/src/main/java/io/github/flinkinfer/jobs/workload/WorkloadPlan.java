package io.github.flinkinfer.jobs.workload;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.Path;

/**
 * What {@code plan --workload} decided, written as JSON beside the card ({@code
 * <card>.plan.json}) for {@code embed --workload} to run: the chosen variant and settings, the
 * forecast the run is later judged against, every variant's measurements and which clauses each
 * met, and — when no variant meets every clause — what would (parallelism, budget).
 *
 * <pre>{@code
 * WorkloadPlan plan = WorkloadPlan.read(WorkloadPlan.locationFor("cards/gcide.yaml"));
 * }</pre>
 */
public record WorkloadPlan(
        String card,
        String cardSha256,
        String plannedAt,
        /** The chosen variant's model; null when no variant meets every clause. */
        String chosen,
        /** Settings of the chosen variant (or of the best effort when none meets every clause). */
        Settings settings,
        /** The forecast for {@link #settings}. */
        Forecast forecast,
        List<VariantEstimate> variants,
        /** Clauses no variant meets, each with what would meet it; empty when feasible. */
        List<String> unmet) {

    /** Run settings {@code embed} takes from the plan (explicit command-line options win). */
    public record Settings(String model, int[] bucketEdges, int maxBatchTokens, int parallelism, int maxLength) {}

    /**
     * A whole run's forecast: start-up (cluster, model load) plus inference over the corpus's tokens
     * at the measured rate on {@code parallelism} subtasks; cost over that wall time (idle included).
     */
    public record Forecast(long records, double tokens, double startupSeconds, double inferenceSeconds,
            double seconds, double cost, String currency) {}

    /** One variant as measured on the sample, with its forecast and clause checks. */
    public record VariantEstimate(String model, String metric, int sampled, double qualityMin, double qualityMean,
            double realTokensPerSecond, double padding, int[] bucketEdges, int maxBatchTokens,
            Forecast forecast, List<ClauseCheck> clauses) {
        public boolean meetsAll() {
            return clauses.stream().allMatch(ClauseCheck::met);
        }
    }

    /** One clause (deadline, budget, quality floor) against one variant's forecast or measurement. */
    public record ClauseCheck(String clause, boolean met, String detail) {}

    public boolean feasible() {
        return chosen != null;
    }

    /** Where the plan for a card is written and looked for: {@code x.yaml} → {@code x.plan.json}. */
    public static String locationFor(String cardLocation) {
        int slash = cardLocation.lastIndexOf('/');
        int dot = cardLocation.lastIndexOf('.');
        String stem = dot > slash ? cardLocation.substring(0, dot) : cardLocation;
        return stem + ".plan.json";
    }

    public static WorkloadPlan read(String location) throws IOException {
        Path path = new Path(location);
        try (InputStream in = path.getFileSystem().open(path)) {
            return mapper().readValue(in, WorkloadPlan.class);
        }
    }

    public void write(String location) throws IOException {
        Path path = new Path(location);
        try (OutputStream out = path.getFileSystem().create(path, FileSystem.WriteMode.OVERWRITE)) {
            out.write(mapper().writerWithDefaultPrettyPrinter().writeValueAsString(this)
                    .getBytes(StandardCharsets.UTF_8));
        }
    }

    private static ObjectMapper mapper() {
        return new ObjectMapper().disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                .disable(SerializationFeature.FAIL_ON_EMPTY_BEANS);
    }
}
