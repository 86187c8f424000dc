package io.github.flinkinfer.bench;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** What langchain4j's encoder runs, read from the tokenizer files its model jars carry. */
class ReferenceWorkTest {

    @Test
    void allMiniLmTruncatesAt128WhateverTheRunsMaxLength() {
        ReferenceWork work = ReferenceWork.ofTokenizer("all-minilm-l6-v2-tokenizer.json");
        assertThat(work.maxLength()).isEqualTo(128);
        assertThat(work.sequences(300)).containsExactly(128);
        assertThat(work.sequences(20)).containsExactly(20);
    }

    @Test
    void bgeHasNoTruncationSoLongTextsRunAsPartitionsOf510PlusSpecials() {
        ReferenceWork work = ReferenceWork.ofTokenizer("bge-small-en-v1.5-tokenizer.json");
        assertThat(work.maxLength()).isEqualTo(512);
        assertThat(work.sequences(40)).containsExactly(40);
        assertThat(work.sequences(512)).containsExactly(512);
        assertThat(work.sequences(1100)).containsExactly(512, 512, 80); // 1098 text tokens
        assertThat(work.sequences(2)).containsExactly(2);
    }
}
