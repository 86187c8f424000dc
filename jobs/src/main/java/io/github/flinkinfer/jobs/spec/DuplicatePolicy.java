package io.github.flinkinfer.jobs.spec;

/** What happens to a second record with an id already seen in this run ({@code --duplicates}). */
public enum DuplicatePolicy {
    /** Keep the first; later copies go to errors with reason duplicate_id. */
    KEEP_FIRST,
    /** No check (saves a keyed shuffle when ids are known to be unique). */
    ALLOW
}
