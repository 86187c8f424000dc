package io.github.flinkinfer.runtime.onnx;

import io.github.flinkinfer.runtime.Device;
import io.github.flinkinfer.runtime.card.ModelCard;
import io.github.flinkinfer.runtime.card.Pooling;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Pooling inside the graph, so the session returns one {@code [batch, hidden]} vector per input
 * instead of {@code [batch, seq, hidden]} token states: on a GPU the pooling runs on the device and
 * only the pooled vectors are copied to the host, about 1/45 of the bytes at 45 tokens per input,
 * and the host's mean pooling (a pass over every token state) goes away.
 *
 * <p>The graph is extended, not rewritten: a protobuf parser merges a message field that occurs
 * twice (repeated fields concatenate), so appending a second {@code ModelProto.graph} that holds
 * only the new nodes, their constants and the new output {@value #OUTPUT} adds them to the model's
 * graph without parsing or copying its weights. The nodes use operators unchanged since opset 13
 * or earlier, with no axes inputs or attributes whose form changed between opsets: {@code MEAN} is
 * the mask as a row times the token states ({@code MatMul}: the masked sum), divided by the mask's
 * count clamped at 1, as {@link io.github.flinkinfer.runtime.postprocess.MeanPooling} does; {@code
 * CLS} is the first token's state ({@code Gather}). The sums' order differs from the host's, so
 * mean-pooled vectors move by float rounding (measured in {@code DevicePoolingTest}); CLS vectors
 * are the same bits. L2 normalization stays on the host (a pass over {@code hidden} floats).
 *
 * <p>Applied only where it can be: an embedding card with a pooling whose output is a rank-3
 * float tensor in the graph's declared outputs, and no external data (ONNX Runtime must read such a
 * graph from its file). Anything else is loaded as it is, and the host pools as before.
 */
public final class DevicePooling {
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(DevicePooling.class);

    /** The pooled output the extended graph adds: float {@code [batch, hidden]}. */
    public static final String OUTPUT = "flinkinfer_pooled";

    /**
     * Names the appended nodes' form in the optimized-graph cache's key ({@link OptimizedGraphCache}):
     * change it with the nodes, so no graph optimized with other ones is loaded.
     */
    static final String FORMAT = "pooled-in-graph-1";

    private static final String PREFIX = "flinkinfer_pool/";
    // ModelProto.graph; GraphProto.node, .initializer, .output; ONNX's FLOAT and INT64 element types
    private static final int MODEL_GRAPH = 7;
    private static final int GRAPH_NODE = 1;
    private static final int GRAPH_INITIALIZER = 5;
    private static final int GRAPH_OUTPUT = 12;
    private static final int FLOAT = 1;
    private static final int FLOAT16 = 10;
    private static final int INT64 = 7;

    private DevicePooling() {}

    /**
     * Whether these options ask for pooling in the graph: {@link RuntimeOptions#poolOnDevice()}
     * when set, else on for {@code cuda} and {@code auto} (where a GPU would run it), off for {@code
     * cpu}; and whether the card has a pooling to move at all.
     */
    static boolean wanted(ModelCard card, RuntimeOptions options) {
        if (card.pooling == null || !card.externalData.isEmpty()) {
            return false;
        }
        Boolean asked = options.poolOnDevice();
        return asked != null ? asked : options.device().kind() != Device.Kind.CPU;
    }

    /**
     * What a session or optimized graph of {@code card} under {@code options} owes to this class,
     * for their keys: the nodes' form and the card's pooling where {@link #wanted}, else empty.
     */
    static String keyPart(ModelCard card, RuntimeOptions options) {
        return wanted(card, options) ? FORMAT + "/" + card.pooling : "";
    }

    /**
     * {@code model} with the card's pooling appended as output {@value #OUTPUT} where {@link
     * #wanted} and the card's output is a rank-3 float tensor of the graph; else {@code model}
     * itself.
     */
    static byte[] applyIfWanted(byte[] model, ModelCard card, RuntimeOptions options) {
        if (!wanted(card, options)) {
            return model;
        }
        int[] output = tokenStateOutput(model, card.output);
        if (output == null) {
            LOG.info("Model {}: pooling stays on the host (output '{}' is not a [batch, seq, hidden] float tensor)",
                    card.id(), card.output);
            return model;
        }
        byte[] extra = graphField(card, output[1]);
        byte[] extended = Arrays.copyOf(model, model.length + extra.length);
        System.arraycopy(extra, 0, extended, model.length, extra.length);
        return extended;
    }

