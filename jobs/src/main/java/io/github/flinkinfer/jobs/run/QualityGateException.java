package io.github.flinkinfer.jobs.run;

/** The sampled outputs drifted further from the reference model than --quality-floor allows. */
public class QualityGateException extends RuntimeException {
    public QualityGateException(String message) {
        super(message);
    }
}
