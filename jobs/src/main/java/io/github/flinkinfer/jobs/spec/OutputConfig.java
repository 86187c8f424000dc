package io.github.flinkinfer.jobs.spec;

import java.util.List;

/**
 * What the sinks need: where a run's files go and how they are named, which result formats to
 * write, the opensearch-bulk names, and the Kafka sinks. Built from the command line in one place,
 * {@code RunOptions#outputConfig(runId)}, into the run's spec ({@code RunSpec#output}).
 *
 * <pre>{@code
 * OutputConfig out = spec.output();
 * FileOutputs.writeResults(results, out);
 * KafkaOutputs.writeResults(results, out);
 * }</pre>
 *
 * @param directory output directory on any Flink file system
 * @param runId names the part files ({@code part-<run-id>-...}) and Kafka transactional ids
 * @param formats result formats ({@code --output-format})
 * @param indexName index named in opensearch-bulk action lines
 * @param vectorField vector field of opensearch-bulk documents
 * @param kafka the Kafka sinks, written next to the files when they name topics
 */
public record OutputConfig(
        String directory,
        String runId,
        List<OutputFormat> formats,
        String indexName,
        String vectorField,
        KafkaSettings kafka) {

    public OutputConfig {
        formats = List.copyOf(formats);
    }
}
