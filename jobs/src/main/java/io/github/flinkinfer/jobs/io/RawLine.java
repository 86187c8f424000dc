package io.github.flinkinfer.jobs.io;

/**
 * One record of a corpus file (a line; in CSV as many lines as its quoted fields span) as raw
 * bytes, with its position, before decoding. Decoding and
 * parsing happen later so bad bytes become error records instead of reader failures.
 */
public class RawLine {
    /** The whole path of the file the line came from (as the source's split names it). */
    public String file;
    /** 1-based number of the record's first line. */
    public long line;
    /** The record's bytes without its final line ending; null when {@link #oversized}. */
    public byte[] bytes;
    /** Length of the record in bytes (also when oversized and not kept). */
    public long byteLength;
    public boolean oversized;

    public RawLine() {}

    public RawLine(String file, long line, byte[] bytes, long byteLength, boolean oversized) {
        this.file = file;
        this.line = line;
        this.bytes = bytes;
        this.byteLength = byteLength;
        this.oversized = oversized;
    }

    public String position() {
        return file + ":" + line;
    }
}
