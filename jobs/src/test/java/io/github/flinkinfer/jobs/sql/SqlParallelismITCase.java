package io.github.flinkinfer.jobs.sql;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.flinkinfer.jobs.testutils.ClusterTestBase;
import io.github.flinkinfer.jobs.testutils.Corpus;
import io.github.flinkinfer.operators.sql.PredictRecorder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import org.junit.jupiter.api.Test;

/**
 * ML_PREDICT at parallelism 2 runs rows on both subtasks when a shuffle comes before it ({@link
 * SqlEmbedding}'s {@code GROUP BY id}). Read straight from files it is chained to the source: a
 * single file is one split (one subtask gets every row), and small files are all taken by the
 * first reader to ask (the other is still loading its model). Those two are printed, not
 * asserted (see docs/sql.md, Parallelism).
 */
class SqlParallelismITCase extends ClusterTestBase {
    private static final int ROWS = 200;

    @Test
    void rowsReachBothSubtasks() throws Exception {
        Map<String, String> corpus = Corpus.sample(ROWS);
        Path single = Corpus.writeJsonl(tmp.resolve("single.jsonl"), corpus);
        Path dir = Files.createDirectories(tmp.resolve("parts"));
        List<String> ids = List.copyOf(corpus.keySet());
        for (int part = 0; part < 2; part++) {
            Map<String, String> half = new LinkedHashMap<>();
            for (int i = part; i < ids.size(); i += 2) {
                half.put(ids.get(i), corpus.get(ids.get(i)));
            }
            Corpus.writeJsonl(dir.resolve("part-" + part + ".jsonl"), half);
        }

        SortedMap<Integer, Integer> grouped = recorded(() -> SqlEmbedding.run(single,
                tmp.resolve("grouped"), "all-minilm-l6-v2", 2, Map.of()));
        SortedMap<Integer, Integer> files = recorded(() -> straight(dir, tmp.resolve("files")));
        SortedMap<Integer, Integer> oneFile = recorded(() -> straight(single, tmp.resolve("one")));
        System.out.printf("SqlParallelismITCase rows per ML_PREDICT subtask: GROUP BY %s,"
                + " 2 files %s, 1 file %s%n", grouped, files, oneFile);

        assertThat(grouped).containsOnlyKeys(0, 1);
        assertThat(grouped.values().stream().mapToInt(Integer::intValue).sum()).isEqualTo(ROWS);
        assertThat(files.values().stream().mapToInt(Integer::intValue).sum()).isEqualTo(ROWS);
        assertThat(oneFile.values().stream().mapToInt(Integer::intValue).sum()).isEqualTo(ROWS);
    }

    /** The issue's statement shape: the table read straight into ML_PREDICT, no shuffle. */
    private static void straight(Path input, Path output) throws Exception {
        SqlRunner.execute(SqlRunner.environment(2, Map.of()), IssueSql.embed(input, output, ""), System.out);
    }

    private interface Run {
        void run() throws Exception;
    }

    /** Rows per ML_PREDICT subtask during {@code run}. */
    private static SortedMap<Integer, Integer> recorded(Run run) throws Exception {
        PredictRecorder.start();
        try {
            run.run();
        } catch (Exception e) {
            PredictRecorder.stop();
            throw e;
        }
        return PredictRecorder.stop().rowsBySubtask();
    }
}