    /**
     * The element type and hidden width (0 when not fixed) of graph output {@code name} when it is a
     * rank-3 FLOAT or FLOAT16 tensor; null otherwise (not found, other type or rank, or a graph
     * without declared shapes).
     */
    static int[] tokenStateOutput(byte[] model, String name) {
        try {
            ByteBuffer m = ByteBuffer.wrap(model);
            int[] found = null;
            while (m.hasRemaining()) {
                long tag = varint(m);
                if (tag >>> 3 == MODEL_GRAPH && (tag & 7) == 2) {
                    ByteBuffer graph = sub(m);
                    while (graph.hasRemaining()) {
                        long g = varint(graph);
                        if (g >>> 3 == GRAPH_OUTPUT && (g & 7) == 2) {
                            int[] info = valueInfo(sub(graph), name);
                            found = info != null ? info : found;
                        } else {
                            skip(graph, g);
                        }
                    }
                } else {
                    skip(m, tag);
                }
            }
            return found;
        } catch (RuntimeException e) { // not a model we can read: load it as it is
            return null;
        }
    }

    /** {elem type, hidden width} of a ValueInfoProto named {@code name} with a rank-3 float type; else null. */
    private static int[] valueInfo(ByteBuffer info, String name) {
        String own = null;
        int elemType = -1;
        long[] dims = null;
        while (info.hasRemaining()) {
            long tag = varint(info);
            if (tag >>> 3 == 1 && (tag & 7) == 2) {
                ByteBuffer s = sub(info);
                own = StandardCharsets.UTF_8.decode(s).toString();
            } else if (tag >>> 3 == 2 && (tag & 7) == 2) { // TypeProto
                ByteBuffer type = sub(info);
                while (type.hasRemaining()) {
                    long t = varint(type);
                    if (t >>> 3 == 1 && (t & 7) == 2) { // tensor_type
                        ByteBuffer tensor = sub(type);
                        while (tensor.hasRemaining()) {
                            long f = varint(tensor);
                            if (f >>> 3 == 1 && (f & 7) == 0) {
                                elemType = (int) varint(tensor);
                            } else if (f >>> 3 == 2 && (f & 7) == 2) {
                                dims = dims(sub(tensor));
                            } else {
                                skip(tensor, f);
                            }
                        }
                    } else {
                        skip(type, t);
                    }
                }
            } else {
                skip(info, tag);
            }
        }
        if (!name.equals(own) || (elemType != FLOAT && elemType != FLOAT16) || dims == null || dims.length != 3) {
            return null;
        }
        return new int[] {elemType, (int) Math.max(0, dims[2])};
    }

    /** A TensorShapeProto's dims: the value, or 0 for a named or unknown one. */
    private static long[] dims(ByteBuffer shape) {
        long[] out = new long[0];
        while (shape.hasRemaining()) {
            long tag = varint(shape);
            if (tag >>> 3 == 1 && (tag & 7) == 2) {
                ByteBuffer dim = sub(shape);
                long value = 0;
                while (dim.hasRemaining()) {
                    long d = varint(dim);
                    if (d >>> 3 == 1 && (d & 7) == 0) {
                        value = varint(dim);
                    } else {
                        skip(dim, d);
                    }
                }
                out = Arrays.copyOf(out, out.length + 1);
                out[out.length - 1] = value;
            } else {
                skip(shape, tag);
            }
        }
        return out;
    }

    /** A second {@code ModelProto.graph}: the pooling nodes, their constants, the pooled output. */
    private static byte[] graphField(ModelCard card, int hidden) {
        Proto graph = new Proto();
        String states = card.output;
        String h = PREFIX + "states";
        graph.message(GRAPH_NODE, node("Cast", h, attrInt("to", FLOAT), states));
        if (card.pooling == Pooling.CLS) {
            graph.message(GRAPH_INITIALIZER, int64(PREFIX + "zero", new long[0], 0));
            graph.message(GRAPH_NODE, node("Gather", OUTPUT, attrInt("axis", 1), h, PREFIX + "zero"));
        } else {
            String mask = PREFIX + "mask";
            graph.message(GRAPH_INITIALIZER, int64(PREFIX + "row_shape", new long[] {3}, 0, 1, -1));
            graph.message(GRAPH_INITIALIZER, int64(PREFIX + "column_shape", new long[] {3}, 0, -1, 1));
            graph.message(GRAPH_INITIALIZER, float32(PREFIX + "one", 1f));
            graph.message(GRAPH_NODE, node("Cast", mask, attrInt("to", FLOAT), card.inputs.attentionMask));
            graph.message(GRAPH_NODE, node("Reshape", PREFIX + "mask_row", null, mask, PREFIX + "row_shape"));
            graph.message(GRAPH_NODE, node("Reshape", PREFIX + "mask_column", null, mask, PREFIX + "column_shape"));
            graph.message(GRAPH_NODE, node("MatMul", PREFIX + "sum", null, PREFIX + "mask_row", h));
            graph.message(GRAPH_NODE, node("MatMul", PREFIX + "count", null, PREFIX + "mask_row", PREFIX + "mask_column"));
            graph.message(GRAPH_NODE, node("Max", PREFIX + "count_at_least_one", null, PREFIX + "count", PREFIX + "one"));
            graph.message(GRAPH_NODE, node("Reciprocal", PREFIX + "inverse", null, PREFIX + "count_at_least_one"));
            graph.message(GRAPH_NODE, node("Mul", PREFIX + "mean", null, PREFIX + "sum", PREFIX + "inverse"));
            graph.message(GRAPH_NODE, node("Flatten", OUTPUT, attrInt("axis", 1), PREFIX + "mean"));
        }
        graph.message(GRAPH_OUTPUT, floatOutput(OUTPUT, hidden));
        Proto model = new Proto();
        model.message(MODEL_GRAPH, graph);
        return model.bytes();
    }

