/** The run lifecycle: one immutable RunSpec (package {@code spec}) in, a checked, reported and committed run out. */
package io.github.flinkinfer.jobs.run;
