package io.github.flinkinfer.runtime.card;

import java.io.IOException;
import java.io.InputStream;
import java.io.Serializable;

/**
 * Where a model card and its files live when they are not on this machine ({@code s3://},
 * {@code hdfs://}, ...): opens one by its location. The card travels to every TaskManager with
 * its store, and {@code files.ModelFileCache} copies each file once per machine. The job implements it
 * over Flink's file systems, so this module stays free of Flink.
 *
 * <pre>{@code
 * ModelCard card = ModelCard.load("s3://models/mine/card.json", flinkFileSystems);
 * }</pre>
 */
@FunctionalInterface
public interface ModelStore extends Serializable {
    /** Opens the file at {@code location} (a URI, e.g. {@code s3://bucket/models/mine/model.onnx}). */
    InputStream open(String location) throws IOException;
}
