package io.github.flinkinfer.jobs.deploy;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.cfg.MapperConfig;
import com.fasterxml.jackson.databind.introspect.Annotated;
import com.fasterxml.jackson.databind.introspect.JacksonAnnotationIntrospector;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.util.Arrays;
import org.apache.flink.kubernetes.operator.api.FlinkDeployment;
import org.apache.flink.kubernetes.operator.api.spec.FlinkVersion;

/**
 * Binds deploy/ resources into the Flink Kubernetes Operator's own classes and fabric8's
 * Kubernetes model, so a misspelt or misplaced field fails a test instead of being dropped by
 * the API server or the operator. Both models are lenient on purpose (the operator's spec
 * classes say {@code ignoreUnknown}, fabric8 keeps unknown fields in {@code
 * additionalProperties}); both are switched off here, so unknown fields fail everywhere.
 */
final class OperatorModel {
    private static final ObjectMapper STRICT = new ObjectMapper()
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
            .setAnnotationIntrospector(new JacksonAnnotationIntrospector() {
                @Override
                public Boolean hasAnySetter(Annotated a) {
                    return Boolean.FALSE;
                }

                @Override
                public JsonIgnoreProperties.Value findPropertyIgnoralByName(MapperConfig<?> config, Annotated a) {
                    return super.findPropertyIgnoralByName(config, a).withoutIgnoreUnknown();
                }
            });

    private OperatorModel() {}

    /**
     * A {@code FlinkDeployment} bound strictly. {@code spec.flinkVersion} is the one field left
     * out when the operator API on the classpath does not know its value: the newest API on
     * Maven Central (1.10.0) stops at {@code v1_20}, and a Flink 2 image needs a {@code v2_*}
     * value (see {@code OperatorManifestsTest#flinkVersionIsAFlink2ValueNoNewerThanTheImage}).
     */
    static FlinkDeployment flinkDeployment(JsonNode resource) throws IOException {
        ObjectNode copy = resource.deepCopy();
        JsonNode spec = copy.path("spec");
        if (spec instanceof ObjectNode s && !knows(s.path("flinkVersion").asText())) {
            s.remove("flinkVersion");
        }
        return STRICT.treeToValue(copy, FlinkDeployment.class);
    }

    /** Any Kubernetes resource bound strictly into a fabric8 model class. */
    static <T> T bind(JsonNode resource, Class<T> type) throws IOException {
        return STRICT.treeToValue(resource, type);
    }

    /** True when the operator API on the classpath has this {@code FlinkVersion} value. */
    static boolean knows(String flinkVersion) {
        return Arrays.stream(FlinkVersion.values()).anyMatch(v -> v.name().equals(flinkVersion));
    }
}
