package io.github.flinkinfer.operators.pool;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.flinkinfer.operators.WindowOutcome;
import io.github.flinkinfer.operators.chunk.ChunkRef;
import io.github.flinkinfer.operators.chunk.TokenWindows;
import io.github.flinkinfer.operators.errors.ErrorReason;
import io.github.flinkinfer.operators.errors.ErrorRecord;
import java.util.List;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.operators.KeyedProcessOperator;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.junit.jupiter.api.Test;

/**
 * Windows arrive interleaved and out of order: a document with failed windows yields exactly one
 * {@code window_failed} row once all its windows are in, a fully successful one yields nothing,
 * and no state is left behind.
 */
class DocumentErrorsFunctionTest {

    @Test
    void aDocumentWithFailedWindowsIsOneErrorRowOnceAllWindowsAreIn() throws Exception {
        try (var h = new KeyedOneInputStreamOperatorTestHarness<String, WindowOutcome, ErrorRecord>(
                new KeyedProcessOperator<>(new DocumentErrorsFunction()), WindowOutcome::docId, Types.STRING)) {
            h.open();
            h.processElement(ok("d", 0, 3), 0);
            h.processElement(failed("d", 2, 3, ErrorReason.NON_FINITE_OUTPUT), 0);
            h.processElement(ok("fine", 1, 2), 0);
            h.processElement(failed("all", 1, 2, ErrorReason.OUT_OF_MEMORY), 0);
            assertThat(h.extractOutputValues()).isEmpty();
            h.processElement(failed("d", 1, 3, ErrorReason.INFERENCE_FAILED), 0);
            h.processElement(ok("fine", 0, 2), 0);
            h.processElement(failed("all", 0, 2, ErrorReason.OUT_OF_MEMORY), 0);

            List<ErrorRecord> out = h.extractOutputValues();
            assertThat(out).extracting(e -> e.id).containsExactly("d", "all");
            ErrorRecord d = out.get(0);
            assertThat(d.reason).isEqualTo("window_failed");
            assertThat(d.stage).isEqualTo("infer");
            assertThat(d.source).isEqualTo("corpus.jsonl:7");
            assertThat(d.message).startsWith("2 of 3 windows failed (inference_failed,non_finite_output); first: window 1,"
                    + " infer/inference_failed");
            assertThat(d.inputSha256).isEqualTo("sha-d");
            assertThat(out.get(1).message).startsWith("2 of 2 windows failed (out_of_memory); first: window 0");
            assertThat(h.numKeyedStateEntries()).isZero();
        }
    }

    static WindowOutcome ok(String doc, int index, int count) {
        WindowOutcome o = new WindowOutcome();
        o.chunk = window(doc, index, count);
        o.source = "corpus.jsonl:7";
        return o;
    }

    static WindowOutcome failed(String doc, int index, int count, ErrorReason reason) {
        ErrorRecord e = reason.record(ChunkRef.chunkId(doc, index), "corpus.jsonl:7", "boom", 2);
        return WindowOutcome.failed(e, window(doc, index, count));
    }

    static ChunkRef window(String doc, int index, int count) {
        return ChunkRef.document(doc, "sha-" + doc, "s").window(new TokenWindows.Window(index, index * 4, index * 4 + 4), count);
    }
}
