package io.github.flinkinfer.jobs.testutils;

import io.github.flinkinfer.jobs.EmbedOptions;
import picocli.CommandLine;

/** Builds job options exactly as the CLI parses them. */
public final class Jobs {
    private Jobs() {}

    public static EmbedOptions options(String... args) {
        EmbedOptions o = new EmbedOptions();
        new CommandLine(o).setCaseInsensitiveEnumValuesAllowed(true).parseArgs(args);
        return o;
    }
}
