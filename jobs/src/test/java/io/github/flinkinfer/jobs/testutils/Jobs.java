package io.github.flinkinfer.jobs.testutils;

import io.github.flinkinfer.jobs.cli.RunOptions;
import picocli.CommandLine;

/** Builds job options exactly as the CLI parses them. */
public final class Jobs {
    private Jobs() {}

    public static RunOptions options(String... args) {
        RunOptions o = new RunOptions();
        new CommandLine(o).setCaseInsensitiveEnumValuesAllowed(true).parseArgs(args);
        return o;
    }

    /** Options from the {@code base} arguments followed by the {@code extra} ones. */
    public static RunOptions options(String[] base, String... extra) {
        String[] all = new String[base.length + extra.length];
        System.arraycopy(base, 0, all, 0, base.length);
        System.arraycopy(extra, 0, all, base.length, extra.length);
        return options(all);
    }
}
