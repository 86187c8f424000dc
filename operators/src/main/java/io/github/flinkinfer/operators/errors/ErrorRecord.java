package io.github.flinkinfer.operators.errors;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * One input that did not produce an output, and why. Never carries the input text: only its
 * length and sha256, so errors can be joined back to the corpus without leaking it.
 */
public class ErrorRecord {
    /** Pipeline stages an input can fail in. */
    public static final String PARSE = "parse";
    public static final String TOKENIZE = "tokenize";
    public static final String INFER = "infer";
    public static final String POSTPROCESS = "postprocess";
    public static final String WRITE = "write";

    /** Null when the id could not be read. */
    public String id;
    public String source;
    public String stage;
    /** The {@link ErrorReason#code()}, such as {@code malformed_json} or {@code too_long}. */
    public String reason;
    public String message;
    public int attempt;
    /** Length of the input in characters (or bytes when it could not be decoded); -1 unknown. */
    public long inputLength = -1;
    public String inputSha256;
    public ErrorRecord() {}

    public static ErrorRecord of(
            String id, String source, ErrorReason reason, String message, int attempt) {
        ErrorRecord e = new ErrorRecord();
        e.id = id;
        e.source = source;
        e.stage = reason.stage();
        e.reason = reason.code();
        e.message = message;
        e.attempt = attempt;
        return e;
    }

    /** Adds the input's length and hash (not the input). */
    public ErrorRecord withInput(String text) {
        if (text != null) {
            withInput(text.getBytes(StandardCharsets.UTF_8));
            inputLength = text.length();
        }
        return this;
    }

    public ErrorRecord withInput(byte[] raw) {
        inputLength = raw.length;
        inputSha256 = HexFormat.of().formatHex(sha256(raw));
        return this;
    }

    /**
     * Adds the length and hash the tokenizer took of the input (its text is gone by then), for
     * rows of the stages after it; a {@code null} ref (no text was tokenized) leaves them unknown.
     */
    public ErrorRecord withInput(io.github.flinkinfer.operators.chunk.ChunkRef content) {
        if (content != null) {
            inputLength = content.contentLength;
            inputSha256 = content.contentSha256;
        }
        return this;
    }

    /** The sha256 of {@code raw}: the digest {@link #inputSha256} is the hex of. */
    public static byte[] sha256(byte[] raw) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(raw);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public String toString() {
        return "ErrorRecord{id=" + id + ", source=" + source + ", stage=" + stage + ", reason="
                + reason + "}";
    }
}
