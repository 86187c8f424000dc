package io.github.flinkinfer.jobs.sql.format;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.types.DataType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.LogicalTypeFamily;

/**
 * Where the format's own columns sit in the table's row: the error column (required, so a bad
 * line can never vanish), the optional source column, and the columns read from the JSON.
 */
record RowShape(int arity, int errorIndex, int sourceIndex, int[] jsonIndexes,
        LogicalType[] jsonTypes) implements Serializable {

    /** Finds the columns by name in the physical row type; fails planning if one is unusable. */
    static RowShape of(DataType physicalRow, String errorColumn, String sourceColumn) {
        List<String> names = DataType.getFieldNames(physicalRow);
        List<DataType> types = DataType.getFieldDataTypes(physicalRow);
        int error = names.indexOf(errorColumn);
        if (error < 0) {
            throw new ValidationException(String.format("Format '%s' needs a column `%s` STRING"
                    + " for the lines it cannot read (or name another with '%s.%s'); columns: %s",
                    JsonWithErrorsFormatFactory.IDENTIFIER, errorColumn,
                    JsonWithErrorsFormatFactory.IDENTIFIER,
                    JsonWithErrorsFormatFactory.ERROR_COLUMN.key(), names));
        }
        int source = names.indexOf(sourceColumn);
        requireString(errorColumn, types.get(error).getLogicalType());
        if (source >= 0) {
            requireString(sourceColumn, types.get(source).getLogicalType());
        }
        List<Integer> json = new ArrayList<>();
        for (int i = 0; i < names.size(); i++) {
            if (i != error && i != source) {
                json.add(i);
            }
        }
        int[] jsonIndexes = json.stream().mapToInt(Integer::intValue).toArray();
        LogicalType[] jsonTypes = new LogicalType[jsonIndexes.length];
        for (int i = 0; i < jsonIndexes.length; i++) {
            jsonTypes[i] = types.get(jsonIndexes[i]).getLogicalType();
        }
        return new RowShape(names.size(), error, source, jsonIndexes, jsonTypes);
    }

    private static void requireString(String column, LogicalType type) {
        if (!type.is(LogicalTypeFamily.CHARACTER_STRING)) {
            throw new ValidationException(String.format("Format '%s': column `%s` must be STRING,"
                    + " not %s", JsonWithErrorsFormatFactory.IDENTIFIER, column, type));
        }
    }
}
