package io.github.flinkinfer.runtime.postprocess;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.FloatBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

/**
 * Mean pooling + L2 normalization as {@link MeanPooling} does it (a loop over {@code
 * FloatBuffer.get(i)}) against a loop over the backing array ({@link ArrayMeanPooling}),
 * interleaved in one JVM (run by hand, not a test): {@code [rows] [tokens]
 * [rounds]}. Timer around pooling and normalizing one batch, many batches per round; prints µs
 * per item per round and the medians, for a heap buffer (what {@code OnnxTensor.getFloatBuffer}
 * returns) and a direct one; checks that both give the same bits.
 */
public final class PostProcessRounds {
    private PostProcessRounds() {}

    public static void main(String[] args) {
        int rows = args.length > 0 ? Integer.parseInt(args[0]) : 32;
        int tokens = args.length > 1 ? Integer.parseInt(args[1]) : 32;
        int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 7;
        int hidden = 384;
        Random random = new Random(1);
        float[] data = new float[rows * tokens * hidden];
        for (int i = 0; i < data.length; i++) {
            data[i] = (float) random.nextGaussian();
        }
        int[] lengths = new int[rows];
        for (int r = 0; r < rows; r++) {
            lengths[r] = 1 + random.nextInt(tokens);
        }
        FloatBuffer direct = ByteBuffer.allocateDirect(data.length * 4).order(ByteOrder.nativeOrder()).asFloatBuffer();
        direct.put(data).rewind();
        var heapOut = new ModelOutput.TokenVectors(FloatBuffer.wrap(data), rows, tokens, hidden, lengths);
        var directOut = new ModelOutput.TokenVectors(direct, rows, tokens, hidden, lengths);
        PostProcessing before = PostProcessing.of(new MeanPooling(), new L2Normalize());
        PostProcessing now = PostProcessing.of(new ArrayMeanPooling(), new L2Normalize());
        float[][] a = before.apply(heapOut);
        if (!Arrays.deepEquals(a, now.apply(heapOut)) || !Arrays.deepEquals(a, now.apply(directOut))) {
            throw new AssertionError("pooled vectors differ");
        }
        int batches = 20_000_000 / data.length + 1;
        List<double[]> results = new ArrayList<>();
        for (int r = -1; r < rounds; r++) {
            double[] us = {
                time(before, heapOut, batches), time(now, heapOut, batches), time(now, directOut, batches)
            };
            System.out.printf("%s  buffer-get %.2f  array-heap %.2f  array-direct %.2f  µs per item%n",
                    r < 0 ? "warm-up" : "round " + (r + 1), us[0], us[1], us[2]);
            if (r >= 0) {
                results.add(us);
            }
        }
        System.out.printf("median (%d rows x %d tokens x %d)  buffer-get %.2f  array-heap %.2f  array-direct %.2f  µs per item%n",
                rows, tokens, hidden, median(results, 0), median(results, 1), median(results, 2));
    }

    private static double time(PostProcessing p, ModelOutput out, int batches) {
        long t0 = System.nanoTime();
        float sink = 0;
        for (int b = 0; b < batches; b++) {
            sink += p.apply(out)[0][0];
        }
        long nanos = System.nanoTime() - t0;
        if (sink == 12345.678f) {
            System.out.println(sink);
        }
        return nanos / 1e3 / batches / ((ModelOutput.TokenVectors) out).rows();
    }

    private static double median(List<double[]> xs, int i) {
        double[] v = xs.stream().mapToDouble(x -> x[i]).sorted().toArray();
        return v[v.length / 2];
    }

    /** The alternative tried: the sum over the buffer's backing array (or a bulk copy of a direct one). */
    static final class ArrayMeanPooling extends PoolingStep {
        @Override
        protected void pool(ModelOutput.TokenVectors tokens, int row, float[] v) {
            FloatBuffer states = tokens.states();
            int hidden = tokens.hidden();
            int len = tokens.lengths()[row];
            float[] values;
            int base;
            if (states.hasArray()) {
                values = states.array();
                base = states.arrayOffset() + tokens.rowStart(row);
            } else {
                values = new float[len * hidden];
                states.get(tokens.rowStart(row), values, 0, values.length);
                base = 0;
            }
            for (int t = 0; t < len; t++) {
                int off = base + t * hidden;
                for (int h = 0; h < hidden; h++) {
                    v[h] += values[off + h];
                }
            }
            float inv = 1f / Math.max(1, len);
            for (int h = 0; h < hidden; h++) {
                v[h] *= inv;
            }
        }
    }
}
