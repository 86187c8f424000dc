package io.github.flinkinfer.jobs.cli;

import io.github.flinkinfer.jobs.plan.PlanCommand;
import io.github.flinkinfer.jobs.report.QualityGateException;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code flink-inference} command line: one subcommand per job or tool. */
@Command(name = "flink-inference", mixinStandardHelpOptions = true,
        version = "flink-inference 0.1.0",
        description = "Offline batch inference on Apache Flink with ONNX Runtime.",
        subcommands = {EmbeddingJob.class, ModerationJob.class, ReportCommand.class,
                io.github.flinkinfer.jobs.sql.SqlCommand.class, PlanCommand.class,
                io.github.flinkinfer.jobs.models.ModelsCommand.class, DoctorCommand.class})
public final class Main implements Runnable {
    /** Held: java.util.logging keeps only weak references to its loggers, and with them their levels. */
    private static final java.util.logging.Logger AWS_SDK_LOG = java.util.logging.Logger.getLogger("com.amazonaws");

    public static void main(String[] args) {
        io.github.flinkinfer.runtime.files.Sha256.warmUp(); // compiled before the model is hashed, seconds later
        boolean verbose = java.util.Arrays.asList(args).contains("--verbose");
        if (verbose) {
            // before the first logger: the local log configuration reads these
            System.setProperty("flinkinfer.log.root", "WARN");
            System.setProperty("flinkinfer.log.ours", "INFO");
            System.setProperty(io.github.flinkinfer.runtime.onnx.OrtSessions.LOG_LEVEL_PROPERTY, "warning");
        } else {
            // the S3 plugin's AWS SDK v1 logs through java.util.logging, past the log configuration:
            // a 40-line deprecation notice on every s3:// run, a missing mime.types file
            AWS_SDK_LOG.setLevel(java.util.logging.Level.SEVERE);
        }
        CommandLine cli = commandLine();
        cli.setExecutionExceptionHandler((e, cmd, parsed) -> {
            if (!isUsageError(e)) {
                throw e;
            }
            cmd.getErr().println("error: " + e.getMessage());
            if (verbose) {
                e.printStackTrace(cmd.getErr());
            }
            return 2;
        });
        cli.setParameterExceptionHandler((e, given) -> badOptions(e, verbose));
        int code = cli.execute(args);
        if (code == 0) {
            if (io.github.flinkinfer.jobs.run.EmbeddedEnvironment.InThisJvm.created()) {
                // the report and the marker are written: exit once the cluster has shut down
                // rather than wait (up to a second) for its threads to wind down
                io.github.flinkinfer.jobs.run.EmbeddedEnvironment.InThisJvm.awaitClusterShutdown(
                        java.time.Duration.ofSeconds(5));
                System.exit(0);
            }
            return;
        }
        if (!(org.apache.flink.streaming.api.environment.StreamExecutionEnvironment.getExecutionEnvironment()
                instanceof org.apache.flink.streaming.api.environment.LocalStreamEnvironment)) {
            // Under flink run or in application mode Flink owns the process: fail the program
            // (and so the application) instead of exiting the JVM under the cluster.
            throw new IllegalStateException("flink-inference failed (exit code " + code
                    + "); see the error above");
        }
        System.exit(code);
    }

    /**
     * The command line with every subcommand, each made by {@link Commands}, and the run commands'
     * grouped help.
     */
    public static CommandLine commandLine() {
        CommandLine cli = new CommandLine(new Main(), new Commands()).setCaseInsensitiveEnumValuesAllowed(true);
        GroupedHelp.install(cli.getSubcommands().get("embed"));
        GroupedHelp.install(cli.getSubcommands().get("moderate"));
        return cli;
    }

    /** Makes the subcommands: {@code plan} with how {@code embed} decides its arguments, the rest as picocli does. */
    private static final class Commands implements CommandLine.IFactory {
        @Override
        public <K> K create(Class<K> cls) throws Exception {
            return cls == PlanCommand.class ? cls.cast(new PlanCommand(RunOptions::embed))
                    : CommandLine.defaultFactory().create(cls);
        }
    }

    /**
     * A mistyped or missing option: the error, picocli's suggestions, and one line pointing at
     * {@code --help} (not the whole usage, which would scroll the error away); exit 2.
     */
    static int badOptions(CommandLine.ParameterException e, boolean verbose) {
        CommandLine cmd = e.getCommandLine();
        java.io.PrintWriter err = cmd.getErr();
        err.println("error: " + e.getMessage());
        CommandLine.UnmatchedArgumentException.printSuggestions(e, err);
        err.println("Run '" + cmd.getCommandSpec().qualifiedName() + " --help' for the options.");
        if (verbose) {
            e.printStackTrace(err);
        }
        return cmd.getCommandSpec().exitCodeOnInvalidInput();
    }

    /**
     * The one place that decides which failures are the user's to fix (bad options, files, cards,
     * models, devices, failed gates): one {@code error:} line naming the cause and what to do, the
     * stack trace only with {@code --verbose}; anything else is a fault and keeps its trace.
     */
    static boolean isUsageError(Exception e) {
        return e instanceof IllegalArgumentException
                || e instanceof io.github.flinkinfer.runtime.files.ModelIntegrityException
                || e instanceof io.github.flinkinfer.operators.ledger.ErrorBudgetExceededException
                || e instanceof io.github.flinkinfer.runtime.DeviceUnavailableException
                || e instanceof QualityGateException
                || e instanceof io.github.flinkinfer.jobs.workload.WorkloadContractException;
    }

    @Override
    public void run() {
        new CommandLine(this).usage(System.out);
    }
}
