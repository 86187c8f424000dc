package io.github.flinkinfer.jobs.spec;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.flinkinfer.jobs.testutils.Jobs;
import io.github.flinkinfer.jobs.testutils.NoPublicMutableFields;
import io.github.flinkinfer.operators.batch.BatchingConfig;
import io.github.flinkinfer.runtime.card.Classification;
import io.github.flinkinfer.runtime.card.ModelCard;
import io.github.flinkinfer.runtime.card.ModelFile;
import io.github.flinkinfer.runtime.onnx.RuntimeOptions;
import java.util.List;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.junit.jupiter.api.Test;

/** A run is described once: nothing reachable from its spec, the model card included, can be changed. */
class RunSpecImmutabilityTest {

    @Test
    void noTypeReachableFromTheSpecHasAPublicMutableField() {
        assertThat(NoPublicMutableFields.reachable(RunSpec.class)).contains(ModelCard.class,
                ModelCard.Inputs.class, ModelCard.Prefixes.class, ModelCard.Shape.class, Classification.class,
                ModelFile.class, RuntimeOptions.class, InputConfig.class, OutputConfig.class, KafkaSettings.class,
                InferenceConfig.class, BatchingConfig.class, RunSpec.Execution.class);
        assertThat(NoPublicMutableFields.inTypes(RunSpec.class)).isEmpty();
    }

    @Test
    void aBuiltSpecHoldsOnlyUnmodifiableCollectionsAndCopiesItsArrays() throws Exception {
        RunSpec spec = Jobs.options("--input", "a.jsonl", "--input", "b.jsonl", "--output", "out",
                        "--model", "spam-assassin-minilm", "--kafka-property", "acks=all")
                .spec("moderate", StreamExecutionEnvironment.getExecutionEnvironment());
        assertThat(spec.card().base).as("the classifier's linked embedding card is walked too").isNotNull();
        assertThat(spec.settings().get("--input")).isEqualTo(List.of("a.jsonl", "b.jsonl"));
        assertThat(NoPublicMutableFields.inValue(spec)).isEmpty();
    }

    @Test
    void theCheckFindsWhatItLooksFor() {
        assertThat(NoPublicMutableFields.inTypes(Mutable.class)).containsExactly(
                Mutable.class.getName() + ".count: public and not final",
                Mutable.class.getName() + ".edges: a public array");
        assertThat(NoPublicMutableFields.inValue(new Leaky(new int[] {1}, new java.util.ArrayList<>(List.of("a")))))
                .containsExactly("Leaky.edges: the record's own array, not a copy",
                        "Leaky.names: a modifiable java.util.ArrayList");
    }

    /** A bag the check must refuse. */
    static final class Mutable {
        public int count;
        public final int[] edges = {};
        public final String name = "fixed";
    }

    /** A record handing out its array and its list. */
    record Leaky(int[] edges, List<String> names) {}
}
