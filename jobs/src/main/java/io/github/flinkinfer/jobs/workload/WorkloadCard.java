package io.github.flinkinfer.jobs.workload;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.exc.InvalidFormatException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.ValueInstantiationException;
import com.fasterxml.jackson.databind.deser.DeserializationProblemHandler;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;
import org.apache.flink.core.fs.FSDataInputStream;
import org.apache.flink.core.fs.Path;

/**
 * A workload card: what to run (corpus, task, acceptable model variants) and the contract it must
 * meet (deadline, budget, quality floor, per-item latency bound) at the stated prices. YAML or
 * JSON, kebab-case keys, schema in docs/workload.md; unknown keys are errors.
 *
 * <pre>{@code
 * WorkloadCard card = WorkloadCard.read("cards/gcide.yaml", Instant.now()); // any Flink file system
 * }</pre>
 */
public record WorkloadCard(
        String name,
        Task task,
        Corpus corpus,
        List<String> variants,
        String reference,
        Integer maxLength,
        Integer parallelism,
        Deadline deadline,
        Double budget,
        Quality quality,
        Latency latency,
        Prices prices) {

    /** Outputs re-checked against the reference during a run when the card does not say. */
    public static final int DEFAULT_QUALITY_SAMPLE = 200;

    /** What the run does; the command that runs it. */
    public enum Task {
        EMBED, MODERATE;

        @JsonCreator
        static Task of(String s) {
            for (Task t : values()) {
                if (t.name().equalsIgnoreCase(s)) {
                    return t;
                }
            }
            throw new IllegalArgumentException("task '" + s + "' is not one of embed, moderate");
        }

        public String command() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** The inputs, read as {@code embed --input} reads them (paths on any Flink file system). */
    public record Corpus(List<String> inputs, String format, String idField, String textField) {
        public String textFieldOrDefault() {
            return textField != null ? textField : "text";
        }
    }

    /**
     * Quality floors against the reference model on a sample of outputs: cosine for embeddings
     * (minimum and/or mean), label agreement (share of equal top labels) for classifiers.
     */
    public record Quality(Double minCosine, Double meanCosine, Double labelAgreement, Integer sample) {
        public int sampleOrDefault() {
            return sample != null ? sample : DEFAULT_QUALITY_SAMPLE;
        }
    }

    /** Per-item latency bound: an item's queue wait plus its batch's time (goodput counts within it). */
    public record Latency(Long maxItemMs) {}

    /** Prices, as the cost options of {@code embed} take them. */
    public record Prices(String currency, Double tmHour, Integer slotsPerTm, Double cpuCoreHour, Double gpuHour) {
        public String currencyOrDefault() {
            return currency != null ? currency : "USD";
        }

        boolean anyPrice() {
            return positive(tmHour) || positive(cpuCoreHour) || positive(gpuHour);
        }

        private static boolean positive(Double d) {
            return d != null && d > 0;
        }
    }

    public Quality qualityOrEmpty() {
        return quality != null ? quality : new Quality(null, null, null, null);
    }

    public Prices pricesOrEmpty() {
        return prices != null ? prices : new Prices(null, null, null, null, null);
    }

    /**
     * Reads and checks a card from any Flink file system ({@code .json}: JSON, anything else:
     * YAML); every problem it has is reported at once, in one {@link WorkloadCardException}.
     */
    public static WorkloadCard read(String location, Instant now) throws IOException {
        byte[] bytes = bytes(location);
        return parse(new String(bytes, StandardCharsets.UTF_8), location, now);
    }

    /** The card file's sha256, recorded in a plan so a changed card is noticed. */
    public static String sha256(String location) throws IOException {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes(location)));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Parses and checks card text ({@code origin} names it in errors): unknown keys and bad values
     * are listed together. A value that cannot be read at all (wrong type, broken YAML) stops the
     * parse: it is listed with the unknown keys of the sections read before it.
     */
    public static WorkloadCard parse(String text, String origin, Instant now) {
        ObjectMapper mapper = origin.toLowerCase(Locale.ROOT).endsWith(".json")
                ? JsonMapper.builder().build() : new ObjectMapper(new YAMLFactory());
        List<String> problems = new ArrayList<>();
        mapper.setPropertyNamingStrategy(PropertyNamingStrategies.KEBAB_CASE)
                .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                .enable(DeserializationFeature.ACCEPT_SINGLE_VALUE_AS_ARRAY)
                .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
                .addHandler(new UnknownKeys(problems));
        WorkloadCard card;
        try {
            card = mapper.readValue(text, WorkloadCard.class);
        } catch (ValueInstantiationException e) {
            throw failed(origin, problems, rootMessage(e) + where(e));
        } catch (InvalidFormatException e) {
            throw failed(origin, problems, "'" + e.getValue() + "'" + where(e)
                    + " is not a valid " + e.getTargetType().getSimpleName().toLowerCase(Locale.ROOT));
        } catch (MismatchedInputException e) {
            throw failed(origin, problems, "wrong type" + where(e) + ": expected " + expected(e.getTargetType()));
        } catch (JsonProcessingException e) {
            throw failed(origin, problems, "not valid " + (mapper.getFactory()
                    instanceof YAMLFactory ? "YAML" : "JSON") + ": " + e.getOriginalMessage());
        }
        if (card == null) {
            throw failed(origin, problems, "the file is empty");
        }
        problems.addAll(card.problems(now));
        if (!problems.isEmpty()) {
            throw new WorkloadCardException(origin, problems);
        }
        return card;
    }

    private static WorkloadCardException failed(String origin, List<String> before, String problem) {
        List<String> all = new ArrayList<>(before);
        all.add(problem);
        return new WorkloadCardException(origin, all);
    }

    /** Records each unknown key, with the keys known where it stands, and reads on. */
    private static final class UnknownKeys extends DeserializationProblemHandler {
        private final List<String> problems;

        UnknownKeys(List<String> problems) {
            this.problems = problems;
        }

        @Override
        public boolean handleUnknownProperty(DeserializationContext ctxt, JsonParser p,
                JsonDeserializer<?> deserializer, Object beanOrClass, String name) throws IOException {
            // Jackson replays a record's unknown keys from a buffer after the record, so the
            // parser's position says nothing; each section's record is named after its key
            Class<?> type = beanOrClass instanceof Class<?> c ? c : beanOrClass.getClass();
            String at = type == WorkloadCard.class ? ""
                    : new PropertyNamingStrategies.KebabCaseStrategy().translate(type.getSimpleName());
            problems.add("unknown field '" + name + "'" + (at.isEmpty() ? "" : " at '" + at + "'") + "; known: "
                    + deserializer.getKnownPropertyNames().stream().map(Object::toString).sorted()
                            .collect(Collectors.joining(", ")));
            p.skipChildren();
            return true;
        }
    }

    /**
     * Every bad value of a parsed card: missing task, corpus or variants, a negative budget,
     * a deadline in the past, a floor outside [0, 1], a floor of the other task.
     */
    private List<String> problems(Instant now) {
        List<String> p = new ArrayList<>();
        if (task == null) {
            p.add("'task' is missing (embed or moderate)");
        }
        if (corpus == null || corpus.inputs() == null || corpus.inputs().isEmpty()) {
            p.add("'corpus.inputs' is missing: the files (or directories) to run");
        }
        if (variants == null || variants.isEmpty()) {
            p.add("'variants' is missing: the acceptable models (built-in names or card paths)");
        } else if (new HashSet<>(variants).size() != variants.size()) {
            p.add("'variants' lists a model twice: " + variants);
        }
        if (budget != null && budget < 0) {
            p.add("'budget' is negative (" + budget + ")");
        }
        if (budget != null && !pricesOrEmpty().anyPrice()) {
            p.add("'budget' needs a price: set prices.tm-hour, prices.cpu-core-hour or prices.gpu-hour");
        }
        if (deadline != null) {
            if (deadline.at() != null && !deadline.at().isAfter(now)) {
                p.add("'deadline' " + deadline.at() + " is in the past (now " + now + ")");
            }
            if (deadline.duration() != null && (deadline.duration().isNegative() || deadline.duration().isZero())) {
                p.add("'deadline' " + deadline.duration() + " is not a positive duration");
            }
        }
        if (maxLength != null && maxLength < 0) {
            p.add("'max-length' is negative");
        }
        if (parallelism != null && parallelism < 1) {
            p.add("'parallelism' must be at least 1");
        }
        Quality q = qualityOrEmpty();
        floor(p, "quality.min-cosine", q.minCosine());
        floor(p, "quality.mean-cosine", q.meanCosine());
        floor(p, "quality.label-agreement", q.labelAgreement());
        if (q.sample() != null && q.sample() < 1) {
            p.add("'quality.sample' must be at least 1");
        }
        if (task == Task.EMBED && q.labelAgreement() != null) {
            p.add("'quality.label-agreement' is a classifier's floor; embed is judged by min-cosine/mean-cosine");
        }
        if (task == Task.MODERATE && (q.minCosine() != null || q.meanCosine() != null)) {
            p.add("'quality.min-cosine'/'mean-cosine' are embedding floors; moderate is judged by label-agreement");
        }
        if (latency != null && (latency.maxItemMs() == null || latency.maxItemMs() <= 0)) {
            p.add("'latency.max-item-ms' must be a positive number of milliseconds");
        }
        Prices pr = pricesOrEmpty();
        for (var e : new Object[][] {{"prices.tm-hour", pr.tmHour()}, {"prices.cpu-core-hour", pr.cpuCoreHour()},
                {"prices.gpu-hour", pr.gpuHour()}}) {
            if (e[1] != null && (Double) e[1] < 0) {
                p.add("'" + e[0] + "' is negative (" + e[1] + ")");
            }
        }
        if (pr.slotsPerTm() != null && pr.slotsPerTm() < 1) {
            p.add("'prices.slots-per-tm' must be at least 1");
        }
        return p;
    }

    private static void floor(List<String> p, String name, Double v) {
        if (v != null && (v.isNaN() || v < 0 || v > 1)) {
            p.add("'" + name + "' " + v + " is outside [0, 1]");
        }
    }

    private static String where(com.fasterxml.jackson.databind.JsonMappingException e) {
        String path = e.getPath().stream()
                .map(r -> r.getFieldName() != null ? r.getFieldName() : "[" + r.getIndex() + "]")
                .collect(Collectors.joining(".")).replace(".[", "[");
        return path.isEmpty() ? "" : " at '" + path + "'";
    }

    private static String expected(Class<?> type) {
        if (type == null) {
            return "another type";
        }
        if (List.class.isAssignableFrom(type)) {
            return "a list";
        }
        if (Number.class.isAssignableFrom(type) || type.isPrimitive()) {
            return "a number";
        }
        if (type == String.class || type.isEnum() || type == Deadline.class) {
            return "a text value";
        }
        return "a section (key: value lines)";
    }

    private static String rootMessage(Throwable t) {
        Throwable c = t;
        while (c.getCause() != null) {
            c = c.getCause();
        }
        return c.getMessage();
    }

    private static byte[] bytes(String location) throws IOException {
        Path path = new Path(location);
        try (FSDataInputStream in = path.getFileSystem().open(path)) {
            return in.readAllBytes();
        } catch (java.io.FileNotFoundException e) {
            throw new WorkloadCardException(location, List.of("no such file"));
        }
    }
}
