package io.github.flinkinfer.jobs.sql;

import io.github.flinkinfer.operators.errors.NonRecoverableLoadException;
import java.io.PrintStream;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.configuration.BatchExecutionOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.ExecutionOptions;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.SqlParserException;
import org.apache.flink.table.api.TableException;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.TableResult;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;

/**
 * Runs SQL scripts in BATCH mode on the current execution environment (the embedded cluster from
 * the CLI, the MiniCluster in tests). Statements run one after another; each INSERT is awaited
 * before the next statement, SELECT results are printed. A statement the planner refuses, or
 * whose job fails, ends the script with a {@link SqlStatementException} naming it.
 *
 * <pre>{@code
 * TableEnvironment env = SqlRunner.environment(2, Map.of());
 * SqlRunner.execute(env, Files.readString(script), System.out);
 * }</pre>
 */
public final class SqlRunner {
    /**
     * Defaults that let ML_PREDICT batch: Flink's async capacity of 10 rows in flight per subtask
     * would cap every batch at 10; unordered output lets a finished batch leave at once.
     */
    public static final Map<String, String> DEFAULTS = Map.of(
            "table.exec.async-ml-predict.max-concurrent-operations", "1024",
            "table.exec.async-ml-predict.output-mode", "ALLOW_UNORDERED");

    private SqlRunner() {}

    /** A BATCH-mode table environment; {@code parallelism} 0 keeps the cluster default. */
    public static TableEnvironment environment(int parallelism, Map<String, String> settings) {
        Configuration conf = new Configuration();
        conf.set(ExecutionOptions.RUNTIME_MODE, RuntimeExecutionMode.BATCH);
        if (parallelism > 0) {
            // otherwise the adaptive batch scheduler sizes small inputs down to one subtask
            conf.set(BatchExecutionOptions.ADAPTIVE_AUTO_PARALLELISM_ENABLED, false);
        }
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        if (parallelism > 0) {
            env.setParallelism(parallelism);
        }
        TableEnvironment tEnv =
                StreamTableEnvironment.create(env, EnvironmentSettings.inBatchMode());
        DEFAULTS.forEach(tEnv.getConfig()::set);
        if (parallelism > 0) {
            tEnv.getConfig().set("table.exec.resource.default-parallelism",
                    String.valueOf(parallelism));
        }
        settings.forEach(tEnv.getConfig()::set);
        return tEnv;
    }

    /** Runs every statement of the script; returns the number of INSERT statements run. */
    public static int execute(TableEnvironment tEnv, String script, PrintStream out)
            throws Exception {
        int inserts = 0;
        int number = 0;
        for (String statement : SqlScript.statements(script)) {
            number++;
            Optional<String[]> set = SqlScript.set(statement);
            if (set.isPresent()) {
                tEnv.getConfig().set(set.get()[0], set.get()[1]);
                continue;
            }
            TableResult result;
            try {
                result = tEnv.executeSql(statement);
            } catch (ValidationException | SqlParserException | TableException e) {
                throw SqlStatementException.refused(number, statement, e);
            }
            String head = statement.stripLeading().toUpperCase(Locale.ROOT);
            if (head.startsWith("INSERT") || head.startsWith("EXECUTE")) {
                long start = System.nanoTime();
                try {
                    result.await();
                } catch (ExecutionException e) {
                    // a subtask's refused model file, device or card, reported as the driver's own checks
                    Optional<RuntimeException> load = NonRecoverableLoadException.originalIn(e);
                    if (load.isPresent()) {
                        throw load.get();
                    }
                    throw SqlStatementException.failed(number, statement, e);
                }
                inserts++;
                out.printf("sql: %s finished in %.1f s%n", firstLine(statement),
                        (System.nanoTime() - start) / 1e9);
            } else if (head.startsWith("SELECT") || head.startsWith("SHOW")
                    || head.startsWith("DESCRIBE") || head.startsWith("EXPLAIN")
                    || head.startsWith("WITH")) {
                result.print();
            }
        }
        return inserts;
    }

    static String firstLine(String statement) {
        String line = statement.strip().lines().findFirst().orElse("");
        return line.length() > 80 ? line.substring(0, 80) + "…" : line;
    }
}
