package io.github.flinkinfer.jobs.io;

import io.github.flinkinfer.jobs.spec.OutputFormat;
import java.io.IOException;
import org.apache.flink.core.fs.FSDataInputStream;
import org.apache.flink.formats.parquet.ParquetInputFile;
import org.apache.parquet.ParquetReadOptions;
import org.apache.parquet.conf.PlainParquetConfiguration;
import org.apache.parquet.hadoop.ParquetFileReader;

/**
 * The number of rows a committed Parquet file holds, from its footer: two small reads at the
 * file's end through any Flink file system, never the data, so a run's manifest can name each
 * file's rows at O(files) cost whatever the corpus size. Parquet's plain configuration, not
 * Hadoop's: a {@code flink run} client need not have Hadoop.
 */
public final class ParquetRows {
    private ParquetRows() {}

    /** Whether {@code fileName} is one of our Parquet part files. */
    public static boolean isParquet(String fileName) {
        return fileName.endsWith(OutputFormat.PARQUET.suffix());
    }

    /** The rows of the Parquet file read from {@code in}, which is {@code length} bytes long. */
    public static long count(FSDataInputStream in, long length) throws IOException {
        try (ParquetFileReader footer = ParquetFileReader.open(new ParquetInputFile(in, length),
                ParquetReadOptions.builder(new PlainParquetConfiguration()).build())) {
            return footer.getRecordCount();
        }
    }
}
