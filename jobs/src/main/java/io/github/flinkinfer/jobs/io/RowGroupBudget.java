package io.github.flinkinfer.jobs.io;

import io.github.flinkinfer.runtime.JvmShared;
import java.util.Collections;
import java.util.Set;
import java.util.WeakHashMap;

/**
 * The heap that the open embedding Parquet writers of one JVM may fill with row groups not yet
 * written, shared among them. {@link EmbeddingPages} holds a row group's compressed pages until
 * the group ends, because a Parquet file stores a row group column by column. A TaskManager, or
 * the embedded cluster, with P slots has P part files open at once (one per writing subtask in
 * BATCH mode).
 *
 * <ul>
 *   <li>At parquet-java's 128 MB per group, 16 slots hold 2 GB of the launcher's 4 GB heap, and
 *       32 slots more than all of it.
 *   <li>parquet-java has the same rule, its {@code MemoryManager}: all of a JVM's writers share a
 *       part of the heap. It applies only to {@code ParquetOutputFormat}'s writers, not to writers
 *       built directly, as Flink's and ours are.
 * </ul>
 *
 * <p>Each writer ends its group at {@link #HEAP_SHARE} of the JVM's maximum heap divided by the
 * writers open now. That is at most the writer's own group size (128 MB) and at least {@link
 * #MIN_BYTES}. Writers are held weakly: one that Flink abandons on a failure, never finished,
 * stops counting once it is collected.
 *
 * <pre>{@code
 * RowGroupBudget.JVM.opened(writer);
 * if (groupBytes >= RowGroupBudget.JVM.bytesPerWriter(128 << 20)) { ... end the group ... }
 * RowGroupBudget.JVM.closed(writer);
 * }</pre>
 */
final class RowGroupBudget {
    /** The part of the maximum heap that all open writers' row groups share. */
    static final double HEAP_SHARE = 0.25;
    /** The smallest row group a writer is held to, whatever the number of writers. */
    static final long MIN_BYTES = 4L << 20;

    /** This JVM's writers and heap. */
    static final RowGroupBudget JVM = JvmShared.slot("parquet.row-group-budget",
            "the heap the open embedding Parquet writers of the JVM share for their row groups",
            () -> new RowGroupBudget((long) (Runtime.getRuntime().maxMemory() * HEAP_SHARE)),
            b -> b.open.clear());

    private final long poolBytes;
    private final Set<Object> open = Collections.synchronizedSet(Collections.newSetFromMap(new WeakHashMap<>()));

    /** A budget of {@code poolBytes} shared by its open writers (tests: a pool of their own). */
    RowGroupBudget(long poolBytes) {
        this.poolBytes = poolBytes;
    }

    void opened(Object writer) {
        open.add(writer);
    }

    void closed(Object writer) {
        open.remove(writer);
    }

    /** Writers open now (the collected ones no longer count). */
    int openWriters() {
        return open.size();
    }

    /** Compressed bytes at which a writer ends its row group: the pool's share, within [{@link #MIN_BYTES}, {@code cap}]. */
    long bytesPerWriter(long cap) {
        long share = poolBytes / Math.max(1, open.size());
        return Math.min(cap, Math.max(MIN_BYTES, share));
    }
}
