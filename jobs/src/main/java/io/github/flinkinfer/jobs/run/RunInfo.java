package io.github.flinkinfer.jobs.run;

import ai.onnxruntime.OrtEnvironment;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.github.flinkinfer.jobs.io.CommitReceipts;
import io.github.flinkinfer.jobs.spec.RunDescription;
import io.github.flinkinfer.jobs.spec.RunSpec;
import io.github.flinkinfer.runtime.card.ModelCard;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import org.apache.flink.runtime.util.EnvironmentInformation;

/**
 * What a run was: when it was submitted, its decided spec as data ({@link RunDescription}, what
 * {@code report} and the verdicts read back), its settings for people (every option's value,
 * secrets redacted, and the defaults of those that differ, as its {@link RunSpec} holds them),
 * model, versions and machine. Written as {@code run-info-<run-id>.json} beside the outputs.
 */
public final class RunInfo {
    private RunInfo() {}

    /**
     * The run info of {@code spec}; {@code fileSinks} are the job's file outputs, whose commit
     * receipts {@code report --mark-success} waits for.
     */
    static Map<String, Object> of(RunSpec spec, java.util.List<CommitReceipts.FileSinkRef> fileSinks) {
        ModelCard card = spec.card();
        Map<String, Object> info = new LinkedHashMap<>();
        info.put("runId", spec.runId());
        // written just before the job is submitted: time 0 of the report's time line
        info.put("submittedAtMillis", System.currentTimeMillis());
        info.put("settings", spec.settings());
        info.put("settingsDefaults", spec.settingsDefaults());
        info.put("spec", RunDescription.of(spec)); // what report reads back, as data
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
        if (spec.workload() != null) {
            info.put("workload", spec.workload());
        }
        info.put("fileSinks", fileSinks);
        return info;
    }

    /**
     * This project's version: the jar manifest's {@code Implementation-Version}, else (running
     * from classes) the Maven version filtered into {@code version.properties}; never null.
     */
    public static String version() {
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

    public static String toJson(Map<String, Object> info) throws IOException {
        return new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(info);
    }
}
