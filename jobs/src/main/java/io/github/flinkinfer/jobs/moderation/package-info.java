/** The {@code moderate} task: classify a corpus, write every verdict and the flagged items (its command is in {@code cli}). */
package io.github.flinkinfer.jobs.moderation;
