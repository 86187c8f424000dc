package io.github.flinkinfer.jobs.sql.format;

import org.apache.flink.api.common.serialization.DeserializationSchema;
import org.apache.flink.connector.file.src.FileSourceSplit;
import org.apache.flink.connector.file.src.reader.BulkFormat;
import org.apache.flink.connector.file.table.format.BulkDecodingFormat;
import org.apache.flink.table.connector.ChangelogMode;
import org.apache.flink.table.connector.Projection;
import org.apache.flink.table.connector.format.DecodingFormat;
import org.apache.flink.table.connector.source.DynamicTableSource;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.DataType;

/**
 * Plans the {@code json-with-errors} reader for one table: finds the error and source columns,
 * and lets Flink's {@code json} format convert the other columns. Not projectable: the
 * filesystem connector projects after reading, so every line is decoded whole.
 */
final class JsonWithErrorsDecodingFormat implements BulkDecodingFormat<RowData> {
    private final DecodingFormat<DeserializationSchema<RowData>> json;
    private final int maxLineBytes;
    private final String errorColumn;
    private final String sourceColumn;

    JsonWithErrorsDecodingFormat(DecodingFormat<DeserializationSchema<RowData>> json,
            int maxLineBytes, String errorColumn, String sourceColumn) {
        this.json = json;
        this.maxLineBytes = maxLineBytes;
        this.errorColumn = errorColumn;
        this.sourceColumn = sourceColumn;
    }

    @Override
    public BulkFormat<RowData, FileSourceSplit> createRuntimeDecoder(
            DynamicTableSource.Context context, DataType physicalDataType) {
        RowShape shape = RowShape.of(physicalDataType, errorColumn, sourceColumn);
        DataType jsonRow = Projection.of(shape.jsonIndexes()).project(physicalDataType);
        return new JsonWithErrorsBulkFormat(maxLineBytes,
                json.createRuntimeDecoder(context, jsonRow), shape,
                context.createTypeInformation(physicalDataType));
    }

    @Override
    public ChangelogMode getChangelogMode() {
        return ChangelogMode.insertOnly();
    }
}
