package io.github.flinkinfer.jobs.testutils;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** One scrape of a Prometheus text endpoint, parsed into samples for assertions. */
public record PrometheusScrape(List<Sample> samples) {
    private static final Pattern LINE =
            Pattern.compile("([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\\{(.*)\\})?\\s+(\\S+)(?:\\s+\\d+)?");
    private static final Pattern LABEL = Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"((?:[^\"\\\\]|\\\\.)*)\",?");

    /** A series and its value. */
    public record Sample(String name, Map<String, String> labels, double value) {
        public String label(String key) {
            return labels.get(key);
        }
    }

    /** GETs {@code http://localhost:<port>/metrics} and parses it. */
    public static PrometheusScrape of(int port) throws IOException, InterruptedException {
        HttpResponse<String> response = HttpClient.newHttpClient().send(
                HttpRequest.newBuilder(URI.create("http://localhost:" + port + "/metrics")).build(),
                HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            throw new IOException("scrape of port " + port + " answered " + response.statusCode());
        }
        return parse(response.body());
    }

    /** Parses the text exposition format (comments skipped). */
    public static PrometheusScrape parse(String text) {
        List<Sample> samples = new ArrayList<>();
        for (String line : text.split("\n")) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            Matcher m = LINE.matcher(line.trim());
            if (!m.matches()) {
                throw new IllegalArgumentException("not a sample line: " + line);
            }
            Map<String, String> labels = new LinkedHashMap<>();
            if (m.group(2) != null) {
                Matcher l = LABEL.matcher(m.group(2));
                while (l.find()) {
                    labels.put(l.group(1), l.group(2));
                }
            }
            samples.add(new Sample(m.group(1), labels, Double.parseDouble(m.group(3))));
        }
        return new PrometheusScrape(List.copyOf(samples));
    }

    /** Every metric name in the scrape. */
    public Set<String> names() {
        Set<String> names = new TreeSet<>();
        samples.forEach(s -> names.add(s.name()));
        return names;
    }

    /** The samples of one metric. */
    public List<Sample> of(String name) {
        return samples.stream().filter(s -> s.name().equals(name)).toList();
    }

    /** The sum of one metric over the samples that match. */
    public double sum(String name, Predicate<Sample> which) {
        return of(name).stream().filter(which).mapToDouble(Sample::value).sum();
    }
}
