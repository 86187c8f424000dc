/** Option groups (picocli mixins) that the run commands and {@code plan} share and no stage owns: prices, the quality gate. */
package io.github.flinkinfer.jobs.options;
