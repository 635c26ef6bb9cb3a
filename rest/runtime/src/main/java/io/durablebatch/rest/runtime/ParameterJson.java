package io.durablebatch.rest.runtime;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.format.DateTimeParseException;
import java.util.LinkedHashMap;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.durablebatch.execution.ParameterDomain;
import io.durablebatch.execution.ParameterValue;

/**
 * Typed job parameters in JSON. A JSON string is a string parameter, an integral number a long, any
 * other number a double, {@code true}/{@code false} a boolean; the types JSON lacks are one-member
 * objects: {@code {"date": "2026-12-01"}}, {@code {"instant": "2026-12-01T10:00:00Z"}},
 * {@code {"decimal": "12.50"}}. The type is part of an instance's identity (the string {@code "1"}
 * and the long {@code 1} are different instances), so the mapping is exact both ways.
 */
final class ParameterJson {

    /** The longest text of a typed value: a decimal of the domain's digits, with sign, point and exponent. */
    private static final int MAX_TEXT_LENGTH = ParameterDomain.MAX_DECIMAL_INTEGER_DIGITS
            + ParameterDomain.MAX_DECIMAL_FRACTION_DIGITS + 20;

    private ParameterJson() {
    }

    /** The typed values of a JSON object; {@code field} names it in an error. */
    static Map<String, ParameterValue> read(JsonNode object, String field) {
        Map<String, ParameterValue> values = new LinkedHashMap<>();
        if (object == null || object.isNull()) {
            return values;
        }
        if (!object.isObject()) {
            throw new IllegalArgumentException(field + " must be a JSON object of parameter values");
        }
        object.fields().forEachRemaining(entry -> values.put(entry.getKey(),
                value(entry.getValue(), field + "." + entry.getKey())));
        return values;
    }

    private static ParameterValue value(JsonNode node, String field) {
        if (node.isTextual()) {
            return ParameterValue.of(node.textValue());
        } else if (node.isIntegralNumber()) {
            if (!node.canConvertToLong()) {
                throw new IllegalArgumentException(field + " is out of the range of a long: " + node);
            }
            return ParameterValue.of(node.longValue());
        } else if (node.isNumber()) {
            return ParameterValue.of(node.doubleValue());
        } else if (node.isBoolean()) {
            return ParameterValue.of(node.booleanValue());
        } else if (node.isObject() && node.size() == 1 && node.elements().next().isTextual()) {
            String type = node.fieldNames().next();
            String text = node.get(type).textValue();
            if (text.length() > MAX_TEXT_LENGTH) {
                // parsing a decimal's digits costs their square: refuse what no value in the domain needs
                throw new IllegalArgumentException(field + " is not a valid " + type + ": at most " + MAX_TEXT_LENGTH
                        + " characters");
            }
            try {
                return switch (type) {
                    case "date" -> ParameterValue.of(LocalDate.parse(text));
                    case "instant" -> ParameterValue.of(Instant.parse(text));
                    case "decimal" -> ParameterValue.of(new BigDecimal(text));
                    default -> throw new IllegalArgumentException(field + " has an unknown type '" + type
                            + "': use date, instant or decimal");
                };
            } catch (DateTimeParseException | NumberFormatException e) {
                throw new IllegalArgumentException(field + " is not a valid " + type + ": '" + text + "'");
            }
        }
        throw new IllegalArgumentException(field + " must be a string, number, boolean or one of {\"date\": ...}, "
                + "{\"instant\": ...}, {\"decimal\": ...}, got " + node);
    }

    /**
     * The JSON form of typed values, as {@link #read} reads it back. A value stored outside today's
     * {@link ParameterDomain} (an infinite double, a decimal of a billion digits) is shown escaped,
     * as {@code {"outOfDomain": "decimal 1E+999999999"}}: never expanded, never retyped (an infinite
     * double written as a number is the string {@code "Infinity"}, another instance), and refused if
     * sent back.
     */
    static ObjectNode write(Map<String, ParameterValue> values) {
        ObjectNode object = JsonNodeFactory.instance.objectNode();
        values.forEach((name, value) -> {
            if (ParameterDomain.violation(value).isPresent()) {
                object.putObject(name).put("outOfDomain", typeName(value) + " " + value.text());
            } else if (value instanceof ParameterValue.OfString s) {
                object.put(name, s.value());
            } else if (value instanceof ParameterValue.OfLong l) {
                object.put(name, l.value());
            } else if (value instanceof ParameterValue.OfDouble d) {
                object.put(name, d.value());
            } else if (value instanceof ParameterValue.OfBoolean b) {
                object.put(name, b.value());
            } else if (value instanceof ParameterValue.OfDate d) {
                object.putObject(name).put("date", d.value().toString());
            } else if (value instanceof ParameterValue.OfInstant i) {
                object.putObject(name).put("instant", i.value().toString());
            } else if (value instanceof ParameterValue.OfDecimal d) {
                object.putObject(name).put("decimal", d.text());
            }
        });
        return object;
    }

    private static String typeName(ParameterValue value) {
        return value instanceof ParameterValue.OfDouble ? "double"
                : value instanceof ParameterValue.OfDecimal ? "decimal"
                        : value instanceof ParameterValue.OfDate ? "date" : "instant";
    }
}
