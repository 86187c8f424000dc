package io.github.flinkinfer.jobs.io;

/**
 * One record of a corpus file (a line; in CSV as many lines as its quoted fields span) as raw
 * bytes, with its position, before decoding. Decoding and
 * parsing happen later so bad bytes become error records instead of reader failures.
 */
public class RawLine {
    /** The whole path of the file the line came from (as the source's split names it). */
    public String file;
    /** 1-based number of the record's first line (CSV); 0 when positioned by {@link #offset}. */
    public long line;
    /** Byte offset in the file of the record's first byte (lines: JSONL, text). */
    public long offset;
    /** The record's bytes without its final line ending; null when {@link #oversized}. */
    public byte[] bytes;
    /** Length of the record in bytes (also when oversized and not kept). */
    public long byteLength;
    public boolean oversized;

    public RawLine() {}

    /** A record positioned by its first line's number, {@code <path>:<line>} (CSV: not split). */
    public static RawLine atLine(String file, long line, byte[] bytes, long byteLength, boolean oversized) {
        RawLine r = of(file, bytes, byteLength, oversized);
        r.line = line;
        return r;
    }

    /** A record positioned by its start's byte offset, {@code <path>@<offset>} (split lines). */
    public static RawLine atOffset(String file, long offset, byte[] bytes, long byteLength, boolean oversized) {
        RawLine r = of(file, bytes, byteLength, oversized);
        r.offset = offset;
        return r;
    }

    private static RawLine of(String file, byte[] bytes, long byteLength, boolean oversized) {
        RawLine r = new RawLine();
        r.file = file;
        r.bytes = bytes;
        r.byteLength = byteLength;
        r.oversized = oversized;
        return r;
    }

    /** {@code <path>:<line>} or {@code <path>@<offset>} (docs/errors.md). */
    public String position() {
        return line > 0 ? file + ":" + line : file + "@" + offset;
    }
}
