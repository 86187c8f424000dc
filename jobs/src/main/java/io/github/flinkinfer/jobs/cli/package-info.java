/** The command line: Main, the commands and their picocli options; they parse, build a RunSpec and hand it on. */
package io.github.flinkinfer.jobs.cli;
