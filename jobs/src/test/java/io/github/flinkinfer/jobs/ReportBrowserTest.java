package io.github.flinkinfer.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.flinkinfer.operators.BatchMetrics;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Opens report.html in headless Chromium (installed by .ci/install-deps.sh): the charts render,
 * the page logs no console errors, and a screenshot lands in target/report-screenshot.png.
 */
class ReportBrowserTest {
    static final Path CHROMIUM = Path.of("/usr/bin/chromium");

    @TempDir Path out;

    @Test
    void reportRendersItsChartsWithoutConsoleErrors() throws Exception {
        List<BatchMetrics> rows = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            rows.add(RunSummaryCostTest.batch(i % 2, i, 20 + i, i == 7 ? 1 : 0, 100 + 10 * i, i < 2 ? 900 : 0));
            rows.get(i).bucketEdge = 16 << (i % 4);
        }
        RunSummaryCostTest.write(out.resolve("metrics"), rows);
        RunSummary report = RunSummary.read(RunOutput.of(out.toString(), "c"), 60);
        report.write(RunOutput.of(out.toString(), "c"));
        Path html = out.resolve("report-c.html");
        String page = Files.readString(html);
        assertThat(page.replace("xmlns=\"http://www.w3.org/2000/svg\"", ""))
                .as("self-contained: nothing fetched from anywhere")
                .doesNotContain("http://").doesNotContain("https://").doesNotContain(" src=")
                .doesNotContain("<link");

        assertThat(CHROMIUM).as("Chromium (apt package chromium, see .ci/install-deps.sh)").exists();
        Run dom = chromium(out, "--dump-dom", html.toUri().toString());
        assertThat(dom.stdout).contains("data-rendered=\"ok\"");
        assertThat(dom.stdout.split("<svg", -1).length - 1).isGreaterThanOrEqualTo(5);
        assertThat(dom.stderr).doesNotContain("Uncaught").doesNotContain(":ERROR:CONSOLE");

        Path png = Path.of("target/report-screenshot.png").toAbsolutePath();
        Files.deleteIfExists(png);
        chromium(out, "--screenshot=" + png, "--window-size=1250,1400", html.toUri().toString());
        assertThat(png).exists();
        assertThat(Files.size(png)).isGreaterThan(10_000);
    }

    record Run(String stdout, String stderr) {}

    static Run chromium(Path tmp, String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(CHROMIUM.toString(), "--headless", "--no-sandbox",
                "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--enable-logging=stderr", "--v=0",
                "--user-data-dir=" + Files.createTempDirectory(tmp, "chromium")));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectOutput(tmp.resolve("stdout.txt").toFile())
                .redirectError(tmp.resolve("stderr.txt").toFile()).start();
        assertThat(p.waitFor(90, TimeUnit.SECONDS)).as("chromium finished").isTrue();
        return new Run(Files.readString(tmp.resolve("stdout.txt"), StandardCharsets.UTF_8),
                Files.readString(tmp.resolve("stderr.txt"), StandardCharsets.UTF_8));
    }
}
