package io.github.flinkinfer.jobs.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class WorkloadCardTest {
    static final Instant NOW = Instant.parse("2026-11-30T12:00:00Z");
    static final String GOOD = """
            name: wordnet-nightly
            task: embed
            corpus:
              inputs: datasets/sample/wordnet-sample.jsonl
              text-field: text
            variants: [all-minilm-l6-v2-q, all-minilm-l6-v2]
            deadline: 20m
            budget: 0.05
            quality:
              min-cosine: 0.97
            latency:
              max-item-ms: 30000
            prices:
              cpu-core-hour: 0.0475
            """;

    static WorkloadCard valid(String text) {
        return WorkloadCard.parse(text, "card.yaml", NOW);
    }

    /** {@link #GOOD} with {@code from} replaced by {@code to} fails, its message containing {@code message}. */
    static void assertRejected(String from, String to, String message) {
        assertThatThrownBy(() -> valid(GOOD.replace(from, to))).hasMessageContaining(message);
    }

    @Test
    void readsAGoodYamlCard() {
        WorkloadCard card = valid(GOOD);
        assertThat(card.task()).isEqualTo(WorkloadCard.Task.EMBED);
        assertThat(card.corpus().inputs()).containsExactly("datasets/sample/wordnet-sample.jsonl");
        assertThat(card.variants()).containsExactly("all-minilm-l6-v2-q", "all-minilm-l6-v2");
        assertThat(card.deadline().duration()).isEqualTo(Duration.ofMinutes(20));
        assertThat(card.budget()).isEqualTo(0.05);
        assertThat(card.quality().minCosine()).isEqualTo(0.97);
        assertThat(card.quality().sampleOrDefault()).isEqualTo(WorkloadCard.DEFAULT_QUALITY_SAMPLE);
        assertThat(card.latency().maxItemMs()).isEqualTo(30000L);
        assertThat(card.pricesOrEmpty().currencyOrDefault()).isEqualTo("USD");
    }

    @Test
    void readsTheSameCardAsJson() {
        WorkloadCard card = WorkloadCard.parse("""
                {"task": "moderate", "corpus": {"inputs": ["a.jsonl"]}, "variants": ["spam-minilm"],
                 "deadline": "2026-12-01T06:00:00Z", "quality": {"label-agreement": 0.98}}
                """, "card.json", NOW);
        assertThat(card.task()).isEqualTo(WorkloadCard.Task.MODERATE);
        assertThat(card.deadline().at()).isEqualTo(Instant.parse("2026-12-01T06:00:00Z"));
        assertThat(card.deadline().available(NOW)).isEqualTo(Duration.ofHours(18));
    }

    @Test
    void unknownFieldIsNamedWithTheKnownOnes() {
        assertThatThrownBy(() -> valid(GOOD.replace("min-cosine", "min-cosin")))
                .isInstanceOf(WorkloadCardException.class)
                .hasMessageContaining("unknown field 'min-cosin' at 'quality'")
                .hasMessageContaining("known: label-agreement, mean-cosine, min-cosine, sample");
        assertThatThrownBy(() -> valid(GOOD + "deadlines: 5m\n"))
                .hasMessageContaining("unknown field 'deadlines'");
    }

    @Test
    void everyBadValueIsListedAtOnce() {
        assertThatThrownBy(() -> valid(GOOD.replace("budget: 0.05", "budget: -1")
                        .replace("deadline: 20m", "deadline: 2026-11-29T06:00:00Z")
                        .replace("min-cosine: 0.97", "min-cosine: 1.5\n  mean-cosine: -0.1")))
                .isInstanceOfSatisfying(WorkloadCardException.class, e -> assertThat(e.problems()).containsExactly(
                        "'budget' is negative (-1.0)",
                        "'deadline' 2026-11-29T06:00:00Z is in the past (now 2026-11-30T12:00:00Z)",
                        "'quality.min-cosine' 1.5 is outside [0, 1]",
                        "'quality.mean-cosine' -0.1 is outside [0, 1]"));
    }

    @Test
    void unknownKeysAndBadValuesAreListedTogether() {
        assertThatThrownBy(() -> valid(GOOD.replace("budget: 0.05", "budget: -1")
                        .replace("min-cosine: 0.97", "min-cosine: 1.5\n  sampel: 10")
                        .replace("latency:", "deadlines: {at: 5m}\nlatency:")))
                .isInstanceOfSatisfying(WorkloadCardException.class, e -> assertThat(e.problems()).containsExactly(
                        "unknown field 'sampel' at 'quality'; known: label-agreement, mean-cosine, min-cosine, sample",
                        "unknown field 'deadlines'; known: budget, corpus, deadline, latency, max-length, name,"
                                + " parallelism, prices, quality, reference, task, variants",
                        "'budget' is negative (-1.0)",
                        "'quality.min-cosine' 1.5 is outside [0, 1]"));
    }

    @Test
    void floorsMustSuitTheTask() {
        assertRejected("min-cosine", "label-agreement",
                "'quality.label-agreement' is a classifier's floor");
        assertRejected("task: embed", "task: moderate",
                "moderate is judged by label-agreement");
    }

    @Test
    void badTypesAndMissingPartsAreClear() {
        assertRejected("task: embed", "task: embedd",
                "task 'embedd' is not one of embed, moderate");
        assertRejected("deadline: 20m", "deadline: tomorrow",
                "deadline 'tomorrow' is neither a duration");
        assertRejected("budget: 0.05", "budget: lots",
                "'lots' at 'budget' is not a valid double");
        assertThatThrownBy(() -> valid("task: embed\n"))
                .hasMessageContaining("'corpus.inputs' is missing")
                .hasMessageContaining("'variants' is missing");
        assertRejected("  cpu-core-hour: 0.0475", "  currency: EUR",
                "'budget' needs a price");
        assertThatThrownBy(() -> valid("task: [embed]\n")).hasMessageContaining("wrong type at 'task': expected a text value");
        assertThatThrownBy(() -> valid("corpus: {inputs: [a]\n")).hasMessageContaining("not valid YAML");
    }

    @Test
    void deadlineForms() {
        assertThat(Deadline.parse("1h30m").duration()).isEqualTo(Duration.ofMinutes(90));
        assertThat(Deadline.parse("90s").duration()).isEqualTo(Duration.ofSeconds(90));
        assertThat(Deadline.parse("PT2H").duration()).isEqualTo(Duration.ofHours(2));
        assertThat(Deadline.parse("2026-12-01T06:00+01:00").at()).isEqualTo(Instant.parse("2026-12-01T05:00:00Z"));
        assertThat(Deadline.parse("20m").due(NOW)).isEqualTo(NOW.plusSeconds(1200));
    }

    @Test
    void planFileSitsBesideTheCard() {
        assertThat(WorkloadPlan.locationFor("cards/gcide.yaml")).isEqualTo("cards/gcide.plan.json");
        assertThat(WorkloadPlan.locationFor("s3://b/x.y/card")).isEqualTo("s3://b/x.y/card.plan.json");
    }
}
