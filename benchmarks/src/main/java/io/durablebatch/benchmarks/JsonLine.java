package io.durablebatch.benchmarks;

import java.util.List;
import java.util.Locale;
import java.util.Map;

/** Renders one flat JSON object per workload, the line format every benchmark prints. */
final class JsonLine {

    private JsonLine() {
    }

    static String of(Map<String, ?> fields) {
        StringBuilder json = new StringBuilder("{");
        fields.forEach((name, value) -> {
            if (json.length() > 1) {
                json.append(',');
            }
            json.append(string(name)).append(':').append(value(value));
        });
        return json.append('}').toString();
    }

    private static String value(Object value) {
        if (value == null) {
            return "null";
        }
        if (value instanceof Double || value instanceof Float) {
            return String.format(Locale.ROOT, "%.2f", ((Number) value).doubleValue());
        }
        if (value instanceof Number || value instanceof Boolean) {
            return value.toString();
        }
        if (value instanceof List<?> list) {
            StringBuilder json = new StringBuilder("[");
            list.forEach(element -> {
                if (json.length() > 1) {
                    json.append(',');
                }
                json.append(value(element));
            });
            return json.append(']').toString();
        }
        if (value instanceof Map<?, ?> map) {
            StringBuilder json = new StringBuilder("{");
            map.forEach((k, v) -> {
                if (json.length() > 1) {
                    json.append(',');
                }
                json.append(string(String.valueOf(k))).append(':').append(value(v));
            });
            return json.append('}').toString();
        }
        return string(value.toString());
    }

    private static String string(String text) {
        StringBuilder json = new StringBuilder("\"");
        for (char c : text.toCharArray()) {
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
        return json.append('"').toString();
    }
}
