/**
 * Pool stage: chunk windows back into documents, their vectors pooled and their failures folded
 * into one error row.
 */
package io.github.flinkinfer.operators.pool;
