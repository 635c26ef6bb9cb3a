package io.durablebatch.benchmarks;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One workload's result as a single JSON object on one line, fields in insertion order. Doubles are
 * rounded to two decimals: the figures are noisy well before that. Broken invariants are collected
 * as {@code violations}, so a run that proves something wrong is visible and fails.
 */
final class JsonLine {

    private final Map<String, Object> fields = new LinkedHashMap<>();
    private final List<String> violations = new ArrayList<>();

    private JsonLine(String workload) {
        fields.put("workload", workload);
    }

    static JsonLine workload(String name) {
        return new JsonLine(name);
    }

    /** Renders a flat map of fields as one JSON object, for workloads that build their own map. */
    static String of(Map<String, ?> fields) {
        StringBuilder json = new StringBuilder();
        append(json, fields);
        return json.toString();
    }

    JsonLine put(String name, Object value) {
        fields.put(name, value);
        return this;
    }

    /** Records a broken invariant unless {@code holds}. */
    JsonLine require(boolean holds, String invariant) {
        if (!holds) {
            violations.add(invariant);
        }
        return this;
    }

    boolean hasViolations() {
        return !violations.isEmpty();
    }

    @Override
    public String toString() {
        Map<String, Object> all = new LinkedHashMap<>(fields);
        if (!violations.isEmpty()) {
            all.put("violations", violations);
        }
        StringBuilder json = new StringBuilder();
        append(json, all);
        return json.toString();
    }

    private static void append(StringBuilder json, Object value) {
        if (value == null) {
            json.append("null");
        } else if (value instanceof Map<?, ?> map) {
            json.append('{');
            String separator = "";
            for (Map.Entry<?, ?> entry : map.entrySet()) {
                json.append(separator);
                appendString(json, String.valueOf(entry.getKey()));
                json.append(':');
                append(json, entry.getValue());
                separator = ",";
            }
            json.append('}');
        } else if (value instanceof List<?> list) {
            json.append('[');
            String separator = "";
            for (Object element : list) {
                json.append(separator);
                append(json, element);
                separator = ",";
            }
            json.append(']');
        } else if (value instanceof Double || value instanceof Float) {
            double number = ((Number) value).doubleValue();
            json.append(Double.isFinite(number)
                    ? BigDecimal.valueOf(number).setScale(2, RoundingMode.HALF_UP).stripTrailingZeros().toPlainString()
                    : "null");
        } else if (value instanceof Number || value instanceof Boolean) {
            json.append(value);
        } else {
            appendString(json, value.toString());
        }
    }

    private static void appendString(StringBuilder json, String text) {
        json.append('"');
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '"' -> json.append("\\\"");
                case '\\' -> json.append("\\\\");
                case '\n' -> json.append("\\n");
                case '\r' -> json.append("\\r");
                case '\t' -> json.append("\\t");
                default -> {
                    if (c < 0x20) {
                        json.append(String.format("\\u%04x", (int) c));
                    } else {
                        json.append(c);
                    }
                }
            }
        }
        json.append('"');
    }
}
