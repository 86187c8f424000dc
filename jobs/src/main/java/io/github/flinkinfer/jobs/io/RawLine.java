package io.github.flinkinfer.jobs.io;

/**
 * One record of a corpus file (a line; in CSV as many lines as its quoted fields span) as raw
 * bytes, with its position, before decoding. Decoding and
 * parsing happen later so bad bytes become error records instead of reader failures.
 */
public class RawLine {
    /** The whole path of the file the line came from (as the source's split names it). */
    public String file;
    /** Byte offset in the file of the record's first byte. */
    public long offset;
    /** A CSV file's first record, its column names: passed on by every split of the file. */
    public boolean header;
    /** The record's bytes without its final line ending; null when {@link #oversized}. */
    public byte[] bytes;
    /** Length of the record in bytes (also when oversized and not kept). */
    public long byteLength;
    public boolean oversized;

    public RawLine() {}

    /** A record positioned by its start's byte offset, {@code <path>@<offset>}. */
    public static RawLine atOffset(String file, long offset, byte[] bytes, long byteLength, boolean oversized) {
        RawLine r = new RawLine();
        r.file = file;
        r.offset = offset;
        r.bytes = bytes;
        r.byteLength = byteLength;
        r.oversized = oversized;
        return r;
    }

    /** {@code <path>@<offset>} (docs/errors.md). */
    public String position() {
        return file + "@" + offset;
    }
}
