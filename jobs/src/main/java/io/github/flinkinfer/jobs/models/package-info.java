/** {@code models}: what models ship built in, and cards for your own exports. */
package io.github.flinkinfer.jobs.models;
