package io.github.flinkinfer.jobs.io;

import io.github.flinkinfer.jobs.io.ParquetInput.Row;
import io.github.flinkinfer.jobs.io.ParquetRowGroups.RowGroup;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import org.apache.flink.connector.file.src.FileSourceSplit;
import org.apache.flink.connector.file.src.reader.BulkFormat;
import org.apache.flink.connector.file.src.util.CheckpointedPosition;
import org.apache.flink.connector.file.src.util.RecordAndPosition;
import org.apache.flink.core.fs.FSDataInputStream;
import org.apache.flink.formats.parquet.ParquetInputFile;
import org.apache.parquet.ParquetReadOptions;
import org.apache.parquet.conf.PlainParquetConfiguration;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.convert.GroupRecordConverter;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.io.ColumnIOFactory;
import org.apache.parquet.io.MessageColumnIO;
import org.apache.parquet.io.RecordReader;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.Type;

/**
 * Reads the row groups of one byte-range split of a Parquet file ({@link ParquetRowGroups}), only
 * the id and text columns, in batches of whole rows. A row's checkpointed position is its row
 * group's byte offset and the rows of that group read so far, so a restored reader reopens that
 * group and skips within it only. A position without an offset (the whole-file reader of earlier
 * versions) counts rows from the split's first.
 *
 * <pre>{@code
 * BulkFormat.Reader<Row> rows = new ParquetSplitReader(split, "id", "text", split.getReaderPosition().orElse(null));
 * }</pre>
 */
final class ParquetSplitReader implements BulkFormat.Reader<Row> {
    /** Rows handed over at once; fewer once their texts pass {@link #BATCH_CHARS}. */
    static final int BATCH_ROWS = 1024;
    private static final long BATCH_CHARS = 4L << 20;

    private final ParquetFileReader file;
    private final String path;
    private final List<RowGroup> groups;
    private final MessageType projection;
    private final MessageColumnIO columns;
    private final int idIndex;
    private final int textIndex;
    /** The next of {@link #groups} to open. */
    private int next;
    private RowGroup group;
    /** Null when neither column is in the file: every row is two nulls. */
    private RecordReader<Group> records;
    private long readInGroup;

    ParquetSplitReader(FileSourceSplit split, String idField, String textField, CheckpointedPosition at)
            throws IOException {
        FSDataInputStream in = split.path().getFileSystem().open(split.path());
        try {
            file = ParquetFileReader.open(new ParquetInputFile(in, split.fileSize()),
                    ParquetReadOptions.builder(new PlainParquetConfiguration()).build());
        } catch (IOException | RuntimeException e) {
            in.close();
            throw e;
        }
        try {
            path = split.path().toString();
            groups = ParquetRowGroups.in(file.getRowGroups(), split.offset(), split.offset() + split.length());
            MessageType schema = file.getFileMetaData().getSchema();
            List<Type> read = new ArrayList<>();
            for (String field : new LinkedHashSet<>(List.of(idField, textField))) {
                if (schema.containsField(field)) {
                    read.add(schema.getType(field));
                }
            }
            projection = new MessageType(schema.getName(), read);
            file.setRequestedSchema(projection);
            columns = new ColumnIOFactory().getColumnIO(projection, schema);
            idIndex = projection.containsField(idField) ? projection.getFieldIndex(idField) : -1;
            textIndex = projection.containsField(textField) ? projection.getFieldIndex(textField) : -1;
            if (at != null) {
                restore(at);
            }
        } catch (IOException | RuntimeException e) {
            file.close();
            throw e;
        }
    }

    @Override
    public BulkFormat.RecordIterator<Row> readBatch() throws IOException {
        Batch batch = new Batch();
        long chars = 0;
        while (batch.size < BATCH_ROWS && chars < BATCH_CHARS) {
            if (group == null || readInGroup == group.rows()) {
                if (next == groups.size()) {
                    break;
                }
                open(groups.get(next++));
                continue;
            }
            Group record = records == null ? null : records.read();
            readInGroup++;
            Row row = new Row();
            row.file = path;
            row.row = group.firstRow() + readInGroup - 1;
            row.id = value(record, idIndex);
            row.text = value(record, textIndex);
            chars += row.text == null ? 0 : row.text.length();
            batch.add(row, group.start(), readInGroup);
        }
        return batch.size == 0 ? null : batch;
    }

    @Override
    public void close() throws IOException {
        file.close();
    }

    /** Goes to {@code at}: its row group, then past the rows of it already read. */
    private void restore(CheckpointedPosition at) throws IOException {
        long skip = at.getRecordsAfterOffset();
        if (at.getOffset() == CheckpointedPosition.NO_OFFSET) {
            while (next < groups.size() && skip >= groups.get(next).rows()) {
                skip -= groups.get(next++).rows();
            }
        } else {
            while (next < groups.size() && groups.get(next).start() != at.getOffset()) {
                next++;
            }
            if (next == groups.size()) {
                throw new IOException("No row group of " + path + " starts at byte " + at.getOffset()
                        + " in the split being restored");
            }
        }
        if (next < groups.size() && skip >= groups.get(next).rows()) { // the group was read to its end
            next++;
        } else if (next < groups.size() && skip > 0) {
            open(groups.get(next++));
            for (; readInGroup < skip; readInGroup++) {
                if (records != null) {
                    records.read();
                }
            }
        }
    }

    private void open(RowGroup g) throws IOException {
        group = g;
        readInGroup = 0;
        records = projection.getFieldCount() == 0 ? null
                : columns.getRecordReader(file.readRowGroup(g.index()), new GroupRecordConverter(projection));
    }

    /** A column's value as text (strings as they are, numbers in decimal); null when absent. */
    private static String value(Group record, int field) {
        return record == null || field < 0 || record.getFieldRepetitionCount(field) == 0 ? null
                : record.getValueToString(field, 0);
    }

    /** One batch of rows with their positions. */
    private static final class Batch implements BulkFormat.RecordIterator<Row> {
        private final Row[] rows = new Row[BATCH_ROWS];
        private final long[] offsets = new long[BATCH_ROWS];
        private final long[] counts = new long[BATCH_ROWS];
        private int size;
        private int at;

        void add(Row row, long offset, long count) {
            rows[size] = row;
            offsets[size] = offset;
            counts[size++] = count;
        }

        @Override
        public RecordAndPosition<Row> next() {
            if (at == size) {
                return null;
            }
            int i = at++;
            return new RecordAndPosition<>(rows[i], offsets[i], counts[i]);
        }

        @Override
        public void releaseBatch() {}
    }
}
