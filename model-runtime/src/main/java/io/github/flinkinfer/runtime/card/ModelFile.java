package io.github.flinkinfer.runtime.card;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.io.Serializable;
import java.util.Objects;

/**
 * A file a model needs, with the sha256 it must have. {@code path} is either relative to the
 * model card's directory or {@code classpath:<resource>} for built-in models.
 */
public final class ModelFile implements Serializable {
    private static final long serialVersionUID = 1L;

    private final String path;
    private final String sha256;

    @JsonCreator
    public ModelFile(@JsonProperty("path") String path, @JsonProperty("sha256") String sha256) {
        this.path = Objects.requireNonNull(path, "model file 'path' is required");
        if (sha256 == null || !sha256.matches("[0-9a-fA-F]{64}")) {
            throw new IllegalArgumentException(
                    "model file '" + path + "' needs a 64-hex-digit 'sha256', got: " + sha256);
        }
        this.sha256 = sha256.toLowerCase(java.util.Locale.ROOT);
    }

    @JsonProperty
    public String path() {
        return path;
    }

    @JsonProperty
    public String sha256() {
        return sha256;
    }

    @Override
    public String toString() {
        return path;
    }
}
