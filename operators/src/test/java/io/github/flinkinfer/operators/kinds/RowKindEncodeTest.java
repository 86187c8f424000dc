package io.github.flinkinfer.operators.kinds;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.flinkinfer.operators.chunk.OverlongPolicy;
import io.github.flinkinfer.operators.errors.ErrorReason;
import io.github.flinkinfer.runtime.card.ModelCard;
import io.github.flinkinfer.runtime.onnx.RuntimeOptions;
import io.github.flinkinfer.runtime.tokenize.TextTokenizer;
import org.junit.jupiter.api.Test;

/** One text into model input with the real all-MiniLM-L6-v2 tokenizer: kept, cut, or refused as too long. */
class RowKindEncodeTest {
    private static final ModelCard CARD = ModelCard.builtIn("all-minilm-l6-v2");
    private static final String LONG = "the quick brown fox jumps over the lazy dog ".repeat(60).trim();

    @Test
    void anOverlongTextIsCutOrRefusedWithItsLength() {
        RowKind rows = RowKinds.of(CARD.task);
        try (TextTokenizer t = TextTokenizer.load(CARD, RuntimeOptions.defaults())) {
            RowKind.Encoded fits = rows.encode(t, "a fox", OverlongPolicy.REJECT);
            RowKind.Encoded cut = rows.encode(t, LONG, OverlongPolicy.TRUNCATE);
            RowKind.Encoded refused = rows.encode(t, LONG, OverlongPolicy.REJECT);

            assertThat(fits.failed()).isFalse();
            assertThat(fits.tokens().ids()).hasSize(4);
            assertThat(cut.failed()).isFalse();
            assertThat(cut.tokens().ids()).hasSize(t.maxLength());
            assertThat(cut.tokens().truncated()).isTrue();
            assertThat(refused.reason()).isEqualTo(ErrorReason.TOO_LONG);
            assertThat(refused.tokens()).isNull();
            assertThat(refused.tokenCount()).isGreaterThan(t.maxLength());
            assertThat(refused.detail())
                    .isEqualTo("at least " + refused.tokenCount() + " tokens > max " + t.maxLength());
        }
    }
}
