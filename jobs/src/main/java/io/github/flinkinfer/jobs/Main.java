package io.github.flinkinfer.jobs;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code flink-inference} command line: one subcommand per job or tool. */
@Command(name = "flink-inference", mixinStandardHelpOptions = true,
        version = "flink-inference 0.1.0",
        description = "Offline batch inference on Apache Flink with ONNX Runtime.",
        subcommands = {EmbeddingJob.class})
public final class Main implements Runnable {

    public static void main(String[] args) {
        int code = new CommandLine(new Main()).setCaseInsensitiveEnumValuesAllowed(true).execute(args);
        if (code != 0) {
            System.exit(code);
        }
    }

    @Override
    public void run() {
        new CommandLine(this).usage(System.out);
    }
}