    /** NodeProto: inputs (1), output (2), name (3), op_type (4), attribute (5). */
    private static Proto node(String op, String output, Proto attribute, String... inputs) {
        Proto n = new Proto();
        for (String in : inputs) {
            n.string(1, in);
        }
        n.string(2, output);
        n.string(3, output);
        n.string(4, op);
        if (attribute != null) {
            n.message(5, attribute);
        }
        return n;
    }

    /** AttributeProto of type INT: name (1), i (3), type (20) = 2. */
    private static Proto attrInt(String name, long value) {
        Proto a = new Proto();
        a.string(1, name);
        a.varintField(3, value);
        a.varintField(20, 2);
        return a;
    }

    /** TensorProto of int64s: dims (1), data_type (2), name (8), raw_data (9, little-endian). */
    private static Proto int64(String name, long[] dims, long... values) {
        ByteBuffer raw = ByteBuffer.allocate(8 * values.length).order(ByteOrder.LITTLE_ENDIAN);
        for (long v : values) {
            raw.putLong(v);
        }
        return tensor(name, dims, INT64, raw.array());
    }

    /** A float scalar TensorProto. */
    private static Proto float32(String name, float value) {
        return tensor(name, new long[0], FLOAT,
                ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putFloat(value).array());
    }

    private static Proto tensor(String name, long[] dims, int type, byte[] raw) {
        Proto t = new Proto();
        for (long d : dims) {
            t.varintField(1, d);
        }
        t.varintField(2, type);
        t.string(8, name);
        t.bytesField(9, raw);
        return t;
    }

    /** ValueInfoProto of a float [batch, hidden] tensor (hidden 0: not fixed). */
    private static Proto floatOutput(String name, int hidden) {
        Proto batch = new Proto();
        batch.string(2, "batch"); // Dimension.dim_param
        Proto width = new Proto();
        if (hidden > 0) {
            width.varintField(1, hidden); // Dimension.dim_value
        } else {
            width.string(2, "hidden");
        }
        Proto shape = new Proto();
        shape.message(1, batch);
        shape.message(1, width);
        Proto tensorType = new Proto();
        tensorType.varintField(1, FLOAT);
        tensorType.message(2, shape);
        Proto type = new Proto();
        type.message(1, tensorType);
        Proto info = new Proto();
        info.string(1, name);
        info.message(2, type);
        return info;
    }

    // --- protobuf wire format: the little of it the graph's outputs and the appended field need

    private static long varint(ByteBuffer b) {
        long v = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            byte x = b.get();
            v |= (long) (x & 0x7F) << shift;
            if (x >= 0) {
                return v;
            }
        }
        throw new IllegalArgumentException("malformed varint");
    }

    /** The length-delimited field's bytes as a buffer of their own; {@code b} moves past them. */
    private static ByteBuffer sub(ByteBuffer b) {
        int len = Math.toIntExact(varint(b));
        ByteBuffer s = b.slice(b.position(), len);
        b.position(b.position() + len);
        return s;
    }

    private static void skip(ByteBuffer b, long tag) {
        switch ((int) (tag & 7)) {
            case 0 -> varint(b);
            case 1 -> b.position(b.position() + 8);
            case 2 -> {
                int len = Math.toIntExact(varint(b)); // before position(): the varint moves it
                b.position(b.position() + len);
            }
            case 5 -> b.position(b.position() + 4);
            default -> throw new IllegalArgumentException("unsupported wire type " + (tag & 7));
        }
    }

    /** A message being written. */
    private static final class Proto {
        private final ByteArrayOutputStream out = new ByteArrayOutputStream();

        void varintField(int field, long value) {
            tag(field, 0);
            writeVarint(value);
        }

        void string(int field, String s) {
            bytesField(field, s.getBytes(StandardCharsets.UTF_8));
        }

        void bytesField(int field, byte[] bytes) {
            tag(field, 2);
            writeVarint(bytes.length);
            out.writeBytes(bytes);
        }

        void message(int field, Proto message) {
            bytesField(field, message.bytes());
        }

        byte[] bytes() {
            return out.toByteArray();
        }

        private void tag(int field, int wireType) {
            writeVarint((long) field << 3 | wireType);
        }

        private void writeVarint(long v) {
            while ((v & ~0x7FL) != 0) {
                out.write((int) (v & 0x7F) | 0x80);
                v >>>= 7;
            }
            out.write((int) v);
        }
    }
}
