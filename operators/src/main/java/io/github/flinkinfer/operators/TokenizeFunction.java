package io.github.flinkinfer.operators;

import io.github.flinkinfer.runtime.ModelCard;
import io.github.flinkinfer.runtime.RuntimeOptions;
import io.github.flinkinfer.runtime.TextTokenizer;
import io.github.flinkinfer.runtime.TokenizedText;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.util.Collector;

/**
 * Tokenizes each document with the model's tokenizer (checksum verified on open) and drops the
 * text. Over-long inputs are truncated or rejected per {@link OverlongPolicy}; tokenizer failures
 * go to {@link Outputs#ERRORS}.
 */
public class TokenizeFunction extends ProcessFunction<Document, TokenizedDocument> {
    private final ModelCard card;
    private final RuntimeOptions options;
    private final OverlongPolicy overlong;
    private transient TextTokenizer tokenizer;

    public TokenizeFunction(ModelCard card, RuntimeOptions options, OverlongPolicy overlong) {
        this.card = card;
        this.options = options;
        this.overlong = overlong;
    }

    @Override
    public void open(OpenContext openContext) {
        tokenizer = TextTokenizer.load(card, options);
    }

    @Override
    public void processElement(Document doc, Context ctx, Collector<TokenizedDocument> out) {
        long start = System.nanoTime();
        TokenizedText tokens;
        try {
            tokens = tokenizer.encode(doc.text);
        } catch (RuntimeException e) {
            ctx.output(
                    Outputs.ERRORS,
                    ErrorRecord.of(doc.id, doc.source, ErrorRecord.TOKENIZE, "tokenizer_failed",
                                    e.getClass().getSimpleName(), 1)
                            .withInput(doc.text));
            return;
        }
        if (tokens.truncated() && overlong == OverlongPolicy.REJECT) {
            ctx.output(
                    Outputs.ERRORS,
                    ErrorRecord.of(doc.id, doc.source, ErrorRecord.TOKENIZE, "too_long",
                                    tokens.originalTokenCount() + " tokens > max "
                                            + tokenizer.maxLength(), 1)
                            .withInput(doc.text));
            return;
        }
        out.collect(
                new TokenizedDocument(
                        doc.id, doc.source, tokens.ids(), tokens.originalTokenCount(),
                        System.nanoTime() - start));
    }

    @Override
    public void close() {
        if (tokenizer != null) {
            tokenizer.close();
        }
    }
}
