package io.github.flinkinfer.jobs.index;

import io.github.flinkinfer.operators.run.ModelRuntimeFactory;
import io.github.flinkinfer.runtime.Device;
import io.github.flinkinfer.runtime.ModelRuntime;
import io.github.flinkinfer.runtime.card.ModelCard;
import io.github.flinkinfer.runtime.onnx.RuntimeOptions;
import io.github.flinkinfer.runtime.tokenize.TextTokenizer;
import java.util.List;

/** Embeds a query text with the same model card the job used, as a search front end would. */
final class QueryEmbedder {
    private QueryEmbedder() {}

    static float[] embed(String model, String text) {
        ModelCard card = ModelCard.resolve(model);
        RuntimeOptions options = RuntimeOptions.defaults();
        try (TextTokenizer tokenizer = TextTokenizer.load(card, options);
                ModelRuntime runtime = ModelRuntimeFactory.onnx(card, options).open(Device.CPU)) {
            return runtime.infer(List.of(tokenizer.encode(text).ids())).vectors()[0];
        }
    }
}
