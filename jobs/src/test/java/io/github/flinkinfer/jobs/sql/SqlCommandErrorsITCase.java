package io.github.flinkinfer.jobs.sql;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.flinkinfer.jobs.testutils.Launcher;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code sql --file} keeps the CLI's error contract (issue 40): a statement the planner refuses
 * and a statement whose job fails each end the script with exit code 2 and one {@code error:}
 * line naming the statement and the cause; the stack trace only with {@code --verbose}.
 */
class SqlCommandErrorsITCase {
    @TempDir Path tmp;

    @Test
    void aStatementThePlannerRefusesIsOneLine() throws Exception {
        Path script = Files.writeString(tmp.resolve("typo.sql"), String.join("\n",
                "CREATE TABLE `out` (n INT) WITH ('connector' = 'blackhole');",
                "INSERT INTO `out` SELECT n FROM nowhere;"));

        Launcher.Result r = Launcher.run(tmp, Map.of(), "sql", "--file", script.toString());

        assertOneErrorLine(r, "SQL statement 2 (INSERT INTO `out` SELECT n FROM nowhere) is not valid:",
                "Object 'nowhere' not found");

        Launcher.Result verbose = Launcher.run(tmp, Map.of(), "sql", "--file", script.toString(), "--verbose");
        assertThat(verbose.exitCode()).isEqualTo(2);
        assertThat(verbose.stderr()).as("--verbose shows the trace").contains("\tat org.apache.flink.table");
    }

    @Test
    void aStatementWhoseJobFailsIsOneLine() throws Exception {
        Path numbers = Files.createDirectories(tmp.resolve("numbers"));
        Files.writeString(numbers.resolve("part.jsonl"), "{\"s\": \"1\"}\n{\"s\": \"not-a-number\"}\n");
        Path script = Files.writeString(tmp.resolve("cast.sql"), String.join("\n",
                "CREATE TABLE numbers (s STRING) WITH ('connector' = 'filesystem', 'path' = '" + numbers + "',",
                "  'format' = 'json');",
                "CREATE TABLE `out` (n INT) WITH ('connector' = 'blackhole');",
                "INSERT INTO `out` SELECT CAST(s AS INT) FROM numbers;"));

        Launcher.Result r = Launcher.run(tmp, Map.of(), "sql", "--file", script.toString());

        assertOneErrorLine(r, "SQL statement 3 (INSERT INTO `out` SELECT CAST(s AS INT) FROM numbers) failed:",
                "not-a-number");
    }

    private static void assertOneErrorLine(Launcher.Result r, String... contains) {
        assertThat(r.exitCode()).as("exit code; stdout:%n%s%nstderr:%n%s", r.stdout(), r.stderr()).isEqualTo(2);
        assertThat(r.errorLines()).as("stderr:%n%s", r.stderr()).singleElement()
                .satisfies(line -> assertThat(line).contains(contains));
        assertThat(r.stdout() + r.stderr()).as("no stack trace on the console").doesNotContain("\tat ", "Exception:");
    }
}
