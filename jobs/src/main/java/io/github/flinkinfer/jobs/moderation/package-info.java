/** The {@code moderate} job: classify a corpus, write every verdict and the flagged items. */
package io.github.flinkinfer.jobs.moderation;
