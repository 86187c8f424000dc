package io.github.flinkinfer.jobs.spec;

import com.fasterxml.jackson.annotation.JsonValue;
import io.github.flinkinfer.runtime.card.ModelTask;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;
import picocli.CommandLine.ITypeConverter;

/**
 * The result formats ({@code --output-format}): the name users type, the part files' suffix and
 * the tasks whose rows it can hold. The writers live with the task that writes the rows; adding a
 * format is a constant here, its writer, and one {@code FileOutputs.write} call in the task.
 */
public enum OutputFormat {
    PARQUET("parquet", ".parquet", ModelTask.EMBEDDING, ModelTask.CLASSIFICATION),
    JSONL("jsonl", ".jsonl", ModelTask.EMBEDDING, ModelTask.CLASSIFICATION),
    /** OpenSearch / Elasticsearch {@code _bulk} body (docs/search-index.md). */
    OPENSEARCH_BULK("opensearch-bulk", ".bulk.ndjson", ModelTask.EMBEDDING),
    /** CSV for PostgreSQL {@code COPY} into a pgvector column. */
    PGVECTOR_CSV("pgvector-csv", ".csv", ModelTask.EMBEDDING);

    private final String id;
    private final String suffix;
    private final Set<ModelTask> tasks;

    OutputFormat(String id, String suffix, ModelTask first, ModelTask... more) {
        this.id = id;
        this.suffix = suffix;
        this.tasks = EnumSet.of(first, more);
    }

    /** The name on the command line and in reports. */
    @JsonValue
    public String id() {
        return id;
    }

    public String suffix() {
        return suffix;
    }

    public boolean supports(ModelTask task) {
        return tasks.contains(task);
    }

    /** The formats a task can write, for messages. */
    public static String namesFor(ModelTask task) {
        return Arrays.stream(values()).filter(f -> f.supports(task)).map(OutputFormat::id)
                .collect(Collectors.joining(", "));
    }

    public static OutputFormat parse(String name) {
        for (OutputFormat f : values()) {
            if (f.id.equals(name.trim().toLowerCase(Locale.ROOT))) {
                return f;
            }
        }
        throw new IllegalArgumentException("--output-format must be one of "
                + Arrays.stream(values()).map(OutputFormat::id).collect(Collectors.joining(", "))
                + ", not " + name);
    }

    @Override
    public String toString() {
        return id;
    }

    /** picocli: {@code --output-format parquet,opensearch-bulk}. */
    public static final class Converter implements ITypeConverter<OutputFormat> {
        @Override
        public OutputFormat convert(String value) {
            return parse(value);
        }
    }
}
