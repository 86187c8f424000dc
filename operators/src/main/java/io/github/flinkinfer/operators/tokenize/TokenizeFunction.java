package io.github.flinkinfer.operators.tokenize;

import io.github.flinkinfer.operators.Document;
import io.github.flinkinfer.operators.Outputs;
import io.github.flinkinfer.operators.TokenizedDocument;
import io.github.flinkinfer.operators.chunk.ChunkRef;
import io.github.flinkinfer.operators.chunk.Chunking;
import io.github.flinkinfer.operators.chunk.ContentHash;
import io.github.flinkinfer.operators.chunk.OverlongPolicy;
import io.github.flinkinfer.operators.chunk.TokenWindows;
import io.github.flinkinfer.operators.errors.ErrorReason;
import io.github.flinkinfer.operators.errors.ErrorRecord;
import io.github.flinkinfer.operators.errors.NonRecoverableLoadException;
import io.github.flinkinfer.operators.kinds.RowKind;
import io.github.flinkinfer.operators.kinds.RowKinds;
import io.github.flinkinfer.runtime.TokenizedText;
import io.github.flinkinfer.runtime.card.ModelCard;
import io.github.flinkinfer.runtime.onnx.RuntimeOptions;
import io.github.flinkinfer.runtime.tokenize.TextTokenizer;
import io.github.flinkinfer.runtime.tokenize.TokenSequence;
import java.util.List;
import java.util.function.Function;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.util.Collector;

/**
 * Tokenizes each document with the model's tokenizer (checksum verified on open) and drops the
 * text. One text at a time by the task kind's rule ({@link RowKind#encode}: over-long inputs
 * truncated or rejected per {@link OverlongPolicy}), or cut into token windows with chunking;
 * tokenizer failures go to {@link Outputs#ERRORS}.
 */
public class TokenizeFunction extends ProcessFunction<Document, TokenizedDocument> {
    private final RowKind rows;
    private final ModelCard card;
    private final RuntimeOptions options;
    private final OverlongPolicy overlong;
    private final Chunking chunking;
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(TokenizeFunction.class);
    private transient TextTokenizer tokenizer;
    private transient String settings;

    public TokenizeFunction(ModelCard card, RuntimeOptions options, OverlongPolicy overlong) {
        this(card, options, overlong, Chunking.OFF);
    }

    /** With {@code chunking} enabled, each document becomes one input per token window. */
    public TokenizeFunction(
            ModelCard card, RuntimeOptions options, OverlongPolicy overlong, Chunking chunking) {
        this(RowKinds.of(card.task), card, options, overlong, chunking);
    }

    /** With the kind's rule for one text ({@link RowKind#encode}): a task kind's pre-process. */
    public TokenizeFunction(RowKind rows, ModelCard card, RuntimeOptions options,
            OverlongPolicy overlong, Chunking chunking) {
        this.rows = rows;
        this.card = card;
        this.options = options;
        this.overlong = overlong;
        this.chunking = chunking;
    }

    @Override
    public void open(OpenContext openContext) {
        long start = System.nanoTime();
        tokenizer = NonRecoverableLoadException.guard(() -> TextTokenizer.load(card, options));
        long millis = (System.nanoTime() - start) / 1_000_000;
        int index = getRuntimeContext().getTaskInfo().getIndexOfThisSubtask();
        TokenizerLoads.put(card.id(), index, millis);
        LOG.info("Subtask {} loaded the tokenizer of {} in {} ms", index, card.id(), millis);
        // The job checked 2 special tokens; an input prefix (e5's "passage: ") takes room too.
        chunking.validateFor(tokenizer.maxLength(), tokenizer.reservedTokens());
        // A prefix changes every vector: incremental runs must not reuse outputs made without it.
        String prefix = card.inputPrefix();
        settings = chunking.fingerprint(tokenizer.maxLength(), overlong)
                + (prefix.isEmpty() ? "" : ";prefix=" + ContentHash.sha256(prefix).substring(0, 12));
    }

    @Override
    public void processElement(Document doc, Context ctx, Collector<TokenizedDocument> out) {
        long start = System.nanoTime();
        ChunkRef ref = ChunkRef.of(doc.id, doc.text, settings); // its hash and length name error rows later
        if (chunking.enabled()) {
            chunks(doc, ref, start, ctx, out);
            return;
        }
        RowKind.Encoded in = rows.encode(tokenizer, doc.text, overlong);
        if (in.failed()) {
            reject(doc, ctx, in.reason(), in.detail());
            return;
        }
        TokenizedText tokens = in.tokens();
        TokenizedDocument t = new TokenizedDocument(
                doc.id, doc.source, tokens.ids(), tokens.originalTokenCount(),
                System.nanoTime() - start);
        t.chunk = ref;
        out.collect(t);
    }

    /** The document goes to the errors output (attempt 1), with its input for the dead letters. */
    private void reject(Document doc, Context ctx, ErrorReason reason, String detail) {
        ctx.output(Outputs.ERRORS, ErrorRecord.of(doc.id, doc.source, reason, detail, 1).withInput(doc.text));
    }

    /** The document's text through {@code encoder}; null (and the document rejected) when it fails. */
    private <T> T encodeOrReject(Document doc, Context ctx, Function<String, T> encoder) {
        try {
            return encoder.apply(doc.text);
        } catch (RuntimeException e) {
            reject(doc, ctx, ErrorReason.TOKENIZER_FAILED, e.getClass().getSimpleName());
            return null;
        }
    }

    /** One input per window: id {@code <doc-id>#<k>}, the special tokens around each window. */
    private void chunks(Document doc, ChunkRef ref, long start, Context ctx,
            Collector<TokenizedDocument> out) {
        TokenSequence seq = encodeOrReject(doc, ctx, tokenizer::encodeAll);
        if (seq == null) {
            return;
        }
        List<TokenWindows.Window> windows =
                TokenWindows.of(seq.content().length, chunking.size(), chunking.overlap());
        long nanos = System.nanoTime() - start;
        for (TokenWindows.Window w : windows) {
            int[] ids = new int[seq.specialCount() + w.length()];
            System.arraycopy(seq.prefix(), 0, ids, 0, seq.prefix().length);
            System.arraycopy(seq.content(), w.start(), ids, seq.prefix().length, w.length());
            System.arraycopy(seq.suffix(), 0, ids, seq.prefix().length + w.length(),
                    seq.suffix().length);
            TokenizedDocument t = new TokenizedDocument(
                    ChunkRef.chunkId(doc.id, w.index()), doc.source, ids, ids.length,
                    w.index() == 0 ? nanos : 0);
            t.chunk = ref.window(w, windows.size());
            out.collect(t);
        }
    }

    @Override
    public void close() {
        if (tokenizer != null) {
            tokenizer.close();
        }
    }
}
