package io.github.flinkinfer.jobs.report;

/** The sampled outputs drifted further from the reference model than --quality-floor allows. */
public class QualityGateException extends RuntimeException {
    public QualityGateException(String message) {
        super(message);
    }
}
