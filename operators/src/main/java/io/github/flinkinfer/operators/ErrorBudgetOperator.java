package io.github.flinkinfer.operators;

import org.apache.flink.runtime.execution.SuppressRestartsException;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.BoundedOneInput;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;

/**
 * Enforces an {@link ErrorBudget} job-wide (run it with parallelism 1): fed one event per error
 * and one per batch, it fails the job without restarts as soon as the budget is breached, and
 * judges the final rate at end of input. Emits nothing.
 */
public class ErrorBudgetOperator extends AbstractStreamOperator<Void>
        implements OneInputStreamOperator<ErrorBudgetOperator.Event, Void>, BoundedOneInput {
    private static final long serialVersionUID = 1L;

    private final ErrorBudget budget;

    /** An error (with its {@code stage/reason}) or a number of inputs processed by a batch. */
    public static class Event {
        public String reason;
        public boolean countsAsProcessed;
        public long processed;

        public Event() {}

        public static Event error(ErrorRecord e) {
            Event ev = new Event();
            ev.reason = e.stage + "/" + e.reason;
            // infer-stage failures are already counted in their batch's items
            ev.countsAsProcessed = !ErrorRecord.INFER.equals(e.stage);
            return ev;
        }

        public static Event batch(BatchMetrics m) {
            Event ev = new Event();
            ev.processed = m.items;
            return ev;
        }
    }

    public ErrorBudgetOperator(ErrorBudget budget) {
        this.budget = budget;
    }

    @Override
    public void processElement(StreamRecord<Event> element) {
        Event e = element.getValue();
        if (e.reason != null) {
            budget.onError(e.reason, e.countsAsProcessed);
        } else {
            budget.onProcessed(e.processed);
        }
        check(false);
    }

    @Override
    public void endInput() {
        check(true);
    }

    private void check(boolean endOfInput) {
        budget.violation(endOfInput).ifPresent(msg -> {
            throw new SuppressRestartsException(new ErrorBudgetExceededException(msg));
        });
    }
}
