package io.github.flinkinfer.operators.models;

import io.github.flinkinfer.runtime.card.ModelStore;
import java.io.IOException;
import java.io.InputStream;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.Path;

/**
 * A {@link ModelStore} over Flink's file systems: a card and its files on {@code s3://},
 * {@code hdfs://}, {@code file://} or any scheme the cluster has a file system for, read through
 * the same {@link FileSystem} (plugins, credentials, {@code -D} options) the job reads its input with.
 */
public final class FlinkModelStore implements ModelStore {
    private static final long serialVersionUID = 1L;

    @Override
    public InputStream open(String location) throws IOException {
        Path path = new Path(location);
        return FileSystem.get(path.toUri()).open(path);
    }
}
