package io.github.flinkinfer.jobs.spec;

/** What happens to a second record with an id already seen in this run ({@code --duplicates}). */
public enum DuplicatePolicy {
    /**
     * Keep the first; later copies go to errors with reason duplicate_id. In BATCH mode decided
     * after inference where the run allows it (docs/errors.md): the first batch does not wait
     * for the corpus, and a duplicate is inferred, then dropped.
     */
    KEEP_FIRST,
    /**
     * The same rows, decided before tokenization: no duplicate reaches the model, but in BATCH
     * mode inference starts only once the whole corpus has been read and sorted by id. For a
     * corpus with many duplicate ids.
     */
    KEEP_FIRST_BEFORE_INFERENCE,
    /** No check (saves a keyed shuffle when ids are known to be unique). */
    ALLOW;

    /** Whether later copies of an id are dropped (as duplicate_id errors). */
    public boolean keepsFirst() {
        return this != ALLOW;
    }
}
