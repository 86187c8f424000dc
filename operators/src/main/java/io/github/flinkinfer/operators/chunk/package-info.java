/**
 * Search-index support in the dataflow: token windows over long documents ({@link
 * io.github.flinkinfer.operators.chunk.TokenWindows}), doc-level pooling of chunk embeddings
 * ({@link io.github.flinkinfer.operators.chunk.DocPoolingFunction}) and the incremental-run cache
 * lookup ({@link io.github.flinkinfer.operators.chunk.SkipUnchangedFunction}).
 */
package io.github.flinkinfer.operators.chunk;
