package io.github.flinkinfer.jobs.report;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.flinkinfer.jobs.cli.RunOptions;
import io.github.flinkinfer.jobs.io.RunOutput;
import io.github.flinkinfer.jobs.run.RunInfo;
import io.github.flinkinfer.jobs.testutils.Jobs;
import io.github.flinkinfer.operators.metrics.BatchMetrics;
import java.awt.image.BufferedImage;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Opens report.html in headless Chromium (installed by .ci/install-deps.sh): every chart is drawn
 * (its plot area has data pixels, counted in the page and again in the screenshot), the page logs
 * no console errors, fetches nothing, and a screenshot lands in target/report-screenshot.png.
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
            rows.get(i).subtaskOpenedAtMillis = 1_000_000 - 1000 + 300L * (i % 2);
        }
        RunSummaryCostTest.ledger(out, rows, List.of(), 45);
        RunOutput output = RunOutput.of(out.toString(), "c");
        RunOptions options = Jobs.options("--input", "in.jsonl", "--output", out.toString(),
                "--max-batch-tokens", "4096", "--price-cpu-core-hour", "0.0475");
        Map<String, Object> info = new LinkedHashMap<>();
        info.put("submittedAtMillis", 1_000_000 - 2500);
        info.put("settings", options.settings());
        info.put("settingsDefaults", options.changedDefaults());
        info.put("versions", Map.of("flink-batch-inference", RunInfo.version()));
        output.write(output.runInfo(), RunInfo.toJson(info));
        RunSummary report = RunSummary.read(output);
        io.github.flinkinfer.jobs.report.RunReports.write(report, output);
        Path html = out.resolve("report-c.html");
        String page = Files.readString(html);
        assertThat(page).as("self-contained: nothing fetched from anywhere")
                .doesNotContain("http://").doesNotContain("https://").doesNotContain(" src=")
                .doesNotContain("<link");
        assertThat(page).as("only changed settings up front, all of them one click away")
                .contains("<td class=\"text\">--max-batch-tokens</td><td class=\"text\">4096</td>"
                        + "<td class=\"text\">2048</td>")
                .contains("<details><summary>All " + options.settings().size() + " settings</summary>")
                .contains("flink-batch-inference " + RunInfo.version());

        assertThat(CHROMIUM).as("Chromium (apt package chromium, see .ci/install-deps.sh)").exists();
        Run dom = chromium(out, "--virtual-time-budget=10000", "--dump-dom", html.toUri().toString());
        assertThat(dom.stdout).as("5 charts, each with data pixels, no script errors")
                .contains("data-charts=\"5\"").contains("data-drawn=\"5\"").contains("data-errors=\"0\"")
                .contains("data-rendered=\"ok\"");
        assertThat(dom.stdout.split("<canvas", -1).length - 1).isEqualTo(5);
        assertThat(dom.stderr).doesNotContain("Uncaught").doesNotContain(":ERROR:CONSOLE")
                .doesNotContain(":INFO:CONSOLE");

        Path png = Path.of("target/report-screenshot.png").toAbsolutePath();
        Files.deleteIfExists(png);
        chromium(out, "--virtual-time-budget=10000", "--screenshot=" + png, "--hide-scrollbars",
                "--window-size=1250,1500", html.toUri().toString());
        assertThat(png).exists();
        assertThat(colouredPixels(ImageIO.read(png.toFile()))).as("charts visible in the screenshot")
                .isGreaterThan(20_000);
    }

    /** Pixels clearly coloured (chart data), not grey text, grid or background. */
    static long colouredPixels(BufferedImage img) {
        long n = 0;
        for (int y = 0; y < img.getHeight(); y++) {
            for (int x = 0; x < img.getWidth(); x++) {
                int rgb = img.getRGB(x, y);
                int r = (rgb >> 16) & 0xFF;
                int g = (rgb >> 8) & 0xFF;
                int b = rgb & 0xFF;
                if (Math.max(r, Math.max(g, b)) - Math.min(r, Math.min(g, b)) > 60) {
                    n++;
                }
            }
        }
        return n;
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
