package io.github.flinkinfer.operators.batch;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class LengthBucketBatcherTest {

    /** Skewed like real corpora: most inputs short, a long tail (log-normal, capped at 256). */
    static List<Integer> skewedLengths(int n, long seed) {
        Random random = new Random(seed);
        List<Integer> lengths = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            double len = Math.exp(3.0 + 0.9 * random.nextGaussian());
            lengths.add((int) Math.max(3, Math.min(256, len)));
        }
        return lengths;
    }

    static List<Batch<Integer>> runAll(BatchingConfig config, List<Integer> lengths) {
        LengthBucketBatcher<Integer> batcher = new LengthBucketBatcher<>(config, Integer::intValue);
        List<Batch<Integer>> batches = new ArrayList<>();
        long now = 0;
        for (int len : lengths) {
            batches.addAll(batcher.add(len, now++));
        }
        batches.addAll(batcher.flushAll());
        assertThat(batcher.bufferedCount()).isZero();
        return batches;
    }

    @Test
    void tokenBudgetAndBatchSizeAreNeverExceeded() {
        BatchingConfig config = BatchingConfig.defaults().withMaxBatchTokens(2048).withMaxBatchSize(64);
        for (Batch<Integer> b : runAll(config, skewedLengths(20_000, 1))) {
            assertThat(b.paddedTokens()).isLessThanOrEqualTo(2048);
            assertThat(b.size()).isLessThanOrEqualTo(64);
            assertThat(b.paddedLength()).isEqualTo(b.items().stream().mapToInt(i -> i).max().getAsInt());
        }
    }

    @Test
    void paddingEfficiencyOnSkewedMixIsAtLeastPointNine() {
        List<Batch<Integer>> batches = runAll(BatchingConfig.defaults(), skewedLengths(20_000, 2));
        long real = batches.stream().mapToLong(Batch::realTokens).sum();
        long padded = batches.stream().mapToLong(Batch::paddedTokens).sum();
        double efficiency = (double) real / padded;
        double meanRows = batches.stream().mapToInt(Batch::size).average().orElse(0);
        System.out.printf("skewed mix: padding efficiency %.3f, %d batches, %.1f rows/batch%n",
                efficiency, batches.size(), meanRows);
        assertThat(efficiency).isGreaterThanOrEqualTo(0.9);
    }

    @Test
    void aBatchHoldsItsItemsLongestFirstAndEqualLengthsInArrivalOrder() {
        record Item(String id, int tokens) {}
        LengthBucketBatcher<Item> batcher = new LengthBucketBatcher<>(
                BatchingConfig.defaults().withMaxBatchTokens(4096).withMaxBatchSize(64), Item::tokens);
        List<Item> in = List.of(new Item("a", 30), new Item("b", 32), new Item("c", 30), new Item("d", 32),
                new Item("e", 31), new Item("f", 30));
        for (Item item : in) {
            batcher.add(item, 0);
        }
        assertThat(batcher.flushAll()).flatExtracting(Batch::items).extracting(Item::id)
                .containsExactly("b", "d", "e", "a", "c", "f");
    }

    @Test
    void everyItemComesOutExactlyOnce() {
        List<Integer> lengths = skewedLengths(5_000, 3);
        List<Integer> out = new ArrayList<>();
        runAll(BatchingConfig.defaults(), lengths).forEach(b -> out.addAll(b.items()));
        assertThat(out).containsExactlyInAnyOrderElementsOf(lengths);
    }

    @Test
    void inputLongerThanEveryBucketAndTheBudgetDoesNotStall() {
        BatchingConfig config = new BatchingConfig(new int[] {8, 16}, 64, 8, 64, 4, 0);
        LengthBucketBatcher<Integer> batcher = new LengthBucketBatcher<>(config, Integer::intValue);
        assertThat(batcher.add(40, 0)).isEmpty(); // beyond the last edge: overflow bucket
        List<Batch<Integer>> alone = batcher.add(500, 1); // beyond the budget: runs alone, now
        assertThat(alone).hasSize(1);
        assertThat(alone.get(0).items()).containsExactly(500);
        assertThat(batcher.flushAll()).flatExtracting(Batch::items).containsExactly(40);
    }

    @Test
    void endOfInputFlushesEverything() {
        LengthBucketBatcher<Integer> batcher =
                new LengthBucketBatcher<>(BatchingConfig.defaults(), Integer::intValue);
        for (int i = 1; i <= 100; i++) {
            assertThat(batcher.add(i, i)).isEmpty();
        }
        assertThat(batcher.bufferedCount()).isEqualTo(100);
        assertThat(batcher.flushAll()).flatExtracting(Batch::items).hasSize(100);
        assertThat(batcher.bufferedCount()).isZero();
    }

    @Test
    void bufferBoundFlushesTheFullestBucket() {
        BatchingConfig config = new BatchingConfig(new int[] {16, 32, 64}, 1 << 20, 1000, 1000, 1000, 0);
        LengthBucketBatcher<Integer> batcher = new LengthBucketBatcher<>(config, Integer::intValue);
        List<Batch<Integer>> out = new ArrayList<>();
        for (int i = 0; i < 999; i++) {
            out.addAll(batcher.add(i % 2 == 0 ? 10 : 50, i));
        }
        assertThat(out).isEmpty();
        out.addAll(batcher.add(50, 999));
        assertThat(out).isNotEmpty();
        assertThat(out).allSatisfy(b -> assertThat(b.bucketEdge()).isEqualTo(64));
        assertThat(batcher.bufferedCount()).isLessThan(1000);
    }

    @Test
    void maxWaitFlushesOldBuckets() {
        BatchingConfig config = new BatchingConfig(new int[] {16, 32}, 4096, 64, 1024, 4, 10);
        LengthBucketBatcher<Integer> batcher = new LengthBucketBatcher<>(config, Integer::intValue);
        batcher.add(5, 0);
        batcher.add(20, 5_000_000);
        assertThat(batcher.flushExpired(9_000_000)).isEmpty();
        assertThat(batcher.flushExpired(10_000_000)).flatExtracting(Batch::items).containsExactly(5);
        assertThat(batcher.flushExpired(15_000_000)).flatExtracting(Batch::items).containsExactly(20);
    }
}
