package io.github.flinkinfer.runtime.files;

/** A model or tokenizer file is missing, escapes its model directory, or fails its checksum. */
public class ModelIntegrityException extends RuntimeException {
    public ModelIntegrityException(String message) {
        super(message);
    }

    public ModelIntegrityException(String message, Throwable cause) {
        super(message, cause);
    }
}
