package io.durablebatch.jakarta.runtime.artifact;

import java.util.Map;
import java.util.function.Function;

/**
 * The Java types a {@code @BatchProperty} may be injected as (Jakarta Batch 2.1, section 9.3.1):
 * {@code String} and the wrappers {@code Boolean}, {@code Double}, {@code Float}, {@code Integer},
 * {@code Long} and {@code Short}, each converted from the property's text by its {@code valueOf}.
 * A property the element does not declare is {@code null} whatever the type.
 */
final class BatchPropertyTypes {

    private static final Map<Class<?>, Function<String, Object>> CONVERSIONS = Map.of(
            String.class, value -> value,
            Boolean.class, Boolean::valueOf,
            Double.class, Double::valueOf,
            Float.class, Float::valueOf,
            Integer.class, Integer::valueOf,
            Long.class, Long::valueOf,
            Short.class, Short::valueOf);

    private BatchPropertyTypes() {
    }

    /** {@code value} as {@code type}; a text the type cannot hold is refused naming the property and where. */
    static Object convert(String value, Class<?> type, String property, String where) {
        Function<String, Object> conversion = CONVERSIONS.get(type);
        if (conversion == null) {
            throw new IllegalStateException("@BatchProperty(name = \"" + property + "\") of " + where + " is a "
                    + type.getName() + "; it must be a String, Boolean, Double, Float, Integer, Long or Short");
        }
        if (value == null) {
            return null;
        }
        try {
            return conversion.apply(value);
        } catch (NumberFormatException e) {
            throw new IllegalStateException("@BatchProperty(name = \"" + property + "\") of " + where + " is '" + value
                    + "', which is no " + type.getSimpleName(), e);
        }
    }
}
