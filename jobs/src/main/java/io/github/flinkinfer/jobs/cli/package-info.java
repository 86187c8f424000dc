/**
 * The command line: Main and the commands that run or judge a run ({@code embed}, {@code moderate},
 * {@code report}) with their picocli options; they parse, build a RunSpec and hand it on. The top
 * of the package graph: nothing imports it.
 */
package io.github.flinkinfer.jobs.cli;
