package io.github.flinkinfer.jobs.spec;

import java.util.List;

/**
 * What a source stage needs: the files (or, when {@code kafka} reads topics, the topics) and how
 * a record becomes a document. Built from the command line in one place, {@code
 * RunOptions#inputConfig()}, into the run's spec ({@code RunSpec#input}).
 *
 * <pre>{@code
 * InputConfig in = spec.input();
 * ParsedInput input = in.readsKafka() ? KafkaInputs.read(env, in) : FileInputs.read(env, in);
 * }</pre>
 *
 * @param files input files or directories, on any Flink file system
 * @param format the format of every file; null = from each file's extension
 * @param idField JSON/CSV/Parquet field holding the document id
 * @param textField JSON/CSV/Parquet field holding the text
 * @param maxRecordBytes records longer than this go to errors unread
 * @param kafka the topic source, used instead of {@code files} when it names topics
 */
public record InputConfig(
        List<String> files,
        InputFormat format,
        String idField,
        String textField,
        int maxRecordBytes,
        KafkaSettings kafka) {

    public InputConfig {
        files = List.copyOf(files);
    }

    /** True when the source is Kafka topics rather than files. */
    public boolean readsKafka() {
        return kafka.readsKafka();
    }
}
