package io.github.flinkinfer.jobs.models;

import io.github.flinkinfer.runtime.card.ModelCard;
import io.github.flinkinfer.runtime.card.ModelFile;
import io.github.flinkinfer.runtime.card.ModelTask;
import io.github.flinkinfer.runtime.files.ModelFiles;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine.Command;

/**
 * {@code models}: lists the built-in model cards (task, dimensions, max length, pooling,
 * prefixes, size, licence), so choosing a model needs no reading of JSON files.
 *
 * <pre>{@code
 * flink-inference models
 * flink-inference models card exports/my-model    # writes exports/my-model/card.json
 * }</pre>
 */
@Command(name = "models", mixinStandardHelpOptions = true, subcommands = ModelCardCommand.class,
        description = "List the built-in models: task, dimensions, max length, pooling, size, licence."
                + " Your own model: a model card (docs/model-cards.md), written for an ONNX export by"
                + " 'models card DIR'.")
public final class ModelsCommand implements Runnable {
    static final String[] HEADER = {"MODEL", "TASK", "DIMS", "MAX LEN", "POOLING", "PREFIXES", "SIZE", "LICENSE"};

    @Override
    public void run() {
        System.out.print(table(ModelCard.BUILT_IN.stream().map(ModelCard::builtIn).toList()));
    }

    /** One row per card, columns aligned. */
    static String table(List<ModelCard> cards) {
        List<String[]> rows = new ArrayList<>();
        rows.add(HEADER);
        for (ModelCard card : cards) {
            rows.add(row(card));
        }
        int[] widths = new int[HEADER.length];
        for (String[] row : rows) {
            for (int i = 0; i < row.length; i++) {
                widths[i] = Math.max(widths[i], row[i].length());
            }
        }
        StringBuilder out = new StringBuilder();
        for (String[] row : rows) {
            for (int i = 0; i < row.length; i++) {
                out.append(i == row.length - 1 ? row[i] : String.format("%-" + (widths[i] + 2) + "s", row[i]));
            }
            out.append('\n');
        }
        return out.toString();
    }

    static String[] row(ModelCard card) {
        boolean classifier = card.task == ModelTask.CLASSIFICATION;
        String dims = classifier
                ? card.classification.labels.size() + " labels"
                : card.shape == null ? "?" : String.valueOf(card.shape.hidden);
        String pooling = classifier ? "head on " + card.embedding : card.pooling.name().toLowerCase(Locale.ROOT);
        return new String[] {card.name, card.task.name().toLowerCase(Locale.ROOT), dims,
                String.valueOf(card.maxSequenceLength), pooling, prefixes(card), megabytes(bytes(card)),
                card.license == null ? "-" : card.license};
    }

    static String prefixes(ModelCard card) {
        List<String> out = new ArrayList<>();
        if (card.prefixes != null && card.prefixes.query != null && !card.prefixes.query.isEmpty()) {
            out.add("query");
        }
        if (card.prefixes != null && card.prefixes.passage != null && !card.prefixes.passage.isEmpty()) {
            out.add("passage");
        }
        return out.isEmpty() ? "-" : String.join("+", out);
    }

    /** Bytes of the graph, its external data, and for a head its embedding model's too. */
    static long bytes(ModelCard card) {
        long total = ModelFiles.size(card, card.onnx);
        for (ModelFile data : card.externalData) {
            total += ModelFiles.size(card, data);
        }
        return card.base == null ? total : total + bytes(card.base);
    }

    static String megabytes(long bytes) {
        return String.format(Locale.ROOT, "%.1f MB", bytes / 1e6);
    }
}
