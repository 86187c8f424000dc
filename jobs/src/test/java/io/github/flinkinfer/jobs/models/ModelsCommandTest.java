package io.github.flinkinfer.jobs.models;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.flinkinfer.runtime.card.ModelCard;
import java.util.List;
import org.junit.jupiter.api.Test;

class ModelsCommandTest {

    @Test
    void listsEveryBuiltInCardWithItsShapeSizeAndLicence() {
        String table = ModelsCommand.table(ModelCard.BUILT_IN.stream().map(ModelCard::builtIn).toList());
        List<String> lines = table.lines().toList();

        assertThat(lines).hasSize(ModelCard.BUILT_IN.size() + 1);
        assertThat(lines.get(0).split("\\s{2,}"))
                .containsExactly("MODEL", "TASK", "DIMS", "MAX LEN", "POOLING", "PREFIXES", "SIZE", "LICENSE");
        assertThat(row(lines, "bge-small-en-v1.5"))
                .containsExactly("bge-small-en-v1.5", "embedding", "384", "512", "cls", "query", "133.1 MB", "MIT");
        assertThat(row(lines, "e5-small-v2-q"))
                .containsExactly("e5-small-v2-q", "embedding", "384", "512", "mean", "query+passage", "34.0 MB", "MIT");
        assertThat(row(lines, "all-minilm-l6-v2"))
                .containsExactly("all-minilm-l6-v2", "embedding", "384", "256", "mean", "-", "90.4 MB", "Apache-2.0");
        assertThat(row(lines, "spam-assassin-minilm")[1]).isEqualTo("classification");
        assertThat(row(lines, "spam-assassin-minilm")[2]).isEqualTo("2 labels");
    }

    static String[] row(List<String> lines, String model) {
        return lines.stream().filter(l -> l.startsWith(model + " ")).findFirst().orElseThrow().split("\\s{2,}");
    }
}
