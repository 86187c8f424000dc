/**
 * Files stage: a card's files found, cached per machine, checksum-verified, and read from an
 * export into a new card.
 */
package io.github.flinkinfer.runtime.files;
