package io.github.flinkinfer.runtime.node;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

/**
 * The {@code DT_NEEDED} entries of a 64-bit ELF shared library (the sonames the dynamic loader
 * must find before the library loads), read from its section headers and dynamic section only, so
 * a 370 MB provider library costs a few reads.
 *
 * <pre>{@code
 * List<String> needs = ElfNeeded.of(Path.of("libonnxruntime_providers_cuda.so"));
 * // [libcublasLt.so.12, libcublas.so.12, ..., libc.so.6]
 * }</pre>
 */
public final class ElfNeeded {
    private static final int SHT_DYNAMIC = 6;
    private static final long DT_NULL = 0;
    private static final long DT_NEEDED = 1;

    private ElfNeeded() {}

    /** Prints the needed sonames of the library named by the one argument, one a line (record-cuda-needs.sh). */
    public static void main(String[] args) throws IOException {
        if (args.length != 1) {
            System.err.println("usage: ElfNeeded LIBRARY.so");
            System.exit(2);
        }
        of(Path.of(args[0])).forEach(System.out::println);
    }

    /** The needed sonames of {@code library}, in the order the library lists them. */
    public static List<String> of(Path library) throws IOException {
        try (FileChannel ch = FileChannel.open(library, StandardOpenOption.READ)) {
            ByteBuffer ident = read(ch, 0, 64);
            if (ident.getInt(0) != 0x7f454c46) { // \x7fELF
                throw new IOException(library + " is not an ELF file");
            }
            if (ident.get(4) != 2) {
                throw new IOException(library + " is not a 64-bit ELF file");
            }
            ByteOrder order = ident.get(5) == 1 ? ByteOrder.LITTLE_ENDIAN : ByteOrder.BIG_ENDIAN;
            ByteBuffer header = read(ch, 0, 64).order(order);
            long shoff = header.getLong(0x28);
            int shentsize = Short.toUnsignedInt(header.getShort(0x3A));
            int shnum = Short.toUnsignedInt(header.getShort(0x3C));
            ByteBuffer sections = read(ch, shoff, shentsize * shnum).order(order);
            for (int i = 0; i < shnum; i++) {
                int s = i * shentsize;
                if (sections.getInt(s + 4) != SHT_DYNAMIC) {
                    continue;
                }
                long dynOffset = sections.getLong(s + 0x18);
                long dynSize = sections.getLong(s + 0x20);
                int strIndex = sections.getInt(s + 0x28); // sh_link: the dynamic string table
                int t = strIndex * shentsize;
                ByteBuffer strings = read(ch, sections.getLong(t + 0x18), (int) sections.getLong(t + 0x20));
                ByteBuffer dynamic = read(ch, dynOffset, (int) dynSize).order(order);
                List<String> needed = new ArrayList<>();
                for (int e = 0; e + 16 <= dynSize; e += 16) {
                    long tag = dynamic.getLong(e);
                    if (tag == DT_NULL) {
                        break;
                    }
                    if (tag == DT_NEEDED) {
                        needed.add(string(strings, (int) dynamic.getLong(e + 8)));
                    }
                }
                return needed;
            }
            return List.of(); // statically linked: needs nothing
        }
    }

    private static ByteBuffer read(FileChannel ch, long position, int length) throws IOException {
        ByteBuffer b = ByteBuffer.allocate(length);
        while (b.hasRemaining()) {
            if (ch.read(b, position + b.position()) < 0) {
                throw new IOException("ELF file ends before offset " + (position + length));
            }
        }
        return b.flip();
    }

    private static String string(ByteBuffer table, int offset) {
        int end = offset;
        while (table.get(end) != 0) {
            end++;
        }
        return new String(table.array(), offset, end - offset, StandardCharsets.US_ASCII);
    }
}
