package io.github.flinkinfer.jobs.moderation;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.OutputStream;
import org.apache.flink.api.common.serialization.Encoder;

/**
 * One JSON line per verdict ({@link ModerationResult#columns()}), with the scores as an object
 * keyed by label:
 *
 * <pre>{@code
 * {"id":"m1","label":"spam","score":0.97,"scores":{"ham":0.03,"spam":0.97},"flagged":true,...}
 * }</pre>
 */
public final class ModerationJsonEncoder implements Encoder<ModerationResult> {
    private static final long serialVersionUID = 1L;
    private transient ObjectMapper json;

    @Override
    public void encode(ModerationResult r, OutputStream stream) throws IOException {
        if (json == null) {
            json = new ObjectMapper();
        }
        byte[] line = json.writeValueAsBytes(r.columns());
        stream.write(line);
        stream.write('\n');
    }
}
