/** Training of the built-in moderation model (a tool; nothing here ships in the job jar). */
package io.github.flinkinfer.training;
