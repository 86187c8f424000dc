package io.github.flinkinfer.jobs.scoring;

import io.github.flinkinfer.jobs.dataflow.InferencePipeline;
import io.github.flinkinfer.jobs.dataflow.TaskKind;
import io.github.flinkinfer.jobs.io.FileOutputs;
import io.github.flinkinfer.jobs.io.JsonLinesEncoder;
import io.github.flinkinfer.jobs.ledger.Accounting;
import io.github.flinkinfer.jobs.spec.InferenceConfig;
import io.github.flinkinfer.jobs.spec.OutputConfig;
import io.github.flinkinfer.jobs.spec.OutputFormat;
import io.github.flinkinfer.jobs.spec.RunSpec;
import io.github.flinkinfer.operators.InferenceResult;
import io.github.flinkinfer.runtime.Vectors;
import io.github.flinkinfer.runtime.card.ModelCard;
import io.github.flinkinfer.runtime.card.ModelTask;
import io.github.flinkinfer.runtime.onnx.OnnxModel;
import io.github.flinkinfer.runtime.onnx.RuntimeOptions;
import io.github.flinkinfer.runtime.tokenize.TextTokenizer;
import java.util.List;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.functions.RichMapFunction;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.streaming.api.datastream.DataStream;

/**
 * A third task kind, test-only, added as one class plus one line in {@code
 * src/test/resources/META-INF/services/io.github.flinkinfer.jobs.dataflow.TaskKind}: how close each
 * document is to a fixed topic (zero-shot relevance). It runs an embedding model with the shared
 * pre-process and batching; its post-process scores each vector by its cosine to the topic's
 * vector, and it writes its own schema ({@code id}, {@code score}, {@code tokenCount}) as JSONL to
 * {@code scores/}.
 *
 * <pre>{@code
 * InferenceRun.execute(TaskKinds.named("topic-score"), options, env, null);
 * }</pre>
 */
public final class TopicScoreKind implements TaskKind<TopicScoreKind.Score> {
    /** The topic every document is scored against. */
    public static final String TOPIC = "an animal, a plant or another living thing";
    public static final String SCORES_DIR = "scores";

    /** The kind's result row: a Flink POJO, written as one JSON line. */
    public static class Score {
        public String id;
        public float score;
        public int tokenCount;

        public Score() {}
    }

    @Override
    public String name() {
        return "topic-score";
    }

    @Override
    public ModelTask modelTask() {
        return ModelTask.EMBEDDING;
    }

    @Override
    public void validate(RunSpec spec) {
        if (!spec.output().formats().equals(List.of(OutputFormat.JSONL))) {
            throw new IllegalArgumentException("topic-score writes --output-format jsonl only");
        }
    }

    @Override
    public DataStream<Score> postProcess(InferencePipeline.Inferred inferred, InferenceConfig config, ModelCard card) {
        return inferred.results()
                .map(new ToScore(card))
                .returns(TypeInformation.of(Score.class))
                .name("topic-score")
                .uid("topic-score");
    }

    @Override
    public void write(DataStream<Score> scores, OutputConfig out, Accounting ledger) {
        ledger.tally(scores, "written", (l, s) -> l.addWritten());
        FileOutputs.write(scores, out, SCORES_DIR, OutputFormat.JSONL, new JsonLinesEncoder<>());
    }

    /** The topic's vector for {@code card}, as the job's model computes it. */
    public static float[] topicVector(ModelCard card) {
        try (TextTokenizer tokenizer = TextTokenizer.load(card, RuntimeOptions.defaults());
                OnnxModel model = OnnxModel.load(card, RuntimeOptions.defaults())) {
            return model.infer(List.of(tokenizer.encode(TOPIC).ids())).vectors()[0];
        }
    }

    /** Vector → score: its cosine to the topic's vector, embedded once per subtask. */
    static final class ToScore extends RichMapFunction<InferenceResult, Score> {
        private static final long serialVersionUID = 1L;
        private final ModelCard card;
        private transient float[] topic;

        ToScore(ModelCard card) {
            this.card = card;
        }

        @Override
        public void open(OpenContext context) {
            topic = topicVector(card);
        }

        @Override
        public Score map(InferenceResult r) {
            Score s = new Score();
            s.id = r.id;
            s.score = (float) Vectors.cosine(r.vector, topic);
            s.tokenCount = r.tokenCount;
            return s;
        }
    }
}
