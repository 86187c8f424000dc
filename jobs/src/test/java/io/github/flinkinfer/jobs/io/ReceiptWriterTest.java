package io.github.flinkinfer.jobs.io;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.apache.flink.connector.file.sink.FileSinkCommittable;
import org.apache.flink.streaming.api.connector.sink2.CommittableMessage;
import org.apache.flink.streaming.api.connector.sink2.CommittableSummary;
import org.apache.flink.streaming.api.connector.sink2.CommittableWithLineage;
import org.apache.flink.streaming.api.functions.sink.filesystem.InProgressFileWriter;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The receipt after a BATCH run's committers: it removes this run's part files of its sink that no
 * final committer committed (an earlier attempt's, after a TaskManager was lost while the
 * committers ran), and nothing when the committers' report is incomplete.
 */
class ReceiptWriterTest {
    private static final String COMMITTED = "part-r-0b6f3c8e-1a2b-4c3d-8e9f-0a1b2c3d4e5f-0.parquet";
    private static final String EARLIER = "part-r-9c8b7a6f-5e4d-4c3b-8a29-181716151413-0.parquet";
    private static final List<String> KEPT = List.of(
            "part-r-9c8b7a6f-5e4d-4c3b-8a29-181716151413-0.jsonl", // the run's other sink in the directory
            "part-r-2-9c8b7a6f-5e4d-4c3b-8a29-181716151413-0.parquet", // run r-2's
            ".part-r-9c8b7a6f-5e4d-4c3b-8a29-181716151413-1.parquet.inprogress.77", // in progress: the driver's
            "_committed-r.write-embeddings-jsonl-0-of-1");

    @TempDir
    Path dir;

    @Test
    void removesThePartFilesOfAnEarlierAttemptThatNoFinalCommitterCommitted() throws Exception {
        files(COMMITTED, EARLIER);

        String receipt = run(1, COMMITTED);

        assertThat(dir.resolve(EARLIER)).doesNotExist();
        assertThat(dir.resolve(COMMITTED)).exists();
        assertThat(KEPT).allSatisfy(k -> assertThat(dir.resolve(k)).exists());
        assertThat(receipt).contains("\"files\":1").contains("\"removedEarlierAttempts\":1").contains("\"committers\":2");
    }

    @Test
    void removesNothingWhenTheCommittersReportedLessThanTheyAnnounced() throws Exception {
        files(COMMITTED, EARLIER);

        String receipt = run(2, COMMITTED);

        assertThat(dir.resolve(EARLIER)).exists();
        assertThat(dir.resolve(COMMITTED)).exists();
        assertThat(receipt).contains("\"removedEarlierAttempts\":0");
    }

    private void files(String... names) throws Exception {
        for (String name : Stream.concat(Stream.of(names), KEPT.stream()).toList()) {
            Files.writeString(dir.resolve(name), "x");
        }
    }

    /** Runs the receipt writer of sink write-embeddings-parquet over committables announced and given. */
    private String run(int announced, String... committed) throws Exception {
        String prefix = dir.resolve("_committed-r.write-embeddings-parquet").toString();
        var writer = new CommitReceipts.ReceiptWriter(prefix, "write-embeddings-parquet", false, 2,
                dir.toString(), RunOutput.committedPartFiles("r", ".parquet"));
        try (var harness = new OneInputStreamOperatorTestHarness<CommittableMessage<FileSinkCommittable>, Void>(writer)) {
            harness.open();
            harness.processElement(new StreamRecord<>(
                    new CommittableSummary<FileSinkCommittable>(0, 2, Long.MAX_VALUE, announced, 0)));
            for (String name : committed) {
                harness.processElement(new StreamRecord<>(new CommittableWithLineage<>(
                        new FileSinkCommittable("", pending(dir.resolve(name))), Long.MAX_VALUE, 0)));
            }
        } // closing the harness finishes the operator: the end of a BATCH run's input
        return Files.readString(dir.resolve("_committed-r.write-embeddings-parquet-0-of-1"));
    }

    private static InProgressFileWriter.PendingFileRecoverable pending(Path file) {
        return new InProgressFileWriter.PendingFileRecoverable() {
            @Override
            public org.apache.flink.core.fs.Path getPath() {
                return new org.apache.flink.core.fs.Path(file.toUri());
            }

            @Override
            public long getSize() {
                return 1;
            }
        };
    }
}
