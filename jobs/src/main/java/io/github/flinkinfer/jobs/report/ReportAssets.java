package io.github.flinkinfer.jobs.report;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Properties;

/**
 * The report page's scripts and styles, read from the classpath to be inlined: uPlot from its
 * WebJar ({@code org.webjars.npm:uplot}, MIT) and our own {@code report.js} / {@code report.css}.
 * uPlot's banner comment names its home page; it is replaced by one naming the licence, so the
 * page holds no address at all.
 */
final class ReportAssets {
    private static final String WEBJAR = "/META-INF/resources/webjars/uplot/";

    private ReportAssets() {}

    static String uplotJs() {
        String js = read(WEBJAR + uplotVersion() + "/dist/uPlot.iife.min.js");
        if (js.startsWith("/*!")) {
            js = js.substring(js.indexOf("*/") + 2);
        }
        return "/*! uPlot " + uplotVersion() + " | MIT License | Copyright (c) 2022 Leon Sorokin */" + js;
    }

    static String uplotCss() {
        return read(WEBJAR + uplotVersion() + "/dist/uPlot.min.css");
    }

    static String reportJs() {
        return read("report.js");
    }

    static String reportCss() {
        return read("report.css");
    }

    /** Counts script errors and console errors, so the page can say whether it rendered cleanly. */
    static String errorCounter() {
        return "window.reportErrors=0;window.addEventListener('error',function(){window.reportErrors++;});"
                + "(function(e){console.error=function(){window.reportErrors++;e.apply(console,arguments);};})"
                + "(console.error);";
    }

    static String uplotVersion() {
        Properties p = new Properties();
        try (InputStream in = open("/META-INF/maven/org.webjars.npm/uplot/pom.properties")) {
            p.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return p.getProperty("version");
    }

    private static String read(String resource) {
        try (InputStream in = open(resource)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static InputStream open(String resource) {
        InputStream in = ReportAssets.class.getResourceAsStream(resource);
        if (in == null) {
            throw new IllegalStateException("Report asset " + resource + " is not on the classpath");
        }
        return in;
    }
}
