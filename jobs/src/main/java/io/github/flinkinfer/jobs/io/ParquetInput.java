package io.github.flinkinfer.jobs.io;

import io.github.flinkinfer.operators.Document;
import io.github.flinkinfer.operators.Outputs;
import io.github.flinkinfer.operators.errors.ErrorReason;
import io.github.flinkinfer.operators.errors.ErrorRecord;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.file.src.FileSourceSplit;
import org.apache.flink.connector.file.src.reader.BulkFormat;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.util.Collector;

/**
 * Reads the id and text columns of Parquet files (projection: other columns are not read) by row
 * group: the files are cut into byte ranges ({@link ByteRangeEnumerator}, as line inputs are) and
 * each range reads the row groups whose midpoint it holds ({@link ParquetRowGroups}), so one large
 * file is read by every reader. Each row keeps its position {@code <path>:<row>} (the file's whole
 * path, 1-based row in the whole file, whichever split read it), so rows of same-named files in two
 * directories stay apart. Column values are read as text: strings as they are, numbers in decimal.
 */
public final class ParquetInput {
    private ParquetInput() {}

    /** One projected row and where it came from. */
    public static class Row {
        /** The file's whole path. */
        public String file;
        /** 1-based row number in the file. */
        public long row;
        public String id;
        public String text;

        public Row() {}

        public String position() {
            return file + ":" + row;
        }
    }

    /** The projected rows of each split's row groups, numbered in the whole file from 1. */
    public static BulkFormat<Row, FileSourceSplit> format(String idField, String textField) {
        return new RowGroups(idField, textField);
    }

    /** The format behind the file source: splittable by byte range, read by row group. */
    private record RowGroups(String idField, String textField) implements BulkFormat<Row, FileSourceSplit> {
        @Override
        public Reader<Row> createReader(Configuration config, FileSourceSplit split) {
            return InputFiles.openInSubtask(split.path(), () -> new ParquetSplitReader(split, idField, textField, null));
        }

        @Override
        public Reader<Row> restoreReader(Configuration config, FileSourceSplit split) {
            return InputFiles.openInSubtask(split.path(), () -> new ParquetSplitReader(split, idField, textField,
                    split.getReaderPosition().orElse(null)));
        }

        @Override
        public boolean isSplittable() {
            return true;
        }

        @Override
        public TypeInformation<Row> getProducedType() {
            return TypeInformation.of(Row.class);
        }
    }

    /** Turns projected rows into documents, or errors for missing fields. */
    public static final class ToDocument extends ProcessFunction<Row, Document> {
        @Override
        public void processElement(Row row, Context ctx, Collector<Document> out) {
            String pos = row.position();
            if (row.id == null) {
                ctx.output(Outputs.ERRORS,
                        ErrorRecord.of(null, pos, ErrorReason.MISSING_ID, "null id", 1));
            } else if (row.text == null || row.text.isBlank()) {
                ctx.output(Outputs.ERRORS,
                        ErrorRecord.of(row.id, pos, ErrorReason.EMPTY_TEXT,
                                "text is null, empty or whitespace", 1));
            } else {
                out.collect(new Document(row.id, row.text, pos));
            }
        }
    }
}
