/** Tokenize stage: documents to token ids (and windows, when chunking) on the TaskManager. */
package io.github.flinkinfer.operators.tokenize;
