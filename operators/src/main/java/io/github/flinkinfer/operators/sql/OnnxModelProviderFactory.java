package io.github.flinkinfer.operators.sql;

import static io.github.flinkinfer.operators.sql.OnnxModelOptions.*;

import io.github.flinkinfer.operators.batch.BatchingConfig;
import io.github.flinkinfer.operators.models.ModelCards;
import io.github.flinkinfer.operators.run.ModelRuntimeFactory;
import io.github.flinkinfer.runtime.Device;
import io.github.flinkinfer.runtime.card.ModelCard;
import io.github.flinkinfer.runtime.onnx.RuntimeOptions;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.catalog.Column;
import org.apache.flink.table.catalog.ResolvedCatalogModel;
import org.apache.flink.table.factories.FactoryUtil;
import org.apache.flink.table.factories.ModelProviderFactory;
import org.apache.flink.table.ml.ModelProvider;
import org.apache.flink.table.types.logical.LogicalTypeFamily;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code 'provider' = 'onnx'}: a local ONNX model, batched by token length, from SQL. Found by
 * Flink through {@code META-INF/services/org.apache.flink.table.factories.Factory}. The model card
 * is resolved and the schemas checked at planning time, so a wrong name fails the statement.
 *
 * <pre>{@code
 * CREATE MODEL minilm INPUT (text STRING) OUTPUT (embedding ARRAY<FLOAT>)
 * WITH ('provider' = 'onnx', 'model' = 'all-minilm-l6-v2', 'max-batch-tokens' = '8192');
 * }</pre>
 */
public final class OnnxModelProviderFactory implements ModelProviderFactory {
    private static final Logger LOG = LoggerFactory.getLogger(OnnxModelProviderFactory.class);
    public static final String IDENTIFIER = "onnx";

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
        return Set.of(MODEL, INPUT_KIND, DEVICE, MAX_LENGTH, OVERLONG, BUCKET_EDGES, MAX_BATCH_TOKENS,
                MAX_BATCH_SIZE, LOOKAHEAD_BATCHES, MAX_WAIT, INTRA_OP_THREADS, OPTIMIZATION_LEVEL,
                LABELS);
    }

    @Override
    public ModelProvider createModelProvider(Context context) {
        FactoryUtil.ModelProviderFactoryHelper helper =
                FactoryUtil.createModelProviderFactoryHelper(this, context);
        helper.validate();
        ReadableConfig o = helper.getOptions();
        ResolvedCatalogModel model = context.getCatalogModel();
        checkInput(model);
        try {
            ModelCard card = ModelCards.resolve(o.get(MODEL)).forInputs(o.get(INPUT_KIND));
            RuntimeOptions runtime = new RuntimeOptions(Device.parse(o.get(DEVICE)),
                    o.get(INTRA_OP_THREADS), o.get(OPTIMIZATION_LEVEL), o.get(MAX_LENGTH));
            int capacity = context.getConfiguration().get(ASYNC_CAPACITY);
            int batchSize = o.get(MAX_BATCH_SIZE);
            BatchingConfig batching = new BatchingConfig(io.github.flinkinfer.operators.batch.BatchingOptions.edges(o.get(BUCKET_EDGES)),
                    o.get(MAX_BATCH_TOKENS), batchSize, Math.max(batchSize, capacity),
                    o.get(LOOKAHEAD_BATCHES), Math.max(1, o.get(MAX_WAIT).toMillis()))
                    .validateFor(runtime.effectiveMaxLength(card));
            List<String> labels = o.getOptional(LABELS)
                    .map(s -> Arrays.stream(s.split(",")).map(String::trim).toList())
                    .orElse(List.of());
            OutputColumns columns =
                    OutputColumns.of(model.getResolvedOutputSchema(), card, labels);
            if (capacity < batchSize) {
                LOG.warn("Model {}: batches are capped at {} rows by"
                                + " table.exec.async-ml-predict.max-concurrent-operations; raise it"
                                + " to max-batch-size ({}) or more for full batches",
                        context.getObjectIdentifier(), capacity, batchSize);
            }
            return new OnnxModelProvider(new PredictSetup(ModelRuntimeFactory.onnx(card, runtime),
                    batching, o.get(OVERLONG), columns), capacity);
        } catch (IllegalArgumentException e) {
            throw new ValidationException("Model " + context.getObjectIdentifier() + ": "
                    + e.getMessage(), e);
        }
    }

    private static void checkInput(ResolvedCatalogModel model) {
        List<Column> in = model.getResolvedInputSchema().getColumns();
        if (in.size() != 1
                || !in.get(0).getDataType().getLogicalType().is(LogicalTypeFamily.CHARACTER_STRING)) {
            throw new ValidationException("An onnx model takes one STRING input column (the text),"
                    + " e.g. INPUT (text STRING); got " + model.getResolvedInputSchema());
        }
    }

}
