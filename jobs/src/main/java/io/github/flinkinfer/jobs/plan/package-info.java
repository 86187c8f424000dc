/** {@code plan}: a pre-flight dry run that measures this machine before a long run. */
package io.github.flinkinfer.jobs.plan;
