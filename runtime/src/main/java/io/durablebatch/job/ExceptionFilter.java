package io.durablebatch.job;

import java.util.ArrayList;
import java.util.List;

import io.durablebatch.Checks;

/**
 * Which exceptions a chunk step's policy (skip, retry, no-rollback) applies to: classes included
 * and classes excluded, each with its subclasses. An exception matches when the nearest of its
 * classes (itself, then its superclasses) that is listed is an included one; so the more specific
 * listing wins: {@code including(RuntimeException.class).excluding(IllegalStateException.class)}
 * matches every runtime exception except an {@code IllegalStateException} or a subclass of it. A
 * class may be listed once.
 */
public record ExceptionFilter(List<Class<? extends Throwable>> included, List<Class<? extends Throwable>> excluded) {

    /** Matches no exception. */
    public static final ExceptionFilter NONE = new ExceptionFilter(List.of(), List.of());

    public ExceptionFilter {
        included = List.copyOf(Checks.notNull(included, "included"));
        excluded = List.copyOf(Checks.notNull(excluded, "excluded"));
        List<Class<? extends Throwable>> seen = new ArrayList<>();
        for (List<Class<? extends Throwable>> types : List.of(included, excluded)) {
            for (Class<? extends Throwable> type : types) {
                if (seen.contains(type)) {
                    throw new IllegalArgumentException("exception class " + type.getName()
                            + " is listed twice in an exception filter (included " + included.stream()
                                    .map(Class::getName).toList()
                            + ", excluded " + excluded.stream().map(Class::getName).toList() + ")");
                }
                seen.add(type);
            }
        }
    }

    /** A filter that includes these classes and their subclasses. */
    @SafeVarargs
    public static ExceptionFilter including(Class<? extends Throwable>... types) {
        return NONE.andIncluding(types);
    }

    /** This filter with these classes (and their subclasses) included too. */
    @SafeVarargs
    public final ExceptionFilter andIncluding(Class<? extends Throwable>... types) {
        return new ExceptionFilter(plus(included, types, "included"), excluded);
    }

    /** This filter with these classes (and their subclasses) excluded, where no nearer class is included. */
    @SafeVarargs
    public final ExceptionFilter excluding(Class<? extends Throwable>... types) {
        return new ExceptionFilter(included, plus(excluded, types, "excluded"));
    }

    /** Whether no exception can match: nothing is included. */
    public boolean isEmpty() {
        return included.isEmpty();
    }

    /** Whether {@code failure} is of an included class, with no nearer excluded one. */
    public boolean matches(Throwable failure) {
        return nearest(failure) == Boolean.TRUE;
    }

    /** Whether {@code failure} is of an excluded class, with no nearer included one. */
    public boolean excludes(Throwable failure) {
        return nearest(failure) == Boolean.FALSE;
    }

    /** Whether the nearest listed class of {@code failure} is included, excluded, or ({@code null}) none is listed. */
    private Boolean nearest(Throwable failure) {
        if (failure == null) {
            return null;
        }
        for (Class<?> type = failure.getClass(); type != null; type = type.getSuperclass()) {
            if (excluded.contains(type)) {
                return Boolean.FALSE;
            }
            if (included.contains(type)) {
                return Boolean.TRUE;
            }
        }
        return null;
    }

    private static List<Class<? extends Throwable>> plus(List<Class<? extends Throwable>> listed,
            Class<? extends Throwable>[] types, String what) {
        Checks.notNull(types, what + " classes");
        List<Class<? extends Throwable>> all = new ArrayList<>(listed);
        for (Class<? extends Throwable> type : types) {
            all.add(Checks.notNull(type, what + " class"));
        }
        return all;
    }
}
