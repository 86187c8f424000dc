package io.github.flinkinfer.jobs.io;

import io.github.flinkinfer.operators.Document;
import io.github.flinkinfer.operators.errors.ErrorRecord;
import java.util.List;
import org.apache.flink.streaming.api.datastream.DataStream;

/** What a source stage yields: parsed documents, and the errors of the records it could not parse. */
public record ParsedInput(DataStream<Document> documents, List<DataStream<ErrorRecord>> errors) {}
