package io.github.flinkinfer.runtime.onnx;

import io.github.flinkinfer.runtime.LoadTimes;
import io.github.flinkinfer.runtime.card.ModelCard;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Model load cold vs from the optimized-graph cache, alternating in one JVM so both see the same
 * machine (bench/cold-start.sh runs it; not a test): {@code <model> <rounds>}. Prints per round
 * and the medians of the load and its phases (read + sha256, session, warm-up).
 */
public final class ColdStartRounds {
    private ColdStartRounds() {}

    public static void main(String[] args) throws Exception {
        ModelCard card = ModelCard.builtIn(args.length > 0 ? args[0] : "all-minilm-l6-v2");
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 10;
        Path dir = Files.createTempDirectory("cold-start-rounds");
        load(card, dir.toString()); // fills the cache; also warms JIT and the ORT library for both
        load(card, "off");
        List<long[]> cold = new ArrayList<>();
        List<long[]> cached = new ArrayList<>();
        for (int r = 0; r < rounds; r++) {
            cold.add(load(card, "off"));
            cached.add(load(card, dir.toString()));
            System.out.printf("round %d  cold %s  cached %s%n", r + 1, row(cold.get(r)), row(cached.get(r)));
        }
        System.out.printf("median   cold %s  cached %s  (ms: load = read+sha256 / session / warm-up)%n",
                row(median(cold)), row(median(cached)));
    }

    private static long[] load(ModelCard card, String cache) {
        System.setProperty(OptimizedGraphCache.PROPERTY, cache);
        long start = System.nanoTime();
        try (OnnxModel model = OnnxModel.load(card, RuntimeOptions.defaults())) {
            LoadTimes t = model.loadTimes();
            return new long[] {(System.nanoTime() - start) / 1_000_000, t.readMillis(), t.sessionMillis(),
                t.warmUpMillis()};
        }
    }

    private static long[] median(List<long[]> rows) {
        long[] out = new long[rows.get(0).length];
        for (int i = 0; i < out.length; i++) {
            int col = i;
            long[] sorted = rows.stream().mapToLong(r -> r[col]).sorted().toArray();
            out[i] = sorted[sorted.length / 2];
        }
        return out;
    }

    private static String row(long[] r) {
        return String.format("%5d = %4d / %4d / %3d", r[0], r[1], r[2], r[3]);
    }
}
