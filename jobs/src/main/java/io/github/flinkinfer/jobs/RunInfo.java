package io.github.flinkinfer.jobs;

import ai.onnxruntime.OrtEnvironment;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.github.flinkinfer.runtime.ModelCard;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;
import org.apache.flink.runtime.util.EnvironmentInformation;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

/**
 * What a run was: when it was submitted, its settings (every option's value, secrets redacted,
 * and the defaults of those that differ), model, versions and machine. Written as {@code
 * run-info-<run-id>.json} beside the outputs for the report.
 */
final class RunInfo {
    /**
     * Option names whose values are redacted: any dash-separated word of the name is one of
     * these. Whole words, so {@code --max-batch-tokens} (a size) is kept while {@code
     * --auth-token} would not be; {@code --kafka-property} is redacted because client
     * properties carry SASL passwords.
     */
    static final Pattern SECRET = Pattern.compile(
            "(?i)-*(?:.*-)?(password|passwd|secret|secrets|jaas|token|credential|credentials|property|properties)(?:-.*)?");

    private RunInfo() {}

    static Map<String, Object> of(RunOptions o, ModelCard card, String runId) {
        Map<String, Object> info = new LinkedHashMap<>();
        info.put("runId", runId);
        // written just before the job is submitted: time 0 of the report's time line
        info.put("submittedAtMillis", System.currentTimeMillis());
        info.put("settings", settings(o));
        info.put("settingsDefaults", changedDefaults(o));
        Map<String, Object> model = new LinkedHashMap<>();
        model.put("id", card.id());
        model.put("task", card.task.name().toLowerCase(Locale.ROOT));
        model.put("maxSequenceLength", card.maxSequenceLength);
        model.put("onnxSha256", card.onnx.sha256());
        model.put("notes", card.notes);
        info.put("model", model);
        Map<String, Object> versions = new LinkedHashMap<>();
        versions.put("flink", EnvironmentInformation.getVersion());
        versions.put("onnxruntime", OrtEnvironment.getEnvironment().getVersion());
        versions.put("java", System.getProperty("java.version"));
        versions.put("flink-batch-inference", version());
        info.put("versions", versions);
        Map<String, Object> machine = new LinkedHashMap<>();
        machine.put("os", System.getProperty("os.name") + " " + System.getProperty("os.arch"));
        machine.put("cores", Runtime.getRuntime().availableProcessors());
        machine.put("driverMaxHeapMiB", Runtime.getRuntime().maxMemory() >> 20);
        info.put("machine", machine);
        if (o.workload.contract() != null) {
            info.put("workload", o.workload.contract());
        }
        return info;
    }

    /** Every option of the command with its value; secret-looking ones redacted. */
    static Map<String, Object> settings(RunOptions o) {
        Map<String, Object> settings = new LinkedHashMap<>();
        for (OptionSpec opt : new CommandLine(o).getCommandSpec().options()) {
            String name = opt.longestName();
            Object value = opt.getValue();
            if (value instanceof int[] a) {
                value = java.util.Arrays.toString(a);
            }
            settings.put(name, SECRET.matcher(name).matches() && value != null ? "<redacted>" : value);
        }
        return settings;
    }

    /**
     * The default of every option whose value differs from it: what the report shows first (the
     * rest is one click away). Defaults are what the CLI gives with only {@code --output}.
     */
    static Map<String, Object> changedDefaults(RunOptions o) {
        RunOptions plain = new RunOptions();
        new CommandLine(plain).setCaseInsensitiveEnumValuesAllowed(true).parseArgs("--output", "");
        Map<String, Object> defaults = settings(plain);
        Map<String, Object> changed = new LinkedHashMap<>();
        settings(o).forEach((name, value) -> {
            Object d = defaults.get(name);
            if (!java.util.Objects.equals(String.valueOf(value), String.valueOf(d))) {
                changed.put(name, "".equals(d) ? null : d);
            }
        });
        return changed;
    }

    /**
     * This project's version: the jar manifest's {@code Implementation-Version}, else (running
     * from classes) the Maven version filtered into {@code version.properties}; never null.
     */
    static String version() {
        String v = RunInfo.class.getPackage().getImplementationVersion();
        if (v != null) {
            return v;
        }
        try (java.io.InputStream in = RunInfo.class.getResourceAsStream("version.properties")) {
            java.util.Properties p = new java.util.Properties();
            if (in != null) {
                p.load(in);
            }
            return p.getProperty("version", "unknown");
        } catch (IOException e) {
            return "unknown";
        }
    }

    static String toJson(Map<String, Object> info) throws IOException {
        return new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(info);
    }
}
