package io.github.flinkinfer.jobs.io;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.io.LocalInputFile;

/** For the tests of writers under a {@link RowGroupBudget}: a file's row groups, and other writers held open. */
final class RowGroups {
    private RowGroups() {}

    /** The row groups in a Parquet file's footer. */
    static int of(Path file) throws IOException {
        try (ParquetFileReader footer = ParquetFileReader.open(new LocalInputFile(file))) {
            return footer.getFooter().getBlocks().size();
        }
    }

    /** Opens {@code n} stand-in writers in {@code budget}; close them with {@code budget.closed}. */
    static List<Object> occupy(RowGroupBudget budget, int n) {
        List<Object> others = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            Object other = new Object();
            others.add(other);
            budget.opened(other);
        }
        return others;
    }
}
