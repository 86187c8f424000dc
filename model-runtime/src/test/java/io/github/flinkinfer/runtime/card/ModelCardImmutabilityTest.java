package io.github.flinkinfer.runtime.card;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A card never changes once built: a run's input kind, a test's edit and Flink's copy are new cards. */
class ModelCardImmutabilityTest {

    @Test
    void everyPublicFieldOfTheCardAndItsSectionsIsFinal() {
        for (Class<?> type : List.of(ModelCard.class, ModelCard.Inputs.class, ModelCard.Prefixes.class,
                ModelCard.Shape.class, Classification.class, ModelFile.class)) {
            for (Field f : type.getFields()) {
                assertThat(Modifier.isFinal(f.getModifiers())).as(type.getSimpleName() + "." + f.getName()).isTrue();
            }
        }
    }

    @Test
    void forInputsReturnsAnotherCardAndLeavesThisOne() {
        ModelCard passage = ModelCard.builtIn("e5-small-v2");
        ModelCard query = passage.forInputs(InputKind.QUERY);
        assertThat(query).isNotSameAs(passage);
        assertThat(query.inputPrefix()).isEqualTo("query: ");
        assertThat(passage.inputKind).isEqualTo(InputKind.PASSAGE);
        assertThat(passage.inputPrefix()).isEqualTo("passage: ");
        assertThat(passage.forInputs(InputKind.PASSAGE)).isSameAs(passage);
        assertThat(query.toJson()).as("the input kind is not part of the card file").isEqualTo(passage.toJson());
    }

    @Test
    void aLinkedClassifierHoldsItsBaseAndOnlyUnmodifiableSections() {
        ModelCard spam = ModelCard.builtIn("spam-assassin-minilm");
        assertThat(spam.base).isNotNull();
        assertThat(spam.tokenizer.sha256()).isEqualTo(spam.base.tokenizer.sha256());
        assertThatThrownBy(() -> spam.classification.labels.add("x")).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> spam.classification.thresholds.put("x", 0.5f))
                .isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> spam.externalData.add(spam.onnx)).isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void toBuilderCopiesEveryValueAndChangesOnlyWhatItIsTold() {
        ModelCard card = ModelCard.builtIn("spam-assassin-minilm").forInputs(InputKind.QUERY);
        ModelCard copy = card.toBuilder().build();
        ModelCard renamed = card.toBuilder().name("renamed").build();
        assertThat(copy.toJson()).isEqualTo(card.toJson());
        assertThat(copy).usingRecursiveComparison().isEqualTo(card);
        assertThat(renamed.name).isEqualTo("renamed");
        assertThat(card.name).isEqualTo("spam-assassin-minilm");
    }

    @Test
    void aCardSurvivesJavaSerializationAsFlinkShipsIt() throws Exception {
        ModelCard card = ModelCard.builtIn("spam-assassin-minilm").forInputs(InputKind.QUERY);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(card);
        }
        ModelCard copy;
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
            copy = (ModelCard) in.readObject();
        }
        assertThat(copy).usingRecursiveComparison().isEqualTo(card);
        assertThat(copy.inputKind).isEqualTo(InputKind.QUERY);
        assertThat(copy.toJson()).isEqualTo(card.toJson());
    }
}
