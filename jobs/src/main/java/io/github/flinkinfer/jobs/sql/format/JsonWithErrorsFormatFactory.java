package io.github.flinkinfer.jobs.sql.format;

import java.util.Set;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.connector.file.table.factories.BulkReaderFormatFactory;
import org.apache.flink.connector.file.table.format.BulkDecodingFormat;
import org.apache.flink.formats.json.JsonFormatFactory;
import org.apache.flink.formats.json.JsonFormatOptions;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.factories.DynamicTableFactory;
import org.apache.flink.table.factories.FactoryUtil;

/**
 * {@code 'format' = 'json-with-errors'}: JSON Lines for the filesystem connector where a line
 * that cannot be read becomes an error row instead of failing the job (Flink's {@code json}) or
 * vanishing ({@code 'json.ignore-parse-errors'}). Found by Flink's service loader.
 *
 * <pre>{@code
 * CREATE TABLE docs (doc_id STRING, body STRING, error STRING, source STRING)
 *   WITH ('connector' = 'filesystem', 'path' = 'in/', 'format' = 'json-with-errors');
 * }</pre>
 */
public final class JsonWithErrorsFormatFactory implements BulkReaderFormatFactory {
    public static final String IDENTIFIER = "json-with-errors";

    public static final ConfigOption<String> ERROR_COLUMN = ConfigOptions.key("error-column")
            .stringType()
            .defaultValue("error")
            .withDescription("STRING column that gets parse/<reason> for a line that cannot be"
                    + " read (NULL otherwise); the table must declare it.");

    public static final ConfigOption<String> SOURCE_COLUMN = ConfigOptions.key("source-column")
            .stringType()
            .defaultValue("source")
            .withDescription("STRING column, if declared, that gets each line's file:line.");

    public static final ConfigOption<Integer> MAX_LINE_BYTES = ConfigOptions.key("max-line-bytes")
            .intType()
            .defaultValue(1 << 20)
            .withDescription("Longer lines are skipped unread as parse/record_too_large (as"
                    + " embed's --max-record-bytes).");

    @Override
    public BulkDecodingFormat<RowData> createDecodingFormat(DynamicTableFactory.Context context,
            ReadableConfig formatOptions) {
        FactoryUtil.validateFactoryOptions(this, formatOptions);
        int maxLineBytes = formatOptions.get(MAX_LINE_BYTES);
        if (maxLineBytes <= 0) {
            throw new IllegalArgumentException(IDENTIFIER + "." + MAX_LINE_BYTES.key()
                    + " must be > 0");
        }
        // Flink's json converts the columns; a line it cannot read is ours to report
        Configuration json = new Configuration();
        json.set(JsonFormatOptions.FAIL_ON_MISSING_FIELD, false);
        json.set(JsonFormatOptions.IGNORE_PARSE_ERRORS, false);
        return new JsonWithErrorsDecodingFormat(
                new JsonFormatFactory().createDecodingFormat(context, json), maxLineBytes,
                formatOptions.get(ERROR_COLUMN), formatOptions.get(SOURCE_COLUMN));
    }

    @Override
    public String factoryIdentifier() {
        return IDENTIFIER;
    }

    @Override
    public Set<ConfigOption<?>> requiredOptions() {
        return Set.of();
    }

    @Override
    public Set<ConfigOption<?>> optionalOptions() {
        return Set.of(ERROR_COLUMN, SOURCE_COLUMN, MAX_LINE_BYTES);
    }
}
