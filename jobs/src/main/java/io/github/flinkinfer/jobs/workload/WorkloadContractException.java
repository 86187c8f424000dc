package io.github.flinkinfer.jobs.workload;

/**
 * A run that missed its card's deadline or budget under {@code --fail-on-missed-contract}: it gets
 * no success marker (its outputs and report stay for inspection).
 */
public class WorkloadContractException extends RuntimeException {
    public WorkloadContractException(String message) {
        super(message);
    }
}
