/**
 * How a document is cut into token windows and which window a row came from ({@link
 * io.github.flinkinfer.operators.chunk.ChunkRef}): pure Java, below the records that carry it.
 */
package io.github.flinkinfer.operators.chunk;
