package io.github.flinkinfer.jobs.workload;

import java.util.List;

/** A workload card that cannot be used, with every problem found in it. */
public class WorkloadCardException extends IllegalArgumentException {
    private final List<String> problems;

    public WorkloadCardException(String origin, List<String> problems) {
        super("workload card " + origin + (problems.size() == 1 ? ": " + problems.get(0)
                : " has " + problems.size() + " problems:\n  - " + String.join("\n  - ", problems)));
        this.problems = List.copyOf(problems);
    }

    public List<String> problems() {
        return problems;
    }
}
