package io.github.flinkinfer.operators.errors;

import java.util.Locale;

/**
 * Why an input failed, with the stage it failed in: the closed set of codes written to the
 * errors output ({@code reason}, lower case), counted in metrics and reports and documented in
 * docs/errors.md. Building an {@link ErrorRecord} from a reason keeps stage and code consistent.
 */
public enum ErrorReason {
    RECORD_TOO_LARGE(ErrorRecord.PARSE),
    INVALID_UTF8(ErrorRecord.PARSE),
    MALFORMED_JSON(ErrorRecord.PARSE),
    MALFORMED_CSV(ErrorRecord.PARSE),
    NOT_AN_OBJECT(ErrorRecord.PARSE),
    MISSING_ID(ErrorRecord.PARSE),
    INVALID_ID(ErrorRecord.PARSE),
    MISSING_TEXT(ErrorRecord.PARSE),
    NON_STRING_TEXT(ErrorRecord.PARSE),
    EMPTY_TEXT(ErrorRecord.PARSE),
    NUL_CHARACTER(ErrorRecord.PARSE),
    /** SQL: a field of the declared row type could not be converted. */
    INVALID_FIELD(ErrorRecord.PARSE),
    DUPLICATE_ID(ErrorRecord.PARSE),
    TOKENIZER_FAILED(ErrorRecord.TOKENIZE),
    TOO_LONG(ErrorRecord.TOKENIZE),
    OUT_OF_MEMORY(ErrorRecord.INFER),
    INFERENCE_FAILED(ErrorRecord.INFER),
    /** A chunked document: one of its token windows failed (its errors are folded into this row). */
    WINDOW_FAILED(ErrorRecord.INFER),
    /** The model's output for the item (run alone) holds NaN or an infinity. */
    NON_FINITE_OUTPUT(ErrorRecord.POSTPROCESS);

    private final String stage;
    private final String code;

    ErrorReason(String stage) {
        this.stage = stage;
        this.code = name().toLowerCase(Locale.ROOT);
    }

    public String stage() {
        return stage;
    }

    /** The code in the errors output, e.g. {@code malformed_json}. */
    public String code() {
        return code;
    }

    /** {@code stage/code}, as in reports and SQL error columns. */
    public String qualified() {
        return stage + "/" + code;
    }

    /** An error record of this reason; {@code message} never holds input text. */
    public ErrorRecord record(String id, String source, String message, int attempt) {
        return ErrorRecord.of(id, source, this, message, attempt);
    }

    @Override
    public String toString() {
        return code;
    }
}
