/** The run lifecycle: one immutable RunSpec in, a checked, reported and committed run out. */
package io.github.flinkinfer.jobs.run;
