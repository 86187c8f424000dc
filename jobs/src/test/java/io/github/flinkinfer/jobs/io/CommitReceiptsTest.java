package io.github.flinkinfer.jobs.io;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.flinkinfer.jobs.io.CommitReceipts.FileSinkRef;
import java.nio.file.Files;
import java.util.List;
import org.apache.flink.core.fs.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CommitReceiptsTest {
    @TempDir java.nio.file.Path out;

    private static final List<FileSinkRef> SINKS = List.of(
            new FileSinkRef("write-embeddings-parquet", "embeddings"), new FileSinkRef("write-errors", "errors"));

    private void receipt(String dir, String name) throws Exception {
        Files.createDirectories(out.resolve(dir));
        Files.writeString(out.resolve(dir).resolve(name), "{}");
    }

    private List<String> missing(String runId) throws Exception {
        return CommitReceipts.missing(new Path(out.toUri()), runId, SINKS);
    }

    @Test
    void everySinkNeedsAReceiptFromEachOfItsCommitterSubtasks() throws Exception {
        assertThat(missing("r")).containsExactly(
                "write-embeddings-parquet (embeddings/): no committer subtask has finished",
                "write-errors (errors/): no committer subtask has finished");

        receipt("embeddings", "_committed-r.write-embeddings-parquet-1-of-2");
        receipt("errors", "_committed-r.write-errors-0-of-1");
        assertThat(missing("r")).containsExactly(
                "write-embeddings-parquet (embeddings/): 1 of 2 committer subtasks have finished");

        receipt("embeddings", "_committed-r.write-embeddings-parquet-0-of-2");
        assertThat(missing("r")).isEmpty();
    }

    @Test
    void anotherRunsReceiptsDoNotCount() throws Exception {
        receipt("embeddings", "_committed-r-2.write-embeddings-parquet-0-of-1");
        receipt("errors", "_committed-r-2.write-errors-0-of-1");
        assertThat(missing("r")).hasSize(2);
        assertThat(missing("r-2")).isEmpty();
        assertThat(CommitReceipts.isReceipt("_committed-r-2.write-errors-0-of-1", "r")).isFalse();
        assertThat(CommitReceipts.isReceipt("_committed-r-2.write-errors-0-of-1", "r-2")).isTrue();
        assertThat(CommitReceipts.isReceipt("part-r-2-0.jsonl", "r-2")).isFalse();
        assertThat(CommitReceipts.isReceipt("_committed-r.b.write-errors-0-of-1", "r")).as("run r.b's").isFalse();
        assertThat(CommitReceipts.isReceipt("_committed-r.b.write-errors-0-of-1", "r.b")).isTrue();
    }
}
