package io.github.flinkinfer.jobs.sql;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code sql --file script.sql}: runs a SQL script in BATCH mode (see docs/sql.md). */
@Command(name = "sql", mixinStandardHelpOptions = true,
        description = "Run a Flink SQL script in BATCH mode, e.g. CREATE MODEL ... WITH"
                + " ('provider' = 'onnx') and ML_PREDICT (see docs/sql.md).")
public final class SqlCommand implements Callable<Integer> {
    @Option(names = {"-f", "--file"}, required = true,
            description = "The SQL script; statements end with ';'. SET 'key' = 'value' works.")
    Path file;

    @Option(names = {"-p", "--parallelism"}, defaultValue = "0",
            description = "Default parallelism (0 = the cluster's default: cores on the embedded"
                    + " cluster). Default: ${DEFAULT-VALUE}.")
    int parallelism;

    @Option(names = "--set", description = "Table config key=value (repeatable), applied before"
            + " the script, e.g. --set table.exec.async-ml-predict.max-concurrent-operations=2048.")
    Map<String, String> settings = new LinkedHashMap<>();

    @Option(names = "--verbose", description = "Log our INFO and every library's warnings on the console,"
            + " and print the stack trace of a statement that fails.")
    boolean verbose; // read by Main before logging starts

    @Override
    public Integer call() throws Exception {
        if (!Files.isRegularFile(file)) {
            throw new IllegalArgumentException("No SQL script at " + file);
        }
        long start = System.nanoTime();
        int inserts = SqlRunner.execute(SqlRunner.environment(parallelism, settings),
                Files.readString(file), System.out);
        System.out.printf("sql: %d INSERT statement(s) in %.1f s%n", inserts,
                (System.nanoTime() - start) / 1e9);
        return 0;
    }
}
