/**
 * Incremental stage: documents whose content and settings are unchanged since the last run skip
 * inference.
 */
package io.github.flinkinfer.operators.incremental;
