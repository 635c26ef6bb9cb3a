package io.durablebatch.jakarta.runtime.jsl;

import java.util.Objects;

/** {@code <property name="..." value="..."/>}; the value may hold substitutions, kept unresolved. */
public record JslProperty(String name, String value) {

    public JslProperty {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(value, "value");
    }
}
