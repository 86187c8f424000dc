package io.github.flinkinfer.runtime.card;

import java.util.List;

/**
 * A model card that cannot be used, with every problem found in it, so a user fixes a card in
 * one pass instead of one error per run.
 */
public final class ModelCardException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    private final List<String> problems;

    public ModelCardException(String source, List<String> problems) {
        super("Model card " + source + " has " + problems.size()
                + (problems.size() == 1 ? " problem" : " problems")
                + " (schema: docs/model-card.schema.json):\n  - " + String.join("\n  - ", problems));
        this.problems = List.copyOf(problems);
    }

    /** One line per problem, each starting with the field it is about. */
    public List<String> problems() {
        return problems;
    }
}
