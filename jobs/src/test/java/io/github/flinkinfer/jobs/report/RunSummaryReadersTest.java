package io.github.flinkinfer.jobs.report;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.flinkinfer.operators.ledger.RunLedger;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The summary's readers line: how far the inputs spread over the reader subtasks. */
class RunSummaryReadersTest {

    @Test
    void saysHowManyReadersParsedDocumentsAndWhereTheOthersHadNothing() throws Exception {
        assertThat(printed(4, 100, 120, 0, 90)).contains(
                "  readers            3 of 4 reader subtasks parsed documents (90 to 120 each); the others had no"
                        + " input to read (docs/operations.md, \"Input splits\")");
        assertThat(printed(2, 1_000, 1_200)).contains(
                "  readers            2 of 2 reader subtasks parsed documents (1,000 to 1,200 each)\n");
        assertThat(printed(2, 2_000)).contains("  readers            1 of 2 reader subtasks parsed documents (2,000 each);");
        assertThat(printed(1, 10)).as("one reader: nothing to say").doesNotContain("readers");
        assertThat(printed(0)).as("an older ledger").doesNotContain("readers");
    }

    /** The summary of a run whose reader {@code i} parsed {@code parsed[i]} documents. */
    private static String printed(int readers, long... parsed) throws Exception {
        RunLedger ledger = new RunLedger();
        for (int i = 0; i < parsed.length; i++) {
            RunLedger partial = new RunLedger();
            for (long d = 0; d < parsed[i]; d++) {
                partial.addParsed("/in/part.jsonl@" + d);
            }
            partial.madeBy(i, readers);
            ledger.merge(partial);
        }
        RunSummary s = RunSummary.of("r", ledger, new ObjectMapper().readTree(
                "{\"submittedAtMillis\": 1700000000000, \"model\": {\"task\": \"embedding\"}}"), null);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        s.print(new PrintStream(out, true, StandardCharsets.UTF_8));
        return out.toString(StandardCharsets.UTF_8);
    }
}
