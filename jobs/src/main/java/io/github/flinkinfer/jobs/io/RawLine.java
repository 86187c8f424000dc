package io.github.flinkinfer.jobs.io;

/**
 * One line of a corpus file as raw bytes, with its position, before decoding. Decoding and
 * parsing happen later so bad bytes become error records instead of reader failures.
 */
public class RawLine {
    /** File name (not the full path) the line came from. */
    public String file;
    /** 1-based line number. */
    public long line;
    /** The line's bytes without the line ending; null when {@link #oversized}. */
    public byte[] bytes;
    /** Length of the line in bytes (also when oversized and not kept). */
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
