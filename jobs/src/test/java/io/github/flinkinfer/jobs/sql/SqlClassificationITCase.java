package io.github.flinkinfer.jobs.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.github.flinkinfer.jobs.testutils.ClusterTestBase;
import io.github.flinkinfer.jobs.testutils.Corpus;
import io.github.flinkinfer.runtime.card.Classification;
import io.github.flinkinfer.runtime.card.ModelCard;
import io.github.flinkinfer.runtime.onnx.ClassifierModel;
import io.github.flinkinfer.runtime.onnx.RuntimeOptions;
import io.github.flinkinfer.runtime.tokenize.TextTokenizer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;
import org.junit.jupiter.api.Test;

/**
 * A classification model through SQL: the built-in {@code spam-assassin-minilm} under ML_PREDICT
 * returns label, score and flagged for every row, agreeing with {@link ClassifierModel} called
 * directly on the same texts. The texts are written here (no corpus download).
 */
class SqlClassificationITCase extends ClusterTestBase {
    private static final String MODEL = "spam-assassin-minilm";

    private static final Map<String, String> HAM = Map.of(
            "ham-1", "Subject: Re: patch for the build script\nThanks, I applied your patch to the"
                    + " CVS tree; the nightly build passes again.",
            "ham-2", "Subject: Meeting notes\nHi all, attached are the notes from Tuesday's design"
                    + " review. Let me know if I missed anything before we send them to the list.",
            "ham-3", "Subject: Re: kernel 2.4 compile error\nYou need to run make dep before make"
                    + " bzImage; the error about missing headers goes away after that.",
            "ham-4", "Subject: lunch on friday?\nAre you around on Friday? We could grab lunch and"
                    + " talk about the mailing list migration.");

    private static final Map<String, String> SPAM = Map.of(
            "spam-1", "Subject: FREE MONEY!!! Act now\nYou have been selected to receive $1,000,000"
                    + " cash. Click here to claim your prize, limited time offer, remove me from"
                    + " this list",
            "spam-2", "Subject: Lose 30 pounds in 30 days GUARANTEED\nOrder our amazing diet pills"
                    + " now at a special discount! 100% satisfaction or your money back. Click here"
                    + " to order. To be removed from our mailing list reply REMOVE.",
            "spam-3", "Subject: Make $5000 a week from home!!!\nEarn BIG money working from home."
                    + " No experience needed! This is NOT a scam. Send $20 for your starter kit"
                    + " today. Act now, this offer expires soon!",
            "spam-4", "Subject: Cheap mortgage rates - approved instantly\nDear homeowner, you have"
                    + " been pre-approved for a low rate refinance. Bad credit OK! Click here now to"
                    + " get your free quote. Unsubscribe: reply with remove.");

    @Test
    void mlPredictReturnsTheClassifiersLabelsAndScores() throws Exception {
        Map<String, String> texts = new LinkedHashMap<>(HAM);
        texts.putAll(SPAM);
        Path input = Corpus.writeJsonl(tmp.resolve("mail.jsonl"), texts);

        long start = System.nanoTime();
        TableEnvironment tEnv = SqlRunner.environment(2, Map.of());
        SqlRunner.execute(tEnv, String.join("\n",
                "CREATE TABLE mail (id STRING, text STRING) WITH ('connector' = 'filesystem',",
                "  'path' = '" + input.toAbsolutePath() + "', 'format' = 'json');",
                "CREATE MODEL spam INPUT (text STRING)",
                "  OUTPUT (label STRING, score FLOAT, flagged BOOLEAN, scores ARRAY<FLOAT>, error STRING)",
                "  WITH ('provider' = 'onnx', 'model' = '" + MODEL + "');"), System.out);
        Map<String, Row> rows = new HashMap<>();
        try (CloseableIterator<Row> it = tEnv.executeSql("SELECT id, label, score, flagged, scores,"
                + " error FROM ML_PREDICT(TABLE mail, MODEL spam, DESCRIPTOR(text))").collect()) {
            it.forEachRemaining(r -> assertThat(rows.put((String) r.getField("id"), r))
                    .as("duplicate id").isNull());
        }
        long sqlMillis = (System.nanoTime() - start) / 1_000_000;
        assertThat(rows).hasSize(texts.size());

        Map<String, float[]> direct = direct(texts);
        Classification classes = ModelCard.resolve(MODEL).classification;
        for (Map.Entry<String, String> e : texts.entrySet()) {
            String id = e.getKey();
            Row row = rows.get(id);
            assertThat(row.getField("error")).as(id).isNull();
            String label = (String) row.getField("label");
            float score = (Float) row.getField("score");
            boolean flagged = (Boolean) row.getField("flagged");
            assertThat(label).as(id).isIn(classes.labels);
            assertThat(score).as(id).isBetween(0f, 1f);
            Float[] scores = (Float[]) row.getField("scores");
            assertThat(scores).as(id).hasSize(classes.labels.size());
            assertThat(scores[classes.labels.indexOf(label)]).as(id).isEqualTo(score);

            boolean spam = SPAM.containsKey(id);
            assertThat(label).as(id).isEqualTo(spam ? "spam" : "ham");
            assertThat(flagged).as(id).isEqualTo(spam);

            Classification.Decision expected = classes.decide(direct.get(id));
            assertThat(label).as(id + " vs ClassifierModel").isEqualTo(expected.label());
            assertThat(flagged).as(id + " vs ClassifierModel").isEqualTo(expected.flagged());
            assertThat(score).as(id + " vs ClassifierModel").isCloseTo(expected.score(),
                    within(1e-4f));
            for (int i = 0; i < scores.length; i++) {
                assertThat(scores[i]).as(id + " scores[" + i + "]")
                        .isCloseTo(direct.get(id)[i], within(1e-4f));
            }
        }
        System.out.printf("SqlClassificationITCase: %d rows through ML_PREDICT in %d ms%n",
                rows.size(), sqlMillis);
    }

    /** The same texts through the model runtime, no Flink: one batch, card defaults. */
    private static Map<String, float[]> direct(Map<String, String> texts) {
        ModelCard card = ModelCard.resolve(MODEL);
        RuntimeOptions options = RuntimeOptions.defaults();
        List<String> ids = new ArrayList<>(texts.keySet());
        Map<String, float[]> out = new HashMap<>();
        try (TextTokenizer tokenizer = TextTokenizer.load(card, options);
                ClassifierModel model = ClassifierModel.load(card, options)) {
            List<int[]> batch = new ArrayList<>();
            for (String id : ids) {
                batch.add(tokenizer.encode(texts.get(id)).ids());
            }
            float[][] scores = model.infer(batch).vectors();
            for (int i = 0; i < ids.size(); i++) {
                out.put(ids.get(i), scores[i]);
            }
        }
        return out;
    }
}
