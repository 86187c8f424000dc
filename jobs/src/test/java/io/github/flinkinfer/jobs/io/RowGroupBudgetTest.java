package io.github.flinkinfer.jobs.io;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.ref.WeakReference;
import org.junit.jupiter.api.Test;

class RowGroupBudgetTest {
    private static final long MB = 1L << 20;
    private static final long CAP = 128 * MB;

    @Test
    void eachOpenWriterGetsItsShareWithinTheFloorAndItsOwnSize() {
        RowGroupBudget budget = new RowGroupBudget(1024 * MB);
        assertThat(budget.bytesPerWriter(CAP)).as("no writer open yet: one writer's share").isEqualTo(CAP);
        Object[] writers = new Object[32];
        for (int i = 0; i < writers.length; i++) {
            writers[i] = new Object();
            budget.opened(writers[i]);
            long share = 1024 * MB / (i + 1);
            assertThat(budget.bytesPerWriter(CAP)).as("%d writers", i + 1)
                    .isEqualTo(Math.min(CAP, Math.max(RowGroupBudget.MIN_BYTES, share)));
        }
        assertThat(budget.bytesPerWriter(CAP)).as("32 writers: 32 MB each").isEqualTo(32 * MB);
        assertThat(budget.bytesPerWriter(16 * MB)).as("a writer's own group size is the most").isEqualTo(16 * MB);
        for (int i = 0; i < 24; i++) {
            budget.closed(writers[i]);
        }
        assertThat(budget.bytesPerWriter(CAP)).as("8 left: 128 MB each").isEqualTo(CAP);
    }

    @Test
    void aSmallPoolNeverGoesBelowTheFloor() {
        RowGroupBudget budget = new RowGroupBudget(16 * MB);
        for (int i = 0; i < 100; i++) {
            budget.opened(new Object[] {i});
        }
        assertThat(budget.bytesPerWriter(CAP)).isEqualTo(RowGroupBudget.MIN_BYTES);
        assertThat(budget.bytesPerWriter(MB)).as("a smaller group size of its own still wins").isEqualTo(MB);
    }

    /** A writer Flink abandons on a failure is never finished: once collected it no longer counts. */
    @Test
    void anAbandonedWriterStopsCountingOnceCollected() throws InterruptedException {
        RowGroupBudget budget = new RowGroupBudget(1024 * MB);
        Object kept = new Object();
        budget.opened(kept);
        Object abandoned = new Object();
        WeakReference<Object> ref = new WeakReference<>(abandoned);
        budget.opened(abandoned);
        assertThat(budget.openWriters()).isEqualTo(2);
        abandoned = null;
        for (int i = 0; i < 50 && ref.get() != null; i++) {
            System.gc();
            Thread.sleep(20);
        }
        assertThat(ref.get()).as("collected").isNull();
        assertThat(budget.openWriters()).isEqualTo(1);
        assertThat(kept).isNotNull();
    }
}
