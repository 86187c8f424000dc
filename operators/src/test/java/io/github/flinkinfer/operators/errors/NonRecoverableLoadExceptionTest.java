package io.github.flinkinfer.operators.errors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.flinkinfer.runtime.DeviceUnavailableException;
import io.github.flinkinfer.runtime.card.ModelCard;
import io.github.flinkinfer.runtime.card.ModelCardException;
import io.github.flinkinfer.runtime.card.ModelFile;
import io.github.flinkinfer.runtime.files.ModelIntegrityException;
import io.github.flinkinfer.runtime.onnx.RuntimeOptions;
import io.github.flinkinfer.runtime.tokenize.TextTokenizer;
import java.io.IOException;
import java.util.List;
import org.apache.flink.runtime.executiongraph.failover.ExecutionFailureHandler;
import org.apache.flink.util.FlinkException;
import org.apache.flink.util.SerializedThrowable;
import org.junit.jupiter.api.Test;

/**
 * Which load failures Flink's failover gives up on at once, judged by Flink's own classifier
 * ({@link ExecutionFailureHandler#isUnrecoverableError}) on the failure as a task would report
 * it: wrapped, and serialized to the JobManager and back to the driver.
 */
class NonRecoverableLoadExceptionTest {

    /** As the JobManager and then the driver see a task's failure: wrapped, across the wire. */
    private static Throwable reported(Throwable taskFailure) {
        return new SerializedThrowable(new FlinkException("Task failed", taskFailure))
                .deserializeError(NonRecoverableLoadExceptionTest.class.getClassLoader());
    }

    private static Throwable thrownBy(Runnable load) {
        try {
            load.run();
        } catch (RuntimeException e) {
            return e;
        }
        throw new AssertionError("the load did not fail");
    }

    @Test
    void aFileFailingItsChecksumStopsTheJobWithTheOriginalAndItsMessage() {
        ModelCard builtIn = ModelCard.builtIn("all-minilm-l6-v2-q");
        ModelCard card = builtIn.toBuilder() // not the file's hash
                .tokenizer(new ModelFile(builtIn.tokenizer.path(), "0".repeat(64))).build();

        Throwable failure = thrownBy(() -> NonRecoverableLoadException.guard(
                () -> TextTokenizer.load(card, RuntimeOptions.defaults())));

        assertThat(failure).isInstanceOf(NonRecoverableLoadException.class)
                .hasCauseInstanceOf(ModelIntegrityException.class)
                .hasMessage(failure.getCause().getMessage())
                .hasMessageContaining("expected sha256 " + "0".repeat(64));
        Throwable atDriver = reported(failure);
        assertThat(ExecutionFailureHandler.isUnrecoverableError(atDriver)).isTrue();
        assertThat(NonRecoverableLoadException.originalIn(atDriver)).get()
                .isInstanceOf(ModelIntegrityException.class)
                .extracting(Throwable::getMessage).isEqualTo(failure.getMessage());
    }

    @Test
    void aMissingDeviceAndAnUnusableCardStopTheJobToo() {
        for (RuntimeException cause : List.of(
                new DeviceUnavailableException("Device cuda:0 requested but ...", new UnsatisfiedLinkError()),
                new ModelCardException("card.json", List.of("onnx: required")),
                new ModelIntegrityException("Built-in model 'x' file x.onnx not found"))) {
            Throwable failure = thrownBy(() -> NonRecoverableLoadException.guard(() -> {
                throw cause;
            }));
            assertThat(failure).as("%s", cause).isInstanceOf(NonRecoverableLoadException.class).hasCause(cause);
            assertThat(ExecutionFailureHandler.isUnrecoverableError(reported(failure))).as("%s", cause).isTrue();
        }
    }

    @Test
    void aFileThatCouldNotBeReadKeepsItsRestartsAsDoesAnyOtherFailure() {
        for (RuntimeException cause : List.of(
                new ModelIntegrityException("Cannot copy model file s3://m/model.onnx into /cache: timeout",
                        new IOException("timeout")),
                new IllegalStateException("ONNX Runtime out of memory"))) {
            Throwable failure = thrownBy(() -> NonRecoverableLoadException.guard(() -> {
                throw cause;
            }));
            assertThat(failure).as("rethrown as it was").isSameAs(cause);
            Throwable atDriver = reported(failure);
            assertThat(ExecutionFailureHandler.isUnrecoverableError(atDriver)).as("%s", cause).isFalse();
            assertThat(NonRecoverableLoadException.originalIn(atDriver)).isEmpty();
        }
    }

    @Test
    void aLoadThatSucceedsReturnsWhatItLoaded() {
        assertThat(NonRecoverableLoadException.guard(() -> "model")).isEqualTo("model");
    }
}
