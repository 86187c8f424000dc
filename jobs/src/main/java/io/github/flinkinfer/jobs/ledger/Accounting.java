package io.github.flinkinfer.jobs.ledger;

import io.github.flinkinfer.operators.Exchanges;
import io.github.flinkinfer.operators.SameParallelism;
import io.github.flinkinfer.operators.ledger.ErrorBudget;
import io.github.flinkinfer.operators.ledger.LedgerOperator;
import io.github.flinkinfer.operators.ledger.LedgerTally;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;
import org.apache.flink.streaming.runtime.partitioner.GlobalPartitioner;

/**
 * Collects, while a job is built, the tally of each stage's records ({@link LedgerTally}, chained
 * to the stage) and at the end merges them in one {@link LedgerOperator} that judges the error
 * budget and writes the run's ledger. A stage that produces or drops records registers its
 * tally here, so the ledger reconciles whatever the job's shape.
 *
 * <pre>{@code
 * Accounting accounting = new Accounting();
 * accounting.tally(errors, "errors", RunLedger::addError);
 * accounting.merge(budget, output.ledger().toString(), latencyBound, pipelined);
 * }</pre>
 */
public final class Accounting {
    private final List<DataStream<String>> partials = new ArrayList<>();

    /** Tallies {@code records} (a branch: the stream itself is unchanged); returns it for chaining. */
    public <T> DataStream<T> tally(DataStream<T> records, String name, LedgerTally.Tallier<T> tallier) {
        return add(records, name, LedgerTally.of(tallier));
    }

    /** Same, feeding the live progress accumulator with each record's items. */
    public <T> DataStream<T> tally(DataStream<T> records, String name, LedgerTally.Tallier<T> tallier,
            LedgerTally.Progress<T> progress) {
        return add(records, name, LedgerTally.withProgress(tallier, progress));
    }

    private <T> DataStream<T> add(DataStream<T> records, String name, LedgerTally<T> tally) {
        var partial = records.transform("ledger-" + name, Types.STRING, tally)
                .uid("ledger-" + name)
                .name("ledger-" + name);
        SameParallelism.as(partial.getTransformation(), records); // chained to its stage
        partials.add(partial);
        return records;
    }

    /**
     * Adds the merger: one subtask, the error budget, the ledger file at end of input. With {@code
     * pipelined} the partials reach it over pipelined exchanges (where the whole job is one
     * pipelined region: {@code InferencePipeline.Inferred#pipelinedThrough}), so it runs beside the
     * stages and ends with them, and their blocking partitions' sort buffers are not needed.
     */
    public void merge(ErrorBudget budget, String ledgerPath, Long latencyBoundMs, boolean pipelined) {
        DataStream<String> all = null;
        for (DataStream<String> p : partials) {
            DataStream<String> in = pipelined ? Exchanges.pipelined(p, new GlobalPartitioner<>()) : p;
            all = all == null ? in : all.union(in);
        }
        all.transform("run-ledger", Types.VOID, new LedgerOperator(ledgerPath, budget, latencyBoundMs))
                .setParallelism(1)
                .setMaxParallelism(1)
                .uid("run-ledger")
                .name("run-ledger")
                .sinkTo(new DiscardingSink<>())
                .setParallelism(1)
                .name("run-ledger-end");
    }
}
