package io.durablebatch.jakarta.runtime.jsl;

import java.util.List;

/**
 * {@code <skippable-exception-classes>}, {@code <retryable-exception-classes>} or
 * {@code <no-rollback-exception-classes>}: the class names of its {@code <include>} and {@code <exclude>}
 * elements (an exception matches the nearest of them in its class hierarchy).
 */
public record JslExceptionFilter(List<String> include, List<String> exclude) {

    public static final JslExceptionFilter NONE = new JslExceptionFilter(List.of(), List.of());

    public JslExceptionFilter {
        include = List.copyOf(include);
        exclude = List.copyOf(exclude);
    }
}
