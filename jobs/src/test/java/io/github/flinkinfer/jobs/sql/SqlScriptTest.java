package io.github.flinkinfer.jobs.sql;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Splitting scripts into statements, and SET lines. */
class SqlScriptTest {
    @Test
    void splitsOnSemicolonsOutsideQuotesAndComments() {
        String script = "-- a comment; not a statement\n"
                + "CREATE TABLE t (a STRING) WITH ('path' = 'x;y', 'q' = 'it''s; fine');\n"
                + "/* block; comment */ SELECT `a;b` FROM t;\n\n;  ";
        assertThat(SqlScript.statements(script)).containsExactly(
                "CREATE TABLE t (a STRING) WITH ('path' = 'x;y', 'q' = 'it''s; fine')",
                "SELECT `a;b` FROM t");
    }

    @Test
    void keepsAStatementSetWhole() {
        String script = "CREATE TABLE t (a STRING);\n"
                + "EXECUTE STATEMENT SET\nBEGIN\n"
                + "  INSERT INTO x SELECT a FROM t WHERE a <> 'END;';\n"
                + "  INSERT INTO y SELECT a FROM t; -- the END of it\n"
                + "END;\nSELECT 1;";
        assertThat(SqlScript.statements(script)).containsExactly(
                "CREATE TABLE t (a STRING)",
                "EXECUTE STATEMENT SET\nBEGIN\n"
                        + "  INSERT INTO x SELECT a FROM t WHERE a <> 'END;';\n"
                        + "  INSERT INTO y SELECT a FROM t; \nEND",
                "SELECT 1");
    }

    @Test
    void readsSetStatements() {
        assertThat(SqlScript.set("SET 'parallelism.default' = '2'"))
                .hasValueSatisfying(kv -> assertThat(kv).containsExactly("parallelism.default", "2"));
        assertThat(SqlScript.set("SELECT 1")).isEmpty();
    }
}
