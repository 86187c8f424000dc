package io.github.flinkinfer.jobs.io;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;
import java.io.IOException;
import java.io.OutputStream;
import org.apache.flink.api.common.serialization.Encoder;

/** Writes each record as one JSON line (public fields, Jackson). */
public final class JsonLinesEncoder<T> implements Encoder<T> {
    private static final long serialVersionUID = 1L;
    private transient ObjectWriter writer;

    @Override
    public void encode(T element, OutputStream stream) throws IOException {
        if (writer == null) {
            writer = new ObjectMapper().writer();
        }
        stream.write(writer.writeValueAsBytes(element));
        stream.write('\n');
    }
}
