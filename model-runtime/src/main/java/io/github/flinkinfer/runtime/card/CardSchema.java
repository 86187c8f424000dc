package io.github.flinkinfer.runtime.card;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Checks a model card's JSON against {@code docs/model-card.schema.json} (packaged in the jar),
 * so the documented schema is the one enforced, and returns every problem at once. Covers the
 * subset of JSON Schema the card schema uses (type, enum in any case, properties, required,
 * additionalProperties, items, minItems, minimum, maximum, minLength, pattern, local $ref, and
 * {@code anyOf} of required-field sets); what JSON cannot say (the linked embedding card, the
 * classification section's consistency) is left to {@link ModelCard}'s own checks. Unknown fields
 * get a suggestion from the property names and their {@code x-aliases}.
 */
final class CardSchema {
    static final String RESOURCE = "model-card.schema.json";
    private static final JsonNode SCHEMA = load();

    private CardSchema() {}

    private static JsonNode load() {
        try (InputStream in = CardSchema.class.getClassLoader().getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("Missing " + RESOURCE + " on the classpath");
            }
            return new ObjectMapper().readTree(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The schema itself (for tests and tools). */
    static JsonNode schema() {
        return SCHEMA;
    }

    /** Every way {@code card} breaks the schema, one line each ("field: what is wrong"). */
    static List<String> problems(JsonNode card) {
        List<String> out = new ArrayList<>();
        check(card, SCHEMA, "", out);
        return out;
    }

    private static void check(JsonNode value, JsonNode schema, String at, List<String> out) {
        schema = resolve(schema);
        if (schema.has("enum")) {
            checkEnum(value, schema.get("enum"), at, out);
            return;
        }
        if (schema.has("type") && !typeMatches(value, schema.get("type"))) {
            out.add(label(at) + "must be " + describeType(schema.get("type")) + ", not "
                    + describeValue(value));
            return;
        }
        if (value.isObject()) {
            checkObject(value, schema, at, out);
        } else if (value.isArray()) {
            if (schema.has("minItems") && value.size() < schema.get("minItems").asInt()) {
                out.add(label(at) + "needs at least " + schema.get("minItems").asInt() + " items");
            }
            for (int i = 0; i < value.size() && schema.has("items"); i++) {
                check(value.get(i), schema.get("items"), at + "[" + i + "]", out);
            }
        } else if (value.isNumber()) {
            if (schema.has("minimum") && value.asDouble() < schema.get("minimum").asDouble()) {
                out.add(label(at) + "must be at least " + schema.get("minimum") + ", not " + value);
            }
            if (schema.has("maximum") && value.asDouble() > schema.get("maximum").asDouble()) {
                out.add(label(at) + "must be at most " + schema.get("maximum") + ", not " + value);
            }
        } else if (value.isTextual()) {
            if (schema.has("minLength") && value.asText().length() < schema.get("minLength").asInt()) {
                out.add(label(at) + "must not be empty");
            }
            if (schema.has("pattern") && !value.asText().matches(schema.get("pattern").asText())) {
                out.add(label(at) + describeValue(value) + " is not "
                        + schema.path("description").asText("in the expected form"));
            }
        }
    }

    private static void checkObject(JsonNode value, JsonNode schema, String at, List<String> out) {
        JsonNode properties = schema.path("properties");
        for (JsonNode required : schema.path("required")) {
            if (!value.has(required.asText())) { // a null there is reported by its type check
                JsonNode property = properties.path(required.asText());
                out.add(label(at + (at.isEmpty() ? "" : ".") + required.asText()) + "missing (required): "
                        + property.path("description").asText(resolve(property).path("description").asText("")));
            }
        }
        checkAnyOfRequired(value, schema, at, out);
        JsonNode additional = schema.get("additionalProperties");
        for (Iterator<Map.Entry<String, JsonNode>> it = value.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> field = it.next();
            String path = at + (at.isEmpty() ? "" : ".") + field.getKey();
            if (properties.has(field.getKey())) {
                check(field.getValue(), properties.get(field.getKey()), path, out);
            } else if (additional != null && additional.isObject()) {
                check(field.getValue(), additional, path, out);
            } else if (additional != null && !additional.asBoolean(true)) {
                out.add(label(path) + "unknown field" + suggestion(field.getKey(), properties));
            }
        }
    }

    /**
     * {@code anyOf} whose branches only list required fields: when no branch is met, the first
     * branch's missing fields are reported, naming the alternative.
     */
    private static void checkAnyOfRequired(JsonNode value, JsonNode schema, String at, List<String> out) {
        JsonNode branches = schema.path("anyOf");
        if (branches.isEmpty()) {
            return;
        }
        for (JsonNode branch : branches) {
            boolean met = true;
            for (JsonNode field : branch.path("required")) {
                met &= value.has(field.asText());
            }
            if (met) {
                return;
            }
        }
        List<String> others = new ArrayList<>();
        for (int i = 1; i < branches.size(); i++) {
            branches.get(i).path("required").forEach(f -> others.add(f.asText()));
        }
        for (JsonNode field : branches.get(0).path("required")) {
            if (!value.has(field.asText())) {
                out.add(label(at + (at.isEmpty() ? "" : ".") + field.asText()) + "missing (required unless "
                        + String.join(" or ", others) + " is set): "
                        + schema.path("properties").path(field.asText()).path("description").asText(""));
            }
        }
    }

    private static void checkEnum(JsonNode value, JsonNode values, String at, List<String> out) {
        List<String> names = new ArrayList<>();
        boolean nullable = false;
        for (JsonNode v : values) {
            String name = v.asText().toUpperCase(Locale.ROOT);
            nullable |= v.isNull();
            if (!v.isNull() && !names.contains(name)) {
                names.add(name);
            }
        }
        if (value.isNull() && nullable) {
            return;
        }
        if (!value.isTextual() || !names.contains(value.asText().toUpperCase(Locale.ROOT))) {
            out.add(label(at) + describeValue(value) + " is not one of " + String.join(", ", names)
                    + " (any case)");
        }
    }

    /** " (did you mean X?)" when the name is a known alias or the same name spelled otherwise. */
    private static String suggestion(String name, JsonNode properties) {
        String key = squash(name);
        for (Iterator<Map.Entry<String, JsonNode>> it = properties.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> p = it.next();
            boolean match = squash(p.getKey()).equals(key);
            for (JsonNode alias : p.getValue().path("x-aliases")) {
                match |= squash(alias.asText()).equals(key);
            }
            if (match) {
                return "; did you mean '" + p.getKey() + "'?";
            }
        }
        return "; known fields: " + String.join(", ", iterable(properties.fieldNames()));
    }

    private static List<String> iterable(Iterator<String> names) {
        List<String> out = new ArrayList<>();
        names.forEachRemaining(out::add);
        return out;
    }

    private static String squash(String name) {
        return name.replaceAll("[^A-Za-z0-9]", "").toLowerCase(Locale.ROOT);
    }

    private static JsonNode resolve(JsonNode schema) {
        if (!schema.has("$ref")) {
            return schema;
        }
        JsonNode target = SCHEMA;
        for (String part : schema.get("$ref").asText().replaceFirst("^#/", "").split("/")) {
            target = target.path(part);
        }
        return target;
    }

    private static boolean typeMatches(JsonNode value, JsonNode type) {
        if (type.isArray()) {
            for (JsonNode t : type) {
                if (typeMatches(value, t)) {
                    return true;
                }
            }
            return false;
        }
        return switch (type.asText()) {
            case "string" -> value.isTextual();
            case "integer" -> value.isIntegralNumber();
            case "number" -> value.isNumber();
            case "boolean" -> value.isBoolean();
            case "object" -> value.isObject();
            case "array" -> value.isArray();
            case "null" -> value.isNull();
            default -> true;
        };
    }

    private static String describeType(JsonNode type) {
        if (!type.isArray()) {
            return ("aeiou".indexOf(type.asText().charAt(0)) >= 0 ? "an " : "a ") + type.asText();
        }
        List<String> names = new ArrayList<>();
        type.forEach(t -> names.add(t.asText()));
        return String.join(" or ", names);
    }

    private static String describeValue(JsonNode value) {
        if (value.isTextual()) {
            return "\"" + value.asText() + "\"";
        }
        if (value.isObject()) {
            return "an object";
        }
        if (value.isArray()) {
            return "an array";
        }
        return value.toString();
    }

    private static String label(String at) {
        return (at.isEmpty() ? "card" : at) + ": ";
    }
}
