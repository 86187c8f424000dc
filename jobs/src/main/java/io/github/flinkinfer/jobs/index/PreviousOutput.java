package io.github.flinkinfer.jobs.index;

import io.github.flinkinfer.jobs.io.EmbeddingParquetWriter;
import io.github.flinkinfer.jobs.io.FileOutputs;
import io.github.flinkinfer.operators.InferenceResult;
import io.github.flinkinfer.operators.chunk.ChunkRef;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.avro.generic.GenericRecord;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.connector.file.src.FileSource;
import org.apache.flink.core.fs.FileStatus;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.Path;
import org.apache.flink.formats.parquet.avro.AvroParquetReaders;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * The Parquet rows of an earlier run ({@code <dir>/embeddings/part-<run-id>-*.parquet}) as a
 * bounded source of {@link InferenceResult}s, for the incremental-run cache. Works on any file
 * system Flink can list (local, S3, ...); only that run's committed files are read.
 */
public final class PreviousOutput {
    private PreviousOutput() {}

    /** Committed part file names: {@code part-<run-id>-<uuid>-<n>.parquet}. */
    private static final java.util.regex.Pattern PART = java.util.regex.Pattern.compile(
            "part-(.+)-" + io.github.flinkinfer.jobs.io.RunOutput.WRITER_UUID + "-\\d+\\.parquet");

    /**
     * The run to reuse: {@code runId} if given, else the newest {@code _SUCCESS-<run-id>} (local
     * outputs), else the run of the newest committed Parquet part file (object stores, where the
     * driver writes no marker); null when the directory holds no run yet (a first scheduled run).
     */
    public static String resolveRunId(String dir, String runId) {
        if (runId != null) {
            return runId;
        }
        String newest = null;
        long newestTime = Long.MIN_VALUE;
        for (FileStatus s : list(new Path(dir))) {
            String name = s.getPath().getName();
            if (name.startsWith("_SUCCESS-") && s.getModificationTime() > newestTime) {
                newest = name.substring("_SUCCESS-".length());
                newestTime = s.getModificationTime();
            }
        }
        if (newest != null) {
            return newest;
        }
        for (FileStatus s : list(new Path(dir, FileOutputs.EMBEDDINGS_DIR))) {
            java.util.regex.Matcher m = PART.matcher(s.getPath().getName());
            if (m.matches() && s.getModificationTime() > newestTime) {
                newest = m.group(1);
                newestTime = s.getModificationTime();
            }
        }
        return newest;
    }

    /** The run's committed Parquet part files. */
    public static List<Path> files(String dir, String runId) {
        List<Path> out = new ArrayList<>();
        for (FileStatus s : list(new Path(dir, FileOutputs.EMBEDDINGS_DIR))) {
            String name = s.getPath().getName();
            if (name.startsWith("part-" + runId + "-") && name.endsWith(".parquet")) {
                out.add(s.getPath());
            }
        }
        return out;
    }

    public static DataStream<InferenceResult> read(
            StreamExecutionEnvironment env, List<Path> files) {
        DataStream<GenericRecord> rows = env.fromSource(
                FileSource.forRecordStreamFormat(
                                AvroParquetReaders.forGenericRecord(EmbeddingParquetWriter.SCHEMA),
                                files.toArray(new Path[0]))
                        .build(),
                WatermarkStrategy.noWatermarks(),
                "read-previous-output");
        return rows.map(new ToResult())
                .returns(TypeInformation.of(InferenceResult.class))
                .name("previous-rows")
                .uid("previous-rows");
    }

    private static FileStatus[] list(Path dir) {
        try {
            FileSystem fs = dir.getFileSystem();
            if (!fs.exists(dir)) {
                return new FileStatus[0];
            }
            FileStatus[] all = fs.listStatus(dir);
            return all == null ? new FileStatus[0] : all;
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot list " + dir, e);
        }
    }

    /** A Parquet row back into the result it was written from. */
    static final class ToResult implements MapFunction<GenericRecord, InferenceResult> {
        @Override
        public InferenceResult map(GenericRecord rec) {
            InferenceResult r = new InferenceResult();
            r.id = str(rec.get("id"));
            List<?> list = (List<?>) rec.get("embedding");
            r.vector = new float[list.size()];
            for (int i = 0; i < r.vector.length; i++) {
                r.vector[i] = ((Number) list.get(i)).floatValue();
            }
            r.model = str(rec.get("model"));
            r.modelVersion = str(rec.get("model_version"));
            r.tokenCount = (Integer) rec.get("token_count");
            r.originalTokenCount = (Integer) rec.get("original_token_count");
            r.truncated = (Boolean) rec.get("truncated");
            r.source = str(rec.get("source"));
            ChunkRef c = ChunkRef.document(
                    str(rec.get("doc_id")), str(rec.get("content_sha256")), str(rec.get("embed_settings")));
            if (c.docId == null) {
                c.docId = r.id;
            }
            Object index = rec.get("chunk_index");
            if (index != null) {
                c.chunkIndex = (Integer) index;
                c.chunkCount = (Integer) rec.get("chunk_count");
                c.tokenStart = (Integer) rec.get("token_start");
                c.tokenEnd = (Integer) rec.get("token_end");
            }
            r.chunk = c;
            return r;
        }

        private static String str(Object o) {
            return o == null ? null : o.toString();
        }
    }
}
