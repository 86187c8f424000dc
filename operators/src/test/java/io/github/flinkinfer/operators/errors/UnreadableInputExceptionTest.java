package io.github.flinkinfer.operators.errors;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.FileNotFoundException;
import java.io.IOException;
import org.junit.jupiter.api.Test;

/** One line per unreadable input, saying what is wrong without the store's class names. */
class UnreadableInputExceptionTest {

    @Test
    void aLocalFileTheSystemRefusedSaysWhoMayNotReadIt() {
        assertThat(new UnreadableInputException("/data/a.jsonl",
                new FileNotFoundException("/data/a.jsonl (Permission denied)")))
                .hasMessage("Input /data/a.jsonl cannot be read: permission denied for user "
                        + System.getProperty("user.name") + "; grant it read permission (chmod u+r, or a+r) or run"
                        + " as a user who has it");
    }

    @Test
    void aMissingObjectDoesNotExist() {
        assertThat(new UnreadableInputException("s3://b/a.jsonl",
                new FileNotFoundException("No such file or directory: s3a://b/a.jsonl")))
                .hasMessage("Input s3://b/a.jsonl does not exist");
    }

    /** The message S3A gave without credentials (seen 2026-12-04), cut to what a person needs. */
    @Test
    void aStoreWithoutCredentialsSaysWhereToGiveThem() {
        IOException s3a = new IOException("s3a://bucket/c.jsonl: org.apache.hadoop.fs.s3a.auth.NoAuthWithAWSException:"
                + " No AWS Credentials provided by SimpleAWSCredentialsProvider EnvironmentVariableCredentialsProvider :"
                + " com.amazonaws.SdkClientException: Unable to load AWS credentials from environment variables\n"
                + "\tat somewhere");

        UnreadableInputException e = new UnreadableInputException("s3://bucket/c.jsonl", s3a);

        assertThat(e).hasMessage("Input s3://bucket/c.jsonl cannot be read: No AWS Credentials provided by"
                + " SimpleAWSCredentialsProvider EnvironmentVariableCredentialsProvider : Unable to load AWS"
                + " credentials from environment variables; give the store's credentials in the environment (e.g."
                + " AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY) or config.yaml (docs/operations.md,"
                + " \"Running on S3\")");
        assertThat(e.getCause()).as("portable: a plain IOException naming the original")
                .isExactlyInstanceOf(IOException.class).hasMessageStartingWith("java.io.IOException: s3a://");
    }

    @Test
    void noRestartReadsIt() {
        UnreadableInputException cause = new UnreadableInputException("/a", new FileNotFoundException("/a"));
        try {
            NonRecoverableLoadException.guard(() -> {
                throw cause;
            });
        } catch (NonRecoverableLoadException e) {
            assertThat(NonRecoverableLoadException.originalIn(new RuntimeException(e))).containsSame(cause);
            assertThat(org.apache.flink.runtime.executiongraph.failover.ExecutionFailureHandler
                    .isUnrecoverableError(e)).isTrue();
            return;
        }
        throw new AssertionError("not refused without restarts");
    }
}
