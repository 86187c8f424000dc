package io.github.flinkinfer.operators.pool;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.github.flinkinfer.operators.InferenceResult;
import io.github.flinkinfer.operators.chunk.ChunkRef;
import io.github.flinkinfer.operators.chunk.TokenWindows;
import java.util.List;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.operators.KeyedProcessOperator;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.junit.jupiter.api.Test;

class DocPoolingFunctionTest {

    @Test
    void meanOfUnitVectorsIsRenormalized() {
        float[] v = DocPoolingFunction.normalized(new float[] {1, 1, 0}, 2);
        assertThat(v[0]).isCloseTo((float) Math.sqrt(0.5), within(1e-6f));
        assertThat(v[1]).isCloseTo((float) Math.sqrt(0.5), within(1e-6f));
        assertThat(DocPoolingFunction.normalized(new float[] {0, 0}, 2)).containsExactly(0, 0);
    }

    @Test
    void emitsOneDocRowOnceAllChunksArrived() throws Exception {
        try (var h = new KeyedOneInputStreamOperatorTestHarness<String, InferenceResult, InferenceResult>(
                new KeyedProcessOperator<>(new DocPoolingFunction()), r -> r.chunk.docId, Types.STRING)) {
            h.open();
            h.processElement(chunk("d", 0, 3, 0, 4, new float[] {1, 0}), 0);
            h.processElement(chunk("e", 0, 2, 0, 4, new float[] {1, 0}), 0);
            h.processElement(chunk("d", 2, 3, 6, 9, new float[] {0, 1}), 0);
            assertThat(h.extractOutputValues()).isEmpty();
            h.processElement(chunk("d", 1, 3, 3, 7, new float[] {1, 0}), 0);
            List<InferenceResult> out = h.extractOutputValues();
            assertThat(out).hasSize(1);
            InferenceResult doc = out.get(0);
            assertThat(doc.id).isEqualTo("d");
            assertThat(doc.chunk.chunkIndex).isEqualTo(-1);
            assertThat(doc.chunk.chunkCount).isEqualTo(3);
            assertThat(doc.chunk.tokenEnd).isEqualTo(9);
            double norm = Math.hypot(doc.vector[0], doc.vector[1]);
            assertThat(norm).isCloseTo(1.0, within(1e-6));
            assertThat(doc.vector[0] / doc.vector[1]).isCloseTo(2f, within(1e-5f));
        }
    }

    static InferenceResult chunk(String doc, int index, int count, int start, int end, float[] v) {
        InferenceResult r = new InferenceResult();
        r.id = ChunkRef.chunkId(doc, index);
        r.vector = v;
        r.model = "m";
        r.modelVersion = "1";
        r.chunk = ChunkRef.document(doc, "sha", "s")
                .window(new TokenWindows.Window(index, start, end), count);
        return r;
    }
}
