/**
 * Errors stage: why an input failed ({@code ErrorReason}), the row it leaves as, and load failures
 * no restart heals.
 */
package io.github.flinkinfer.operators.errors;
