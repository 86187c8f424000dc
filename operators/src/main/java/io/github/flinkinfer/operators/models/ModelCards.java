package io.github.flinkinfer.operators.models;

import io.github.flinkinfer.runtime.card.ModelCard;
import java.net.URI;
import java.util.Locale;

/**
 * Resolves a {@code --model} value once, on the client: a built-in name or a local card path as
 * {@link ModelCard#resolve} does, or a card URI with a scheme ({@code s3://models/mine/card.json})
 * whose files each TaskManager then copies once through {@link FlinkModelStore}.
 *
 * <pre>{@code
 * ModelCard card = ModelCards.resolve("s3://models/mine/card.json");
 * }</pre>
 */
public final class ModelCards {
    private ModelCards() {}

    /** The card {@code nameOrLocation} names. */
    public static ModelCard resolve(String nameOrLocation) {
        if (hasScheme(nameOrLocation)) {
            return ModelCard.load(nameOrLocation, new FlinkModelStore());
        }
        return ModelCard.resolve(nameOrLocation);
    }

    /** A URI with a scheme of two or more letters (so {@code C:\\cards} stays a local path). */
    static boolean hasScheme(String value) {
        int colon = value.indexOf("://");
        if (colon < 2) {
            return false;
        }
        try {
            String scheme = URI.create(value).getScheme();
            return scheme != null && scheme.toLowerCase(Locale.ROOT).matches("[a-z][a-z0-9+.-]+");
        } catch (IllegalArgumentException e) {
            return false;
        }
    }
}
